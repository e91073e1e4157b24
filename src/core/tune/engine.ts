import { randomUUID } from 'node:crypto';
import type { ProcessIdentity } from '../../host/process.js';
import { describeProbeError, type Host } from '../../host/types.js';
import { sameKernelValue, type Change } from '../change.js';
import { QprepError } from '../../errors.js';
import type { LoadedProfile, Profile } from '../profile.js';
import { createContext, runChecks, type RunOptions } from '../runner.js';
import { DEFAULT_TOOL_LIMITS, LimitedHost } from '../../host/limited.js';
import type { Check, CheckContext, CheckResult, Outcome } from '../types.js';
import type { Lang } from '../../i18n/lang.js';
import { allowListFor, type AllowList } from './allow-list.js';
import { findConflicts, type Conflict } from './conflicts.js';
import {
  activeRuns,
  entryFor,
  JOURNAL_PATH,
  newJournal,
  readJournal,
  restoringChange,
  retireJournal,
  unfinishedRuns,
  writeJournal,
  type Journal,
  type JournalEntry,
  type JournalRead,
  type JournalRun,
} from './journal.js';
import { profileKnobs, type Knob } from './knobs.js';
import { acquireLock, type HeldLock } from './lock.js';
import { planPersistence } from './persist.js';
import { symlinkRefusal } from './links.js';

/** What the engine needs from the process around it; injected so tests can play a crash or a rival. */
export interface TuneDeps {
  self: ProcessIdentity;
  isRunning(identity: ProcessIdentity): boolean;
  now(): Date;
}

export interface TuneOptions {
  dryRun: boolean;
  persist: boolean;
  /** tune even inside a container */
  force: boolean;
  timeoutMs: number;
  /** how qprep was invoked, for the journal and the lock */
  command: string;
  /** qprep's version, recorded in the journal */
  toolVersion: string;
  /** the language of the notes, conflicts and check messages; English when not given */
  lang?: Lang;
}

export type ChangeStatus = 'planned' | 'unchanged' | 'applied' | 'failed' | 'reverted' | 'revert-failed' | 'refused' | 'skipped';

export interface ChangeReport {
  /** the check whose plan asked for it, or "persist" */
  origin: string;
  change: Change;
  /** what was there before (raw); null: not read, or a file that did not exist */
  before: string | null;
  beforeMode?: number;
  status: ChangeStatus;
  error?: string;
}

/**
 * planned: a dry run. unchanged: nothing to do. applied: changed and verified. refused: nothing
 * was written (a change not allowed, or whose old value cannot be read). rolled-back: a write
 * or the verification failed and every change was undone. revert-failed: and undoing failed too.
 */
export type TuneOutcome = 'planned' | 'unchanged' | 'applied' | 'refused' | 'rolled-back' | 'revert-failed';

export interface UnfinishedRunInfo {
  runId: string;
  command: string;
  startedAt: string;
  state: string;
  changes: number;
}

export interface TuneResult {
  outcome: TuneOutcome;
  /** Ansible's convention: the host is not as it was (with --dry-run: it would not be) */
  changed: boolean;
  changes: ChangeReport[];
  /** the journal holding the old values, when this run wrote one */
  journal: string | null;
  conflicts: Conflict[];
  /** checks that do not pass and that tune did not fix: no plan, waived, skipped, could not be assessed */
  remaining: CheckResult[];
  /** the checks as they were before */
  assessed: CheckResult[];
  /** the checks re-run after the writes (empty when nothing was written) */
  verified: CheckResult[];
  notes: string[];
  /** a journal of an earlier run that did not finish (reported by dry runs; a real run refuses) */
  unfinished: UnfinishedRunInfo[];
  /** the context the checks ran in, for the report header */
  context: CheckContext;
}

export function rollbackHint(host: Host): string {
  return `qprep rollback${host.root === '/' ? '' : ` --root ${host.root}`}`;
}

function unfinishedInfo(journal: Journal): UnfinishedRunInfo[] {
  return unfinishedRuns(journal).map((run) => ({
    runId: run.runId,
    command: run.command,
    startedAt: run.startedAt,
    state: run.state,
    changes: run.entries.length,
  }));
}

