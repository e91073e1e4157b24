import { Chalk, type ChalkInstance } from 'chalk';
import type { AggregateDocument, AggregateNode, Finding, Severity } from './aggregate-schema.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import { formatDuration } from '../util/duration.js';
import { formatRate } from '../util/size.js';
import type { HumanOptions } from './human.js';
import { visibleStrings } from './visible.js';
import { visibleWidth } from './wrap.js';

type AggregateText = Catalogue['commands']['aggregate'];

const SYMBOLS: Record<Severity, string> = { fail: '✗', warn: '!', note: '-' };
const FAILING_WIDTH = 60;

function paintSeverity(chalk: ChalkInstance, severity: Severity, text: string): string {
  return severity === 'fail' ? chalk.red(text) : severity === 'warn' ? chalk.yellow(text) : chalk.dim(text);
}

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

/** `text` padded to `width` terminal columns: a Chinese character takes two. */
function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
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

/** One row per node: verdict, age, NPUs, versions (vllm-ascend when a report read it), failing checks; a value that differs from the other nodes' is marked. */
function nodeTable(document: AggregateDocument, chalk: ChalkInstance, t: AggregateText): string[] {
  const out: string[] = [];
  const oddValues = new Set<string>();
  for (const drift of document.drift) for (const odd of drift.odd) oddValues.add(`${odd.node}\u0000${drift.field}`);
  const value = (node: AggregateNode, field: string): Cell => {
    const text = node.values[field] ?? '-';
    return { text, odd: oddValues.has(`${node.name}\u0000${field}`) };
  };

  const c = t.columns;
  // the vllm-ascend the launches run, when some report read it (a check run with --launch, or the vllm on PATH)
  const withStack = document.nodes.some((node) => node.values.vllmAscend);
  const columns = [c.node, c.verdict, c.age, c.npus, c.driver, c.firmware, c.cann, ...(withStack ? [c.vllmAscend] : []), c.failing];
  const rows: Cell[][] = document.nodes.map((node) => {
    const count = node.values.npuCount;
    const model = node.values.npuModel;
    const npus = count || model ? `${count ?? '?'}×${model ?? '?'}` : '-';
    const failing =
      node.verdict === 'not-ready'
        ? fitList(node.failing.map((f) => f.id), FAILING_WIDTH)
        : node.verdict === 'no-verdict'
          ? cut(`${node.error?.code ?? t.errorCode}: ${node.error?.message ?? ''}`, FAILING_WIDTH)
          : node.verdict === 'missing'
            ? t.noReport
            : '';
    return [
      { text: node.name },
      { text: t.verdicts[node.verdict], paint: (text) => paintVerdict(chalk, node.verdict, text) },
      { text: node.ageSeconds === null ? '-' : formatDuration(node.ageSeconds * 1000), odd: node.stale },
      { text: npus, odd: oddValues.has(`${node.name}\u0000npuCount`) || oddValues.has(`${node.name}\u0000npuModel`) },
      value(node, 'driver'),
      value(node, 'firmware'),
      value(node, 'cann'),
      ...(withStack ? [value(node, 'vllmAscend')] : []),
      { text: failing },
    ];
  });
  // an odd value carries a "*": the width counts it
  const shown = (cell: Cell) => (cell.odd ? `${cell.text}*` : cell.text);
  const widths = columns.map((title, i) => Math.max(visibleWidth(title), ...rows.map((row) => visibleWidth(shown(row[i]!)))));
  const line = (cells: string[], raw: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - visibleWidth(raw[i]!))))
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
    out.push(chalk.dim(t.odd));
  }
  return out;
}

/** The failing checks of each node that is not ready, one line each. */
function notReadySection(document: AggregateDocument, chalk: ChalkInstance, t: AggregateText): string[] {
  const notReady = document.nodes.filter((n) => n.verdict === 'not-ready');
  if (notReady.length === 0) return [];
  const out = ['', chalk.bold.underline(t.notReady)];
  const nameWidth = Math.max(...notReady.map((n) => n.name.length));
  const statusWidth = Math.max(...Object.values(t.statuses).map(visibleWidth));
  const idWidth = Math.max(...notReady.flatMap((n) => n.failing.map((f) => f.id.length)), 0);
  for (const node of notReady) {
    node.failing.forEach((check, i) => {
      const name = i === 0 ? node.name : '';
      const word = pad(t.statuses[check.status === 'error' ? 'error' : check.status === 'warn' ? 'warn' : 'fail'], statusWidth);
      const status = check.status === 'error' ? chalk.magenta(word) : check.status === 'warn' ? chalk.yellow(word) : chalk.red(word);
      out.push(`  ${name.padEnd(nameWidth)}  ${status}  ${chalk.bold(check.id.padEnd(idWidth))}  ${check.message}`);
    });
  }
  return out;
}

