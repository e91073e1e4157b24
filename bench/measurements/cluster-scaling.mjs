// How hccn.peers grows with the cluster: pings per node against the node count N for every ping
// plan (same-index, full mesh, ring) with pairs: both and pairs: once, and the time per node at a
// stated ping cost, hccn_tool running one call at a time. The counts come from the plan code the
// check runs (dist/src/cluster/plan.js) on generated cluster files of A3 nodes (16 devices each):
// no formula here. Every node of every cluster is planned; the table shows the node that pings
// most. Run on its own with `node bench/run.mjs --only cluster-scaling` (after npm run build);
// --ping-cost-ms sets the cost of one ping (default 2000: hccn_tool -ping sends 3 packets).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from '../lib/harness.mjs';
import { DEFAULT_LATENCY } from '../lib/sim-node.mjs';

export const SIZES = [2, 4, 8, 16, 32, 64, 128, 256];
const DEVICES = 16;
const RING_K = 1;
export const DEFAULT_PING_COST_MS = 2000;

async function planCode() {
  const load = await import(pathToFileURL(join(REPO, 'dist', 'src', 'cluster', 'load.js')).href);
  const plan = await import(pathToFileURL(join(REPO, 'dist', 'src', 'cluster', 'plan.js')).href);
  return { parseClusterText: load.parseClusterText, planPings: plan.planPings };
}

/** A cluster file of n A3 nodes of 16 devices, as a person would write it (nodes form, JSON). */
function clusterFile(n, plan, pairs) {
  const nodes = Array.from({ length: n }, (_, k) => ({
    name: `node${String(k + 1).padStart(3, '0')}`,
    host: `10.${Math.floor(k / 250)}.${k % 250}.11`,
    devices: Array.from({ length: DEVICES }, (_, d) => ({ device: d, ip: `29.${Math.floor(k / 250)}.${k % 250}.${10 + d}` })),
  }));
  return JSON.stringify({ plan, ringK: RING_K, pairs, nodes });
}

export const PLANS = [
  { label: 'same-index', plan: 'same-index' },
  { label: 'full-mesh', plan: 'full-mesh' },
  { label: `ring k=${RING_K}`, plan: 'ring' },
];

/**
 * For each plan, pairs mode and size: the most and fewest pings a node of the cluster runs, the
 * cluster's total, and whether the pings of pairs: once cover every pair of pairs: both once.
 */
export async function scalingTable(sizes = SIZES) {
  const { parseClusterText, planPings } = await planCode();
  const rows = [];
  for (const { label, plan } of PLANS) {
    for (const pairs of ['both', 'once']) {
      const cells = sizes.map((n) => {
        const cluster = parseClusterText(clusterFile(n, plan, pairs), `${plan}-${pairs}-${n}.json`);
        let max = 0;
        let min = Number.POSITIVE_INFINITY;
        let total = 0;
        for (const node of cluster.nodes) {
          const count = planPings(cluster, node.name, { family: 'a3' }).pings.length;
          max = Math.max(max, count);
          min = Math.min(min, count);
          total += count;
        }
        return { n, max, min, total };
      });
      rows.push({ label, plan, pairs, cells });
    }
  }
  return rows;
}

