import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en } from '../src/i18n/en/index.js';
import type { Catalogue } from '../src/i18n/index.js';
import { describeOutcome, describePing, formatPingSummary, summarizePings, type PingOutcome, type PingSummary } from '../src/cluster/ping-summary.js';
import { planPings, type PingPlan, type PlannedPing, type RollingPart } from '../src/cluster/plan.js';
import { RollingLedger, type PairProof, type RollingCoverage } from '../src/cluster/rolling.js';
import type { Outcome } from '../src/core/types.js';
import { hccnLink, hccnVnic, runPings, type PingRun } from '../src/probes/hccn.js';
import { devName, hccnScope } from '../src/probes/hccn-scope.js';
import { formatDuration } from '../src/util/duration.js';
import { plural, summarizeList } from '../src/util/text.js';

/** A lost packet waits for a device-side timeout nobody documents; a busy tool is retried for ~6 s. */
const BUSY_RETRY_MS = 6_200;

/** The most pings the plan can hold, before the NPU inventory is known: 16 devices when the file does not say. */
function plannedUpperBound(ctx: CheckContext): number {
  const loaded = ctx.cluster;
  if (!loaded) return 0;
  const { cluster, self } = loaded;
  const devicesOf = (count: number) => Math.max(count, 16);
  const local = devicesOf(self.devices.length);
  // rolling: the ring neighbours on both sides, and the budget beyond them
  if (cluster.plan === 'rolling') return Math.min(2 * cluster.ringK, cluster.nodes.length - 1) * local + cluster.rollingK;
  const peers = cluster.plan === 'ring' ? Math.min(cluster.ringK, cluster.nodes.length - 1) : cluster.nodes.length - 1;
  const remote = devicesOf(Math.max(0, ...cluster.nodes.map((n) => n.devices.length)));
  return peers * (cluster.plan === 'full-mesh' ? local * remote : local);
}

/** A one-shot check with plan: rolling takes the rotation of the current minute. */
const ONE_SHOT_ROTATION_MS = 60_000;

function proofOf(outcome: PingOutcome, atMs: number): PairProof {
  if (outcome.status === 'ok') return { atMs, state: 'ok', detail: 'ok' };
  const detail = describeOutcome(outcome);
  return { atMs, state: outcome.status === 'loss' || outcome.status === 'unreachable' ? 'failed' : 'not-verified', detail };
}

interface RollingJudgement {
  coverage: RollingCoverage;
  partialOneShot: boolean;
  evidence: Record<string, unknown>;
}

/** Records this run's pings in the ledger (a fresh one for a one-shot check) and judges the whole matrix by its last proofs. */
function judgeRolling(ctx: CheckContext, kept: RollingLedger | undefined, part: RollingPart, runs: ReadonlyArray<{ ping: PlannedPing; outcome: PingOutcome }>, maxAgeS: number): RollingJudgement {
  const ledger = kept ?? new RollingLedger();
  const nowMs = ctx.now().getTime();
  ledger.record(runs.map((r) => ({ localDevice: r.ping.localDevice, peerNode: r.ping.peerNode, peerDevice: r.ping.peerDevice, proof: proofOf(r.outcome, nowMs) })));
  const { pairs, coverage } = ledger.judge(part.matrix, nowMs, maxAgeS);
  return {
    coverage,
    partialOneShot: kept === undefined,
    evidence: {
      rotation: part.rotation,
      rotations: part.rotations,
      budget: part.budget,
      ringPairs: part.ringPairs,
      pool: part.pool,
      maxAgeS,
      keptAcrossRuns: kept !== undefined,
      coverage,
      proofs: pairs,
    },
  };
}

/**
 * Past this run's own failures: a pair that failed at its last proof fails the check; a matrix
 * not yet proven whole warns (partial coverage: qprep aggregate counts the rest not verified).
 */
