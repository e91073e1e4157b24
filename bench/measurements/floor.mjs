// The single-node floor: a full `qprep check --cluster` of the simulated A3 node (16 dies, one of
// a 4-node cluster) with every simulated tool answering after the same latency D (npu-smi,
// hccn_tool and its pings alike), at D = 0, 50, 100 and 200 ms, side by side in one run against
//   - the floor: the hccn_tool calls qprep made (from the fake's log), one after the other, plus
//     one `npu-smi info`, from a bash loop. hccn_tool runs one call at a time and nothing can
//     start before the devices are listed, so no schedule beats it (target at D >= 50 ms: 1.05 x);
//   - the documented manual procedure (the vllm-ascend loops, bench/lib/sim-node.mjs), which
//     checks less (target at every D: 1.0 x);
//   - the same calls from a bare Node loop (bench/lib/node-loop.mjs), reported without a target:
//     the cost of spawning from Node, which bounds what any Node program can reach;
//   - the CPU time per tool call, of qprep with its tool processes against the floor loop's,
//     bash with the same processes (target: 2 x). The CPU is taken by bash's `times` around each
//     command: the command's own and that of every process it waited for.
// It also prints where the queue waits, from the fake's log: the first npu-smi and the first
// hccn_tool call after qprep's start, and the idle gaps between two hccn_tool calls.
// Run on its own with `node bench/run.mjs --only floor` (after npm run build); QPREP_BENCH_FLOOR_MS=0,50
// measures some latencies alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, percentile, REPO, stats, timed } from '../lib/harness.mjs';
import { makeSimNode, readCalls } from '../lib/sim-node.mjs';

export const LATENCIES_MS = [0, 50, 100, 200];

/** QPREP_BENCH_FLOOR_MS=0,50 measures some of the latencies alone (a quicker look; the targets need all four). */
function latencies() {
  const text = process.env.QPREP_BENCH_FLOOR_MS;
  if (text === undefined || text === '') return LATENCIES_MS;
  const list = text.split(',').map((part) => part.trim());
  if (!list.every((part) => /^\d+$/.test(part))) throw new Error(`QPREP_BENCH_FLOOR_MS expects milliseconds separated by commas, got "${text}"`);
  return list.map(Number);
}
const FLOOR_RATIO = 1.05;
const FLOOR_FROM_MS = 50;
const MANUAL_RATIO = 1.0;
const CPU_RATIO = 2;

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

