// `qprep serve` kept busy: 50 runs of the checks (a demo snapshot replayed, started with POST
// /run) and 1,000 requests spread over the endpoints, with the agent's resident memory read from
// /proc after the first run and at the end (target: within 20 %). Request latencies are
// printed as well; they are what a probe or a scraper waits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, stats } from '../lib/harness.mjs';

const RUNS = 50;
const REQUESTS = 1000;
const RSS_TOLERANCE = 0.2;
const PATHS = ['/readyz', '/healthz', '/report', '/metrics', '/report?format=junit', '/report?format=prometheus'];

function rssKiB(pid) {
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

async function heapUsedBytes(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]);
}

function startServe() {
  const child = spawn(process.execPath, [join(REPO, 'bin', 'qprep.js'), 'serve', '--snapshot', join(REPO, 'examples', 'snapshots', 'a2-healthy.json'), '--interval', '1h', '--allow-trigger', '--listen', '127.0.0.1:0'], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs = [];
  let pending = '';
  child.stderr.on('data', (chunk) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) logs.push(JSON.parse(line));
  });
  return { child, logs };
}

async function until(what, probe, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export default {
  name: 'serve',
  title: `\`qprep serve\`: ${RUNS} runs (a2-healthy demo snapshot) and ${REQUESTS} requests`,
  target: `resident memory after ${REQUESTS} requests and ${RUNS} runs within ${RSS_TOLERANCE * 100} % of what it was after the first run`,
  defaultRuns: 1,
  async run() {
    const { child, logs } = startServe();
    try {
      const listening = await until('the listening line', () => logs.find((l) => l.event === 'listening'));
      const base = `http://127.0.0.1:${listening.port}`;
      const runsLogged = () => logs.filter((l) => l.event === 'run').length;
      await until('the first run', () => (runsLogged() >= 1 ? true : undefined));
      const afterFirstRun = rssKiB(child.pid);
      const heapAfterFirstRun = await heapUsedBytes(base);
      const latencies = [];
      const runMs = [];
      let requests = 0;
      for (let run = 1; run < RUNS; run++) {
        const before = runsLogged();
        const started = performance.now();
        const trigger = await fetch(`${base}/run`, { method: 'POST' });
        await trigger.text();
        if (trigger.status !== 202) throw new Error(`POST /run answered ${trigger.status}`);
        // the requests go on while the run does
        for (let i = 0; i < Math.ceil(REQUESTS / (RUNS - 1)) && requests < REQUESTS; i++, requests++) {
          const t = performance.now();
          const response = await fetch(`${base}${PATHS[requests % PATHS.length]}`);
          await response.text();
          if (response.status !== 200) throw new Error(`${PATHS[requests % PATHS.length]} answered ${response.status}`);
          latencies.push(performance.now() - t);
        }
        await until(`run ${run + 1}`, () => (runsLogged() > before ? true : undefined));
        runMs.push(performance.now() - started);
      }
      const atEnd = rssKiB(child.pid);
      const heapAtEnd = await heapUsedBytes(base);
      const growth = (atEnd - afterFirstRun) / afterFirstRun;
      const mib = (kib) => (kib / 1024).toFixed(1);
      return {
        rows: [
          { label: `request (${requests}, all endpoints)`, ...stats(latencies), unit: 'ms' },
          { label: `run with its requests (${runMs.length})`, ...stats(runMs), unit: 'ms' },
        ],
        verdicts: [
          {
            ok: Math.abs(growth) <= RSS_TOLERANCE,
            what: 'resident memory',
            detail: `${mib(afterFirstRun)} MiB after the first run, ${mib(atEnd)} MiB after ${RUNS} runs and ${requests} requests (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %)`,
          },
          {
            info: true,
            what: 'JavaScript heap in use (nodejs_heap_size_used_bytes, between garbage collections)',
            detail: `${mib(heapAfterFirstRun / 1024)} MiB after the first run, ${mib(heapAtEnd / 1024)} MiB at the end`,
          },
        ],
      };
    } finally {
      child.kill('SIGTERM');
    }
  },
};
