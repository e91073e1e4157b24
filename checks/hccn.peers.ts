import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck, type CheckContext } from '../src/core/types.js';
import { describeOutcome, describePing, formatPingSummary, summarizePings, type PingOutcome } from '../src/cluster/ping-summary.js';
import { planPings, type PingPlan, type PlannedPing, type RollingPart } from '../src/cluster/plan.js';
import { RollingLedger, type PairProof, type RollingCoverage } from '../src/cluster/rolling.js';
import type { Outcome } from '../src/core/types.js';
import { hccnLink, hccnVnic, runPings } from '../src/probes/hccn.js';
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
function rollingVerdict(rolling: RollingJudgement, pinged: number, details: string[], evidence: Record<string, unknown>): Outcome | undefined {
  const { coverage } = rolling;
  const lines = [
    ...details,
    `matrix coverage: ${coverage.ok} of ${plural(coverage.total, 'pair')} proven within ${coverage.maxAgeS} s` +
      (coverage.never > 0 ? `, ${coverage.never} never proven` : '') +
      (coverage.stale > 0 ? `, ${coverage.stale} older than that` : '') +
      (coverage.oldestAgeS !== null ? `; oldest proof ${coverage.oldestAgeS} s` : ''),
  ];
  const rotation = `rotation ${(evidence.rolling as { rotation: number }).rotation % (evidence.rolling as { rotations: number }).rotations + 1} of ${(evidence.rolling as { rotations: number }).rotations}`;
  if (coverage.failed > 0) {
    return fail(`${plural(coverage.failed, 'pair')} of the matrix failed at ${coverage.failed === 1 ? 'its' : 'their'} last ping (rolling, ${rotation})`, {
      expected: 'every pair of the matrix answers at its last proof',
      actual: `${coverage.ok} ok, ${coverage.failed} failed, ${coverage.notVerified} not verified of ${coverage.total}`,
      remediation: 'the failing pairs are in the evidence (rolling.proofs, state failed): check both ends\' link and address (hccn_tool -i N -link -g, -ip -g) and the switch ports between them',
      evidence,
      details: lines,
    });
  }
  if (coverage.notVerified > 0) {
    const where = rolling.partialOneShot
      ? 'partial coverage: a one-shot run pings one rotation; qprep serve proves the rest over the next runs, and qprep aggregate counts a pair never proven or proven too long ago as not verified'
      : 'partial coverage: the next runs of qprep serve prove the rest; until then qprep aggregate counts those pairs as not verified';
    return warn(`all ${pinged} pings of this run ok; ${coverage.ok} of ${plural(coverage.total, 'pair')} of the matrix proven (rolling, ${rotation}): ${where}`, {
      remediation: `let qprep serve run ${(evidence.rolling as { rotations: number }).rotations} times within ${coverage.maxAgeS} s (rollingMaxAgeS), or use plan: same-index for a one-shot proof of the whole matrix`,
      evidence,
      details: lines,
    });
  }
  return pass(`all ${plural(coverage.total, 'pair')} of the matrix proven within ${coverage.maxAgeS} s (rolling, ${rotation}: ${pinged} pings this run)`, { evidence, details: lines });
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

/** `pinged by the peers (pairs: once; qprep aggregate joins them): node2 8, node3 8` */
function peerOwnedLine(plan: PingPlan): string[] {
  if (plan.pairs !== 'once' || plan.peerOwned.length === 0) return [];
  const counts = new Map<string, number>();
  for (const pair of plan.peerOwned) counts.set(pair.peerNode, (counts.get(pair.peerNode) ?? 0) + 1);
  return [`pinged by the peers (pairs: once; qprep aggregate joins them): ${summarizeList([...counts].map(([node, count]) => `${node} ${count}`), 8)}`];
}

export default defineCheck({
  id: 'hccn.peers',
  title: 'NPU-to-NPU reachability across nodes',
  category: 'hccn',
  level: 'required',
  why:
    'HCCL connects the NPUs of different nodes over their own network: device i to device i of every peer for TP/DP ' +
    'collectives, any pair for cross-node expert parallel and PD KV transfer. One unreachable pair makes the whole launch ' +
    'wait and fail with "wait socket establish timeout" after the weights are loaded. This runs the cluster file\'s ping ' +
    'plan with hccn_tool from this node (RoCE -ping; -hccs_ping to the vNIC of A3 peers in the same super pod), one call ' +
    'at a time, and names every failing pair. Pairs inside a node are not pinged: they talk over HCCS, and the two dies ' +
    'of an A3 card cannot RoCE-ping each other by design. A device whose link is DOWN is not pinged.',
  reads: ['the cluster file (plan, peers, device IPs)', 'hccn_tool -i <device> -link -g', 'hccn_tool -i <device> -ping -g address <peer IP>', 'hccn_tool -i <device> -hccs_ping -g address <peer vNIC IP> (A3)'],
  fix: 'For each failing pair check both ends: link (hccn_tool -i N -link -g), address (-ip -g), the switch ports and VLAN between them, and that the cluster file has the peer\'s real device IPs (regenerate it from qprep facts).',
  budgetMs(ctx) {
    const pings = plannedUpperBound(ctx);
    const concurrency = Math.max(1, ctx.profile.hccn.concurrency);
    const plan = Math.ceil((pings * (ctx.timeoutMs + BUSY_RETRY_MS)) / concurrency);
    // past hccn.peersBudget no ping starts: what runs then ends within one probe timeout
    return Math.min(plan, ctx.profile.hccn.peersBudget + ctx.timeoutMs) + ctx.timeoutMs * 4 + 10_000;
  },
  async run(ctx) {
    const loaded = ctx.cluster;
    if (!loaded) {
      return skip('no cluster file: there are no peers to ping', {
        remediation: 'run "qprep check --cluster FILE" on every node of a multi-node deployment (a YAML node list, or the JSON array of every node\'s qprep facts)',
      });
    }
    const { cluster, self } = loaded;
    if (cluster.nodes.length < 2) return skip(`the cluster ${loaded.file} has one node: no peer to ping`, { remediation: 'nothing to do for a single node' });
    const budget = ctx.profile.hccn.peersBudget;
    const startBy = { at: performance.now() + budget, why: `not tried: the ping budget of ${formatDuration(budget)} (profile hccn.peersBudget) was spent` };
    const scope = await hccnScope(ctx, 'the peer pings');
    if (!scope.ok) return scope.outcome;
    const family = scope.family === 'a2' || scope.family === 'a3' ? scope.family : cluster.family;
    // rolling: serve's run counter; a one-shot check walks the rotation with the clock, one step a minute
    const rotation = cluster.plan === 'rolling' ? (loaded.rolling?.nextRotation() ?? Math.floor(ctx.now().getTime() / ONE_SHOT_ROTATION_MS)) : undefined;
    const plan = planPings(cluster, self.name, { family, localDevices: scope.devices.map((d) => d.device), ...(rotation === undefined ? {} : { rotation }) });
    const planEvidence = { plan: plan.plan, ringK: plan.ringK, pairs: plan.pairs, family: plan.family, peers: plan.peers, ...peerOwnedEvidence(plan) };
    if (plan.pings.length === 0 && plan.unplanned.length === 0 && plan.peerOwned.length > 0) {
      // pairs: once between few devices: the peers may own every pair of this node
      return pass(`${self.name} owns none of its ${plural(plan.peerOwned.length, 'pair')}: ${summarizeList(plan.peers, 4)} ${plan.peers.length === 1 ? 'pings' : 'ping'} them (${plan.plan}, pairs once)`, {
        evidence: { ...planEvidence, total: 0, ok: 0, failed: 0, errors: 0, skipped: 0, results: [], unplanned: [] },
        details: peerOwnedLine(plan),
      });
    }
    if (plan.pings.length === 0) {
      const why = plan.unplanned[0]?.reason ?? 'the peers list no device';
      return warn(`no ping could be planned from ${self.name}: ${why}`, {
        remediation: 'list every node\'s devices with their ip (and vnicIp on A3) in the cluster file, or build it from the qprep facts of every node',
        evidence: { ...planEvidence, unplanned: plan.unplanned },
      });
    }

    // A device whose port is DOWN cannot answer: its pings are skipped with that cause, not run to time out.
    const involved = [...new Set(plan.pings.map((p) => p.localDevice))];
    const usesHccs = plan.pings.some((p) => p.method === 'hccs');
    const [links, vnics] = await Promise.all([
      Promise.all(involved.map(async (device) => ({ device, answer: await hccnLink(ctx, device) }))),
      usesHccs ? Promise.all(involved.map(async (device) => ({ device, answer: await hccnVnic(ctx, device) }))) : Promise.resolve([]),
    ]);
    const roceDown = new Set(links.filter(({ answer }) => answer.ok && answer.value.entries.some((e) => !e.vnic && !e.up)).map((l) => l.device));
    const vnicDown = new Set(vnics.filter(({ answer }) => answer.ok && answer.value.entries.some((e) => e.linkStatus !== null && e.linkStatus !== 'UP')).map((v) => v.device));
    const downReason = (ping: PlannedPing): string | undefined => {
      if (ping.method === 'roce' && roceDown.has(ping.localDevice)) return `local ${devName(ping.localDevice)} link is DOWN (hccn.link)`;
      if (ping.method === 'hccs' && vnicDown.has(ping.localDevice)) return `local ${devName(ping.localDevice)} vNIC link is DOWN`;
      return undefined;
    };

    const runs = await runPings(ctx, plan.pings, { skip: downReason, startBy });
    const summary = summarizePings(runs, plan.unplanned);
    const rolling = plan.rolling ? judgeRolling(ctx, loaded.rolling, plan.rolling, runs, cluster.rollingMaxAgeS) : undefined;
    const notRun = runs.filter((r) => r.outcome.status === 'skipped');
    const judged = runs.length - notRun.length;
    const details = [...formatPingSummary(summary), ...summary.skippedLines, ...peerOwnedLine(plan)];
    const evidence = {
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
    const skippedText = notRun.length > 0 ? `${notRun.length} not run (${summarizeList([...new Set(notRun.map((r) => (r.outcome as { reason: string }).reason))], 2)})` : '';

    if (summary.failed > 0 || notRun.length > 0) {
      const parts: string[] = [];
      if (summary.failed > 0) parts.push(summary.headline);
      if (notRun.length > 0) parts.push(`${notRun.length} of ${runs.length} pings ${skippedText.replace(/^\d+ /, '')}`);
      const first = summary.failed > 0 ? runs.find((r) => r.outcome.status === 'loss' || r.outcome.status === 'unreachable')!.ping : notRun[0]!.ping;
      const command = first.method === 'hccs' ? '-hccs_ping' : '-ping';
      const untried = notRun.filter((r) => (r.outcome as { reason: string }).reason === startBy.why).length;
      if (summary.failed === 0 && untried > 0) {
        const message = untried === notRun.length ? `${untried} of ${runs.length} pings ${startBy.why}` : parts.join('; ');
        return fail(message, {
          expected: `every planned pair answers (${plan.plan}, ${plural(plan.peers.length, 'peer')}) within hccn.peersBudget (${formatDuration(budget)})`,
          actual: `${summary.ok} of ${runs.length} ok, ${untried} not tried, ${summary.errors} not assessed`,
          remediation: `raise hccn.peersBudget in the profile (the ${plural(untried, 'pair')} not tried are listed under the check), or ping fewer pairs per node (plan: ring with ringK, or same-index, in the cluster file)`,
          evidence,
          details,
        });
      }
      return fail(parts.join('; '), {
        expected: `every planned pair answers (${plan.plan}, ${plural(plan.peers.length, 'peer')})`,
        actual: `${summary.ok} of ${runs.length} ok, ${summary.failed} failed, ${notRun.length} not run, ${summary.errors} not assessed`,
        remediation:
          `start with ${describePing(first)}: hccn_tool -i ${first.localDevice} -link -g and -ip -g on ${first.localNode}, the same for device ${first.peerDevice} on ${first.peerNode}, ` +
          `then the switch ports between them; retry: hccn_tool -i ${first.localDevice} ${command} -g address ${first.address}`,
        evidence,
        details,
      });
    }
    if (summary.errors > 0) {
      return error(`${summary.errors} of ${runs.length} pings could not be assessed: ${summarizeList(summary.problems, 2)}`, {
        remediation: 'run the named hccn_tool command by hand; a busy tool means another program is using it (pause it), a timeout a wedged driver',
        evidence,
        details,
      });
    }
    if (rolling) {
      const verdict = rollingVerdict(rolling, runs.length, details, evidence);
      if (verdict) return verdict;
    }
    if (plan.unplanned.length > 0) {
      return warn(`all ${judged} pings ok, but ${plural(plan.unplanned.length, 'planned pair')} ${plan.unplanned.length === 1 ? 'has' : 'have'} no address to ping: ${summarizeList(summary.skippedLines, 2)}`, {
        remediation: 'give every device of every node its ip (and vnicIp on A3) in the cluster file, or build it from every node\'s qprep facts',
        evidence,
        details,
      });
    }
    const methods = [...new Set(plan.pings.map((p) => (p.method === 'hccs' ? 'HCCS' : 'RoCE')))].join(' and ');
    const once = plan.pairs === 'once' ? `, pairs once: ${plan.peerOwned.length} more pinged by the peers` : '';
    return pass(`all ${runs.length} pings to ${summarizeList(plan.peers, 4)} ok (${plan.plan}, ${methods}${once})`, { evidence, details: [...summary.byPeer.map((p) => p.line), ...peerOwnedLine(plan)] });
  },
});
