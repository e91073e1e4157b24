// plan: rolling on a 64-node A3 cluster (16 devices a node): how many runs of `qprep serve`
// cover the whole same-index matrix, what one run costs in hccn_tool time per node, and the
// serve interval that proves every pair within one hour. Every figure comes from the plan code
// the check runs (dist/src/cluster/plan.js): with pairs: once every node of the cluster is
// planned for each of its M rotations and the pairs its runs ping are joined, which must be
// every same-index pair of the cluster. Formula in docs/cluster-plans.md. Run on its own with
// `node bench/run.mjs --only rolling-coverage` (after npm run build); --ping-cost-ms as in
// cluster-scaling.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from '../lib/harness.mjs';
import { DEFAULT_PING_COST_MS } from './cluster-scaling.mjs';

const NODES = 64;
const DEVICES = 16;
const HOUR_S = 3600;
const RUN_LIMIT_S = 60;

async function code() {
  const load = await import(pathToFileURL(join(REPO, 'dist', 'src', 'cluster', 'load.js')).href);
  const plan = await import(pathToFileURL(join(REPO, 'dist', 'src', 'cluster', 'plan.js')).href);
  const policy = await import(pathToFileURL(join(REPO, 'dist', 'src', 'serve', 'policy.js')).href);
  return { parseClusterText: load.parseClusterText, planPings: plan.planPings, jitter: policy.JITTER_FRACTION };
}

function clusterFile(pairs) {
  const nodes = Array.from({ length: NODES }, (_, k) => ({
    name: `node${String(k + 1).padStart(3, '0')}`,
    host: `10.0.${k}.11`,
    devices: Array.from({ length: DEVICES }, (_, d) => ({ device: d, ip: `29.0.${k}.${10 + d}` })),
  }));
  // ringK and rollingK left to their defaults: what a cluster file gets without saying
  return JSON.stringify({ plan: 'rolling', pairs, nodes });
}

/**
 * serve starts a run every interval I ± jitter·I, so M runs in a row end at most
 * (M − 1)·(1 + jitter)·I + run after the first starts: the longest I within the hour.
 */
function intervalWithin(rotations, runS, jitter) {
  if (rotations <= 1) return HOUR_S;
  return Math.floor((HOUR_S - runS) / ((rotations - 1) * (1 + jitter)));
}

async function simulate(pairs, pingCostMs, full) {
  const { parseClusterText, planPings, jitter } = await code();
  const cluster = parseClusterText(clusterFile(pairs), `rolling-${pairs}.json`);
  const first = planPings(cluster, cluster.nodes[0].name, { family: 'a3', rotation: 0 });
  const { rotations, budget, ringPairs, pool } = first.rolling;
  let maxPings = 0;
  const proven = new Set();
  const nodes = full ? cluster.nodes : [cluster.nodes[0]];
  for (const node of nodes) {
    for (let run = 0; run < rotations; run++) {
      const plan = planPings(cluster, node.name, { family: 'a3', rotation: run });
      maxPings = Math.max(maxPings, plan.pings.length);
      for (const p of plan.pings) proven.add(p.localNode < p.peerNode ? `${p.localNode}:${p.localDevice}|${p.peerNode}:${p.peerDevice}` : `${p.peerNode}:${p.peerDevice}|${p.localNode}:${p.localDevice}`);
    }
  }
  const runS = (maxPings * pingCostMs) / 1000;
  const intervalS = intervalWithin(rotations, runS, jitter);
  const coveredS = (rotations - 1) * (1 + jitter) * intervalS + runS;
  return { pairs, rotations, budget, ringPairs, pool, maxPings, runS, intervalS, coveredS, proven: full ? proven.size : null, jitter };
}

export default {
  name: 'rolling-coverage',
  title: `plan: rolling, ${NODES} A3 nodes of ${DEVICES} devices: runs to cover the same-index matrix, hccn_tool time a run (the plan code, no ping run)`,
  target: `every same-index pair proven within one hour, by runs of under ${RUN_LIMIT_S} s of hccn_tool time per node`,
  defaultRuns: 1,
  async run({ pingCostMs = DEFAULT_PING_COST_MS }) {
    const matrix = (NODES * (NODES - 1) * DEVICES) / 2;
    const once = await simulate('once', pingCostMs, true);
    const both = await simulate('both', pingCostMs, false);
    const lines = [
      `  ${'pairs'.padEnd(6)}${'rollingK'.padStart(9)}${'ring'.padStart(6)}${'pool'.padStart(6)}${'M runs'.padStart(8)}${'pings/run'.padStart(11)}${'run'.padStart(7)}${'interval'.padStart(10)}${'covered in'.padStart(12)}`,
    ];
    for (const r of [once, both]) {
      lines.push(
        `  ${r.pairs.padEnd(6)}${String(r.budget).padStart(9)}${String(r.ringPairs).padStart(6)}${String(r.pool).padStart(6)}${String(r.rotations).padStart(8)}${String(r.maxPings).padStart(11)}${`${r.runS.toFixed(0)} s`.padStart(7)}${`${r.intervalS} s`.padStart(10)}${`${(r.coveredS / 60).toFixed(0)} min`.padStart(12)}`,
      );
    }
    lines.push(`  at ${(pingCostMs / 1000).toFixed(1)} s a ping; interval: the longest serve --interval whose M runs, ±${once.jitter * 100}% jitter, end within the hour`);
    const fits = (r) => r.runS < RUN_LIMIT_S && r.intervalS >= r.runS && r.coveredS <= HOUR_S;
    return {
      rows: [],
      lines,
      verdicts: [
        {
          ok: fits(once) && once.proven === matrix,
          what: `pairs: once, ${NODES} nodes`,
          detail: `${once.rotations} runs of at most ${once.maxPings} pings (${once.runS.toFixed(0)} s of hccn_tool a node) every ${once.intervalS} s prove ${once.proven} of the ${matrix} same-index pairs in ${(once.coveredS / 60).toFixed(0)} min`,
        },
        {
          info: true,
          ok: fits(both),
          what: `pairs: both, ${NODES} nodes`,
          detail: fits(both)
            ? `${both.rotations} runs of ${both.runS.toFixed(0)} s every ${both.intervalS} s also cover it within the hour`
            : `${both.rotations} runs of ${both.runS.toFixed(0)} s: ${both.intervalS < both.runS ? `they would have to start every ${both.intervalS} s, less than a run lasts` : 'more than the hour'}; use pairs: once or a larger rollingK with a shorter ping`,
        },
      ],
    };
  },
};