function runOptions(options: { timeoutMs: number }, deps: TuneDeps): RunOptions {
  return { concurrency: 8, commandConcurrency: 8, toolLimits: DEFAULT_TOOL_LIMITS, timeoutMs: options.timeoutMs, ignore: new Set(), now: deps.now };
}

function assess(host: Host, loaded: LoadedProfile, checks: readonly Check[], options: { timeoutMs: number; lang?: Lang | undefined }, deps: TuneDeps) {
  const context = createContext({ host: new LimitedHost(host, 8, DEFAULT_TOOL_LIMITS), profile: loaded.profile, timeoutMs: options.timeoutMs, now: deps.now, lang: options.lang ?? 'en' });
  return { context, results: runChecks(checks, context, runOptions(options, deps)) };
}

/**
 * Checks the profile waives (until their expiry date): the deviation is accepted on purpose,
 * so tune leaves it alone, whatever level the check has.
 */
function waivedIds(profile: Profile, now: Date): Set<string> {
  const today = now.toISOString().slice(0, 10);
  return new Set(profile.waivers.filter((w) => !w.expires || w.expires >= today).map((w) => w.id));
}

function outcomeOf(result: CheckResult): Outcome {
  const outcome: Outcome = { status: result.status, message: result.message, evidence: result.evidence };
  if (result.expected !== undefined) outcome.expected = result.expected;
  if (result.actual !== undefined) outcome.actual = result.actual;
  if (result.remediation !== undefined) outcome.remediation = result.remediation;
  return outcome;
}

async function refuseInContainer(context: CheckContext, force: boolean, command: string): Promise<void> {
  if (force) return;
  const container = await context.container();
  if (!container.inContainer) return;
  throw new QprepError(
    'refused',
    `${command} runs inside a container (${container.runtime ?? 'container'}: ${container.evidence.join('; ')}): ` +
      'these settings belong to the host OS. Run it on the host, or mount the host\'s / and pass --root ' +
      `(docker run --privileged -v /:/host ... qprep ${command.replace(/^qprep /, '')} --root /host), or add --force`,
  );
}

/** Why a write failed, in one line: "/proc/sys/vm/swappiness: read-only file system". */
function describeWriteError(path: string, probe: { code: string; message: string }): string {
  switch (probe.code) {
    case 'EREADONLY':
      return `${path}: read-only file system`;
    case 'EACCES':
    case 'EPERM':
      return `${path}: permission denied (tune and rollback need root)`;
    case 'ENOENT':
      return `${path}: no such file or directory`;
    default:
      // Node appends the syscall and the path ("EINVAL: invalid argument, write"); the path is said once
      return `${path}: ${probe.message.replace(/, (open|write|rename|unlink) '[^']*'$/, '')}`;
  }
}

/** Writes one change (or puts an old value back); undefined when it worked, else why not. */
async function writeChange(host: Host, change: Change | { kind: 'remove'; path: string }): Promise<string | undefined> {
  switch (change.kind) {
    case 'sysctl':
    case 'sysfs': {
      // sysfs and procfs take "value\n" as echo writes it; an old value read back already ends with one
      const text = change.value.endsWith('\n') ? change.value : `${change.value}\n`;
      const written = await host.writeFile(change.path, text, { how: 'existing' });
      return written.ok ? undefined : describeWriteError(change.path, written);
    }
    case 'file': {
      const written = await host.writeFile(change.path, change.content, { how: 'atomic', mode: change.mode });
      return written.ok ? undefined : describeWriteError(change.path, written);
    }
    case 'remove': {
      const removed = await host.removeFile(change.path);
      return removed.ok || removed.code === 'ENOENT' ? undefined : describeWriteError(change.path, removed);
    }
  }
}

/** What is there now: the raw value, null for an absent file, or why it cannot be read. */
async function readCurrent(host: Host, kind: Change['kind'], path: string): Promise<{ value: string | null } | { problem: string; missing: boolean }> {
  const read = await host.readFile(path);
  if (read.ok) return { value: read.value };
  if (read.code === 'ENOENT' && kind === 'file') return { value: null };
  return { problem: describeProbeError(path, read), missing: read.code === 'ENOENT' };
}

