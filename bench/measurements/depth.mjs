// What each --depth costs on the simulated 16-die Atlas 800 A3 node (bench/lib/sim-node.mjs), one
// node of a 4-node cluster: `qprep check --cluster ... --depth quick|standard|deep`, the hccn_tool
// calls each makes (from the fake's log: per device and in all, the pings apart) and its wall time.
// The preflight before the link checks made 8 hccn_tool queries per A3 device (-ip, -vnic, -link,
// -net_health, -netdetect, -gateway, -lldp, -tls) besides its pings: the default depth may add at
// most 10 % of those calls; deep adds the link diagnostics (-link_stat, -optical, -stat read twice
// 3 s apart). Runs are interleaved (quick, standard, deep, quick, ...) so that a slow moment of a
// shared machine hits each alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, stats, timed } from '../lib/harness.mjs';
import { DEFAULT_LATENCY, makeSimNode, readCalls } from '../lib/sim-node.mjs';

const DEPTHS = ['quick', 'standard', 'deep'];
/** hccn_tool queries per A3 device of the preflight before the link checks */
const PREFLIGHT_QUERIES = 8;
const GROWTH_LIMIT = 0.1;

function callsOf(node) {
  const hccn = readCalls(node.log).filter((c) => c.tool === 'hccn_tool' && c.outcome === 'ok');
  const pings = hccn.filter((c) => c.args[2] === '-ping' || c.args[2] === '-hccs_ping');
  const byOp = {};
  for (const call of hccn) if (!pings.includes(call)) byOp[call.args[2]] = (byOp[call.args[2]] ?? 0) + 1;
  return { total: hccn.length, pings: pings.length, byOp, unknown: readCalls(node.log).filter((c) => c.outcome === 'unknown').map((c) => `${c.tool} ${c.args.join(' ')}`) };
}

export default {
  name: 'depth',
  title: 'qprep check --depth quick, standard (the default) and deep on a simulated A3 node (16 dies, one of 4 nodes): hccn_tool calls and wall time',
  target: `the default depth makes at most ${GROWTH_LIMIT * 100} % more hccn_tool calls than the ${PREFLIGHT_QUERIES} queries per device of the preflight before the link checks (pings apart)`,
  defaultRuns: 3,
  async run({ runs, latency = DEFAULT_LATENCY }) {
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-depth-'));
    try {
      console.log(`  simulated tools: npu-smi ${latency.npuSmiMs} ms, hccn_tool ${latency.hccnToolMs} ms, -ping/-hccs_ping ${latency.pingMs} ms a call; one hccn_tool call at a time`);
      const node = makeSimNode({ dir: join(work, 'a3'), family: 'a3', nodes: 4, latency });
      const bin = join(REPO, 'bin', 'qprep.js');
      const results = Object.fromEntries(DEPTHS.map((d) => [d, { ms: [], calls: undefined, report: undefined }]));
      for (let round = 0; round < runs; round++) {
        for (const depth of DEPTHS) {
          rmSync(node.log, { force: true });
          const run = await timed([process.execPath, bin, 'check', '--format', 'json', '--root', node.root, '--cluster', node.cluster, '--node', node.name, '--depth', depth], { env: node.env });
          if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`qprep check --depth ${depth} exited ${run.exitCode}: ${run.stderr.slice(0, 400)}`);
          results[depth].ms.push(run.ms);
          results[depth].calls = callsOf(node);
          results[depth].report = JSON.parse(run.stdout);
        }
      }
      const rows = [];
      const verdicts = [];
      for (const depth of DEPTHS) {
        const { calls, report, ms } = results[depth];
        if (calls.unknown.length > 0) throw new Error(`the simulated tools have no answer for: ${calls.unknown.slice(0, 5).join('; ')}`);
        const perDevice = (calls.total - calls.pings) / node.devices;
        const ops = Object.entries(calls.byOp).map(([op, n]) => `${op} ${n}`).join(', ');
        rows.push({ label: `A3 --depth ${depth}: ${report.checks.length} checks; ${calls.total} hccn_tool calls (${calls.pings} pings; ${perDevice} per device: ${ops || 'none'})`, unit: 'ms', ...stats(ms) });
        const notPassing = report.checks.filter((c) => c.category === 'hccn' && c.status !== 'pass' && !(c.id === 'hccn.fec' && c.status === 'skip')).map((c) => `${c.id} ${c.status}: ${c.message}`);
        if (notPassing.length > 0) throw new Error(`every HCCN check should pass on the simulated A3 node at --depth ${depth}: ${notPassing.join('; ')}`);
      }
      const standard = results.standard.calls;
      const preflight = PREFLIGHT_QUERIES * node.devices + standard.pings;
      const growth = (standard.total - preflight) / preflight;
      verdicts.push({
        what: 'A3: the default depth against the preflight before the link checks',
        ok: growth <= GROWTH_LIMIT,
        detail: `${standard.total} hccn_tool calls against ${preflight} (${PREFLIGHT_QUERIES} x ${node.devices} devices + ${standard.pings} pings): ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %, at most +${GROWTH_LIMIT * 100} %`,
      });
      const deep = results.deep;
      const s2 = (v) => `${(v / 1000).toFixed(2)} s`;
      verdicts.push({
        what: 'A3: what deep adds to the default depth',
        info: true,
        detail: `${deep.calls.total - standard.total} hccn_tool calls (${(deep.calls.total - standard.total) / node.devices} per device) and ${s2(stats(deep.ms).median - stats(results.standard.ms).median)} of median wall time (${s2(stats(results.standard.ms).median)} -> ${s2(stats(deep.ms).median)}), the 3 s between the counters' reads included`,
      });
      return { rows, verdicts };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