function duration(ms) {
  const s = ms / 1000;
  if (s < 120) return `${s.toFixed(0)} s`;
  if (s < 7200) return `${(s / 60).toFixed(0)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

export function formatTable(rows, pingCostMs) {
  const sizes = rows[0].cells.map((c) => c.n);
  const head = `  ${'plan'.padEnd(12)}${'pairs'.padEnd(6)}${sizes.map((n) => `N=${n}`.padStart(8)).join('')}`;
  const lines = [`  pings per node (the node with most), ${DEVICES} devices a node:`, head];
  for (const row of rows) lines.push(`  ${row.label.padEnd(12)}${row.pairs.padEnd(6)}${row.cells.map((c) => String(c.max).padStart(8)).join('')}`);
  lines.push('', `  time per node at ${(pingCostMs / 1000).toFixed(1)} s a ping, one hccn_tool call at a time:`, head);
  for (const row of rows) lines.push(`  ${row.label.padEnd(12)}${row.pairs.padEnd(6)}${row.cells.map((c) => duration(c.max * pingCostMs).padStart(8)).join('')}`);
  return lines;
}

const SUPER_POD_NODES = 48;
/** hccn_tool queries a run of an A3 node makes besides its pings: ip, vnic, link, net_health, netdetect, gateway, lldp, tls of each device */
const QUERIES_A_RUN = DEVICES * 8;

/** A cluster file of `superPods` A3 super pods of 48 nodes: RoCE and vNIC addresses, plan: rolling, pairs: once. */
function superPodFile(superPods, rollingK) {
  const nodes = Array.from({ length: superPods * SUPER_POD_NODES }, (_, k) => ({
    name: `node${String(k + 1).padStart(3, '0')}`,
    host: `10.${Math.floor(k / 250)}.${k % 250}.11`,
    superPod: Math.floor(k / SUPER_POD_NODES),
    devices: Array.from({ length: DEVICES }, (_, d) => ({ device: d, ip: `29.${Math.floor(k / 250)}.${k % 250}.${10 + d}`, vnicIp: `192.${Math.floor(k / SUPER_POD_NODES)}.${k % SUPER_POD_NODES}.${10 + d}` })),
  }));
  return JSON.stringify({ family: 'a3', plan: 'rolling', pairs: 'once', ...(rollingK === undefined ? {} : { rollingK }), nodes });
}

const pairKey = (a, b) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/**
 * The rolling plan of every node of the cluster: its runs M, the most pings a run, and whether
 * the nodes' matrices together are every same-index pair once. The rotations of `sampled` nodes
 * are planned one by one and their pings joined: they must be the node's whole matrix.
 */
function rollingPlan(code, text, sampled) {
  const cluster = code.parseClusterText(text, 'super-pods.json');
  const owned = new Set();
  let duplicates = 0;
  let rotations = 0;
  let maxPings = 0;
  let hccs = 0;
  let budget = 0;
  for (const node of cluster.nodes) {
    const plan = code.planPings(cluster, node.name, { family: 'a3', rotation: 0 });
    rotations = Math.max(rotations, plan.rolling.rotations);
    budget = plan.rolling.budget;
    maxPings = Math.max(maxPings, plan.rolling.ringPairs + Math.min(plan.rolling.budget, plan.rolling.pool));
    if (node === cluster.nodes[0]) hccs = plan.pings.filter((p) => p.method === 'hccs').length;
    for (const m of plan.rolling.matrix) {
      const key = pairKey(`${node.name}:${m.localDevice}`, `${m.peerNode}:${m.peerDevice}`);
      if (owned.has(key)) duplicates++;
      owned.add(key);
    }
  }
  const n = cluster.nodes.length;
  const allPairs = (n * (n - 1) * DEVICES) / 2;
  // every rotation of the sampled nodes, joined: their whole matrix, no run over the budget
  let sampledOk = true;
  for (const node of sampled(cluster.nodes)) {
    const first = code.planPings(cluster, node.name, { family: 'a3', rotation: 0 });
    const proven = new Set();
    for (let r = 0; r < first.rolling.rotations; r++) {
      const plan = r === 0 ? first : code.planPings(cluster, node.name, { family: 'a3', rotation: r });
      maxPings = Math.max(maxPings, plan.pings.length);
      for (const p of plan.pings) proven.add(pairKey(`${p.localNode}:${p.localDevice}`, `${p.peerNode}:${p.peerDevice}`));
    }
    const matrix = new Set(first.rolling.matrix.map((m) => pairKey(`${node.name}:${m.localDevice}`, `${m.peerNode}:${m.peerDevice}`)));
    if (proven.size !== matrix.size || [...matrix].some((key) => !proven.has(key))) sampledOk = false;
  }
  return { nodes: n, budget, rotations, maxPings, hccs, allPairs, owned: owned.size, duplicates, sampledOk };
}

/** The cost of the busiest run and the time until every pair is proven, at serve's default interval. */
function provenIn(plan, costs, policy) {
  const intervalS = policy.DEFAULT_INTERVAL_S;
  const budgetS = intervalS * policy.DEFAULT_BUDGET_FRACTION;
  const runS = (QUERIES_A_RUN * costs.queryMs + plan.maxPings * costs.pingMs) / 1000;
  return {
    runS,
    budgetS,
    // M runs of a node end (M - 1) intervals after the first starts, and one run later
    expectedS: (plan.rotations - 1) * intervalS + runS,
    worstS: (plan.rotations - 1) * intervalS * (1 + policy.JITTER_FRACTION) + runS,
  };
}

/** The largest rollingK (the schema's 4096 at most) whose busiest run takes at most half the budget. */
function rollingKWithin(superPods, costs, policy) {
  const budgetS = policy.DEFAULT_INTERVAL_S * policy.DEFAULT_BUDGET_FRACTION;
  const ringPings = DEVICES; // pairs: once with ringK 1: D/2 to each of the 2 neighbours
  const pings = Math.floor(((budgetS / 2) * 1000 - QUERIES_A_RUN * costs.queryMs) / costs.pingMs) - ringPings;
  return Math.max(1, Math.min(4096, pings));
}

const span = (s) => (s < 120 ? `${s.toFixed(0)} s` : s < 7200 ? `${(s / 60).toFixed(0)} min` : `${(s / 3600).toFixed(1)} h`);

export async function superPodRows(pingCostMs, latency = DEFAULT_LATENCY, sizes = [1, 16]) {
  const { parseClusterText, planPings } = await planCode();
  const policyModule = await import(pathToFileURL(join(REPO, 'dist', 'src', 'serve', 'policy.js')).href);
  const cliOptions = await import(pathToFileURL(join(REPO, 'dist', 'src', 'app', 'cli-options.js')).href);
  const interval = /^(\d+)m$/.exec(cliOptions.OPTIONS['serve --interval'].default);
  const policy = { DEFAULT_INTERVAL_S: Number(interval[1]) * 60, DEFAULT_BUDGET_FRACTION: policyModule.DEFAULT_BUDGET_FRACTION, JITTER_FRACTION: policyModule.JITTER_FRACTION };
  const code = { parseClusterText, planPings };
  const model = { label: `model (query ${latency.hccnToolMs} ms, ping ${latency.pingMs} ms)`, queryMs: latency.hccnToolMs, pingMs: latency.pingMs };
  const slow = { label: `ping ${(pingCostMs / 1000).toFixed(1)} s`, queryMs: latency.hccnToolMs, pingMs: pingCostMs };
  const rows = [];
  for (const superPods of sizes) {
    const sampled = superPods === 1 ? (nodes) => nodes : (nodes) => [nodes[0], nodes[nodes.length - 1]];
    for (const costs of [model, slow]) {
      for (const rollingK of [undefined, rollingKWithin(superPods, costs, policy)]) {
        const plan = rollingPlan(code, superPodFile(superPods, rollingK), sampled);
        rows.push({ superPods, costs, rollingK: plan.budget, defaultK: rollingK === undefined, plan, time: provenIn(plan, costs, policy), intervalS: policy.DEFAULT_INTERVAL_S });
      }
    }
  }
  return rows;
}

export function formatSuperPodRows(rows) {
  const lines = [
    '',
    `  plan: rolling, pairs: once, A3 super pods of ${SUPER_POD_NODES} nodes (${DEVICES} devices each; HCCS inside a super pod, RoCE between), serve's default interval and budget:`,
    `  ${'nodes'.padStart(5)}  ${'costs'.padEnd(34)}${'rollingK'.padStart(9)}${'M runs'.padStart(8)}${'pings/run'.padStart(11)}${'run'.padStart(8)}${'budget'.padStart(8)}${'proven in'.padStart(11)}${'worst'.padStart(9)}  pairs`,
  ];
  for (const r of rows) {
    lines.push(
      `  ${String(r.plan.nodes).padStart(5)}  ${r.costs.label.padEnd(34)}${`${r.rollingK}${r.defaultK ? '*' : ''}`.padStart(9)}${String(r.plan.rotations).padStart(8)}${String(r.plan.maxPings).padStart(11)}${span(r.time.runS).padStart(8)}${span(r.time.budgetS).padStart(8)}${span(r.time.expectedS).padStart(11)}${span(r.time.worstS).padStart(9)}  ${r.plan.owned} of ${r.plan.allPairs}`,
    );
  }
  lines.push('  * the default rollingK; the other: the largest whose busiest run takes at most half the budget. proven in: (M - 1) intervals and a run; worst: every interval 10 % long');
  return lines;
}

