// A full `qprep check --cluster` of the simulated A3 node (16 dies, one of a 4-node cluster) as a
// real node times its tools (bench/lib/sim-node.mjs): `npu-smi` 400 ms a call, each hccn_tool
// query D ms, each -hccs_ping its query's D and its packets' intervals (PING_MODEL: 3 packets,
// 0 ms apart, as the A3 guide runs it), at D = 50, 100 and 200 ms, side by side in one run,
// interleaved round by round, against
//   - the manual procedure of the vllm-ascend guides, npu-smi info first (bench/lib/sim-node.mjs),
//     with the same tools: target, qprep at most 1.0 x it at every D;
//   - the critical path: the hccn_tool calls qprep made (from the fake's log), one after the
//     other from a bash loop, npu-smi left out (it can run beside them: the devices are known
//     without it). hccn_tool runs one call at a time, so no schedule beats it; target at D = 100 ms:
//     at most 1.05 x;
//   - the same calls from a bare Node loop (bench/lib/node-loop.mjs): what spawning from Node
//     costs on the machine, the bound of any Node program making these calls (no target);
//   - the CPU time per tool call, of qprep with its tool processes against the critical path's
//     loop (bash with the same processes), taken by bash's `times` around each (no target).
// It also prints where the queue waits, from the fake's log: the first npu-smi and the first
// hccn_tool call after qprep's start, and the idle gaps between two hccn_tool calls.
// Run on its own with `node bench/run.mjs --only floor` (after npm run build);
// QPREP_BENCH_FLOOR_MS=100 measures some latencies alone, --npu-smi-ms changes npu-smi's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, percentile, REPO, stats, timed } from '../lib/harness.mjs';
import { DEFAULT_LATENCY, makeSimNode, pingCallMs, readCalls } from '../lib/sim-node.mjs';

export const LATENCIES_MS = [50, 100, 200];

/** QPREP_BENCH_FLOOR_MS=100 measures some of the latencies alone (a quicker look; the targets need all three). */
function latencies() {
  const text = process.env.QPREP_BENCH_FLOOR_MS;
  if (text === undefined || text === '') return LATENCIES_MS;
  const list = text.split(',').map((part) => part.trim());
  if (!list.every((part) => /^\d+$/.test(part))) throw new Error(`QPREP_BENCH_FLOOR_MS expects milliseconds separated by commas, got "${text}"`);
  return list.map(Number);
}
const MANUAL_RATIO = 1.0;
const CRITICAL_RATIO = 1.05;
const CRITICAL_AT_MS = 100;

/**
 * Runs argv under bash and returns what `timed` does plus the CPU time (ms, user + system) of the
 * command and of every process it waited for, as bash's `times` reports its children.
 */
async function timedWithCpu(argv, env, timesFile) {
  rmSync(timesFile, { force: true });
  rmSync(`${timesFile}.self`, { force: true });
  const wrapper = '"$@"; status=$?; times > "$QPREP_BENCH_TIMES"; exit $status';
  // a node command also reports its own CPU time (bench/lib/rss-probe.mjs), the rest is its children's
  const measured = argv[0] === process.execPath ? [argv[0], '--import', join(REPO, 'bench/lib/rss-probe.mjs'), ...argv.slice(1)] : argv;
  const run = await timed(['/bin/bash', '-c', wrapper, 'bash', ...measured], { env: { ...env, QPREP_BENCH_TIMES: timesFile, QPREP_BENCH_RSS_FILE: `${timesFile}.self` } });
  // two lines: bash's own times, then its children's: "0m1.234s 0m0.456s"
  const children = readFileSync(timesFile, 'utf8').trim().split('\n')[1] ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (seconds.length !== 2) throw new Error(`bash times printed "${children}"`);
  let selfCpuMs;
  if (measured !== argv) {
    const [, userUs, systemUs] = readFileSync(`${timesFile}.self`, 'utf8').split(' ').map(Number);
    selfCpuMs = (userUs + systemUs) / 1000;
  }
  return { ...run, cpuMs: (seconds[0] + seconds[1]) * 1000, selfCpuMs };
}

