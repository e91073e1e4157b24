import { spokenError } from '../i18n/spoken-error.js';
import { catalogue } from '../../checks/index.js';
import { usageError } from '../errors.js';
import { builtinProfileNames, parentOf } from '../core/profile.js';
import { effectiveLevel } from '../core/runner.js';
import { CATEGORY_IDS } from '../core/ids/categories.js';
import { describeCheck, textFor } from '../i18n/index.js';
import { visibleWidth } from '../report/wrap.js';
import { exitCodeFor } from '../core/verdict.js';
import { HOST_REPORT_MODE, writeOutputFile } from '../host/output.js';
import { qprepInvocation } from '../host/invocation.js';
import { RecordingHost } from '../host/snapshot.js';
import type { HumanOptions } from '../report/human.js';
import { formatErrorReport, formatReport, missingSuffix, outputFileMode } from '../report/formats.js';
import { reportSchema } from '../report/schema.js';
import { VERSION } from '../version.js';
import { closest } from '../util/suggest.js';
import { terminalWidth, useColor } from './color.js';
import { toCheckOptions } from './check-options.js';
import type { CommandOptions } from './cli-options.js';
import { describeFailure, errorDocument } from '../report/error-document.js';
import { watchInterruption, type Interruption } from './interrupt.js';
import { createProgress } from './progress.js';
import { claimDocument, describeRun, releaseDocument, writeRunDocument } from './signals.js';
import { DEPTH_BUDGETS } from '../core/depth.js';
import { DEPTHS, runsAt, type Depth } from '../core/ids/depths.js';
import { depthOf } from '../core/select.js';
import { describeCost } from '../report/check-cost.js';
import { loadProfile, openHost, performCheck, profileFor, runSettingsRecord, type HostOptions } from './session.js';
import { escapeControls } from '../util/text.js';

type CheckCliOptions = CommandOptions<'check'>;

// in its own module so that commands which need no check (aggregate) do not load the catalogue
export { useColor };

/**
 * A hung probe must not survive qprep: on SIGINT, SIGTERM or SIGHUP the commands without a
 * partial result to give (facts, tune, rollback, env, aggregate) end through the handler main()
 * installed first, which kills every command group and prints the command's error document,
 * exit code 2. This adds what the operator does next to its message. check and snapshot use
 * watchInterruption instead.
 */
export function adviseOnInterruption(advice: string): void {
  describeRun({ advice });
}

/** The run's one document: to the --output file (atomically) or standard output. */
async function emit(text: string, options: { output?: string | undefined; format?: string | undefined }): Promise<void> {
  if (!claimDocument()) return;
  if (options.output) {
    await writeOutputFile(options.output, text, outputFileMode(options.format ?? 'human')).catch((error: unknown) => {
      releaseDocument();
      throw error;
    });
    process.stderr.write(`qprep: wrote ${options.output}\n`);
  } else {
    process.stdout.write(text);
  }
}

/** How the human report looks here: colors, width, how much of it, and how qprep is started. */
function humanOptions(options: CheckCliOptions): HumanOptions {
  const human: HumanOptions = { color: useColor(options), detail: options.quiet ? 'verdict' : options.verbose ? 'all' : 'problems', invocation: qprepInvocation() };
  const width = terminalWidth(options);
  if (width !== undefined) human.width = width;
  return human;
}

export async function runCheckCommand(options: CheckCliOptions): Promise<number> {
  const interruption = watchInterruption();
  try {
    return await checkAndEmit(options, interruption);
  } catch (caught) {
    // a signal before the checks ran (while the profile or the cluster file was read) leaves nothing to report
    const signal = interruption.received;
    const error = signal ? spokenError('interrupted', (t) => t.usage.interruptedBeforeChecks({ signal })) : caught;
    await replaceOutputWithFailure(error, { output: options.output, command: 'check', format: options.format ?? 'human', lang: options.lang ?? 'en' });
    throw error;
  }
}

/**
 * On exit code 2 with a machine format, the --output file gets the error document too: a
 * report fetched by Ansible, a .prom file read by node_exporter or a snapshot kept for support
 * must not go on saying what an earlier run found. When the output itself cannot be written
 * there is nothing to do.
 */
async function replaceOutputWithFailure(error: unknown, run: { output: string | undefined; command: 'check' | 'snapshot'; format: string; lang: string }): Promise<void> {
  if (!run.output) return;
  const { code, message } = describeFailure(error, run.lang);
  const document = formatErrorReport(errorDocument(code, message, run.command), run.format, new Date());
  if (document === undefined || code === 'output') return;
  try {
    await writeOutputFile(run.output, document, outputFileMode(run.format));
  } catch {
    // the failure being reported already says what went wrong; this one would only repeat it
  }
}