function rollingVerdict(t: PeersText, rolling: RollingJudgement, pinged: number, details: string[], evidence: Record<string, unknown>): Outcome | undefined {
  const { coverage } = rolling;
  const { ok, total, maxAgeS, never, stale, oldestAgeS } = coverage;
  const lines = [...details, t.coverage({ ok, total, maxAgeS, never, stale, oldestAgeS })];
  const { rotation: step, rotations } = evidence.rolling as { rotation: number; rotations: number };
  const rotation = t.rotation({ rotation: (step % rotations) + 1, rotations });
  if (coverage.failed > 0) {
    return fail(t.rollingFailed({ failed: coverage.failed, rotation }), {
      expected: 'every pair of the matrix answers at its last proof',
      actual: `${coverage.ok} ok, ${coverage.failed} failed, ${coverage.notVerified} not verified of ${coverage.total}`,
      remediation: t.rollingFailedFix,
      evidence,
      details: lines,
    });
  }
  if (coverage.notVerified > 0) {
    const where = rolling.partialOneShot ? t.partialOneShot : t.partialServe;
    return warn(t.rollingPartial({ pinged, ok, total, rotation, where }), {
      remediation: t.rollingPartialFix({ rotations, maxAgeS }),
      evidence,
      details: lines,
    });
  }
  return pass(t.rollingOk({ total, maxAgeS, rotation, pinged }), { evidence, details: lines });
}

/**
 * pairs: once: the pairs of this node its peers ping, by owner, as [local device, peer device].
 * With the pairs this node pings (results, unplanned) they are every pair of this node the plan
 * covers; qprep aggregate joins them with the owners' results (peer-pairs.ts reads them back).
 */
function peerOwnedEvidence(plan: PingPlan): { peerOwned?: Array<{ peerNode: string; pairs: Array<[number, number]> }> } {
  if (plan.pairs !== 'once') return {};
  const byPeer = new Map<string, Array<[number, number]>>();
  for (const pair of plan.peerOwned) {
    const list = byPeer.get(pair.peerNode) ?? [];
    list.push([pair.localDevice, pair.peerDevice]);
    byPeer.set(pair.peerNode, list);
  }
  return { peerOwned: [...byPeer.entries()].map(([peerNode, pairs]) => ({ peerNode, pairs })) };
}

type PeersText = Catalogue['checks']['hccn.peers'];

/** `pinged by the peers (pairs: once; qprep aggregate joins them): node2 8, node3 8` */
function peerOwnedLine(plan: PingPlan, text: Catalogue): string[] {
  if (plan.pairs !== 'once' || plan.peerOwned.length === 0) return [];
  const t = text.checks['hccn.peers'];
  const counts = new Map<string, number>();
  for (const pair of plan.peerOwned) counts.set(pair.peerNode, (counts.get(pair.peerNode) ?? 0) + 1);
  return [t.peerOwned({ list: summarizeList([...counts].map(([node, count]) => t.peerOwnedItem({ node, count })), 8, text.report.list) })];
}

/** Names the reason a ping was not run in English (the evidence) and keeps the run's language for a person. */
type ReasonOf = (say: (c: Catalogue) => string) => string;

/**
 * A device whose port is DOWN cannot answer: its pings are skipped with that cause, not run
 * to time out. The RoCE link of every device pinged from, and its vNIC when HCCS is used.
 */
async function downLinks(ctx: CheckContext, plan: PingPlan, reason: ReasonOf): Promise<(ping: PlannedPing) => string | undefined> {
  const involved = [...new Set(plan.pings.map((p) => p.localDevice))];
  const usesHccs = plan.pings.some((p) => p.method === 'hccs');
  const [links, vnics] = await Promise.all([
    Promise.all(involved.map(async (device) => ({ device, answer: await hccnLink(ctx, device) }))),
    usesHccs ? Promise.all(involved.map(async (device) => ({ device, answer: await hccnVnic(ctx, device) }))) : Promise.resolve([]),
  ]);
  const roceDown = new Set(links.filter(({ answer }) => answer.ok && answer.value.entries.some((e) => !e.vnic && !e.up)).map((l) => l.device));
  const vnicDown = new Set(vnics.filter(({ answer }) => answer.ok && answer.value.entries.some((e) => e.linkStatus !== null && e.linkStatus !== 'UP')).map((v) => v.device));
  return (ping) => {
    const device = devName(ping.localDevice);
    if (ping.method === 'roce' && roceDown.has(ping.localDevice)) return reason((c) => c.checks['hccn.peers'].linkDown({ device }));
    if (ping.method === 'hccs' && vnicDown.has(ping.localDevice)) return reason((c) => c.checks['hccn.peers'].vnicDown({ device }));
    return undefined;
  };
}

/** Every planned ping and its outcome, for programs. */
function pingEvidence(planEvidence: Record<string, unknown>, plan: PingPlan, runs: readonly PingRun[], summary: PingSummary, rolling: RollingJudgement | undefined): Record<string, unknown> {
  return {
    ...planEvidence,
    total: runs.length,
    ok: summary.ok,
    failed: summary.failed,
    errors: summary.errors,
    skipped: summary.skipped,
    results: runs.map((r) => ({
      localDevice: r.ping.localDevice,
      peerNode: r.ping.peerNode,
      peerDevice: r.ping.peerDevice,
      address: r.ping.address,
      method: r.ping.method,
      outcome: r.outcome,
      attempts: r.attempts,
    })),
    unplanned: plan.unplanned,
    ...(rolling ? { rolling: rolling.evidence } : {}),
  };
}