/** The launch layout of the instances: a thousand single-node servers are one line; the instances that span nodes or roles get one each. */
function launchSection(document: AggregateDocument, chalk: ChalkInstance, t: AggregateText): string[] {
  if (!document.launch || document.launch.instances.length === 0) return [];
  const out = ['', chalk.bold.underline(t.launchLayout)];
  const alone = document.launch.instances.filter((i) => i.role === 'serve' && i.nodes.length === 1 && i.dp === i.nodes[0]!.dpLocal);
  const listed = document.launch.instances.filter((i) => !alone.includes(i));
  if (alone.length > 0) out.push(t.singleNode({ count: alone.length, nodes: fitList(alone.map((i) => i.nodes[0]!.node), 80) }));
  for (const instance of listed) {
    const role = instance.role === 'serve' ? t.instance : t.roleInstance({ role: instance.role });
    const master = instance.master ? t.master({ master: instance.master, address: instance.address ?? null }) : t.noMaster;
    const nodes = instance.nodes.map((n) => t.ranks({ node: n.node, ranks: n.ranks, script: n.script })).join(', ');
    out.push(t.layout({ role, dp: instance.dp, tp: instance.tp, pp: instance.pp, master, nodes }));
  }
  return out;
}

/** The ping matrix joined from the nodes' halves (pairs: once, rolling). */
function pairsSection(document: AggregateDocument, chalk: ChalkInstance, t: AggregateText): string[] {
  const matrix = document.peerPairs;
  if (!matrix) return [];
  const out = ['', chalk.bold.underline(matrix.rolling ? t.pairsRolling : t.pairsOnce)];
  out.push(t.pairs({ total: matrix.total, reports: matrix.nodes.length, ok: matrix.ok, failed: matrix.failed, notVerified: matrix.notVerified }));
  if (matrix.rolling) {
    const r = matrix.rolling;
    const oldest = r.oldestAgeS === null ? t.noProof : t.oldestProof({ age: r.oldestAgeS });
    const percent = matrix.total > 0 ? Math.floor((matrix.ok * 100) / matrix.total) : 0;
    out.push(t.coverage({ percent, oldest, bound: r.maxAgeS, never: r.never, stale: r.stale }));
  }
  return out;
}

/** The nodes' estimated loads, slowest first: all of a small cluster, the five slowest and the fastest of a large one. */
function loadTimeSection(document: AggregateDocument, chalk: ChalkInstance, t: AggregateText): string[] {
  const load = document.loadTime;
  if (!load) return [];
  const shown = load.nodes.length <= 8 ? load.nodes : [...load.nodes.slice(0, 5), load.nodes[load.nodes.length - 1]!];
  const width = Math.max(...shown.map((n) => visibleWidth(n.node)));
  const out = ['', chalk.bold.underline(t.loadTime)];
  shown.forEach((n, i) => {
    if (load.nodes.length > 8 && i === shown.length - 1) out.push(t.loadTimeMore({ count: load.nodes.length - shown.length }));
    const storage = [n.filesystem ?? '?', n.mountSource, n.throughputBytesPerSec === null ? null : formatRate(n.throughputBytesPerSec)].filter(Boolean).join(' ');
    out.push(t.loadTimeRow({ node: pad(n.node, width), seconds: n.estimatedSeconds, storage }));
  });
  out.push(t.loadSpread({ spread: load.spreadSeconds, slowest: load.slowest, fastest: load.fastest }));
  return out;
}