/** Where a run's queue waited: offsets from `startedAt` (epoch ms) and the gaps between serialized hccn_tool calls. */
export function queueTimeline(calls, startedAt) {
  const ok = calls.filter((c) => c.outcome === 'ok').sort((a, b) => a.startMs - b.startMs);
  const hccn = ok.filter((c) => c.tool === 'hccn_tool');
  const npuSmi = ok.filter((c) => c.tool === 'npu-smi');
  const gaps = [];
  for (let i = 1; i < hccn.length; i++) gaps.push(Math.max(0, hccn[i].startMs - (hccn[i - 1].startMs + hccn[i - 1].ms)));
  return {
    firstNpuSmiMs: npuSmi.length > 0 ? npuSmi[0].startMs - startedAt : NaN,
    firstHccnMs: hccn.length > 0 ? hccn[0].startMs - startedAt : NaN,
    gapMedianMs: median(gaps),
    gapP90Ms: percentile(gaps, 90),
    gapTotalMs: gaps.reduce((a, b) => a + b, 0),
  };
}

const s2 = (ms) => `${(ms / 1000).toFixed(2)} s`;
const f3 = (x) => x.toFixed(3);

/** One round at one latency: qprep, then the critical path, the Node loop and the manual procedure with the same tools. */
async function round(c, timesFile, load) {
  load.push(loadavg()[0]);
  rmSync(c.node.log, { force: true });
  const startedAt = Date.now();
  const check = await timedWithCpu(c.argv, c.node.env, timesFile);
  if (check.exitCode !== 0 && check.exitCode !== 1) throw new Error(`qprep check at D=${c.d} exited ${check.exitCode}: ${check.stderr.slice(0, 400)}`);
  const calls = readCalls(c.node.log);
  const hccn = calls.filter((call) => call.tool === 'hccn_tool' && call.outcome === 'ok');
  const toolCalls = calls.filter((call) => call.outcome === 'ok').length;
  const unknown = calls.filter((call) => call.outcome !== 'ok');
  if (unknown.length > 0) throw new Error(`at D=${c.d} the simulated tools answered ${unknown[0].outcome} to ${unknown[0].tool} ${unknown[0].args.join(' ')}`);
  c.timeline.push(queueTimeline(calls, startedAt));

  const criticalScript = join(c.node.dir, 'critical.sh');
  writeFileSync(criticalScript, `${hccn.map((call) => `hccn_tool ${call.args.join(' ')} >/dev/null`).join('\n')}\n`);
  rmSync(c.node.log, { force: true });
  const critical = await timedWithCpu(['/bin/bash', criticalScript], c.node.env, timesFile);
  const criticalCalls = readCalls(c.node.log).filter((call) => call.outcome === 'ok').length;
  if (critical.exitCode !== 0 || criticalCalls !== hccn.length) throw new Error(`the critical path's loop at D=${c.d} failed: ${critical.stderr.slice(0, 400)}`);

  rmSync(c.node.log, { force: true });
  const nodeLoop = await timedWithCpu([process.execPath, join(REPO, 'bench/lib/node-loop.mjs'), criticalScript], c.node.env, timesFile);
  if (nodeLoop.exitCode !== 0 || readCalls(c.node.log).filter((call) => call.outcome === 'ok').length !== criticalCalls) throw new Error(`the Node loop at D=${c.d} failed: ${nodeLoop.stderr.slice(0, 400)}`);

  rmSync(c.node.log, { force: true });
  const manual = await timed(['/bin/bash', c.node.manual], { env: c.node.env });
  if (manual.exitCode !== 0) throw new Error(`the manual procedure at D=${c.d} exited ${manual.exitCode}: ${manual.stderr.slice(0, 400)}`);

  c.qprep.push(check.ms);
  c.critical.push(critical.ms);
  c.nodeLoop.push(nodeLoop.ms);
  c.manual.push(manual.ms);
  c.toManual.push(check.ms / manual.ms);
  c.toCritical.push(check.ms / critical.ms);
  c.toNodeLoop.push(check.ms / nodeLoop.ms);
  c.cpuPerCall.push(check.cpuMs / toolCalls);
  c.selfCpuPerCall.push(check.selfCpuMs / toolCalls);
  c.bashCpuPerCall.push(critical.cpuMs / criticalCalls);
  c.cpuRatio.push(check.cpuMs / toolCalls / (critical.cpuMs / criticalCalls));
  c.nodeLoopCpuRatio.push(nodeLoop.cpuMs / criticalCalls / (critical.cpuMs / criticalCalls));
  c.last = { report: JSON.parse(check.stdout), hccnCalls: hccn.length, toolCalls, manualCalls: readCalls(c.node.log).length };
}