function sameContent(kind: Change['kind'], a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return kind === 'file' ? a === b : sameKernelValue(a, b);
}

/** Reads the old value of a planned change; a change that is not allowed or whose old value cannot be read is refused. */
async function readBefore(host: Host, origin: string, change: Change, allow: AllowList): Promise<ChangeReport> {
  const refusal = allow.refuse(change);
  if (refusal) return { origin, change, before: null, status: 'refused', error: `not allowed: ${refusal}` };
  // a tunable in /sys is reached through links by design; a whole file qprep replaces is not
  const link = change.kind === 'file' ? await symlinkRefusal(host, change.path) : undefined;
  if (link) return { origin, change, before: null, status: 'refused', error: link };
  const current = await readCurrent(host, change.kind, change.path);
  if ('problem' in current) return { origin, change, before: null, status: 'refused', error: `the old value cannot be read, so it could not be restored: ${current.problem}` };
  const report: ChangeReport = { origin, change, before: current.value, status: 'planned' };
  if (change.kind === 'file' && current.value !== null) {
    const stat = await host.stat(change.path);
    if (stat.ok) report.beforeMode = stat.value.mode & 0o7777;
  }
  const after = change.kind === 'file' ? change.content : change.value;
  if (sameContent(change.kind, current.value, after)) report.status = 'unchanged';
  return report;
}

/**
 * Puts the old values back, last change first; each restore is read back. A change whose write
 * failed is restored too when it reads differently from before (a timed-out write may still
 * have landed); one that reads as before needed nothing.
 */
async function revertEntries(host: Host, reports: ChangeReport[], entries: JournalEntry[]): Promise<boolean> {
  let allReverted = true;
  for (let i = reports.length - 1; i >= 0; i--) {
    const report = reports[i]!;
    const entry = entries[i]!;
    if (report.status !== 'applied' && report.status !== 'failed') continue;
    const current = await readCurrent(host, entry.kind, entry.path);
    const untouched = !('problem' in current) && sameContent(entry.kind, current.value, entry.before);
    const problem = untouched ? undefined : ((await writeChange(host, restoringChange(entry))) ?? (await confirm(host, entry.kind, entry.path, entry.before)));
    if (problem) {
      allReverted = false;
      report.status = entry.status = 'revert-failed';
      report.error = entry.error = report.error ? `${report.error}; then restoring failed: ${problem}` : `restoring failed: ${problem}`;
    } else if (report.status === 'applied' || !untouched) {
      report.status = entry.status = 'reverted';
    }
  }
  return allReverted;
}

/** Reads a path back after a write: undefined when it holds what was written. */
async function confirm(host: Host, kind: Change['kind'], path: string, expected: string | null): Promise<string | undefined> {
  const current = await readCurrent(host, kind, path);
  if ('problem' in current) return expected === null && current.missing ? undefined : current.problem;
  if (sameContent(kind, current.value, expected)) return undefined;
  const shown = (value: string | null) => (value === null ? 'nothing' : JSON.stringify(kind === 'file' ? value.slice(0, 60) : value.trim()));
  return `${path} reads back ${shown(current.value)} after writing ${shown(expected)}`;
}

/** Everything one tune run works with, set up before the first change is planned. */
interface TuneRun {
  host: Host;
  loaded: LoadedProfile;
  checks: readonly Check[];
  options: TuneOptions;
  deps: TuneDeps;
  context: CheckContext;
  t: CheckContext['text']['commands']['tune'];
  notes: string[];
}

interface PlannedChange {
  origin: string;
  change: Change;
}

/** A journal tune may add a run to: refused when it cannot be read or holds a run that did not finish (noted on a dry run). */
async function journalToExtend(run: TuneRun): Promise<{ read: JournalRead; unfinished: UnfinishedRunInfo[] }> {
  const { host, options, notes } = run;
  const read = await readJournal(host);
  if (read.state === 'unreadable' || read.state === 'corrupt') {
    const why = `${read.reason}: tune does not add to a journal it cannot read; move it aside after checking what it says`;
    if (!options.dryRun) throw new QprepError('refused', why);
    notes.push(why);
  }
  const unfinished = read.state === 'present' ? unfinishedInfo(read.journal) : [];
  if (unfinished.length > 0 && !options.dryRun) {
    const earlier = unfinished[0]!;
    throw new QprepError(
      'refused',
      `an earlier "${earlier.command}" (started ${earlier.startedAt}) did not finish: ${earlier.changes} changes in ${JOURNAL_PATH} may be half applied; ` +
        `run "${rollbackHint(host)}" first, then tune again`,
    );
  }
  return { read, unfinished };
}

