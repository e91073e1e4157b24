// What `qprep serve` costs a node that serves a model: the agent at its default interval (5m)
// on the simulated 16-die A3 node timed as a real node (bench/lib/sim-node.mjs: npu-smi 400 ms,
// hccn_tool 100 ms a query; one node of a 4-node cluster: every HCCN query and 48 pings a run),
// started twice side by side, each on a node of its own: with Node's defaults, and as the install
// recipes start it (the NODE_OPTIONS of examples/systemd/qprep.service). For each, from the end
// of its first run (its start-up left out) to the end of the run one interval later (the default
// mode: about 5 minutes) or twelve intervals later (--long: about an hour), read from /proc: the
// agent's own CPU time (per hour), the CPU time of the tools it ran (its reaped children: the
// fakes here, npu-smi and hccn_tool on a node), resident memory after each run, and the
// JavaScript heap in use (its /metrics). The fake npu-smi, like hccn_tool, answers "busy" to a
// call made while another runs: the log proves the agent never does, and the runs' log lines
// that no run started before the previous one ended.
// Run on its own with `node bench/run.mjs --only serve-footprint [--long]` (after npm run build).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonLines, recipeNodeOptions, REPO } from '../lib/harness.mjs';
import { DEFAULT_LATENCY, makeSimNode, readCalls } from '../lib/sim-node.mjs';

const CPU_TARGET_S_PER_HOUR = 5;
const RSS_GROWTH_TARGET = 0.1;
const TICKS = 100; // USER_HZ: /proc/PID/stat counts CPU time in 1/100 s

/** utime + stime of the agent, cutime + cstime of its reaped children, in seconds; its resident memory in KiB. */
function sample(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  const at = (n) => Number(fields[n - 3]);
  const rssKiB = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return { atMs: Date.now(), own: (at(14) + at(15)) / TICKS, tools: (at(16) + at(17)) / TICKS, rssKiB };
}

async function heapUsedBytes(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]);
}

