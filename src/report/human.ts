import { Chalk, type ChalkInstance } from 'chalk';
import { CATEGORIES, type Category, type CheckResult, type Status } from '../core/types.js';
import { commandLine } from '../probes/commands.js';
import type { Report } from './schema.js';
import { fitList, wrapHanging } from './wrap.js';

/**
 * How much of the report a person sees: `problems` (the default) every non-pass in full and one
 * line for the rest of each category; `all` every check (--verbose); `verdict` the verdict
 * line alone (--quiet).
 */
export type HumanDetail = 'problems' | 'all' | 'verdict';
import { visibleStrings } from './visible.js';
import { escapeControls } from '../util/text.js';

export interface HumanOptions {
  color: boolean;
  detail?: HumanDetail;
  /** wrap messages at this many columns (a terminal's width); undefined: never wrap */
  width?: number;
  /**
   * How qprep is started in this install ("npx qprep", "node /opt/qprep/qprep.cjs"): the
   * commands of fix lines say it that way, so that they paste. Undefined: "qprep".
   */
  invocation?: string;
}

const SYMBOLS: Record<Status, string> = { pass: '✓', warn: '!', fail: '✗', skip: '-', error: '?' };

function paint(chalk: ChalkInstance, status: Status, text: string): string {
  switch (status) {
    case 'pass':
      return chalk.green(text);
    case 'warn':
      return chalk.yellow(text);
    case 'fail':
      return chalk.red(text);
    case 'error':
      return chalk.magenta(text);
    case 'skip':
      return chalk.gray(text);
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Enough for every failing pair of 16 devices x 4 nodes to stay on one screen with its summary. */
const MAX_DETAIL_LINES = 40;

/** Where an entry's second and later lines start: under its message. */
const ENTRY_INDENT = ' '.repeat(2 + 7 + 2 + 2);

/**
 * The lines of a remediation as they paste: one command per `fix:` line, an alternative given as
 * "X   (or: Y)" on its own `or:` line, and qprep named as it is started in this install.
 */
export function fixLines(remediation: string, invocation: string | undefined): Array<{ label: 'fix' | 'or' | ''; text: string }> {
  const lines: Array<{ label: 'fix' | 'or' | ''; text: string }> = [];
  remediation.split('\n').forEach((line, i) => {
    const alternative = /^(.*\S)\s+\(or: (.+)\)$/.exec(line);
    const first = alternative ? alternative[1]! : line;
    lines.push({ label: i === 0 ? 'fix' : /^or: /.test(line) ? 'or' : '', text: invoked(first.replace(/^or: /, ''), invocation) });
    if (alternative) lines.push({ label: 'or', text: invoked(alternative[2]!, invocation) });
  });
  return lines;
}

/** "qprep tune" as this install starts it; words such as "qprep's" or a path are left alone. */
function invoked(text: string, invocation: string | undefined): string {
  if (!invocation || invocation === 'qprep') return text;
  return text.replace(/(^|[\s"'(`]|<\()qprep(?= [a-z])/g, (_match, before: string) => `${before}${invocation}`);
}

interface EntryContext {
  chalk: ChalkInstance;
  idWidth: number;
  width: number | undefined;
  invocation: string | undefined;
}

function waiverNote(chalk: ChalkInstance, result: CheckResult): string {
  if (result.waived) return chalk.dim(` (waived: ${result.waived.reason}${result.waived.expires ? `, until ${result.waived.expires}` : ''})`);
  if (result.waiverExpired) return chalk.dim(` (the waiver "${result.waiverExpired.reason}" no longer applies)`);
  if (result.waiverRefused) return chalk.yellow(` (${result.waiverRefused})`);
  return '';
}

/** One check in full: status, id and message, its details, and its fix (unless `withFix` is false). */
function entryLines(ctx: EntryContext, result: CheckResult, withFix: boolean, suffix = ''): string[] {
  const { chalk } = ctx;
  const label = paint(chalk, result.status, `${SYMBOLS[result.status]} ${result.status.padEnd(5)}`);
  const prefix = `  ${label}  ${chalk.bold(result.id.padEnd(ctx.idWidth))}  `;
  const lines = wrapHanging(prefix, `${result.message}${suffix}`, ctx.width);
  const last = lines.length - 1;
  lines[last] = `${lines[last]}${waiverNote(chalk, result)}`;
  const indent = ENTRY_INDENT;
  if (result.status !== 'pass' && result.details) {
    for (const detail of result.details.slice(0, MAX_DETAIL_LINES)) lines.push(...wrapHanging(`${indent}${chalk.dim('·')} `, detail, ctx.width));
    const more = result.details.length - MAX_DETAIL_LINES;
    if (more > 0) lines.push(`${indent}${chalk.dim(`· ... and ${more} more (--format json has them all)`)}`);
  }
  if (withFix && result.status !== 'pass' && result.remediation) {
    // fix commands are never wrapped: a command cut in two does not paste
    for (const line of fixLines(result.remediation, ctx.invocation)) {
      // "fix: " and " or: " are as wide, so that the alternatives line up under the command
      const label = line.label === 'fix' ? chalk.cyan('fix:') : line.label === 'or' ? ` ${chalk.cyan('or:')}` : '    ';
      lines.push(`${indent}${label} ${line.text}`);
    }
  }
  return lines;
}

/**
 * " with 3 required failures waived (--ignore): npu.health, ...": a READY that waivers made
 * says so on the verdict line, where a gate's log shows it.
 */
function waivedFailures(report: Report): string {
  const waived = report.checks.filter((c) => c.level === 'required' && c.waived?.found === 'fail');
  if (waived.length === 0) return '';
  const byIgnore = waived.some((c) => c.waived!.reason === 'ignored with --ignore');
  const byProfile = waived.some((c) => c.waived!.reason !== 'ignored with --ignore');
  const how = [byIgnore ? '--ignore' : '', byProfile ? 'profile waivers' : ''].filter(Boolean).join(', ');
  return ` with ${waived.length} required ${waived.length === 1 ? 'failure' : 'failures'} waived (${how}): ${waived.map((c) => c.id).join(', ')}`;
}

/** The checks whose problem follows from each cause, by the cause's id. */
function dependantsByCause(checks: readonly CheckResult[]): Map<string, CheckResult[]> {
  const byCause = new Map<string, CheckResult[]>();
  for (const result of checks) {
    if (result.causedBy === undefined) continue;
    byCause.set(result.causedBy, [...(byCause.get(result.causedBy) ?? []), result]);
  }
  return byCause;
}

function couldNotRun(dependants: readonly CheckResult[]): string {
  return dependants.every((d) => d.status === 'error' || d.status === 'skip') ? 'could not run' : 'follow from it';
}

function headerLines(report: Report, chalk: ChalkInstance): string[] {
  const out: string[] = [];
  const host = report.host;
  const where = host.inContainer ? `in a container (${host.containerRuntime ?? 'unknown runtime'})` : 'not in a container';
  out.push(`${chalk.bold(`qprep ${report.tool.version}`)}  ${chalk.bold(host.hostname)} · ${host.os} · ${host.arch} · kernel ${host.kernel} · ${where}`);
  const source =
    report.source.kind === 'snapshot' && report.source.snapshot
      ? `snapshot ${report.source.snapshot.file} (recorded ${report.source.snapshot.createdAt})`
      : report.source.root === '/'
        ? 'live host'
        : `live host, files under ${report.source.root}`;
  out.push(chalk.dim(`profile ${report.profile.name} (${report.profile.source}) · ${source}`));
  if (report.cluster) {
    const c = report.cluster;
    out.push(chalk.dim(`cluster ${c.file}: ${c.self}, one of ${plural(c.nodes.length, 'node')} (found by ${c.evidence}) · plan ${c.plan}`));
    if (c.note) out.push(chalk.yellow(`note: ${c.note}`));
  }
  if (report.launch) {
    const l = report.launch;
    const serve = l.serve ? `${l.serve.form}${l.serve.model ? ` ${l.serve.model}` : ''} at line ${l.serve.line}` : 'no vLLM server command';
    const from = l.from === 'snapshot' ? ' (recorded in the snapshot)' : '';
    out.push(chalk.dim(`launch script ${l.file === '-' ? 'from stdin' : l.file}${from}: ${serve}`));
  }
  return out;
}

function sharesFix(result: CheckResult, previous: CheckResult | undefined): boolean {
  return (result.status === 'skip' || result.status === 'error') && previous?.status === result.status && previous.remediation === result.remediation;
}

/** --verbose: every check, one entry each, as the report has always been printed. */
function everyCheck(report: Report, ctx: EntryContext): string[] {
  const out: string[] = [];
  for (const category of Object.keys(CATEGORIES) as Category[]) {
    const inCategory = report.checks.filter((c) => c.category === category);
    if (inCategory.length === 0) continue;
    out.push('', ctx.chalk.bold.underline(CATEGORIES[category]));
    inCategory.forEach((result, i) => {
      // Consecutive skips or errors that share their fix (no --launch given) print it once,
      // under the first of them. The JSON keeps every remediation.
      out.push(...entryLines(ctx, result, !sharesFix(result, inCategory[i - 1]), result.causedBy ? ` (caused by ${result.causedBy})` : ''));
    });
  }
  return out;
}

/**
 * The default: per category one line for the passes and one for the skips, every other result
 * in full, and a result that others follow from (npu-smi missing) named once, with its fix and
 * the list of its dependants; elsewhere they take one line that points at it.
 */
function problemsFirst(report: Report, ctx: EntryContext): string[] {
  const { chalk } = ctx;
  const out: string[] = [''];
  const dependants = dependantsByCause(report.checks);
  const categoryOf = new Map(report.checks.map((c) => [c.id, c.category]));
  for (const category of Object.keys(CATEGORIES) as Category[]) {
    const inCategory = report.checks.filter((c) => c.category === category);
    if (inCategory.length === 0) continue;
    out.push(chalk.bold.underline(CATEGORIES[category]));
    const passed = inCategory.filter((c) => c.status === 'pass');
    if (passed.length > 0) out.push(fitList(`  ${paint(chalk, 'pass', `✓ ${passed.length} passed:`)} `, passed.map((c) => c.id), ctx.width));
    let previous: CheckResult | undefined;
    for (const result of inCategory) {
      if (result.status === 'pass' || result.status === 'skip' || result.causedBy !== undefined) continue;
      // errors in a row that share their fix (a tree without /proc under --root) print it once
      out.push(...entryLines(ctx, result, !sharesFix(result, previous)));
      previous = result;
      const following = dependants.get(result.id);
      if (following) {
        out.push(...wrapHanging(`${ENTRY_INDENT}${chalk.dim('↳')} `, `${plural(following.length, 'check')} ${couldNotRun(following)} because of it: ${following.map((d) => d.id).join(', ')}`, ctx.width));
      }
    }
    const elsewhere = new Map<string, CheckResult[]>();
    for (const result of inCategory) {
      if (result.causedBy === undefined) continue;
      const cause = report.checks.find((c) => c.id === result.causedBy);
      if (cause && cause.status === 'skip') continue;
      if (categoryOf.get(result.causedBy) === category) continue;
      elsewhere.set(result.causedBy, [...(elsewhere.get(result.causedBy) ?? []), result]);
    }
    for (const [cause, list] of elsewhere) {
      out.push(...wrapHanging(`  ${paint(chalk, 'error', `? ${list.length} ${couldNotRun(list)}`)} `, `because of ${cause}: ${list.map((d) => d.id).join(', ')}`, ctx.width));
    }
    const skipped = inCategory.filter((c) => c.status === 'skip' && (c.causedBy === undefined || report.checks.find((d) => d.id === c.causedBy)?.status === 'skip'));
    if (skipped.length > 0) out.push(fitList(`  ${paint(chalk, 'skip', `- ${skipped.length} skipped:`)} `, skipped.map((c) => c.id), ctx.width));
  }
  return out;
}

function summaryLine(report: Report, chalk: ChalkInstance, hint: string): string {
  const s = report.summary;
  return (
    `${plural(report.checks.length, 'check')}: ` +
    [
      paint(chalk, 'pass', `${s.pass} pass`),
      paint(chalk, 'warn', `${s.warn} warn`),
      paint(chalk, 'fail', `${s.fail} fail`),
      paint(chalk, 'skip', `${s.skip} skip`),
      paint(chalk, 'error', `${s.error} error`),
    ].join(', ') +
    ` · ${seconds(report.durationMs)}${hint}`
  );
}

/**
 * What makes the node not ready, one entry per cause: a check whose problem follows from another
 * blocking one is counted under it ("npu.smi: 12 checks could not run"), not as a problem of its own.
 */
export function problemsOf(report: Report): string[] {
  const blocking = report.checks.filter((c) => report.blocking.includes(c.id));
  const dependants = dependantsByCause(report.checks);
  const roots: CheckResult[] = [];
  for (const result of blocking) {
    const root = result.causedBy === undefined ? result : (report.checks.find((c) => c.id === result.causedBy) ?? result);
    if (!roots.includes(root)) roots.push(root);
  }
  return roots.map((root) => {
    const following = dependants.get(root.id);
    const kind = !report.blocking.includes(root.id) ? '' : root.status === 'error' ? ' (could not assess)' : root.status === 'warn' ? ' (a warning, blocking under --strict)' : '';
    return following ? `${root.id}${kind}: ${plural(following.length, 'check')} ${couldNotRun(following)}` : `${root.id}${kind}`;
  });
}

/** A tool that left processes outside its process group is named, with what qprep did about it. */
function leftProcessLines(report: Report, chalk: ChalkInstance): string[] {
  return (report.leftProcesses ?? []).map(
    (left) =>
      `${chalk.yellow('note:')} ${left.tool} left ${left.processes} ${left.processes === 1 ? 'process' : 'processes'} running outside its process group after ${plural(left.calls, 'call')} ("${commandLine(left.firstCall)}" first); qprep killed them`,
  );
}

/** The last line: the verdict, and when not ready, each problem once. */
export function verdictLine(report: Report, chalk: ChalkInstance): string {
  const s = report.summary;
  if (report.error?.code === 'nothing-assessed') {
    return `${chalk.red.bold('NO VERDICT')}: all ${plural(report.checks.length, 'selected check')} ${report.checks.length === 1 ? 'was' : 'were'} skipped`;
  }
  if (report.interrupted) return `${chalk.red.bold('NO VERDICT')}: ${report.error?.message ?? `interrupted by ${report.interrupted.signal}`}`;
  if (report.ready) {
    const note = s.warn > 0 ? ` (${plural(s.warn, 'warning')}; --strict would refuse them)` : '';
    return chalk.green.bold('READY') + waivedFailures(report) + note;
  }
  const problems = problemsOf(report);
  return `${chalk.red.bold('NOT READY')}: ${plural(problems.length, 'problem')} (${problems.join('; ')})`;
}

/** The report as a person reads it: problems first, grouped by category, the fix under each. */
export function formatHuman(input: Report, options: HumanOptions): string {
  // what came from the host, its tools or a snapshot reaches the terminal with its controls shown, never raw
  const report = visibleStrings(input);
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const detail = options.detail ?? 'problems';
  if (detail === 'verdict') return `${verdictLine(report, chalk)}\n`;
  const shown = detail === 'all' ? report.checks : report.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip' && c.causedBy === undefined);
  const ctx: EntryContext = { chalk, idWidth: Math.max(0, ...shown.map((c) => c.id.length)), width: options.width, invocation: options.invocation };
  const out = headerLines(report, chalk);
  out.push(...(detail === 'all' ? everyCheck(report, ctx) : problemsFirst(report, ctx)));
  const hidden = detail === 'problems' && shown.length < report.checks.length;
  out.push('', ...leftProcessLines(report, chalk));
  out.push(summaryLine(report, chalk, hidden ? ' · -v shows every check' : ''), verdictLine(report, chalk));
  return `${out.join('\n')}\n`;
}

/** The one-line error of exit code 2, as printed on stderr. */
export function formatHumanError(message: string, options: HumanOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  return `${chalk.red('qprep: error:')} ${escapeControls(message)}\n`;
}
