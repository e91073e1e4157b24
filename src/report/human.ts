import { Chalk, type ChalkInstance } from 'chalk';
import { CATEGORY_IDS } from '../core/ids/categories.js';
import type { CheckResult, Status } from '../core/types.js';
import { textFor, type Catalogue } from '../i18n/index.js';
import { commandLine } from '../host/command-line.js';
import type { Report } from './schema.js';
import { fitList, visibleWidth, wrapHanging } from './wrap.js';

/**
 * How much of the report a person sees: `problems` (the default) every non-pass in full and one
 * line for the rest of each category; `all` every check (--verbose); `verdict` the verdict
 * line alone (--quiet).
 */
export type HumanDetail = 'problems' | 'all' | 'verdict';
import { visibleStrings } from './visible.js';
import { invokedAs } from '../util/invocation.js';

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
  /** the catalogue of the text; undefined: the language the report carries (`lang`), else English */
  text?: Catalogue;
}

type ReportText = Catalogue['report'];

/** The catalogue a formatter writes a report in: the one asked for, else the report's own language. */
export function reportText(report: { lang?: string | undefined }, text?: Catalogue): ReportText {
  return (text ?? textFor(report.lang === 'zh' ? 'zh' : 'en')).report;
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

function seconds(t: ReportText, ms: number): string {
  return t.seconds({ seconds: (ms / 1000).toFixed(1) });
}

/** `text` padded to `width` terminal columns: a Chinese character takes two. */
function padColumns(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
}

/** Enough for every failing pair of 16 devices x 4 nodes to stay on one screen with its summary. */
const MAX_DETAIL_LINES = 40;

/** The status column: as wide as the language's widest status word. */
function statusWidth(t: ReportText): number {
  return Math.max(...Object.values(t.statuses).map(visibleWidth));
}

/** Where an entry's second and later lines start: past the symbol, the status and the id's start. */
function entryIndent(t: ReportText): string {
  return ' '.repeat(2 + 2 + statusWidth(t) + 2 + 2);
}

/**
 * The lines of a remediation as they paste: one command per `fix:` line, an alternative given as
 * "X   (or: Y)" on its own `or:` line, and qprep named as it is started in this install.
 */
export function fixLines(remediation: string, invocation: string | undefined): Array<{ label: 'fix' | 'or' | ''; text: string }> {
  const lines: Array<{ label: 'fix' | 'or' | ''; text: string }> = [];
  remediation.split('\n').forEach((line, i) => {
    const alternative = /^(.*\S)\s+\(or: (.+)\)$/.exec(line);
    const first = alternative ? alternative[1]! : line;
    lines.push({ label: i === 0 ? 'fix' : /^or: /.test(line) ? 'or' : '', text: invokedAs(first.replace(/^or: /, ''), invocation) });
    if (alternative) lines.push({ label: 'or', text: invokedAs(alternative[2]!, invocation) });
  });
  return lines;
}

interface EntryContext {
  chalk: ChalkInstance;
  t: ReportText;
  idWidth: number;
  width: number | undefined;
  invocation: string | undefined;
}

function aside(t: ReportText, text: string): string {
  return t.aside({ text });
}

function waiverNote(chalk: ChalkInstance, t: ReportText, result: CheckResult): string {
  if (result.waived) {
    // the reason --ignore records is qprep's own words: said in the report's language
    const reason = result.waived.reason === IGNORED_REASON ? t.ignoredWithFlag : result.waived.reason;
    return chalk.dim(aside(t, t.waived({ reason, expires: result.waived.expires ?? null })));
  }
  if (result.waiverExpired) return chalk.dim(aside(t, t.waiverExpired({ reason: result.waiverExpired.reason })));
  if (result.waiverRefused) return chalk.yellow(aside(t, t.waiverRefused));
  if (result.observedAt) return chalk.dim(aside(t, t.observedAt({ at: result.observedAt })));
  return '';
}

/** The waiver reason the runner records for --ignore (CheckResult.waived.reason, for programs too). */
const IGNORED_REASON = 'ignored with --ignore';

/** One check in full: status, id and message, its details, and its fix (unless `withFix` is false). */
function entryLines(ctx: EntryContext, result: CheckResult, withFix: boolean, suffix = ''): string[] {
  const { chalk, t } = ctx;
  const label = paint(chalk, result.status, `${SYMBOLS[result.status]} ${padColumns(t.statuses[result.status], statusWidth(t))}`);
  const prefix = `  ${label}  ${chalk.bold(result.id.padEnd(ctx.idWidth))}  `;
  const lines = wrapHanging(prefix, `${result.message}${suffix}`, ctx.width);
  const last = lines.length - 1;
  lines[last] = `${lines[last]}${waiverNote(chalk, t, result)}`;
  const indent = entryIndent(t);
  if (result.status !== 'pass' && result.details) {
    for (const detail of result.details.slice(0, MAX_DETAIL_LINES)) lines.push(...wrapHanging(`${indent}${chalk.dim('·')} `, detail, ctx.width));
    const more = result.details.length - MAX_DETAIL_LINES;
    if (more > 0) lines.push(`${indent}${chalk.dim(`· ${t.moreDetails({ more })}`)}`);
  }
  // "fix: " and " or: " are as wide, so that the alternatives line up under the command; a
  // wider "action:" reaches further left, its colon under theirs
  const labelWidth = Math.max(visibleWidth(t.fixLabel), visibleWidth(t.orLabel));
  const right = (word: string) => ' '.repeat(Math.max(0, labelWidth - visibleWidth(word))) + chalk.cyan(word);
  // reconfigure is what the fix line says: the line is printed for the actions that ask more (or less) than the fix
  if (result.status !== 'pass' && result.action !== undefined && result.action !== 'none' && result.action !== 'reconfigure') {
    const over = Math.max(0, visibleWidth(t.actionLabel) - labelWidth);
    lines.push(`${indent.slice(over)}${right(t.actionLabel)} ${t.actionLine({ action: result.action, meaning: t.actions[result.action] })}`);
  }
  if (withFix && result.status !== 'pass' && result.remediation) {
    // fix commands are never wrapped: a command cut in two does not paste
    for (const line of fixLines(result.remediation, ctx.invocation)) {
      const label = line.label === 'fix' ? right(t.fixLabel) : line.label === 'or' ? right(t.orLabel) : ' '.repeat(labelWidth);
      lines.push(`${indent}${label} ${line.text}`);
    }
  }
  return lines;
}

/**
 * " with 3 required failures waived (--ignore): npu.health, ...": a READY that waivers made
 * says so on the verdict line, where a gate's log shows it.
 */
function waivedFailures(report: Report, t: ReportText): string {
  const waived = report.checks.filter((c) => c.level === 'required' && c.waived?.found === 'fail');
  if (waived.length === 0) return '';
  const byIgnore = waived.some((c) => c.waived!.reason === IGNORED_REASON);
  const byProfile = waived.some((c) => c.waived!.reason !== IGNORED_REASON);
  const how = [byIgnore ? t.waiverSources.ignore : '', byProfile ? t.waiverSources.profile : ''].filter(Boolean).join(t.list.separator);
  return t.waivedFailures({ count: waived.length, how, ids: waived.map((c) => c.id).join(', ') });
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

function couldNotRun(t: ReportText, dependants: readonly CheckResult[]): string {
  return dependants.every((d) => d.status === 'error' || d.status === 'skip') ? t.couldNotRun : t.followFromIt;
}

/** "vllm-ascend 0.13.0rc1 (built for A2) · vllm 0.13.0 · torch 2.8.0 · ... · CANN 8.3.RC2 (kernels 8.3.RC2, ATB 8.3.RC2) · driver 25.2.1": what was found, in the order a launch depends on it. */
function stackParts(stack: NonNullable<Report['stack']>, words: ReportText['header']['stackParts']): string[] {
  const named = (name: string, fact: { version: string } | null) => (fact ? `${name} ${fact.version}` : null);
  const ascend = stack.packages.vllmAscend;
  const deviceType = stack.vllmAscendBuild?.deviceType;
  const first = ascend
    ? `vllm-ascend ${deviceType ? words.builtFor({ version: ascend.version, type: deviceType.replace(/^_/, '') }) : ascend.version}`
    : stack.python.path
      ? words.notFound({ name: 'vllm-ascend' })
      : null;
  const components = [named('kernels', stack.cann.kernels), named('ATB', stack.cann.atb)].filter((c): c is string => c !== null);
  const toolkit = stack.cann.toolkit;
  const cann = toolkit ? `CANN ${components.length > 0 ? words.withComponents({ version: toolkit.version, components: components.join(words.componentSeparator) }) : toolkit.version}` : null;
  return [
    first,
    named('vllm', stack.packages.vllm),
    named('torch', stack.packages.torch),
    named('torch_npu', stack.packages.torchNpu),
    named('transformers', stack.packages.transformers),
    named('triton-ascend', stack.packages.tritonAscend),
    cann,
    named('driver', stack.driver),
    named('firmware', stack.firmware),
    stack.image.socVersion ? `SOC_VERSION ${stack.image.socVersion}` : null,
  ].filter((part): part is string => part !== null);
}

function headerLines(report: Report, chalk: ChalkInstance, t: ReportText): string[] {
  const out: string[] = [];
  const host = report.host;
  const h = t.header;
  const where = host.inContainer ? h.inContainer({ runtime: host.containerRuntime ?? null }) : h.notInContainer;
  out.push(`${chalk.bold(`qprep ${report.tool.version}`)}  ${chalk.bold(host.hostname)} · ${host.os} · ${host.arch} · ${h.kernel({ kernel: host.kernel })} · ${where}`);
  const source =
    report.source.kind === 'snapshot' && report.source.snapshot
      ? h.snapshot({ file: report.source.snapshot.file, createdAt: report.source.snapshot.createdAt })
      : report.source.root === '/'
        ? h.liveHost
        : h.liveHostUnder({ root: report.source.root });
  out.push(chalk.dim(h.profile({ name: report.profile.name, source: report.profile.source, where: source })));
  if (report.cluster) {
    const c = report.cluster;
    out.push(chalk.dim(h.cluster({ file: c.file, self: c.self, nodes: c.nodes.length, evidence: c.evidence, plan: c.plan })));
    if (c.note) out.push(chalk.yellow(`${h.note} ${c.note}`));
  }
  if (report.launch) {
    const l = report.launch;
    const serve = l.serve ? h.serve({ form: l.serve.form, model: l.serve.model, line: l.serve.line }) : h.noServe;
    out.push(chalk.dim(h.launch({ file: l.file === '-' ? null : l.file, recorded: l.from === 'snapshot', serve })));
  }
  const parts = report.stack ? stackParts(report.stack, h.stackParts) : [];
  if (parts.length > 0) out.push(chalk.dim(h.stack({ parts: parts.join(h.stackParts.partSeparator) })));
  return out;
}

function sharesFix(result: CheckResult, previous: CheckResult | undefined): boolean {
  return (result.status === 'skip' || result.status === 'error') && previous?.status === result.status && previous.remediation === result.remediation;
}

/** --verbose: every check, one entry each, as the report has always been printed. */
function everyCheck(report: Report, ctx: EntryContext): string[] {
  const out: string[] = [];
  for (const category of CATEGORY_IDS) {
    const inCategory = report.checks.filter((c) => c.category === category);
    if (inCategory.length === 0) continue;
    out.push('', ctx.chalk.bold.underline(ctx.t.categories[category]));
    inCategory.forEach((result, i) => {
      // Consecutive skips or errors that share their fix (no --launch given) print it once,
      // under the first of them. The JSON keeps every remediation.
      out.push(...entryLines(ctx, result, !sharesFix(result, inCategory[i - 1]), result.causedBy ? ctx.t.causedBy({ id: result.causedBy }) : ''));
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
  const { chalk, t } = ctx;
  const out: string[] = [''];
  const dependants = dependantsByCause(report.checks);
  const categoryOf = new Map(report.checks.map((c) => [c.id, c.category]));
  for (const category of CATEGORY_IDS) {
    const inCategory = report.checks.filter((c) => c.category === category);
    if (inCategory.length === 0) continue;
    out.push(chalk.bold.underline(t.categories[category]));
    const passed = inCategory.filter((c) => c.status === 'pass');
    if (passed.length > 0) out.push(fitList(`  ${paint(chalk, 'pass', `✓ ${t.passed({ count: passed.length })}`)} `, passed.map((c) => c.id), ctx.width, '', t.list));
    let previous: CheckResult | undefined;
    for (const result of inCategory) {
      if (result.status === 'pass' || result.status === 'skip' || result.causedBy !== undefined) continue;
      // errors in a row that share their fix (a tree without /proc under --root) print it once
      out.push(...entryLines(ctx, result, !sharesFix(result, previous)));
      previous = result;
      const following = dependants.get(result.id);
      if (following) {
        out.push(...wrapHanging(`${entryIndent(t)}${chalk.dim('↳')} `, t.dependants({ count: following.length, how: couldNotRun(t, following), ids: following.map((d) => d.id).join(', ') }), ctx.width));
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
      out.push(...wrapHanging(`  ${paint(chalk, 'error', `? ${t.elsewhereCount({ count: list.length, how: couldNotRun(t, list) })}`)} `, t.elsewhereCause({ cause, ids: list.map((d) => d.id).join(', ') }), ctx.width));
    }
    const skipped = inCategory.filter((c) => c.status === 'skip' && (c.causedBy === undefined || report.checks.find((d) => d.id === c.causedBy)?.status === 'skip'));
    if (skipped.length > 0) out.push(fitList(`  ${paint(chalk, 'skip', `- ${t.skipped({ count: skipped.length })}`)} `, skipped.map((c) => c.id), ctx.width, '', t.list));
  }
  return out;
}

function summaryLine(report: Report, chalk: ChalkInstance, t: ReportText, hint: string): string {
  const s = report.summary;
  const counts = (['pass', 'warn', 'fail', 'skip', 'error'] as const).map((status) => paint(chalk, status, t.summaryCount({ count: s[status], status: t.statuses[status] })));
  const worst = s.worstAction !== undefined && s.worstAction !== 'none' ? t.worstAction({ action: s.worstAction }) : '';
  return t.summary({ checks: report.checks.length, counts: counts.join(t.countSeparator), duration: seconds(t, report.durationMs) }) + worst + hint;
}

/**
 * What makes the node not ready, one entry per cause: a check whose problem follows from another
 * blocking one is counted under it ("npu.smi: 12 checks could not run"), not as a problem of its own.
 */
export function problemsOf(report: Report, t: ReportText = textFor('en').report): string[] {
  const blocking = report.checks.filter((c) => report.blocking.includes(c.id));
  const dependants = dependantsByCause(report.checks);
  const roots: CheckResult[] = [];
  for (const result of blocking) {
    const root = result.causedBy === undefined ? result : (report.checks.find((c) => c.id === result.causedBy) ?? result);
    if (!roots.includes(root)) roots.push(root);
  }
  return roots.map((root) => {
    const following = dependants.get(root.id);
    const kind = !report.blocking.includes(root.id) ? '' : root.status === 'error' ? t.couldNotAssess : root.status === 'warn' ? t.blockingUnderStrict : '';
    return following ? t.rootWithDependants({ root: `${root.id}${kind}`, count: following.length, how: couldNotRun(t, following) }) : `${root.id}${kind}`;
  });
}

/** A tool that left processes outside its process group is named, with what qprep did about it. */
function leftProcessLines(report: Report, chalk: ChalkInstance, t: ReportText): string[] {
  return (report.leftProcesses ?? []).map(
    (left) => `${chalk.yellow(t.header.note)} ${t.leftProcesses({ tool: left.tool, processes: left.processes, calls: left.calls, first: commandLine(left.firstCall) })}`,
  );
}

/** The last line: the verdict, and when not ready, each problem once. */
export function verdictLine(report: Report, chalk: ChalkInstance, t: ReportText = reportText(report)): string {
  const s = report.summary;
  if (report.error?.code === 'nothing-assessed') {
    return `${chalk.red.bold(t.noVerdict)}: ${t.allSkipped({ count: report.checks.length })}`;
  }
  if (report.interrupted) return `${chalk.red.bold(t.noVerdict)}: ${report.error?.message ?? t.interruptedBy({ signal: report.interrupted.signal })}`;
  if (report.ready) {
    const note = s.warn > 0 ? t.warningsNote({ count: s.warn }) : '';
    return chalk.green.bold(t.ready) + waivedFailures(report, t) + note;
  }
  const problems = problemsOf(report, t);
  return `${chalk.red.bold(t.notReady)}: ${t.problems({ count: problems.length, list: problems.join('; ') })}`;
}

/** The report as a person reads it: problems first, grouped by category, the fix under each. */
export function formatHuman(input: Report, options: HumanOptions): string {
  // what came from the host, its tools or a snapshot reaches the terminal with its controls shown, never raw
  const report = visibleStrings(input);
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const t = reportText(report, options.text);
  const detail = options.detail ?? 'problems';
  if (detail === 'verdict') return `${verdictLine(report, chalk, t)}\n`;
  const shown = detail === 'all' ? report.checks : report.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip' && c.causedBy === undefined);
  const ctx: EntryContext = { chalk, t, idWidth: Math.max(0, ...shown.map((c) => c.id.length)), width: options.width, invocation: options.invocation };
  const out = headerLines(report, chalk, t);
  out.push(...(detail === 'all' ? everyCheck(report, ctx) : problemsFirst(report, ctx)));
  const hidden = detail === 'problems' && shown.length < report.checks.length;
  out.push('', ...leftProcessLines(report, chalk, t));
  out.push(summaryLine(report, chalk, t, hidden ? t.verboseHint : ''), verdictLine(report, chalk, t));
  return `${out.join('\n')}\n`;
}