export default {
  name: 'floor',
  title: 'the single-node floor: `qprep check --cluster` on the simulated A3 node at tool latency D = 0..200 ms, against the serialized hccn_tool calls + one npu-smi info, the manual procedure, and bash\'s CPU per call',
  target: `wall <= ${FLOOR_RATIO} x the floor at D >= ${FLOOR_FROM_MS} ms; <= ${MANUAL_RATIO} x the manual procedure at every D; CPU per tool call <= ${CPU_RATIO} x bash's`,
  // three: the median of two runs would be their mean, and this machine's runs differ by up to 10 %
  defaultRuns: 3,
  async run({ runs }) {
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-floor-'));
    const bin = join(REPO, 'bin', 'qprep.js');
    const timesFile = join(work, 'times');
    const load = [];
    try {
      const cases = latencies().map((d) => {
        const node = makeSimNode({ dir: join(work, `d${d}`), family: 'a3', nodes: 4, latency: { npuSmiMs: d, hccnToolMs: d, pingMs: d } });
        const argv = [process.execPath, bin, 'check', '--format', 'json', '--root', node.root, '--cluster', node.cluster, '--node', node.name];
        return { d, node, argv, qprep: [], floor: [], nodeLoop: [], nodeLoopToFloor: [], nodeLoopCpuRatio: [], manual: [], manualToFloor: [], toFloor: [], toManual: [], cpuPerCall: [], selfCpuPerCall: [], floorCpuPerCall: [], cpuRatio: [], timeline: [], last: undefined };
      });
      console.log(`  simulated A3 node (16 dies, 4-node cluster); every npu-smi and hccn_tool call (pings too) answers after D ms; hccn_tool busy when called concurrently`);
      for (let round = 0; round < runs; round++) {
        for (const c of cases) {
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

          const floorScript = join(c.node.dir, 'floor.sh');
          writeFileSync(floorScript, `npu-smi info >/dev/null\n${hccn.map((call) => `hccn_tool ${call.args.join(' ')} >/dev/null`).join('\n')}\n`);
          rmSync(c.node.log, { force: true });
          const floor = await timedWithCpu(['/bin/bash', floorScript], c.node.env, timesFile);
          const floorCalls = readCalls(c.node.log).filter((call) => call.outcome === 'ok').length;
          if (floor.exitCode !== 0 || floorCalls !== hccn.length + 1) throw new Error(`the floor loop at D=${c.d} failed: ${floor.stderr.slice(0, 400)}`);

          // the same calls from a bare Node loop: what spawning from Node costs, the bound of any Node program
          rmSync(c.node.log, { force: true });
          const nodeLoop = await timedWithCpu([process.execPath, join(REPO, 'bench/lib/node-loop.mjs'), floorScript], c.node.env, timesFile);
          const nodeLoopCalls = readCalls(c.node.log).filter((call) => call.outcome === 'ok').length;
          if (nodeLoop.exitCode !== 0 || nodeLoopCalls !== floorCalls) throw new Error(`the Node loop at D=${c.d} failed: ${nodeLoop.stderr.slice(0, 400)}`);

          rmSync(c.node.log, { force: true });
          const manual = await timed(['/bin/bash', c.node.manual], { env: c.node.env });
          if (manual.exitCode !== 0) throw new Error(`the manual procedure at D=${c.d} exited ${manual.exitCode}: ${manual.stderr.slice(0, 400)}`);

          c.qprep.push(check.ms);
          c.floor.push(floor.ms);
          c.nodeLoop.push(nodeLoop.ms);
          c.nodeLoopToFloor.push(nodeLoop.ms / floor.ms);
          c.nodeLoopCpuRatio.push(nodeLoop.cpuMs / nodeLoopCalls / (floor.cpuMs / floorCalls));
          c.manual.push(manual.ms);
          c.toFloor.push(check.ms / floor.ms);
          c.toManual.push(check.ms / manual.ms);
          c.manualToFloor.push(manual.ms / floor.ms);
          c.cpuPerCall.push(check.cpuMs / toolCalls);
          c.selfCpuPerCall.push(check.selfCpuMs / toolCalls);
          c.floorCpuPerCall.push(floor.cpuMs / floorCalls);
          c.cpuRatio.push(check.cpuMs / toolCalls / (floor.cpuMs / floorCalls));
          c.last = { report: JSON.parse(check.stdout), hccnCalls: hccn.length, toolCalls, manualCalls: readCalls(c.node.log).length };
        }
      }

      const rows = [];
      const verdicts = [];
      const lines = [];
      const list = (values) => values.map(f3).join(', ');
      lines.push(`  ${'D'.padStart(6)}  ${'qprep'.padStart(8)}  ${'floor'.padStart(8)}  ${'manual'.padStart(8)}  ${'/floor'.padStart(7)}  ${'/manual'.padStart(7)}  ${'CPU/call'.padStart(8)}  ${'bash'.padStart(6)}  ${'ratio'.padStart(5)}  ${'Node loop'.padStart(9)}  ${'/floor'.padStart(6)}  ${'CPU'.padStart(4)}  first npu-smi, hccn_tool; gap median, p90, total`);
      for (const c of cases) {
        const { report, hccnCalls, toolCalls, manualCalls } = c.last;
        const notPassing = report.checks.filter((r) => r.category === 'hccn' && r.status !== 'pass').map((r) => `${r.id} ${r.status}: ${r.message}`);
        if (notPassing.length > 0) throw new Error(`every HCCN check should pass on the simulated node at D=${c.d}: ${notPassing.join('; ')}`);
        const q = stats(c.qprep);
        const fl = stats(c.floor);
        const m = stats(c.manual);
        const nl = stats(c.nodeLoop);
        const nodeLoopToFloor = stats(c.nodeLoopToFloor).median;
        const nodeLoopCpu = stats(c.nodeLoopCpuRatio).median;
        const toFloor = stats(c.toFloor).median;
        const toManual = stats(c.toManual).median;
        const cpu = stats(c.cpuPerCall).median;
        const selfCpu = stats(c.selfCpuPerCall).median;
        const bashCpu = stats(c.floorCpuPerCall).median;
        const cpuRatio = stats(c.cpuRatio).median;
        const t = (key) => stats(c.timeline.map((x) => x[key])).median;
        rows.push(
          { label: `D=${c.d} ms: qprep check --cluster (${toolCalls} tool calls, ${hccnCalls} of them hccn_tool)`, unit: 'ms', ...q },
          { label: `D=${c.d} ms: floor: the same ${hccnCalls} hccn_tool calls + one npu-smi info, bash`, unit: 'ms', ...fl },
          { label: `D=${c.d} ms: the floor's calls from a bare Node loop`, unit: 'ms', ...nl },
          { label: `D=${c.d} ms: manual procedure, bash (${manualCalls} tool calls)`, unit: 'ms', ...m },
        );
        lines.push(
          `  ${`${c.d} ms`.padStart(6)}  ${s2(q.median).padStart(8)}  ${s2(fl.median).padStart(8)}  ${s2(m.median).padStart(8)}  ${f3(toFloor).padStart(7)}  ${f3(toManual).padStart(7)}  ${`${cpu.toFixed(1)} ms`.padStart(8)}  ${`${bashCpu.toFixed(1)}`.padStart(6)}  ${cpuRatio.toFixed(2).padStart(5)}  ` +
            `${s2(nl.median).padStart(9)}  ${f3(nodeLoopToFloor).padStart(6)}  ${nodeLoopCpu.toFixed(2).padStart(4)}  ` +
            `${s2(t('firstNpuSmiMs'))}, ${s2(t('firstHccnMs'))}; ${t('gapMedianMs').toFixed(1)} ms, ${t('gapP90Ms').toFixed(1)} ms, ${s2(t('gapTotalMs'))}`,
        );
        if (c.d >= FLOOR_FROM_MS) {
          verdicts.push({ what: `D=${c.d} ms: qprep / floor`, ok: toFloor <= FLOOR_RATIO, detail: `median ${f3(toFloor)} (run by run ${list(c.toFloor)}); target ${FLOOR_RATIO}` });
        } else {
          verdicts.push({ what: `D=${c.d} ms: qprep / floor`, info: true, detail: `median ${f3(toFloor)} (run by run ${list(c.toFloor)}); no target at D < ${FLOOR_FROM_MS} ms: the floor is then bash's start-up of the fakes alone` });
        }
        verdicts.push({
          what: `D=${c.d} ms: the floor's calls from a bare Node loop`,
          info: true,
          detail: `${f3(nodeLoopToFloor)} x the floor (run by run ${list(c.nodeLoopToFloor)}), CPU per call ${nodeLoopCpu.toFixed(2)} x bash's (run by run ${list(c.nodeLoopCpuRatio)}): what spawning from Node costs on this machine, below which no Node program making these calls goes`,
        });
        verdicts.push({
          what: `D=${c.d} ms: qprep / manual procedure`,
          ok: toManual <= MANUAL_RATIO,
          detail:
            `median ${f3(toManual)} (run by run ${list(c.toManual)}); target ${MANUAL_RATIO}; the manual procedure itself is ${f3(stats(c.manualToFloor).median)} x the floor (run by run ${list(c.manualToFloor)})` +
            (stats(c.manualToFloor).median < 1 ? ': below 1, so the target asks qprep to beat the floor' : ''),
        });
        verdicts.push({
          what: `D=${c.d} ms: CPU per tool call, qprep / bash`,
          ok: cpuRatio <= CPU_RATIO,
          detail: `${cpu.toFixed(1)} ms / ${bashCpu.toFixed(1)} ms = ${cpuRatio.toFixed(2)} (run by run ${list(c.cpuRatio)}); each with its tool processes, of which the qprep process itself ${selfCpu.toFixed(1)} ms (start-up included); target ${CPU_RATIO}`,
        });
      }
      const l = stats(load);
      lines.push(`  load average (1 min) when each qprep run started: median ${l.median.toFixed(2)}, max ${l.max.toFixed(2)}`);
      return { rows, verdicts, lines };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