async function checkAndEmit(options: CheckCliOptions, interruption: Interruption): Promise<number> {
  if (options.verbose && options.quiet) throw spokenError('usage', (t) => t.usage.verboseQuiet);
  const checkOptions = toCheckOptions(options);
  const handle = await openHost(checkOptions);
  const loaded = await profileFor(checkOptions.profile, handle, checkOptions.lang);
  const progress = createProgress(process.stderr);
  const run = await performCheck(handle, loaded, checkOptions, {
    onStart: (total) => progress.start(total),
    onCheckDone: (result, done, total) => progress.update(done, total, result.id),
    interrupted: interruption.signal,
    onSettled: () => interruption.settle('report'),
  });
  progress.stop();
  const { report } = run;
  // The contract is checked on the way out: a report that does not match its schema is a bug.
  const valid = reportSchema.safeParse(report);
  if (!valid.success) throw new Error(`report does not match its schema: ${valid.error.issues[0]?.message ?? ''}`);
  const text = formatReport(report, options.format ?? 'human', humanOptions(options));
  const unseen = options.output ? missingSuffix(options.format ?? 'human', options.output) : undefined;
  if (unseen) process.stderr.write(`qprep: note: ${textFor(options.lang ?? 'en').errors.outputSuffix(unseen)}\n`);
  await emit(text, options);
  if (report.error?.code === 'nothing-assessed') {
    process.stderr.write(`qprep: error: ${report.error.message}\n`);
    return 2;
  }
  if (report.error) {
    process.stderr.write(`qprep: error: ${escapeControls(report.error.message)}; the partial report says which checks finished\n`);
    return 2;
  }
  return exitCodeFor(report.ready);
}

export async function runSnapshotCommand(options: CommandOptions<'snapshot'>): Promise<number> {
  const interruption = watchInterruption();
  try {
    return await recordSnapshot(options, interruption);
  } catch (caught) {
    // as check -o: an old snapshot must not pass for the record of this run
    const signal = interruption.received;
    const error = signal ? spokenError('interrupted', (t) => t.usage.interruptedBeforeRecording({ signal })) : caught;
    await replaceOutputWithFailure(error, { output: options.output, command: 'snapshot', format: 'json', lang: options.lang ?? 'en' });
    throw error;
  }
}

async function recordSnapshot(options: CommandOptions<'snapshot'>, interruption: Interruption): Promise<number> {
  const checkOptions = toCheckOptions(options);
  const handle = await openHost(checkOptions);
  const loaded = await profileFor(checkOptions.profile, handle, checkOptions.lang);
  const recorder = new RecordingHost(handle.host);
  const progress = createProgress(process.stderr);
  const run = await performCheck({ host: recorder, source: handle.source }, loaded, checkOptions, {
    onStart: (total) => progress.start(total),
    onCheckDone: (result, done, total) => progress.update(done, total, result.id),
    interrupted: interruption.signal,
    onSettled: () => interruption.settle('snapshot'),
  });
  // Interfaces are always kept: replaying a snapshot with --cluster needs them.
  if (!run.report.interrupted) await recorder.interfaces();
  progress.stop();
  const recorded = {
    ...(await recorder.toSnapshot({ name: 'qprep', version: VERSION })),
    report: run.report,
    ...runSettingsRecord(loaded, run.ctx.cluster, checkOptions.node, checkOptions.depth),
  };
  if (run.ctx.launch) {
    const launchers = (run.ctx.launch.launchers ?? []).map((l) => ({ file: l.file, text: run.redactor.script(l.text) }));
    recorded.launch = { file: run.ctx.launch.file, text: run.redactor.script(run.ctx.launch.text), ...(launchers.length > 0 ? { launchers } : {}) };
  }
  // what the tools printed, the files held and the recorded settings go through the same policy as the report
  const snapshot = run.redactor.deep(recorded);
  const text = `${JSON.stringify(snapshot, null, 1)}\n`;
  // one document per run, to -o as to standard output (-o -): an interruption's, written in its
  // place already, is not overwritten by the snapshot its run went on to make
  if (!claimDocument()) return 2;
  if (options.output) {
    await writeOutputFile(options.output, text, HOST_REPORT_MODE).catch((error: unknown) => {
      releaseDocument();
      throw error;
    });
  } else process.stdout.write(text);
  const { summary } = run.report;
  process.stderr.write(
    `qprep: snapshot written to ${options.output ?? 'standard output'}: ${snapshot.commands.length} commands, ` +
      `${Object.keys(snapshot.files).length} files, ${run.results.length} checks ` +
      `(${summary.pass} pass, ${summary.warn} warn, ${summary.fail} fail, ${summary.skip} skip, ${summary.error} error)\n`,
  );
  if (run.report.error) {
    // what was recorded up to the signal is kept: it shows support where the host hung
    process.stderr.write(`qprep: error: ${escapeControls(run.report.error.message)}; the snapshot holds what was recorded until then\n`);
    return 2;
  }
  return 0;
}

