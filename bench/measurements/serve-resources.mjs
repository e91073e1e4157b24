// What `qprep serve` needs of a container: the resource requests and limits of
// examples/kubernetes/qprep-daemonset.yaml come from this. The agent is started as the
// DaemonSet starts it (its NODE_OPTIONS, --nfd-features) on two sources: the a3-healthy demo
// snapshot replayed, and the simulated 16-die Atlas 800 A3 node of bench/lib/sim-node.mjs
// (a live --root tree, its fake npu-smi and hccn_tool on PATH, one node of a 4-node cluster:
// every HCCN call and 48 pings a run). For each: RUNS runs started with POST /run one after
// the other, then IDLE_S seconds without a run. Read from /proc: the peak resident memory
// (VmHWM), the agent's own CPU time per run and while idle, and the CPU time of the tools it
// ran (its reaped children: the fakes here, npu-smi and hccn_tool on a real node, whose cost
// counts in the same container). Figures, not a target: the DaemonSet's comments say how the
// requests and limits follow from them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { jsonLines, REPO, stats } from '../lib/harness.mjs';
import { makeSimNode } from '../lib/sim-node.mjs';

const RUNS = 20;
const IDLE_S = 20;
const TICKS = 100; // USER_HZ: /proc/PID/stat counts CPU time in 1/100 s

function daemonSetContainer() {
  const documents = parseAllDocuments(readFileSync(join(REPO, 'examples', 'kubernetes', 'qprep-daemonset.yaml'), 'utf8')).map((d) => d.toJS());
  return documents.find((d) => d?.kind === 'DaemonSet').spec.template.spec.containers[0];
}

function peakRssKiB(pid) {
  return Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

/** utime + stime of the agent, cutime + cstime of its reaped children, in seconds. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  const at = (n) => Number(fields[n - 3]);
  return { own: (at(14) + at(15)) / TICKS, children: (at(16) + at(17)) / TICKS };
}

async function until(what, probe, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function measure(label, args, env) {
  const features = join(mkdtempSync(join(tmpdir(), 'qprep-bench-nfd-')), 'qprep');
  const child = spawn(process.execPath, [join(REPO, 'bin', 'qprep.js'), 'serve', ...args, '--interval', '1h', '--allow-trigger', '--listen', '127.0.0.1:0', '--nfd-features', features], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs = jsonLines(child.stderr);
  try {
    const listening = await until('the listening line', () => logs.find((l) => l.event === 'listening'));
    const base = `http://127.0.0.1:${listening.port}`;
    const runs = () => logs.filter((l) => l.event === 'run');
    await until('the first run', () => (runs().length >= 1 ? true : undefined));
    const start = cpuSeconds(child.pid);
    const runMs = [];
    for (let run = 1; run <= RUNS; run++) {
      const before = runs().length;
      const trigger = await fetch(`${base}/run`, { method: 'POST' });
      await trigger.text();
      if (trigger.status !== 202) throw new Error(`POST /run answered ${trigger.status}`);
      await until(`run ${run + 1}`, () => (runs().length > before ? true : undefined));
      runMs.push(runs().at(-1).durationMs);
    }
    const busy = cpuSeconds(child.pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    const idle = cpuSeconds(child.pid);
    const verdicts = new Set(runs().map((l) => l.verdict));
    return {
      label,
      runMs,
      peakKiB: peakRssKiB(child.pid),
      ownPerRun: (busy.own - start.own) / RUNS,
      toolsPerRun: (busy.children - start.children) / RUNS,
      idleMillicores: ((idle.own - busy.own) / IDLE_S) * 1000,
      verdicts: [...verdicts],
    };
  } finally {
    child.kill('SIGTERM');
  }
}

const mib = (kib) => (kib / 1024).toFixed(1);

export default {
  name: 'serve-resources',
  title: `\`qprep serve\` as the DaemonSet starts it: peak memory and CPU over ${RUNS} runs and ${IDLE_S} s idle`,
  target: 'none: the figures the DaemonSet\'s requests and limits are chosen from',
  defaultRuns: 1,
  async run() {
    const container = daemonSetContainer();
    const nodeOptions = container.env.find((e) => e.name === 'NODE_OPTIONS').value;
    const env = (extra = {}) => ({ PATH: process.env.PATH, HOME: process.env.HOME ?? '/root', NODE_OPTIONS: nodeOptions, ...extra });
    const demo = await measure('a3-healthy demo snapshot', ['--snapshot', join(REPO, 'examples', 'snapshots', 'a3-healthy.json')], env());
    const sim = makeSimNode({ dir: mkdtempSync(join(tmpdir(), 'qprep-bench-sim-')), family: 'a3' });
    const live = await measure('simulated A3 node (live --root, fake tools, 4-node cluster)', ['--root', sim.root, '--cluster', sim.cluster, '--node', sim.name], env({ PATH: sim.env.PATH, LC_ALL: 'C' }));
    const rows = [demo, live].map((m) => ({ label: `run: ${m.label}`, ...stats(m.runMs), unit: 'ms' }));
    const verdicts = [demo, live].map((m) => ({
      info: true,
      what: m.label,
      detail:
        `peak resident ${mib(m.peakKiB)} MiB (limit ${container.resources.limits.memory}); CPU a run: qprep ${m.ownPerRun.toFixed(3)} s, the tools it ran ${m.toolsPerRun.toFixed(3)} s; ` +
        `idle ${m.idleMillicores.toFixed(1)} millicores; at the 5m interval on average ${(((m.ownPerRun + m.toolsPerRun) / 300) * 1000 + m.idleMillicores).toFixed(1)} millicores (request ${container.resources.requests.cpu}); verdicts ${m.verdicts.join(', ')}`,
    }));
    return { rows, verdicts };
  },
};
