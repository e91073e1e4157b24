import { spokenError } from '../i18n/spoken-error.js';
import { hintsOf } from '../report/error-document.js';
import { writeHints } from './failure.js';
import { catalogue } from '../../checks/index.js';
import { QprepError, type ErrorCode } from '../errors.js';
import { selectChecks } from '../core/select.js';
import { rollback, tune, type RollbackResult, type TuneDeps, type TuneResult } from '../core/tune/engine.js';
import type { Check, CheckResult } from '../core/types.js';
import { qprepInvocation } from '../host/invocation.js';
import { currentProcess, isProcessRunning } from '../host/process.js';
import { commandLine } from '../host/command-line.js';
import { formatRollbackHuman, formatTuneHuman } from '../report/tune.js';
import {
  rollbackDocumentSchema,
  tuneDocumentSchema,
  type RollbackDocument,
  type TuneDocument,
} from '../report/tune-schema.js';
import { VERSION } from '../version.js';
import { adviseOnInterruption, useColor } from './commands.js';
import { DEFAULT_TIMEOUT_MS, describeHost, openHost, profileFor, type HostHandle } from './session.js';
import { claimDocument, writeRunDocument } from './signals.js';
import { escapeControls } from '../util/text.js';
import { textFor } from '../i18n/index.js';
import type { CommandOptions } from './cli-options.js';

export type TuneCliOptions = CommandOptions<'tune'>;
export type RollbackCliOptions = CommandOptions<'rollback'>;

function processDeps(): TuneDeps {
  return { self: currentProcess(), isRunning: isProcessRunning, now: () => new Date() };
}

/** How this run was invoked, for the journal and the lock: `qprep tune --persist`. */
function invocation(): string {
  return `qprep ${commandLine(process.argv.slice(2))}`;
}

/** The --only and --skip of the run as typed, undefined without them (the profile's skip list left nothing). */
function selectionWords(options: TuneCliOptions): string | undefined {
  const words = [...(options.only ?? []).map((v) => `--only ${v}`), ...(options.skip ?? []).map((v) => `--skip ${v}`)];
  return words.length > 0 ? words.join(' ') : undefined;
}

function split(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
}

/** The checks tune can act on: those that plan, selected by --only/--skip and the profile's skip list. */
export function tunableChecks(only: string[], skip: string[], profileSkip: readonly string[]): Check[] {
  const tunable = catalogue.filter((check) => check.plan !== undefined);
  const selected = selectChecks(tunable, { only, skip });
  const keptByProfile = new Set(selectChecks(catalogue, { only: [], skip: [...profileSkip] }).map((c) => c.id));
  return selected.filter((check) => keptByProfile.has(check.id));
}

function brief(result: CheckResult): TuneDocument['verify'][number] {
  const out: TuneDocument['verify'][number] = { id: result.id, status: result.status, message: result.message };
  if (result.remediation !== undefined && result.status !== 'pass') out.remediation = result.remediation;
  return out;
}

function shownValue(kind: string, value: string | null): string | null {
  return value === null || kind === 'file' ? value : value.trim();
}

export function tuneDocument(result: TuneResult, meta: Pick<TuneDocument, 'host' | 'source' | 'profile' | 'startedAt' | 'durationMs' | 'dryRun' | 'persist'>): TuneDocument {
  return {
    schemaVersion: 1,
    tool: { name: 'qprep', version: VERSION },
    command: 'tune',
    ...meta,
    outcome: result.outcome,
    changed: result.changed,
    changes: result.changes.map((report) => {
      const change = report.change;
      const after = change.kind === 'file' ? change.content : change.value;
      const entry: TuneDocument['changes'][number] = {
        origin: report.origin,
        kind: change.kind,
        target: change.kind === 'sysctl' ? change.key : change.path,
        path: change.path,
        before: shownValue(change.kind, report.before),
        after,
        status: report.status,
      };
      if (report.error !== undefined) entry.error = report.error;
      return entry;
    }),
    journal: result.journal,
    conflicts: result.conflicts,
    verify: result.verified.map(brief),
    remaining: result.remaining.map(brief),
    unfinished: result.unfinished,
    notes: result.notes,
  };
}

export function rollbackDocument(result: RollbackResult, meta: Pick<RollbackDocument, 'host' | 'source' | 'startedAt' | 'durationMs' | 'dryRun'>): RollbackDocument {
  return {
    schemaVersion: 1,
    tool: { name: 'qprep', version: VERSION },
    command: 'rollback',
    ...meta,
    outcome: result.outcome,
    changed: result.changed,
    restores: result.restores.map((restore) => ({
      ...restore,
      current: shownValue(restore.kind, restore.current),
      before: shownValue(restore.kind, restore.before),
    })),
    journal: result.journal,
    notes: result.notes,
  };
}