function summarize(c, rows, verdicts, lines) {
  const { report, hccnCalls, toolCalls, manualCalls } = c.last;
  // every HCCN check passes but hccn.fec, which the A3's hccn_tool cannot answer (it skips)
  const notPassing = report.checks.filter((r) => r.category === 'hccn' && r.status !== 'pass' && !(r.id === 'hccn.fec' && r.status === 'skip')).map((r) => `${r.id} ${r.status}: ${r.message}`);
  if (notPassing.length > 0) throw new Error(`every HCCN check should pass on the simulated node at D=${c.d}: ${notPassing.join('; ')}`);
  const med = (values) => stats(values).median;
  const list = (values) => values.map(f3).join(', ');
  const q = stats(c.qprep);
  const t = (key) => med(c.timeline.map((x) => x[key]));
  rows.push(
    { label: `D=${c.d} ms: qprep check --cluster (${toolCalls} tool calls, ${hccnCalls} of them hccn_tool)`, unit: 'ms', ...q },
    { label: `D=${c.d} ms: manual procedure, bash (${manualCalls} tool calls)`, unit: 'ms', ...stats(c.manual) },
    { label: `D=${c.d} ms: critical path: qprep's ${hccnCalls} hccn_tool calls one after another, bash`, unit: 'ms', ...stats(c.critical) },
    { label: `D=${c.d} ms: the same calls from a bare Node loop`, unit: 'ms', ...stats(c.nodeLoop) },
  );
  lines.push(
    `  ${`${c.d} ms`.padStart(6)}  ${s2(q.median).padStart(8)}  ${s2(med(c.manual)).padStart(8)}  ${s2(med(c.critical)).padStart(8)}  ${s2(med(c.nodeLoop)).padStart(9)}  ` +
      `${f3(med(c.toManual)).padStart(7)}  ${f3(med(c.toCritical)).padStart(9)}  ${f3(med(c.toNodeLoop)).padStart(10)}  ` +
      `${`${med(c.cpuPerCall).toFixed(1)} ms`.padStart(8)}  ${med(c.bashCpuPerCall).toFixed(1).padStart(5)}  ${med(c.cpuRatio).toFixed(2).padStart(5)}  ${med(c.nodeLoopCpuRatio).toFixed(2).padStart(4)}  ` +
      `${s2(t('firstNpuSmiMs'))}, ${s2(t('firstHccnMs'))}; ${t('gapMedianMs').toFixed(1)} ms, ${t('gapP90Ms').toFixed(1)} ms, ${s2(t('gapTotalMs'))}`,
  );
  verdicts.push({ what: `D=${c.d} ms: qprep / manual procedure`, ok: med(c.toManual) <= MANUAL_RATIO, detail: `median ${f3(med(c.toManual))} (run by run ${list(c.toManual)}); target ${MANUAL_RATIO}` });
  const critical = { what: `D=${c.d} ms: qprep / critical path`, detail: `median ${f3(med(c.toCritical))} (run by run ${list(c.toCritical)})` };
  if (c.d === CRITICAL_AT_MS) verdicts.push({ ...critical, ok: med(c.toCritical) <= CRITICAL_RATIO, detail: `${critical.detail}; target ${CRITICAL_RATIO}` });
  else verdicts.push({ ...critical, info: true, detail: `${critical.detail}; the target is at D = ${CRITICAL_AT_MS} ms` });
  verdicts.push({
    what: `D=${c.d} ms: qprep / bare Node loop`,
    info: true,
    detail: `median ${f3(med(c.toNodeLoop))} (run by run ${list(c.toNodeLoop)}); the loop itself is ${f3(med(c.nodeLoop) / med(c.critical))} x the critical path, CPU per call ${med(c.nodeLoopCpuRatio).toFixed(2)} x bash's: what spawning from Node costs here`,
  });
  verdicts.push({
    what: `D=${c.d} ms: CPU per tool call, qprep / bash`,
    info: true,
    detail: `${med(c.cpuPerCall).toFixed(1)} ms / ${med(c.bashCpuPerCall).toFixed(1)} ms = ${med(c.cpuRatio).toFixed(2)} (run by run ${list(c.cpuRatio)}); each with its tool processes, of which the qprep process itself ${med(c.selfCpuPerCall).toFixed(1)} ms (start-up included)`,
  });
}