/** One agent on a node of its own, from the end of its first run to the end of run 1 + `intervals`. */
async function agent(label, nodeOptions, intervals, work, latency) {
  const sim = makeSimNode({ dir: join(work, label.replace(/\W+/g, '-')), family: 'a3', nodes: 4, latency, exclusiveNpuSmi: true });
  const env = { PATH: sim.env.PATH, HOME: sim.env.HOME, LC_ALL: 'C' };
  if (nodeOptions) env.NODE_OPTIONS = nodeOptions;
  const child = spawn(process.execPath, [join(REPO, 'bin', 'qprep.js'), 'serve', '--root', sim.root, '--cluster', sim.cluster, '--node', sim.name, '--listen', '127.0.0.1:0'], { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const logs = jsonLines(child.stderr);
  const runs = () => logs.filter((l) => l.event === 'run');
  const until = async (what, done) => {
    // the last run ends within 1.1 intervals of the one before; 30 minutes is far beyond
    const deadline = Date.now() + 30 * 60_000 * Math.max(1, intervals);
    while (!done()) {
      if (child.exitCode !== null) throw new Error(`${label}: qprep serve exited ${child.exitCode} before ${what}; log: ${JSON.stringify(logs).slice(0, 1000)}`);
      if (Date.now() > deadline) throw new Error(`${label}: ${what} did not come`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  try {
    await until('the listening line', () => logs.some((l) => l.event === 'listening'));
    const base = `http://127.0.0.1:${logs.find((l) => l.event === 'listening').port}`;
    await until('the first run', () => runs().length >= 1);
    const first = { ...sample(child.pid), heapUsed: await heapUsedBytes(base) };
    const afterRuns = [first];
    for (let n = 2; n <= 1 + intervals; n++) {
      await until(`run ${n}`, () => runs().length >= n);
      afterRuns.push({ ...sample(child.pid), heapUsed: await heapUsedBytes(base) });
    }
    const last = afterRuns.at(-1);
    const hours = (last.atMs - first.atMs) / 3_600_000;
    const calls = readCalls(sim.log);
    const spans = runs().map((r) => ({ end: Date.parse(r.time), start: Date.parse(r.time) - r.durationMs }));
    return {
      label,
      nodeOptions,
      minutes: hours * 60,
      runs: runs().length - 1,
      verdicts: [...new Set(runs().map((r) => r.verdict))],
      runMs: runs().map((r) => r.durationMs),
      ownPerHour: (last.own - first.own) / hours,
      toolsPerHour: (last.tools - first.tools) / hours,
      ownPerRun: (last.own - first.own) / intervals,
      rss: afterRuns.map((s) => s.rssKiB),
      heap: afterRuns.map((s) => s.heapUsed),
      busy: calls.filter((c) => c.outcome === 'busy').length,
      toolCalls: calls.filter((c) => c.outcome === 'ok').length,
      overlappingRuns: spans.filter((span, i) => i > 0 && span.start < spans[i - 1].end).length,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

const mib = (kib) => (kib / 1024).toFixed(1);
const percent = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

export default {
  name: 'serve-footprint',
  title: '`qprep serve` on the simulated A3 node at its default interval (5m): CPU seconds per hour and resident memory, with Node\'s defaults and with the recipes\' NODE_OPTIONS (one interval; --long: twelve, an hour)',
  target: `the agent's own CPU at most ${CPU_TARGET_S_PER_HOUR} s an hour; resident memory at most ${RSS_GROWTH_TARGET * 100} % above what it was after the first run, with Node's defaults; one npu-smi and one hccn_tool call at a time, one run at a time`,
  defaultRuns: 1,
  async run({ long = false, latency = DEFAULT_LATENCY }) {
    const intervals = long ? 12 : 1;
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-footprint-'));
    try {
      console.log(`  ${intervals} interval(s) of 5m after the first run, both agents side by side (about ${intervals * 5 + 1} minutes)`);
      const measured = await Promise.all([agent("Node's defaults", undefined, intervals, work, latency), agent('the recipes\' NODE_OPTIONS', recipeNodeOptions(), intervals, work, latency)]);
      const rows = measured.map((m) => ({ label: `${m.label}: run (${m.runMs.length})`, unit: 'ms', n: m.runMs.length, median: [...m.runMs].sort((a, b) => a - b)[m.runMs.length >> 1], p90: Math.max(...m.runMs), min: Math.min(...m.runMs), max: Math.max(...m.runMs) }));
      const verdicts = [];
      for (const m of measured) {
        const growth = m.rss.at(-1) / m.rss[0] - 1;
        const peakGrowth = Math.max(...m.rss) / m.rss[0] - 1;
        verdicts.push({
          what: `${m.label}: the agent's CPU`,
          ok: m.ownPerHour <= CPU_TARGET_S_PER_HOUR,
          detail: `${m.ownPerHour.toFixed(2)} s an hour (${m.ownPerRun.toFixed(3)} s a run, ${m.runs} run(s) in ${m.minutes.toFixed(1)} min); the tools it ran ${m.toolsPerHour.toFixed(2)} s an hour; target ${CPU_TARGET_S_PER_HOUR} s`,
        });
        verdicts.push({
          what: `${m.label}: resident memory`,
          ok: m.nodeOptions !== undefined ? true : growth <= RSS_GROWTH_TARGET,
          ...(m.nodeOptions !== undefined ? { info: true } : {}),
          detail:
            `${mib(m.rss[0])} MiB after the first run, ${mib(m.rss.at(-1))} MiB after the last (${percent(growth)}; highest ${percent(peakGrowth)}): ${m.rss.map(mib).join(', ')} MiB; ` +
            `JavaScript heap in use ${m.heap.map((b) => (b / 1048576).toFixed(1)).join(', ')} MiB${m.nodeOptions !== undefined ? ` (NODE_OPTIONS=${m.nodeOptions})` : `; target ${RSS_GROWTH_TARGET * 100} %`}`,
        });
        verdicts.push({
          what: `${m.label}: one call of each tool at a time, one run at a time`,
          ok: m.busy === 0 && m.overlappingRuns === 0,
          detail: `${m.toolCalls} tool calls, ${m.busy} answered busy (a call while another of the same tool ran); ${m.overlappingRuns} run(s) started before the previous one ended; verdicts ${m.verdicts.join(', ')}`,
        });
      }
      return { rows, verdicts };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