/** What a failing run is judged with. */
interface PingVerdictInput {
  ctx: CheckContext;
  plan: PingPlan;
  runs: readonly PingRun[];
  summary: PingSummary;
  /** the pings not run (link down, budget spent), and the reason of each as a person reads it */
  notRun: readonly PingRun[];
  reasonShown: (r: PingRun) => string | undefined;
  /** the reason of the pings the budget left untried */
  budgetSpent: string;
  budget: number;
  evidence: Record<string, unknown>;
  details: string[];
}

/** Pairs that lost packets or were not run: the first one's exact ping is the fix; a spent budget says so. */
function failedPings(input: PingVerdictInput): Outcome {
  const { ctx, plan, runs, summary, notRun, reasonShown, budget, evidence, details } = input;
  const t = ctx.text.checks['hccn.peers'];
  const parts: string[] = [];
  if (summary.failed > 0) parts.push(summary.headline);
  if (notRun.length > 0) parts.push(t.notRun({ notRun: notRun.length, total: runs.length, reasons: summarizeList([...new Set(notRun.map((r) => reasonShown(r)!))], 2, ctx.text.report.list) }));
  const first = summary.failed > 0 ? runs.find((r) => r.outcome.status === 'loss' || r.outcome.status === 'unreachable')!.ping : notRun[0]!.ping;
  const command = first.method === 'hccs' ? '-hccs_ping' : '-ping';
  const untried = notRun.filter((r) => (r.outcome as { reason: string }).reason === input.budgetSpent).length;
  if (summary.failed === 0 && untried > 0) {
    const message = untried === notRun.length ? t.untried({ untried, total: runs.length, budget: formatDuration(budget) }) : t.parts({ parts });
    return fail(message, {
      expected: `every planned pair answers (${plan.plan}, ${plural(plan.peers.length, 'peer')}) within hccn.peersBudget (${formatDuration(budget)})`,
      actual: `${summary.ok} of ${runs.length} ok, ${untried} not tried, ${summary.errors} not assessed`,
      remediation: t.budgetFix({ untried }),
      evidence,
      details,
    });
  }
  return fail(t.parts({ parts }), {
    expected: `every planned pair answers (${plan.plan}, ${plural(plan.peers.length, 'peer')})`,
    actual: `${summary.ok} of ${runs.length} ok, ${summary.failed} failed, ${notRun.length} not run, ${summary.errors} not assessed`,
    remediation: t.failFix({
      ping: describePing(first, ctx.text),
      localDevice: first.localDevice,
      localNode: first.localNode,
      peerDevice: first.peerDevice,
      peerNode: first.peerNode,
      command,
      address: first.address,
    }),
    evidence,
    details,
  });
}

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.peers',
  category: 'hccn',
  order: 100,
  level: 'required',
  cost: { hccnTool: [{ args: '-link -g' }, { args: '-vnic -g', families: ['a3'] }], pings: true },
  action: 'reconfigure',
  budgetMs(ctx) {
    const pings = plannedUpperBound(ctx);
    const concurrency = Math.max(1, ctx.profile.hccn.concurrency);
    const plan = Math.ceil((pings * (ctx.timeoutMs + BUSY_RETRY_MS)) / concurrency);
    // past hccn.peersBudget no ping starts: what runs then ends within one probe timeout
    return Math.min(plan, ctx.profile.hccn.peersBudget + ctx.timeoutMs) + ctx.timeoutMs * 4 + 10_000;
  },
  async run(ctx) {
    const t = ctx.text.checks['hccn.peers'];
    const list = ctx.text.report.list;
    const loaded = ctx.cluster;
    if (!loaded) return skip(t.noCluster, { remediation: t.noClusterFix });
    const { cluster, self } = loaded;
    if (cluster.nodes.length < 2) return skip(t.oneNode({ file: loaded.file }), { remediation: t.oneNodeFix });
    const budget = ctx.profile.hccn.peersBudget;
    // the reasons a ping was not run are evidence, in English; `shown` has what a person reads
    const shown = new Map<string, string>();
    const reason: ReasonOf = (say) => {
      const english = say(en);
      shown.set(english, say(ctx.text));
      return english;
    };
    const budgetText = formatDuration(budget);
    const startBy = { at: performance.now() + budget, why: reason((c) => c.checks['hccn.peers'].budgetSpent({ budget: budgetText })) };
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const family = scope.family === 'a2' || scope.family === 'a3' ? scope.family : cluster.family;
    // rolling: serve's run counter; a one-shot check walks the rotation with the clock, one step a minute
    const rotation = cluster.plan === 'rolling' ? (loaded.rolling?.nextRotation() ?? Math.floor(ctx.now().getTime() / ONE_SHOT_ROTATION_MS)) : undefined;
    const plan = planPings(cluster, self.name, { family, localDevices: scope.devices.map((d) => d.device), ...(rotation === undefined ? {} : { rotation }) });
    const planEvidence = { plan: plan.plan, ringK: plan.ringK, pairs: plan.pairs, family: plan.family, peers: plan.peers, ...peerOwnedEvidence(plan) };
    if (plan.pings.length === 0 && plan.unplanned.length === 0 && plan.peerOwned.length > 0) {
      // pairs: once between few devices: the peers may own every pair of this node
      const owners = { node: self.name, pairs: plan.peerOwned.length, peers: summarizeList(plan.peers, 4, list), peerCount: plan.peers.length, plan: plan.plan };
      return pass(t.ownsNone(owners), {
        evidence: { ...planEvidence, total: 0, ok: 0, failed: 0, errors: 0, skipped: 0, results: [], unplanned: [] },
        details: peerOwnedLine(plan, ctx.text),
      });
    }
    if (plan.pings.length === 0) {
      const why = plan.unplanned[0]?.reason ?? t.peersListNoDevice;
      return warn(t.nonePlanned({ node: self.name, why }), {
        remediation: t.nonePlannedFix,
        evidence: { ...planEvidence, unplanned: plan.unplanned },
      });
    }

    const downReason = await downLinks(ctx, plan, reason);

    const runs = await runPings(ctx, plan.pings, { skip: downReason, startBy });
    const reasonShown = (r: PingRun) => (r.outcome.status === 'skipped' ? (shown.get(r.outcome.reason) ?? r.outcome.reason) : undefined);
    // the same runs with the reasons a person reads: for the message and the details only
    const said = runs.map((r) => {
      const why = reasonShown(r);
      if (why !== undefined) return { ...r, outcome: { status: 'skipped' as const, reason: why } };
      if (r.outcome.status === 'error' && r.shown !== undefined) return { ...r, outcome: { status: 'error' as const, problem: r.shown } };
      return r;
    });
    const summary = summarizePings(said, plan.unplanned, ctx.text);
    const rolling = plan.rolling ? judgeRolling(ctx, loaded.rolling, plan.rolling, runs, cluster.rollingMaxAgeS) : undefined;
    const notRun = runs.filter((r) => r.outcome.status === 'skipped');
    const judged = runs.length - notRun.length;
    const details = [...formatPingSummary(summary), ...summary.skippedLines, ...peerOwnedLine(plan, ctx.text)];
    const evidence = pingEvidence(planEvidence, plan, runs, summary, rolling);

    if (summary.failed > 0 || notRun.length > 0) {
      return failedPings({ ctx, plan, runs, summary, notRun, reasonShown, budgetSpent: startBy.why, budget, evidence, details });
    }
    if (summary.errors > 0) {
      return error(t.notAssessed({ errors: summary.errors, total: runs.length, list: summarizeList(summary.problems, 2, list) }), {
        remediation: t.notAssessedFix,
        evidence,
        details,
      });
    }
    if (rolling) {
      const verdict = rollingVerdict(t, rolling, runs.length, details, evidence);
      if (verdict) return verdict;
    }
    if (plan.unplanned.length > 0) {
      return warn(t.noAddress({ judged, unplanned: plan.unplanned.length, list: summarizeList(summary.skippedLines, 2, list) }), {
        remediation: t.noAddressFix,
        evidence,
        details,
      });
    }
    const methods = t.methods({ methods: [...new Set(plan.pings.map((p) => (p.method === 'hccs' ? 'HCCS' : 'RoCE')))] });
    const once = plan.pairs === 'once' ? t.pairsOnce({ count: plan.peerOwned.length }) : '';
    const ok = { count: runs.length, peers: summarizeList(plan.peers, 4, list), plan: plan.plan, methods, once };
    return pass(t.ok(ok), { evidence, details: [...summary.byPeer.map((p) => p.line), ...peerOwnedLine(plan, ctx.text)] });
  },
});
