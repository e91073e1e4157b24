import { Chalk, type ChalkInstance } from 'chalk';
import { CATEGORIES, type Category, type CheckResult, type Status } from '../core/types.js';
import type { Report } from './schema.js';

export interface HumanOptions {
  color: boolean;
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

function checkLine(chalk: ChalkInstance, result: CheckResult, idWidth: number, previous?: CheckResult): string[] {
  const label = paint(chalk, result.status, `${SYMBOLS[result.status]} ${result.status.padEnd(5)}`);
  const waived = result.waived
    ? chalk.dim(` (waived: ${result.waived.reason}${result.waived.expires ? `, until ${result.waived.expires}` : ''})`)
    : result.waiverExpired
      ? chalk.dim(` (the waiver "${result.waiverExpired.reason}" no longer applies)`)
      : result.waiverRefused
        ? chalk.yellow(` (${result.waiverRefused})`)
        : '';
  const lines = [`  ${label}  ${chalk.bold(result.id.padEnd(idWidth))}  ${result.message}${waived}`];
  const indent = ' '.repeat(2 + 7 + 2 + 2);
  if (result.status !== 'pass' && result.details) {
    for (const detail of result.details.slice(0, MAX_DETAIL_LINES)) lines.push(`${indent}${chalk.dim('·')} ${detail}`);
    const more = result.details.length - MAX_DETAIL_LINES;
    if (more > 0) lines.push(`${indent}${chalk.dim(`· ... and ${more} more (--format json has them all)`)}`);
  }
  // Consecutive skips or errors that share their fix (no --launch given; every NPU check when
  // npu-smi is missing) print it once, under the first of them: nine copies hide the one line
  // that differs. The JSON keeps every remediation.
  const repeatsPrevious =
    (result.status === 'skip' || result.status === 'error') && previous?.status === result.status && previous.remediation === result.remediation;
  if (result.status !== 'pass' && result.remediation && !repeatsPrevious) {
    const [first, ...rest] = result.remediation.split('\n');
    lines.push(`${indent}${chalk.cyan('fix:')} ${first}`);
    for (const line of rest) lines.push(`${indent}     ${line}`);
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

/** The report as a person reads it: grouped by category, one line per check, the fix under each problem. */
export function formatHuman(report: Report, options: HumanOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
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

  const idWidth = Math.max(0, ...report.checks.map((c) => c.id.length));
  for (const category of Object.keys(CATEGORIES) as Category[]) {
    const inCategory = report.checks.filter((c) => c.category === category);
    if (inCategory.length === 0) continue;
    out.push('', chalk.bold.underline(CATEGORIES[category]));
    inCategory.forEach((result, i) => out.push(...checkLine(chalk, result, idWidth, inCategory[i - 1])));
  }

  const s = report.summary;
  out.push('');
  out.push(
    `${plural(report.checks.length, 'check')}: ` +
      [
        paint(chalk, 'pass', `${s.pass} pass`),
        paint(chalk, 'warn', `${s.warn} warn`),
        paint(chalk, 'fail', `${s.fail} fail`),
        paint(chalk, 'skip', `${s.skip} skip`),
        paint(chalk, 'error', `${s.error} error`),
      ].join(', ') +
      ` · ${seconds(report.durationMs)}`,
  );
  if (report.error?.code === 'nothing-assessed') {
    out.push(`${chalk.red.bold('NO VERDICT')}: all ${plural(report.checks.length, 'selected check')} ${report.checks.length === 1 ? 'was' : 'were'} skipped`);
  } else if (report.interrupted) {
    out.push(`${chalk.red.bold('NO VERDICT')}: ${report.error?.message ?? `interrupted by ${report.interrupted.signal}`}`);
  } else if (report.ready) {
    const note = s.warn > 0 ? ` (${plural(s.warn, 'warning')}; --strict would refuse them)` : '';
    out.push(chalk.green.bold('READY') + waivedFailures(report) + note);
  } else {
    const blocking = report.checks.filter((c) => report.blocking.includes(c.id));
    const failed = blocking.filter((c) => c.status === 'fail').map((c) => c.id);
    const errored = blocking.filter((c) => c.status === 'error').map((c) => c.id);
    const warned = blocking.filter((c) => c.status === 'warn').map((c) => c.id);
    const parts: string[] = [];
    if (failed.length) parts.push(`failed: ${failed.join(', ')}`);
    if (errored.length) parts.push(`could not assess: ${errored.join(', ')}`);
    if (warned.length) parts.push(`warnings under --strict: ${warned.join(', ')}`);
    out.push(`${chalk.red.bold('NOT READY')}: ${parts.join('; ')}`);
  }
  return `${out.join('\n')}\n`;
}

/** The one-line error of exit code 2, as printed on stderr. */
export function formatHumanError(message: string, options: HumanOptions): string {
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  return `${chalk.red('qprep: error:')} ${message}\n`;
}