/** The changes the failing checks plan, and the checks tune leaves as they are (waived, skipped, errors, no plan). */
async function planFromChecks(run: TuneRun, assessed: readonly CheckResult[], waived: ReadonlySet<string>): Promise<{ planned: PlannedChange[]; remaining: CheckResult[] }> {
  const planned: PlannedChange[] = [];
  const remaining: CheckResult[] = [];
  for (const [index, check] of run.checks.entries()) {
    const result = assessed[index]!;
    if (result.status === 'pass') continue;
    // skip: not assessable here (no cpufreq, debugfs not mounted); its remediation says what would make it so
    if (waived.has(check.id) || result.status === 'skip' || result.status === 'error' || !check.plan) {
      remaining.push(result);
      continue;
    }
    const changes = await check.plan(run.context, outcomeOf(result));
    // no plan for a failing check: this host cannot take the value (a governor the driver lacks)
    if (changes.length === 0) remaining.push(result);
    for (const change of changes) planned.push({ origin: check.id, change });
  }
  return { planned, remaining };
}

/** With --persist: the files that keep the knobs this host can take across a reboot (not skipped, assessable, not waived, not unfixable). */
async function planPersistenceFor(run: TuneRun, knobs: Knob[], assessed: readonly CheckResult[], waived: ReadonlySet<string>, remaining: readonly CheckResult[]): Promise<PlannedChange[]> {
  const persistable = knobs.filter((knob) => {
    const result = assessed[run.checks.findIndex((c) => c.id === knob.checkId)];
    return result !== undefined && result.status !== 'skip' && !waived.has(knob.checkId) && !remaining.some((r) => r.id === knob.checkId);
  });
  const persistence = await planPersistence(run.host, persistable, run.t);
  run.notes.push(...persistence.notes);
  return persistence.changes.map((change) => ({ origin: 'persist', change }));
}

/** Every old value reaches the disk, in the journal, before the first write. */
async function journalTheRun(run: TuneRun, read: JournalRead, toApply: readonly ChangeReport[], hostname: string): Promise<{ journal: Journal; journalRun: JournalRun }> {
  const { host, loaded, options, deps } = run;
  const journal = read.state === 'present' ? read.journal : newJournal(hostname, deps.now());
  const journalRun: JournalRun = {
    runId: randomUUID(),
    toolVersion: options.toolVersion,
    profile: `${loaded.profile.name} (${loaded.source})`,
    command: options.command,
    startedAt: deps.now().toISOString(),
    state: 'applying',
    entries: toApply.map((r) => entryFor(r.origin, r.change, r.before, r.beforeMode)),
  };
  journal.runs.push(journalRun);
  const journalProblem = await writeJournal(host, journal, deps.now());
  if (journalProblem) throw new QprepError('refused', `cannot write the journal: ${journalProblem}; nothing was changed`);
  return { journal, journalRun };
}

/** Writes the changes in order and stops at the first that fails; true when one failed. */
async function applyChanges(host: Host, toApply: readonly ChangeReport[], journalRun: JournalRun): Promise<boolean> {
  for (const [index, report] of toApply.entries()) {
    const journalEntry = journalRun.entries[index]!;
    const problem = await writeChange(host, report.change);
    if (problem) {
      report.status = journalEntry.status = 'failed';
      report.error = journalEntry.error = problem;
      return true;
    }
    report.status = journalEntry.status = 'applied';
  }
  return false;
}

