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

export default {
  name: 'cluster-scaling',
  title: 'hccn.peers pings per node against the cluster size, per plan, pairs: both and once (the plan code, no ping run)',
  target: 'pairs: once halves what the busiest node of a same-index or full-mesh cluster pings, and never pings more than pairs: both',
  defaultRuns: 1,
  async run({ pingCostMs = DEFAULT_PING_COST_MS }) {
    const rows = await scalingTable();
    const lines = formatTable(rows, pingCostMs);
    const verdicts = [];
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