export default {
  name: 'cluster-scaling',
  title: 'hccn.peers pings per node against the cluster size, per plan, pairs: both and once (the plan code, no ping run)',
  target: 'pairs: once halves what the busiest node of a same-index or full-mesh cluster pings, and never pings more than pairs: both',
  defaultRuns: 1,
  async run({ pingCostMs = DEFAULT_PING_COST_MS, latency = DEFAULT_LATENCY }) {
    const rows = await scalingTable();
    const superPods = await superPodRows(pingCostMs, latency);
    const lines = [...formatTable(rows, pingCostMs), ...formatSuperPodRows(superPods)];
    const verdicts = [];
    for (const r of superPods) {
      const everyPair = r.plan.owned === r.plan.allPairs && r.plan.duplicates === 0 && r.plan.sampledOk;
      verdicts.push({
        ok: everyPair && r.time.runS <= r.time.budgetS,
        what: `${r.plan.nodes} A3 nodes, rollingK ${r.rollingK}, ${r.costs.label}`,
        detail:
          `every pair proven in ${span(r.time.expectedS)} (${span(r.time.worstS)} at the latest) at the ${r.intervalS / 60}m interval: ${r.plan.rotations} run${r.plan.rotations === 1 ? '' : 's'} of at most ${r.plan.maxPings} pings (${r.plan.hccs} of node001's first over HCCS), the busiest ${span(r.time.runS)} against its budget of ${span(r.time.budgetS)}; ` +
          `the nodes' matrices hold ${r.plan.owned} of the ${r.plan.allPairs} same-index pairs${r.plan.duplicates > 0 ? `, ${r.plan.duplicates} twice` : ', each once'}; every rotation of ${r.plan.nodes === SUPER_POD_NODES ? 'every node' : 'the first and the last node'} joined ${r.plan.sampledOk ? 'is its whole matrix' : 'misses pairs of its matrix'}`,
      });
    }
    for (const { label } of PLANS) {
      const both = rows.find((r) => r.label === label && r.pairs === 'both');
      const once = rows.find((r) => r.label === label && r.pairs === 'once');
      const halves = label !== `ring k=${RING_K}`;
      const bad = once.cells.filter((c, i) => c.max > both.cells[i].max || (halves && c.max > Math.ceil(both.cells[i].max / 2)));
      const largest = once.cells.length - 1;
      const spread = Math.max(...once.cells.map((c) => c.max - c.min));
      verdicts.push({
        ok: bad.length === 0,
        what: `${label}, pairs: once`,
        detail:
          bad.length === 0
            ? `${once.cells[largest].max} pings on the busiest of ${once.cells[largest].n} nodes against ${both.cells[largest].max} with pairs: both (cluster total ${once.cells[largest].total} against ${both.cells[largest].total}); the busiest and the least busy node differ by at most ${spread} at any N`
            : `more than ${halves ? 'half' : 'pairs: both'} at N = ${bad.map((c) => c.n).join(', ')}`,
      });
    }
    return { rows: [], lines, verdicts };
  },
};
