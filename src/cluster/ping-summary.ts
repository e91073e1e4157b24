import { en, type Catalogue } from '../i18n/en/index.js';
import type { PingReport } from '../parsers/hccn-ping.js';
import { summarizeList } from '../util/text.js';
import type { PlannedPing, UnplannedPing } from './plan.js';

/** What one planned ping came to. */
export type PingOutcome =
  | { status: 'ok'; received: number; transmitted: number }
  | { status: 'loss'; lossPercent: number; received: number; transmitted: number }
  | { status: 'unreachable' }
  /** the ping could not be judged: the tool failed, timed out, stayed busy, printed no summary */
  | { status: 'error'; problem: string }
  /** not run, on purpose: e.g. the local device's link is DOWN */
  | { status: 'skipped'; reason: string };

export interface PingResult {
  ping: PlannedPing;
  outcome: PingOutcome;
}

/** The outcome a parsed ping section stands for. */
export function outcomeOfReport(report: PingReport): PingOutcome {
  switch (report.verdict) {
    case 'ok':
      return { status: 'ok', received: report.received ?? 0, transmitted: report.transmitted ?? 0 };
    case 'loss': {
      const transmitted = report.transmitted ?? 0;
      const received = report.received ?? 0;
      const lossPercent = report.lossPercent ?? (transmitted > 0 ? ((transmitted - received) / transmitted) * 100 : 100);
      return { status: 'loss', lossPercent, received, transmitted };
    }
    case 'unreachable':
      return { status: 'unreachable' };
    case 'incomplete': {
      const why = report.messageTooLong ? 'Message too long' : report.messages[0] ? `"${report.messages[0]}"` : 'no summary line';
      return { status: 'error', problem: `the ping printed no result (${why})` };
    }
  }
}

/** "100%", "33.33%": whole numbers as such, others with the tool's two decimals. */
export function formatLoss(percent: number): string {
  return Number.isInteger(percent) ? `${percent}%` : `${percent.toFixed(2)}%`;
}

/**
 * The words of a language (ctx.text); English unless told. The outcome's problem and reason are
 * quoted as the probe gave them: the same text is in the evidence.
 */
type PingText = Pick<Catalogue, 'probes' | 'report'>;

/** "node1 dev3 -> node2 dev3 (198.18.2.3)", with "hccs" for an A3 HCCS ping. */
export function describePing(ping: PlannedPing, text: PingText = en): string {
  const { localNode, localDevice, peerNode, peerDevice, address } = ping;
  return text.probes.pings.ping({ localNode, localDevice, peerNode, peerDevice, address, hccs: ping.method === 'hccs' });
}

export function describeOutcome(outcome: PingOutcome, text: PingText = en): string {
  const t = text.probes.pings;
  switch (outcome.status) {
    case 'ok':
      return t.ok;
    case 'loss':
      return t.loss({ loss: formatLoss(outcome.lossPercent) });
    case 'unreachable':
      return t.unreachable;
    case 'error':
      return t.notAssessed({ problem: outcome.problem });
    case 'skipped':
      return t.skipped({ reason: outcome.reason });
  }
}

/** One report line: `node1 dev3 -> node2 dev3 (198.18.2.3): 100% loss`. */
export function describeResult(result: PingResult, text: PingText = en): string {
  return text.probes.pings.result({ ping: describePing(result.ping, text), outcome: describeOutcome(result.outcome, text) });
}

const isFailure = (r: PingResult) => r.outcome.status === 'loss' || r.outcome.status === 'unreachable';

export interface PeerSummary {
  peerNode: string;
  total: number;
  ok: number;
  failed: number;
  errors: number;
  skipped: number;
  /** `node2: 14 of 16 ok; failing dev3 (100% loss), dev7 (33.33% loss)` */
  line: string;
}

export interface PingSummary {
  total: number;
  ok: number;
  /** loss or unreachable: the network answered, badly */
  failed: number;
  /** could not be judged */
  errors: number;
  skipped: number;
  /** one line per failing pair, in cluster order */
  failures: string[];
  /** one line per ping that could not be judged */
  problems: string[];
  /** one line per skipped ping and per pair the plan could not ping */
  skippedLines: string[];
  byPeer: PeerSummary[];
  /** patterns worth more than the lines: a local device that reaches no one, a peer nobody reaches */
  diagnoses: string[];
  /** one line for a log: `4 of 48 pings failed: node1 dev3 -> ... : 100% loss, ... and 1 more` */
  headline: string;
}

function pairLabel(ping: PlannedPing): string {
  return ping.localDevice === ping.peerDevice ? `dev${ping.localDevice}` : `dev${ping.localDevice}->dev${ping.peerDevice}`;
}

function byOrder(a: PingResult, b: PingResult, peerOrder: Map<string, number>): number {
  return (
    (peerOrder.get(a.ping.peerNode) ?? 0) - (peerOrder.get(b.ping.peerNode) ?? 0) ||
    a.ping.localDevice - b.ping.localDevice ||
    a.ping.peerDevice - b.ping.peerDevice
  );
}

/**
 * Turns the ping results of one node into report lines that stay readable at 16 devices x 4
 * nodes: every failing pair on its own line, one line per peer, and the patterns that point at
 * the cause (one local port down, one peer off the network).
 */