/** Verifies as tuned does, by reading every value back, then by the checks themselves; `failed` when either disagrees. */
async function verifyChanges(run: TuneRun, toApply: readonly ChangeReport[], journalRun: JournalRun): Promise<{ verified: CheckResult[]; failed: boolean }> {
  const { host, loaded, checks, options, deps, notes, t } = run;
  let failed = false;
  const readBack = await Promise.all(
    toApply.map((report) => confirm(host, report.change.kind, report.change.path, report.change.kind === 'file' ? report.change.content : report.change.value)),
  );
  for (const [index, report] of toApply.entries()) {
    const problem = readBack[index];
    if (problem) {
      report.status = journalRun.entries[index]!.status = 'failed';
      report.error = journalRun.entries[index]!.error = `verification: ${problem}`;
      failed = true;
    }
  }
  const verified = await assess(host, loaded, checks, options, deps).results;
  const changedChecks = new Set(toApply.map((r) => r.origin));
  for (const result of verified) {
    if (!changedChecks.has(result.id) || result.status === 'pass') continue;
    failed = true;
    notes.push(t.stillFailing({ id: result.id, status: result.status, message: result.message }));
    for (const report of toApply) {
      if (report.origin === result.id && report.status === 'applied') {
        report.status = 'failed';
        report.error = `verification: ${result.id} is still ${result.status}: ${result.message}`;
      }
    }
  }
  return { verified, failed };
}

/** After a failure: every change put back in reverse order; the journal retired when nothing of it is left active. */
async function rollBackRun(run: TuneRun, toApply: ChangeReport[], journal: Journal, journalRun: JournalRun): Promise<{ reverted: boolean; journalPath: string | null }> {
  const { host, deps, notes, t } = run;
  for (const report of toApply) if (report.status === 'planned') report.status = 'skipped';
  const reverted = await revertEntries(host, toApply, journalRun.entries);
  journalRun.state = reverted ? 'reverted' : 'revert-failed';
  journalRun.finishedAt = deps.now().toISOString();
  let journalPath: string | null = JOURNAL_PATH;
  if (reverted && activeRuns(journal).length === 0) {
    const retired = await retireJournal(host, journal, deps.now());
    if ('path' in retired) journalPath = retired.path;
    else notes.push(t.notRetired({ problem: retired.problem }));
  } else {
    const problem = await writeJournal(host, journal, deps.now());
    if (problem) notes.push(t.notUpdated({ problem }));
  }
  if (!reverted) notes.push(t.notPutBack({ rollback: rollbackHint(host), journal: JOURNAL_PATH }));
  return { reverted, journalPath };
}

/** After a verified run: the journal says it is complete. */
async function markApplied(run: TuneRun, journal: Journal, journalRun: JournalRun): Promise<void> {
  const { host, deps, notes, t } = run;
  journalRun.state = 'applied';
  journalRun.finishedAt = deps.now().toISOString();
  const problem = await writeJournal(host, journal, deps.now());
  if (problem) notes.push(t.notMarkedComplete({ problem, rollback: rollbackHint(host) }));
}

/**
 * `qprep tune`: run the selected tuning checks, plan the changes from the ones that fail (and
 * the persistence files with --persist), read and journal every old value with fsync before
 * the first write, apply in order, verify by re-reading and re-running the checks, and on any
 * failure put everything back in reverse order. `checks` are the selected checks that can plan.
 */