export default {
  name: 'floor',
  title:
    '`qprep check --cluster` on the simulated A3 node timed as a real node (npu-smi 400 ms, hccn_tool D a query, pings per their packets) at D = 50, 100, 200 ms, against the manual procedure, the critical path (the serialized hccn_tool calls), the bare Node loop, and bash\'s CPU per call',
  target: `qprep <= ${MANUAL_RATIO} x the manual procedure at every D; <= ${CRITICAL_RATIO} x the critical path at D = ${CRITICAL_AT_MS} ms`,
  // three: the median of two runs would be their mean, and this machine's runs differ by up to 10 %
  defaultRuns: 3,
  async run({ runs, latency = DEFAULT_LATENCY }) {
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-floor-'));
    const bin = join(REPO, 'bin', 'qprep.js');
    const timesFile = join(work, 'times');
    const load = [];
    try {
      const cases = latencies().map((d) => {
        const node = makeSimNode({ dir: join(work, `d${d}`), family: 'a3', nodes: 4, latency: { npuSmiMs: latency.npuSmiMs, hccnToolMs: d, pingMs: pingCallMs(d) } });
        const argv = [process.execPath, bin, 'check', '--format', 'json', '--root', node.root, '--cluster', node.cluster, '--node', node.name];
        return { d, node, argv, qprep: [], critical: [], nodeLoop: [], manual: [], toManual: [], toCritical: [], toNodeLoop: [], cpuPerCall: [], selfCpuPerCall: [], bashCpuPerCall: [], cpuRatio: [], nodeLoopCpuRatio: [], timeline: [], last: undefined };
      });
      console.log(`  simulated A3 node (16 dies, 4-node cluster): npu-smi ${latency.npuSmiMs} ms a call, hccn_tool D ms a query, -hccs_ping D ms + 2 x 0 ms (3 packets, the default interval); hccn_tool busy when called concurrently`);
      for (let r = 0; r < runs; r++) for (const c of cases) await round(c, timesFile, load);
      const rows = [];
      const verdicts = [];
      const lines = [
        `  ${'D'.padStart(6)}  ${'qprep'.padStart(8)}  ${'manual'.padStart(8)}  ${'critical'.padStart(8)}  ${'Node loop'.padStart(9)}  ${'/manual'.padStart(7)}  ${'/critical'.padStart(9)}  ${'/Node loop'.padStart(10)}  ${'CPU/call'.padStart(8)}  ${'bash'.padStart(5)}  ${'ratio'.padStart(5)}  ${'loop'.padStart(4)}  first npu-smi, hccn_tool; gap median, p90, total`,
      ];
      for (const c of cases) summarize(c, rows, verdicts, lines);
      const l = stats(load);
      lines.push(`  load average (1 min) when each qprep run started: median ${l.median.toFixed(2)}, max ${l.max.toFixed(2)}`);
      return { rows, verdicts, lines };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
