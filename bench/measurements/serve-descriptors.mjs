// The file descriptors `qprep serve` holds, and what --max-connections leaves a run. The agent
// runs on the simulated 16-die Atlas 800 A3 node of bench/lib/sim-node.mjs (192 CPUs: one
// governor file each; a live --root tree, its fake npu-smi and hccn_tool, one node of a 4-node
// cluster). /proc/PID/fd is counted every millisecond: idle after the first run, at the peak of
// RUNS runs started with POST /run, and at the peak of a run (started with SIGHUP) while
// --max-connections idle connections are held open. Target: the last under 256, the smallest
// file limit the robustness tests use, with the run's verdict unchanged.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonLines, REPO, stats } from '../lib/harness.mjs';
import { makeSimNode } from '../lib/sim-node.mjs';

const RUNS = 3;
const FILE_LIMIT = 256;
const MAX_CONNECTIONS = 32;

async function until(what, probe, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function descriptors(pid) {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The highest count of the agent's descriptors while `work` goes on. */
async function peakDuring(pid, work) {
  let peak = descriptors(pid);
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, descriptors(pid));
    } catch {
      // the agent is gone: the work says why
    }
  }, 1);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return peak;
}

async function measure(sim) {
  const child = spawn(process.execPath, [join(REPO, 'bin', 'qprep.js'), 'serve', '--root', sim.root, '--cluster', sim.cluster, '--node', sim.name, '--interval', '1h', '--allow-trigger', '--listen', '127.0.0.1:0'], {
    cwd: REPO,
    env: { PATH: sim.env.PATH, HOME: process.env.HOME ?? '/root', LC_ALL: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs = jsonLines(child.stderr);
  const sockets = [];
  let holding = false;
  try {
    const listening = await until('the listening line', () => logs.find((l) => l.event === 'listening'));
    const base = `http://127.0.0.1:${listening.port}`;
    const runs = () => logs.filter((l) => l.event === 'run');
    await until('the first run', () => (runs().length >= 1 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = descriptors(child.pid);
    const peaks = [];
    for (let run = 1; run <= RUNS; run++) {
      const before = runs().length;
      peaks.push(
        await peakDuring(child.pid, async () => {
          const trigger = await fetch(`${base}/run`, { method: 'POST' });
          await trigger.text();
          if (trigger.status !== 202) throw new Error(`POST /run answered ${trigger.status}`);
          await until(`run ${run + 1}`, () => (runs().length > before ? true : undefined));
        }),
      );
    }
    const alone = runs().at(-1);
    // serve closes a connection that sent no request within 10 s: held as a client that wants
    // them held would, opening another each time one is closed
    holding = true;
    const hold = () =>
      new Promise((resolve) => {
        const socket = connect(listening.port, '127.0.0.1', resolve);
        socket.on('error', () => resolve());
        socket.on('close', () => {
          if (holding) void hold();
        });
        sockets.push(socket);
      });
    for (let i = 0; i < MAX_CONNECTIONS; i++) await hold();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const held = descriptors(child.pid);
    const before = runs().length;
    const withConnections = await peakDuring(child.pid, async () => {
      child.kill('SIGHUP');
      await until('the run with the connections held', () => (runs().length > before ? true : undefined));
    });
    return { idle, peaks, held, withConnections, same: JSON.stringify(runs().at(-1).summary) === JSON.stringify(alone.summary) };
  } finally {
    holding = false;
    for (const socket of sockets) socket.destroy();
    child.kill('SIGTERM');
  }
}

export default {
  name: 'serve-descriptors',
  title: `\`qprep serve\` on the simulated A3 node: its file descriptors idle, during a run, and during a run with ${MAX_CONNECTIONS} idle connections held`,
  target: `a run with --max-connections (${MAX_CONNECTIONS}) idle connections held peaks under ${FILE_LIMIT} descriptors and judges as without them`,
  defaultRuns: 1,
  async run() {
    const sim = makeSimNode({ dir: mkdtempSync(join(tmpdir(), 'qprep-bench-sim-')), family: 'a3' });
    const m = await measure(sim);
    const rows = [{ label: `descriptors at a run's peak (${m.peaks.length} runs)`, ...stats(m.peaks), unit: 'fds' }];
    const verdicts = [
      { info: true, what: 'idle after the first run', detail: `${m.idle} descriptors; ${m.held} with ${MAX_CONNECTIONS} idle connections held` },
      {
        ok: m.withConnections < FILE_LIMIT && m.same,
        what: `a run with ${MAX_CONNECTIONS} idle connections held`,
        detail: `peak ${m.withConnections} descriptors (limit ${FILE_LIMIT}); verdict ${m.same ? 'the same as without them' : 'DIFFERENT from without them'}`,
      },
    ];
    return { rows, verdicts };
  },
};