/** Exit 2 of tune/rollback: one line on stderr; with --format json the command's document with `error`. */
function failure(command: 'tune' | 'rollback', error: unknown, format: string | undefined, lang: string): 2 {
  const code: ErrorCode = error instanceof QprepError ? error.code : 'internal';
  const raw = error instanceof QprepError ? error.wordsIn(lang).message : error instanceof Error ? error.message : String(error);
  const message = (code === 'internal' ? `internal error: ${raw}` : raw).split('\n')[0] ?? '';
  if (code === 'internal' && process.env.QPREP_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.stderr.write(`qprep: error: ${escapeControls(message)}\n`);
  writeHints(hintsOf(error, lang));
  if (!claimDocument()) return 2;
  if (format === 'json') {
    // an interrupted run may have written something before the signal: whether it did is the
    // journal's to say, so `changed` is left out rather than claimed false
    const changed = code === 'interrupted' ? {} : { changed: false };
    const document = { schemaVersion: 1, tool: { name: 'qprep', version: VERSION }, command, ...changed, error: { code, message } };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }
  return 2;
}

function checkContract<T>(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ message: string; path: PropertyKey[] }> } } }, document: T): T {
  const valid = schema.safeParse(document);
  if (!valid.success) {
    const issue = valid.error?.issues[0];
    throw new Error(`document does not match its schema: ${issue ? `${issue.path.join('.')}: ${issue.message}` : ''}`);
  }
  return document;
}

async function openWritableHost(options: Pick<CommandOptions<'tune'>, 'snapshot' | 'dryRun' | 'timeout' | 'root'>, what: string): Promise<HostHandle> {
  if (options.snapshot && !options.dryRun) {
    throw spokenError('usage', (t) => t.usage.snapshotReadOnly({ command: what }));
  }
  const hostOptions: Parameters<typeof openHost>[0] = { timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS };
  if (options.root !== undefined) hostOptions.root = options.root;
  if (options.snapshot !== undefined) hostOptions.snapshot = options.snapshot;
  return openHost(hostOptions);
}

export async function runTuneCommand(options: TuneCliOptions): Promise<number> {
  // the journal holds every old value before the first write; tune refuses an unfinished one
  if (!options.dryRun) adviseOnInterruption(textFor(options.lang ?? 'en').commands.tune.interruptedAdvice);
  const startedAt = new Date();
  const startedMs = performance.now();
  try {
    const only = split(options.only);
    if ((options.only ?? []).length > 0 && only.length === 0) throw spokenError('usage', (t) => t.usage.onlyEmpty);
    const handle = await openWritableHost(options, 'tune');
    const loaded = await profileFor(options.profile, handle, options.lang);
    const checks = tunableChecks(only, split(options.skip), loaded.profile.skip);
    if (checks.length === 0) throw spokenError('usage', (t) => t.usage.noTunableCheck({ selection: selectionWords(options) ?? t.usage.theProfileSkipList }));
    const result = await tune(
      handle.host,
      loaded,
      checks,
      {
        dryRun: options.dryRun ?? false,
        persist: options.persist ?? false,
        force: options.force ?? false,
        timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS,
        command: invocation(),
        toolVersion: VERSION,
        lang: options.lang ?? 'en',
      },
      processDeps(),
    );
    const document = checkContract(
      tuneDocumentSchema,
      tuneDocument(result, {
        host: await describeHost(result.context),
        source: handle.source,
        profile: { name: loaded.profile.name, source: loaded.source },
        startedAt: startedAt.toISOString(),
        durationMs: Math.round(performance.now() - startedMs),
        dryRun: options.dryRun ?? false,
        persist: options.persist ?? false,
      }),
    );
    // a signal that came first has printed the interrupted document: this one is not printed
    if (!writeRunDocument(options.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : formatTuneHuman(document, { color: useColor(options), text: textFor(options.lang ?? 'en'), invocation: qprepInvocation() }))) return 2;
    return ['planned', 'unchanged', 'applied'].includes(result.outcome) ? 0 : 1;
  } catch (error) {
    return failure('tune', error, options.format, options.lang ?? 'en');
  }
}

export async function runRollbackCommand(options: RollbackCliOptions): Promise<number> {
  if (!options.dryRun) adviseOnInterruption(textFor(options.lang ?? 'en').commands.rollback.interruptedAdvice);
  const startedAt = new Date();
  const startedMs = performance.now();
  try {
    const handle = await openWritableHost(options, 'rollback');
    const loaded = await profileFor(undefined, handle);
    const result = await rollback(
      handle.host,
      loaded,
      { dryRun: options.dryRun ?? false, force: options.force ?? false, timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS, command: invocation(), lang: options.lang ?? 'en' },
      processDeps(),
    );
    const document = checkContract(
      rollbackDocumentSchema,
      rollbackDocument(result, {
        host: await describeHost(result.context),
        source: handle.source,
        startedAt: startedAt.toISOString(),
        durationMs: Math.round(performance.now() - startedMs),
        dryRun: options.dryRun ?? false,
      }),
    );
    if (!writeRunDocument(options.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : formatRollbackHuman(document, { color: useColor(options), text: textFor(options.lang ?? 'en') }))) return 2;
    return result.outcome === 'incomplete' ? 1 : 0;
  } catch (error) {
    return failure('rollback', error, options.format, options.lang ?? 'en');
  }
}