export async function tune(host: Host, loaded: LoadedProfile, checks: readonly Check[], options: TuneOptions, deps: TuneDeps): Promise<TuneResult> {
  const profile = loaded.profile;
  const identity = await host.identity();
  const first = assess(host, loaded, checks, options, deps);
  const context = first.context;
  if (!options.dryRun) await refuseInContainer(context, options.force, 'qprep tune');
  const t = context.text.commands.tune;

  let lock: HeldLock | undefined;
  if (!options.dryRun) lock = await acquireLock(host, options.command, { ...deps, hostname: identity.hostname });
  try {
    const run: TuneRun = { host, loaded, checks, options, deps, context, t, notes: [] };
    if (lock?.tookOverFrom) run.notes.push(t.tookOverLock({ from: lock.tookOverFrom }));
    const { read: journalRead, unfinished } = await journalToExtend(run);

    const assessed = await first.results;
    const allow = allowListFor(profileKnobs(profile));
    const waived = waivedIds(profile, deps.now());
    const { planned, remaining } = await planFromChecks(run, assessed, waived);
    const selectedKnobs = profileKnobs(profile).filter((knob) => checks.some((c) => c.id === knob.checkId));
    if (options.persist) planned.push(...(await planPersistenceFor(run, selectedKnobs, assessed, waived, remaining)));
    const { conflicts, problems } = await findConflicts(host, selectedKnobs, t);
    run.notes.push(...problems);

    const reports = await Promise.all(planned.map(({ origin, change }) => readBefore(host, origin, change, allow)));
    const base = { journal: null, conflicts, assessed, verified: [], notes: run.notes, unfinished, context };

    if (reports.some((r) => r.status === 'refused')) {
      for (const report of reports) if (report.status === 'planned') report.status = 'skipped';
      return { ...base, outcome: 'refused', changed: false, changes: reports, remaining };
    }
    const toApply = reports.filter((r) => r.status === 'planned');
    if (options.dryRun) return { ...base, outcome: 'planned', changed: toApply.length > 0, changes: reports, remaining };
    if (toApply.length === 0) return { ...base, outcome: 'unchanged', changed: false, changes: reports, remaining };

    const { journal, journalRun } = await journalTheRun(run, journalRead, toApply, identity.hostname);
    let failed = await applyChanges(host, toApply, journalRun);
    let verified: CheckResult[] = [];
    if (!failed) ({ verified, failed } = await verifyChanges(run, toApply, journalRun));
    if (failed) {
      const { reverted, journalPath } = await rollBackRun(run, toApply, journal, journalRun);
      return { ...base, outcome: reverted ? 'rolled-back' : 'revert-failed', changed: !reverted, changes: reports, journal: journalPath, verified, remaining };
    }
    await markApplied(run, journal, journalRun);
    return { ...base, outcome: 'applied', changed: true, changes: reports, journal: JOURNAL_PATH, verified, remaining: verified.filter((r) => r.status !== 'pass') };
  } finally {
    await lock?.release();
  }
}

export type RestoreStatus = 'planned' | 'restored' | 'unchanged' | 'drifted' | 'missing' | 'failed' | 'refused';

export interface RestoreReport {
  runId: string;
  origin: string;
  kind: Change['kind'];
  target: string;
  path: string;
  /** what is there now (raw); null: an absent file, or unreadable */
  current: string | null;
  /** what rollback puts back; null: remove the file */
  before: string | null;
  /** what tune had written */
  after: string;
  status: RestoreStatus;
  error?: string;
}

/** nothing: no journal. planned: a dry run. rolled-back: every value restored, journal retired. incomplete: some were not; the journal stays. */
export type RollbackOutcome = 'nothing' | 'planned' | 'rolled-back' | 'incomplete';

export interface RollbackResult {
  outcome: RollbackOutcome;
  changed: boolean;
  restores: RestoreReport[];
  /** the journal: the retired record after a complete rollback, else the active one */
  journal: string | null;
  notes: string[];
  context: CheckContext;
}

export interface RollbackOptions {
  dryRun: boolean;
  /** restore values that changed since tune wrote them, restore in a container, accept vanished files */
  force: boolean;
  timeoutMs: number;
  command: string;
  /** the language of the notes; English when not given */
  lang?: Lang;
}

/**
 * `qprep rollback`: puts back every old value of the journal, newest change first, also after
 * a tune that was killed half-way (an entry whose value was never written reads as its old
 * value and needs nothing). A value that changed since tune wrote it belongs to someone else
 * now: it is left alone unless --force. When everything is back, the journal is retired as a
 * timestamped record.
 */