export function summarizePings(results: readonly PingResult[], unplanned: readonly UnplannedPing[] = [], text: PingText = en): PingSummary {
  const t = text.probes.pings;
  const list = text.report.list;
  const line = (result: PingResult) => describeResult(result, text);
  const peerOrder = new Map<string, number>();
  for (const r of results) if (!peerOrder.has(r.ping.peerNode)) peerOrder.set(r.ping.peerNode, peerOrder.size);
  for (const u of unplanned) if (!peerOrder.has(u.peerNode)) peerOrder.set(u.peerNode, peerOrder.size);
  const sorted = [...results].sort((a, b) => byOrder(a, b, peerOrder));
  const count = (status: PingOutcome['status']) => sorted.filter((r) => r.outcome.status === status).length;
  const failures = sorted.filter(isFailure).map(line);
  const problems = sorted.filter((r) => r.outcome.status === 'error').map(line);
  const skippedLines = [
    ...sorted.filter((r) => r.outcome.status === 'skipped').map(line),
    ...unplanned.map((u) => t.notPlanned({ localNode: u.localNode, localDevice: u.localDevice, peerNode: u.peerNode, peerDevice: u.peerDevice, reason: u.reason })),
  ];

  const byPeer: PeerSummary[] = [...peerOrder.keys()].map((peerNode) => {
    const mine = sorted.filter((r) => r.ping.peerNode === peerNode);
    const notPlanned = unplanned.filter((u) => u.peerNode === peerNode).length;
    const ok = mine.filter((r) => r.outcome.status === 'ok').length;
    const failing = mine.filter(isFailure);
    const errors = mine.filter((r) => r.outcome.status === 'error');
    const skipped = mine.filter((r) => r.outcome.status === 'skipped').length + notPlanned;
    const parts = [t.peerOk({ peer: peerNode, ok, total: mine.length + notPlanned })];
    if (failing.length > 0) parts.push(t.peerFailing({ pairs: summarizeList(failing.map((r) => t.pairOutcome({ pair: pairLabel(r.ping), outcome: describeOutcome(r.outcome, text) })), 6, list) }));
    if (errors.length > 0) parts.push(t.peerNotAssessed({ pairs: summarizeList(errors.map((r) => pairLabel(r.ping)), 6, list) }));
    if (skipped > 0) parts.push(t.peerSkipped({ count: skipped }));
    return { peerNode, total: mine.length + notPlanned, ok, failed: failing.length, errors: errors.length, skipped, line: t.parts({ parts }) };
  });

  const diagnoses: string[] = [];
  const judged = sorted.filter((r) => r.outcome.status !== 'skipped' && r.outcome.status !== 'error');
  const localDevices = [...new Set(judged.map((r) => r.ping.localDevice))].sort((a, b) => a - b);
  for (const device of localDevices) {
    const mine = judged.filter((r) => r.ping.localDevice === device);
    if (mine.length >= 2 && mine.every(isFailure)) {
      diagnoses.push(t.localReachesNone({ node: mine[0]!.ping.localNode, device, count: mine.length }));
    }
  }
  for (const peerNode of peerOrder.keys()) {
    const toPeer = judged.filter((r) => r.ping.peerNode === peerNode);
    if (toPeer.length >= 2 && toPeer.every(isFailure)) {
      diagnoses.push(t.peerAnswersNone({ peer: peerNode, count: toPeer.length }));
      continue;
    }
    const peerDevices = [...new Set(toPeer.map((r) => r.ping.peerDevice))].sort((a, b) => a - b);
    for (const device of peerDevices) {
      const toDevice = toPeer.filter((r) => r.ping.peerDevice === device);
      if (toDevice.length >= 2 && toDevice.every(isFailure)) {
        diagnoses.push(t.peerDeviceAnswersNone({ peer: peerNode, device, count: toDevice.length }));
      }
    }
  }

  const total = sorted.length;
  const failed = failures.length;
  const errors = problems.length;
  const okCount = count('ok');
  let headline: string;
  if (total === 0) headline = unplanned.length > 0 ? t.nonePlannable({ lines: summarizeList(skippedLines, 2, list) }) : t.nonePlanned;
  else if (failed === 0 && errors === 0) headline = t.allOk({ total, skipped: skippedLines.length });
  else {
    const parts: string[] = [];
    if (failed > 0) parts.push(t.failed({ failed, total, list: summarizeList(failures, 3, list) }));
    if (errors > 0) parts.push(t.notAssessedCount({ errors, total, list: summarizeList(problems, failed > 0 ? 1 : 3, list) }));
    headline = t.parts({ parts });
  }
  return {
    total,
    ok: okCount,
    failed,
    errors,
    skipped: count('skipped') + unplanned.length,
    failures,
    problems,
    skippedLines,
    byPeer,
    diagnoses,
    headline,
  };
}

/** The block a human report prints under the check: per-peer lines, diagnoses, then every failing pair. */
export function formatPingSummary(summary: PingSummary): string[] {
  return [...summary.byPeer.map((p) => p.line), ...summary.diagnoses, ...summary.failures, ...summary.problems];
}