/** The findings across nodes (all but not-ready, shown above), each with its fix. */
function acrossSection(document: AggregateDocument, chalk: ChalkInstance, t: AggregateText): string[] {
  const others = document.findings.filter((f) => f.kind !== 'not-ready');
  if (others.length === 0) return [];
  const out = ['', chalk.bold.underline(t.across)];
  const severityWidth = Math.max(...Object.values(t.severities).map(visibleWidth));
  // the fix line starts under the message; its continuation lines under the command
  const indent = ' '.repeat(2 + 2 + severityWidth + 2);
  for (const finding of others) {
    out.push(`  ${paintSeverity(chalk, finding.severity, `${SYMBOLS[finding.severity]} ${pad(t.severities[finding.severity], severityWidth)}`)}  ${finding.message}`);
    if (finding.remediation) {
      const [first, ...rest] = finding.remediation.split('\n');
      out.push(`${indent}${chalk.cyan(t.fixLabel)} ${first}`);
      for (const line of rest) out.push(`${indent}${' '.repeat(visibleWidth(t.fixLabel) + 1)}${line}`);
    }
  }
  return out;
}

/**
 * The cluster verdict as a person reads it: one row per node (16 fit a terminal), the failing
 * checks of each node that is not ready, then what differs across nodes, and the verdict.
 */
export function formatAggregateHuman(input: AggregateDocument, options: HumanOptions): string {
  // node names, hostnames and messages come from the nodes' reports: their controls are shown, never raw
  const document = visibleStrings(input);
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const t = (options.text ?? en).commands.aggregate;
  const s = document.summary;
  const header = [
    t.nodesFrom({ nodes: s.nodes, documents: s.documents }),
    document.cluster ? t.cluster({ file: document.cluster.file, nodes: document.cluster.nodes.length }) : t.noCluster,
    document.maxAgeSeconds === null ? t.noMaxAge : t.maxAge({ age: formatDuration(document.maxAgeSeconds * 1000) }),
  ];
  const out = [
    `${chalk.bold(`qprep ${document.tool.version} aggregate`)}  ${header.join(' · ')}`,
    ...nodeTable(document, chalk, t),
    ...notReadySection(document, chalk, t),
    ...launchSection(document, chalk, t),
    ...pairsSection(document, chalk, t),
    ...loadTimeSection(document, chalk, t),
    ...acrossSection(document, chalk, t),
    '',
    verdictLine(document, chalk, t),
  ];
  return `${out.join('\n')}\n`;
}

function verdictLine(document: AggregateDocument, chalk: ChalkInstance, t: AggregateText): string {
  const s = document.summary;
  const assessed = s.nodes;
  const warnings = document.findings.filter((f) => f.severity === 'warn').length;
  if (document.ready) {
    return `${chalk.green.bold(t.ready)}${t.labelSeparator}${t.readyVerdict({ ready: s.ready, nodes: assessed, warnings, strict: document.strict })}`;
  }
  const blocking = (f: Finding) => f.severity === 'fail' || (f.severity === 'warn' && document.strict);
  const parts: string[] = [];
  if (s.notReady > 0) parts.push(t.nodesNotReady({ count: s.notReady, nodes: assessed }));
  if (s.noVerdict > 0) parts.push(t.withoutVerdict({ count: s.noVerdict }));
  if (s.missing > 0) parts.push(t.missing({ count: s.missing }));
  if (s.stale > 0) parts.push(t.stale({ count: s.stale }));
  const differs = document.drift.filter((d) => d.severity === 'fail' || (d.severity === 'warn' && document.strict)).map((d) => d.label);
  if (differs.length > 0) parts.push(t.differs({ labels: differs.join(', ') }));
  if (document.collisions.length > 0) parts.push(t.collisions({ count: document.collisions.length }));
  const launch = document.findings.filter((f) => f.kind === 'launch' && blocking(f)).length;
  if (launch > 0) parts.push(t.launchProblems({ count: launch }));
  const unexpected = document.findings.filter((f) => f.kind === 'unexpected-node' && blocking(f)).length;
  if (unexpected > 0) parts.push(t.notInCluster({ count: unexpected }));
  if (document.peerPairs && document.peerPairs.failed > 0) parts.push(t.pairsFailed({ count: document.peerPairs.failed }));
  if (document.peerPairs && document.peerPairs.notVerified > 0) parts.push(t.pairsNotVerified({ count: document.peerPairs.notVerified }));
  if (document.loadTime && document.findings.some((f) => f.kind === 'load-skew' && blocking(f))) parts.push(t.loadSkew({ spread: document.loadTime.spreadSeconds }));
  return `${chalk.red.bold(t.notReadyLabel)}${t.labelSeparator}${parts.join(t.partsSeparator)}`;
}