export async function runListCommand(options: CommandOptions<'list'>): Promise<number> {
  if (options.profiles) return listProfiles(options);
  const loaded = await loadProfile(options.profile, options.lang);
  const text = textFor(options.lang ?? 'en');
  const words = text.commands.list;
  const rows = catalogue.map((check) => ({
    id: check.id,
    level: effectiveLevel(check, loaded.profile),
    depth: depthOf(check),
    category: check.category,
    title: describeCheck(check.id, text).title,
    cost: describeCost(check.cost, words.cost, text.report.clauseSeparator),
  }));
  if (options.format === 'json') {
    writeRunDocument(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  // the category column gives the key --only and --skip take, not the heading of the report
  const idWidth = Math.max(...rows.map((r) => r.id.length));
  const categoryWidth = Math.max(...CATEGORY_IDS.map((c) => c.length));
  const depthWidth = Math.max(...DEPTHS.map((d) => d.length));
  // the level, depth and category columns give the values --only, --skip, --depth and profiles take: never translated
  const pad = (word: string, width: number) => word + ' '.repeat(Math.max(0, width - visibleWidth(word)));
  const lines = rows.map((r) => `${r.id.padEnd(idWidth)}  ${r.level.padEnd(11)}  ${r.depth.padEnd(depthWidth)}  ${r.category.padEnd(categoryWidth)}  ${r.title}${r.cost ? ` [${r.cost}]` : ''}`);
  const columns = words.columns;
  const categories = CATEGORY_IDS.map((key) => words.category({ key, heading: text.report.categories[key] })).join(text.report.list.separator);
  const count = (depth: Depth) => rows.filter((r) => runsAt(depth, r.depth)).length;
  writeRunDocument(
    `${pad(columns.id, idWidth)}  ${pad(columns.level, 11)}  ${pad(columns.depth, depthWidth)}  ${pad(columns.category, categoryWidth)}  ${columns.title}\n${lines.join('\n')}\n\n` +
      `${words.selectors({ categories })}\n${words.depths({ quick: count('quick'), standard: count('standard'), deep: count('deep'), waitSeconds: DEPTH_BUDGETS.deep.waitMs / 1000 })}\n`,
  );
  return 0;
}

/** `qprep list --profiles`: every built-in profile, or with --profile the one given (a file resolved over its base). */
async function listProfiles(options: CommandOptions<'list'>): Promise<number> {
  const { profileSummary, formatProfilesHuman } = await import('../report/profiles.js');
  const names = options.profile !== undefined ? [options.profile] : builtinProfileNames();
  const summaries = [];
  for (const name of names) {
    const loaded = await loadProfile(name, options.lang);
    summaries.push(profileSummary(loaded, parentOf(loaded)));
  }
  const text = options.format === 'json' ? `${JSON.stringify(summaries, null, 2)}\n` : formatProfilesHuman(summaries);
  writeRunDocument(text);
  return 0;
}

function wrap(text: string, width = 96, indent = '  '): string {
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join('\n');
}

/**
 * `qprep explain model.fit --launch SCRIPT` (or on a snapshot that recorded its script): the
 * check runs on this host alone and its plan is printed, one row per figure with its source.
 */
async function explainPlan(options: CommandOptions<'explain'>): Promise<number> {
  const { formatFitPlan } = await import('../report/fit-plan.js');
  const { modelFitEvidenceSchema } = await import('../report/schema.js');
  const hostOptions: HostOptions = {};
  if (options.profile !== undefined) hostOptions.profile = options.profile;
  if (options.root !== undefined) hostOptions.root = options.root;
  if (options.snapshot !== undefined) hostOptions.snapshot = options.snapshot;
  if (options.timeout !== undefined) hostOptions.timeoutMs = options.timeout;
  const handle = await openHost(hostOptions);
  const loaded = await profileFor(options.profile, handle, options.lang);
  const run = await performCheck(handle, loaded, { ...hostOptions, only: ['model.fit'], launch: options.launch, lang: options.lang });
  const result = run.report.checks.find((c) => c.id === 'model.fit')!;
  const parsed = modelFitEvidenceSchema.safeParse(result.evidence);
  if (options.format === 'json') {
    writeRunDocument(`${JSON.stringify({ id: result.id, status: result.status, message: result.message, remediation: result.remediation ?? null, evidence: result.evidence }, null, 2)}\n`);
    return exitCodeFor(run.report.ready);
  }
  const words = textFor(options.lang ?? 'en').commands.explain.plan;
  // a skip or an error has no plan: its message and fix say why
  const text = parsed.success ? formatFitPlan(parsed.data, result, words) : `${result.status}: ${result.message}\n`;
  writeRunDocument(result.remediation && result.status !== 'pass' ? `${text}${result.remediation.split('\n').map((l) => `  ${l}`).join('\n')}\n` : text);
  return exitCodeFor(run.report.ready);
}

/** `qprep explain RULE`: a rule of knowledge/, as a person reads it or (-f json) as its table holds it. */
async function explainRule(id: string, options: CommandOptions<'explain'>): Promise<number | undefined> {
  const { findRule, formatRule } = await import('../report/rule.js');
  const found = findRule(id);
  if (!found) return undefined;
  if (options.format === 'json') writeRunDocument(`${JSON.stringify({ file: found.file, ...found.rule }, null, 2)}\n`);
  else writeRunDocument(formatRule(found, textFor(options.lang ?? 'en')));
  return 0;
}

export async function runExplainCommand(id: string, options: CommandOptions<'explain'>): Promise<number> {
  const check = catalogue.find((c) => c.id === id);
  const host = options.launch.length > 0 || options.snapshot !== undefined || options.root !== undefined;
  if (!check) {
    const { explainFaultCode, looksLikeFaultCode } = await import('./explain-code.js');
    if (looksLikeFaultCode(id)) {
      if (host) throw usageError(textFor(options.lang ?? 'en').commands.explain.plan.onlyFit({ id }));
      return explainFaultCode(id, options);
    }
    const { ruleIds } = await import('../report/rule.js');
    if (host && ruleIds().includes(id)) throw usageError(textFor(options.lang ?? 'en').commands.explain.plan.onlyFit({ id }));
    const explained = await explainRule(id, options);
    if (explained !== undefined) return explained;
    const errors = textFor(options.lang ?? 'en').errors;
    const match = closest(id, [...catalogue.map((c) => c.id), ...ruleIds()]);
    throw usageError(`${errors.unknownExplainable({ id })}\n${match !== undefined ? errors.didYouMean({ name: match }) : errors.listShowsIdsAndRules}`);
  }
  if (host && id !== 'model.fit') throw usageError(textFor(options.lang ?? 'en').commands.explain.plan.onlyFit({ id }));
  if (host) return explainPlan(options);
  const loaded = await loadProfile(undefined);
  const level = effectiveLevel(check, loaded.profile);
  const text = textFor(options.lang ?? 'en');
  const { title, why, reads, fix } = describeCheck(check.id, text);
  if (options.format === 'json') {
    writeRunDocument(`${JSON.stringify({ id: check.id, title, category: check.category, level, why, reads, fix }, null, 2)}\n`);
    return 0;
  }
  const words = text.commands.explain;
  const paragraph = (words_: string) => (words.wrapParagraphs ? wrap(words_) : `  ${words_}`);
  writeRunDocument(
    [
      words.heading({ id: check.id, title }),
      words.category({ category: text.report.categories[check.category], level: text.report.levels[level], required: level === 'required' }),
      '',
      words.why,
      paragraph(why),
      '',
      words.reads,
      ...reads.map((r) => `  ${r}`),
      '',
      words.fix,
      paragraph(fix),
      '',
    ].join('\n'),
  );
  return 0;
}

export async function runSchemaCommand(name: string): Promise<number> {
  // loaded here: a check does not need the aggregate, tune and env schemas before its first command
  const { schemaDocument, schemaNames } = await import('./schemas.js');
  if (!schemaNames().includes(name)) {
    const match = closest(name, schemaNames());
    throw spokenError('usage', (t) => `${t.usage.unknownDocument({ name })}\n${match !== undefined ? t.didYouMean({ name: match }) : t.usage.theSchemas({ names: schemaNames().join(', ') })}`);
  }
  writeRunDocument(`${JSON.stringify(schemaDocument(name), null, 2)}\n`);
  return 0;
}

export async function runFactsCommand(
  options: CommandOptions<'facts'>,
): Promise<number> {
  const { gatherFacts } = await import('./facts.js');
  const hostOptions: Parameters<typeof gatherFacts>[0] = {};
  if (options.profile !== undefined) hostOptions.profile = options.profile;
  if (options.root !== undefined) hostOptions.root = options.root;
  if (options.snapshot !== undefined) hostOptions.snapshot = options.snapshot;
  if (options.timeout !== undefined) hostOptions.timeoutMs = options.timeout;
  if (options.includeSerial) hostOptions.includeSerial = true;
  if (options.includeMac) hostOptions.includeMac = true;
  if (options.lang !== undefined) hostOptions.lang = options.lang;
  const facts = await gatherFacts(hostOptions);
  await emit(`${JSON.stringify(facts, null, 2)}\n`, options);
  return 0;
}