export async function rollback(host: Host, loaded: LoadedProfile, options: RollbackOptions, deps: TuneDeps): Promise<RollbackResult> {
  const identity = await host.identity();
  const context = createContext({ host, profile: loaded.profile, timeoutMs: options.timeoutMs, now: deps.now, lang: options.lang ?? 'en' });
  const t = context.text.commands.rollback;
  if (!options.dryRun) await refuseInContainer(context, options.force, 'qprep rollback');
  let lock: HeldLock | undefined;
  if (!options.dryRun) lock = await acquireLock(host, options.command, { ...deps, hostname: identity.hostname });
  try {
    const notes: string[] = [];
    if (lock?.tookOverFrom) notes.push(t.tookOverLock({ from: lock.tookOverFrom }));
    const read = await readJournal(host);
    if (read.state === 'absent') return { outcome: 'nothing', changed: false, restores: [], journal: null, notes, context };
    if (read.state !== 'present') throw new QprepError('invalid-input', `${read.reason}; restore the values by hand from it, then move it aside`);
    const journal = read.journal;
    // Any path qprep could have written, whatever the profile: the journal supplies the values.
    const allow = allowListFor(profileKnobs(loaded.profile), { anyValue: true });
    const restores: RestoreReport[] = [];
    const runs = activeRuns(journal);
    for (const run of [...runs].reverse()) {
      for (const entry of [...run.entries].reverse()) {
        const report: RestoreReport = {
          runId: run.runId,
          origin: entry.origin,
          kind: entry.kind,
          target: entry.target,
          path: entry.path,
          current: null,
          before: entry.before,
          after: entry.after,
          status: 'planned',
        };
        restores.push(report);
        if (entry.status === 'reverted') {
          report.status = 'unchanged';
          continue;
        }
        const restore = restoringChange(entry);
        const refusal = restore.kind === 'remove' ? allow.refuse({ kind: 'file', path: restore.path, content: '', mode: 0o644 }) : allow.refuse(restore);
        if (refusal || (entry.kind !== 'file' && entry.before === null)) {
          report.status = 'refused';
          report.error = refusal ? `not allowed: ${refusal}` : 'the journal holds no old value for it';
          continue;
        }
        const link = entry.kind === 'file' ? await symlinkRefusal(host, entry.path) : undefined;
        if (link) {
          report.status = 'refused';
          report.error = link;
          continue;
        }
        const current = await readCurrent(host, entry.kind, entry.path);
        if ('problem' in current) {
          report.status = current.missing ? 'missing' : 'failed';
          report.error = current.missing ? `${entry.path} no longer exists (CPU offline, module unloaded, debugfs unmounted?)` : current.problem;
          continue;
        }
        report.current = current.value;
        if (sameContent(entry.kind, current.value, entry.before)) {
          report.status = 'unchanged';
          continue;
        }
        // A write the journal shows as started and not finished (kill -9 between the open, which
        // truncates, and the write) leaves the value empty: that is qprep's own doing, not a drift.
        const emptiedByCrash = (entry.status === 'pending' || entry.status === 'failed') && current.value !== null && current.value.trim() === '';
        if (!sameContent(entry.kind, current.value, entry.after) && !emptiedByCrash && !options.force) {
          report.status = 'drifted';
          report.error = 'changed since qprep wrote it; left alone (--force restores it anyway)';
          continue;
        }
        if (options.dryRun) continue;
        const problem = (await writeChange(host, restore)) ?? (await confirm(host, entry.kind, entry.path, entry.before));
        if (problem) {
          report.status = 'failed';
          report.error = problem;
        } else report.status = 'restored';
      }
    }
    const changed = restores.some((r) => r.status === 'restored');
    if (options.dryRun) {
      return { outcome: 'planned', changed: restores.some((r) => r.status === 'planned'), restores, journal: JOURNAL_PATH, notes, context };
    }
    const incomplete = restores.filter((r) => r.status === 'failed' || r.status === 'refused' || r.status === 'drifted' || (r.status === 'missing' && !options.force));
    if (incomplete.length > 0) {
      notes.push(t.notRestored({ incomplete: incomplete.length, total: restores.length, journal: JOURNAL_PATH }));
      return { outcome: 'incomplete', changed, restores, journal: JOURNAL_PATH, notes, context };
    }
    journal.rolledBackAt = deps.now().toISOString();
    const retired = await retireJournal(host, journal, deps.now());
    if ('problem' in retired) {
      notes.push(t.notRetired({ problem: retired.problem, journal: JOURNAL_PATH }));
      return { outcome: 'incomplete', changed, restores, journal: JOURNAL_PATH, notes, context };
    }
    return { outcome: 'rolled-back', changed, restores, journal: retired.path, notes, context };
  } finally {
    await lock?.release();
  }
}

