import { Chalk, type ChalkInstance } from 'chalk';
import type { AggregateDocument, AggregateNode, Finding, Severity } from '../aggregate/schema.js';
import { formatDuration } from '../util/duration.js';
import { plural } from '../util/text.js';
import type { HumanOptions } from './human.js';
import { visibleStrings } from './visible.js';

const SYMBOLS: Record<Severity, string> = { fail: '✗', warn: '!', note: '-' };
const FAILING_WIDTH = 60;

function paintSeverity(chalk: ChalkInstance, severity: Severity, text: string): string {
  return severity === 'fail' ? chalk.red(text) : severity === 'warn' ? chalk.yellow(text) : chalk.dim(text);
}

const VERDICT_TEXT: Record<AggregateNode['verdict'], string> = { ready: 'ready', 'not-ready': 'NOT READY', 'no-verdict': 'NO VERDICT', missing: 'MISSING' };

function paintVerdict(chalk: ChalkInstance, verdict: AggregateNode['verdict'], text: string): string {
  return verdict === 'ready' ? chalk.green(text) : verdict === 'not-ready' ? chalk.red(text) : chalk.magenta(text);
}

/** "a, b, c +4": as many ids as fit in the column, and how many more. */
function fitList(items: readonly string[], width: number): string {
  let text = '';
  for (const [i, item] of items.entries()) {
    const next = text ? `${text}, ${item}` : item;
    const rest = items.length - i - 1;
    if (next.length + (rest > 0 ? ` +${rest}`.length : 0) > width && text) return `${text} +${items.length - i}`;
    text = next;
  }
  return text;
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 3)}...` : text;
}

interface Cell {
  text: string;
  /** the node's value differs from the other nodes', or its report is stale */
  odd?: boolean;
  paint?: (text: string) => string;
}

/**
 * The cluster verdict as a person reads it: one row per node (16 fit a terminal), the failing
 * checks of each node that is not ready, then what differs across nodes, and the verdict.
 */
export function formatAggregateHuman(input: AggregateDocument, options: HumanOptions): string {
  // node names, hostnames and messages come from the nodes' reports: their controls are shown, never raw
  const document = visibleStrings(input);
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const out: string[] = [];
  const s = document.summary;
  const header = [
    `${plural(s.nodes, 'node')} from ${plural(s.documents, 'document')}`,
    document.cluster ? `cluster ${document.cluster.file} (${plural(document.cluster.nodes.length, 'node')})` : 'no cluster file',
    document.maxAgeSeconds === null ? 'no max age' : `max age ${formatDuration(document.maxAgeSeconds * 1000)}`,
  ];
  out.push(`${chalk.bold(`qprep ${document.tool.version} aggregate`)}  ${header.join(' · ')}`);

  const oddValues = new Set<string>();
  for (const drift of document.drift) for (const odd of drift.odd) oddValues.add(`${odd.node}\u0000${drift.field}`);
  const value = (node: AggregateNode, field: string): Cell => {
    const text = node.values[field] ?? '-';
    return { text, odd: oddValues.has(`${node.name}\u0000${field}`) };
  };

  const columns = ['NODE', 'VERDICT', 'AGE', 'NPUS', 'DRIVER', 'FIRMWARE', 'CANN', 'FAILING'];
  const rows: Cell[][] = document.nodes.map((node) => {
    const count = node.values.npuCount;
    const model = node.values.npuModel;
    const npus = count || model ? `${count ?? '?'}×${model ?? '?'}` : '-';
    const failing =
      node.verdict === 'not-ready'
        ? fitList(node.failing.map((f) => f.id), FAILING_WIDTH)
        : node.verdict === 'no-verdict'
          ? cut(`${node.error?.code ?? 'error'}: ${node.error?.message ?? ''}`, FAILING_WIDTH)
          : node.verdict === 'missing'
            ? 'no report'
            : '';
    return [
      { text: node.name },
      { text: VERDICT_TEXT[node.verdict], paint: (t) => paintVerdict(chalk, node.verdict, t) },
      { text: node.ageSeconds === null ? '-' : formatDuration(node.ageSeconds * 1000), odd: node.stale },
      { text: npus, odd: oddValues.has(`${node.name}\u0000npuCount`) || oddValues.has(`${node.name}\u0000npuModel`) },
      value(node, 'driver'),
      value(node, 'firmware'),
      value(node, 'cann'),
      { text: failing },
    ];
  });
  // an odd value carries a "*": the width counts it
  const shown = (cell: Cell) => (cell.odd ? `${cell.text}*` : cell.text);
  const widths = columns.map((title, i) => Math.max(title.length, ...rows.map((row) => shown(row[i]!).length)));
  const line = (cells: string[], raw: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - raw[i]!.length)))
      .join('  ')
      .trimEnd();
  out.push('', chalk.bold(line(columns, columns)));
  for (const row of rows) {
    const raw = row.map(shown);
    const painted = row.map((cell) => {
      const text = shown(cell);
      if (cell.odd) return chalk.red(text);
      return cell.paint ? cell.paint(text) : text;
    });
    out.push(line(painted, raw));
  }
  if (document.drift.some((d) => d.odd.length > 0) || document.nodes.some((n) => n.stale)) {
    out.push(chalk.dim('* differs from most nodes (or older than --max-age)'));
  }

  const notReady = document.nodes.filter((n) => n.verdict === 'not-ready');
  if (notReady.length > 0) {
    out.push('', chalk.bold.underline('Not ready'));
    const nameWidth = Math.max(...notReady.map((n) => n.name.length));
    const idWidth = Math.max(...notReady.flatMap((n) => n.failing.map((f) => f.id.length)), 0);
    for (const node of notReady) {
      node.failing.forEach((check, i) => {
        const name = i === 0 ? node.name : '';
        const status = check.status === 'error' ? chalk.magenta('? error') : check.status === 'warn' ? chalk.yellow('! warn ') : chalk.red('✗ fail ');
        out.push(`  ${name.padEnd(nameWidth)}  ${status}  ${chalk.bold(check.id.padEnd(idWidth))}  ${check.message}`);
      });
    }
  }

  if (document.launch && document.launch.instances.length > 0) {
    out.push('', chalk.bold.underline('Launch layout'));
    // a thousand single-node servers are one line; the instances that span nodes or roles get one each
    const alone = document.launch.instances.filter((i) => i.role === 'serve' && i.nodes.length === 1 && i.dp === i.nodes[0]!.dpLocal);
    const listed = document.launch.instances.filter((i) => !alone.includes(i));
    if (alone.length > 0) out.push(`  ${plural(alone.length, 'single-node instance')}: ${fitList(alone.map((i) => i.nodes[0]!.node), 80)}`);
    for (const instance of listed) {
      const role = instance.role === 'serve' ? 'instance' : `${instance.role} instance`;
      const master = instance.master ? `master ${instance.master}${instance.address ? ` at ${instance.address}` : ''}` : 'no master';
      const pp = instance.pp > 1 ? ` x PP ${instance.pp}` : '';
      const nodes = instance.nodes.map((n) => `${n.node} ranks ${n.ranks || 'none'} (${n.script})`).join(', ');
      out.push(`  ${role}, DP ${instance.dp} x TP ${instance.tp}${pp}, ${master}: ${nodes}`);
    }
  }

  const matrix = document.peerPairs;
  if (matrix) {
    out.push('', chalk.bold.underline(matrix.rolling ? 'NPU pairs (plan: rolling)' : 'NPU pairs (pairs: once)'));
    out.push(`  ${matrix.total} pairs joined from ${plural(matrix.nodes.length, 'report')}: ${matrix.ok} ok, ${matrix.failed} failed, ${matrix.notVerified} not verified`);
    if (matrix.rolling) {
      const r = matrix.rolling;
      const oldest = r.oldestAgeS === null ? 'no proof within the bound' : `oldest valid proof ${r.oldestAgeS} s`;
      out.push(`  rolling coverage ${matrix.total > 0 ? Math.floor((matrix.ok * 100) / matrix.total) : 0}%: ${oldest} (bound ${r.maxAgeS} s), ${r.never} never proven, ${r.stale} older than the bound`);
    }
  }

  const others = document.findings.filter((f) => f.kind !== 'not-ready');
  if (others.length > 0) {
    out.push('', chalk.bold.underline('Across the cluster'));
    for (const finding of others) {
      out.push(`  ${paintSeverity(chalk, finding.severity, `${SYMBOLS[finding.severity]} ${finding.severity.padEnd(4)}`)}  ${finding.message}`);
      if (finding.remediation) {
        const [first, ...rest] = finding.remediation.split('\n');
        out.push(`          ${chalk.cyan('fix:')} ${first}`);
        for (const line of rest) out.push(`               ${line}`);
      }
    }
  }

  out.push('', verdictLine(document, chalk));
  return `${out.join('\n')}\n`;
}

function verdictLine(document: AggregateDocument, chalk: ChalkInstance): string {
  const s = document.summary;
  const assessed = s.nodes;
  const warnings = document.findings.filter((f) => f.severity === 'warn').length;
  if (document.ready) {
    const note = warnings > 0 && !document.strict ? ` (${plural(warnings, 'warning')}; --strict would refuse them)` : '';
    return `${chalk.green.bold('CLUSTER READY')}: ${s.ready} of ${plural(assessed, 'node')} ready${note}`;
  }
  const blocking = (f: Finding) => f.severity === 'fail' || (f.severity === 'warn' && document.strict);
  const parts: string[] = [];
  if (s.notReady > 0) parts.push(`${s.notReady} of ${plural(assessed, 'node')} not ready`);
  if (s.noVerdict > 0) parts.push(`${s.noVerdict} without a verdict`);
  if (s.missing > 0) parts.push(`${s.missing} missing`);
  if (s.stale > 0) parts.push(`${s.stale} stale`);
  const differs = document.drift.filter((d) => d.severity === 'fail' || (d.severity === 'warn' && document.strict)).map((d) => d.label);
  if (differs.length > 0) parts.push(`differs: ${differs.join(', ')}`);
  if (document.collisions.length > 0) parts.push(plural(document.collisions.length, 'device IP collision'));
  const launch = document.findings.filter((f) => f.kind === 'launch' && blocking(f)).length;
  if (launch > 0) parts.push(plural(launch, 'launch script problem'));
  const unexpected = document.findings.filter((f) => f.kind === 'unexpected-node' && blocking(f)).length;
  if (unexpected > 0) parts.push(`${unexpected} not in the cluster file`);
  if (document.peerPairs && document.peerPairs.failed > 0) parts.push(plural(document.peerPairs.failed, 'NPU pair') + ' failed');
  if (document.peerPairs && document.peerPairs.notVerified > 0) parts.push(plural(document.peerPairs.notVerified, 'NPU pair') + ' not verified');
  return `${chalk.red.bold('CLUSTER NOT READY')}: ${parts.join('; ')}`;
}
