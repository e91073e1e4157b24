// `qprep serve` kept busy: 50 runs of the checks (a demo snapshot replayed, started with POST
// /run) and 1,000 requests spread over the endpoints, with the agent's resident memory read from
// /proc after the first run and at the end (target: within 20 %). The agent is started as the
// install recipes start it (the NODE_OPTIONS of examples/systemd/qprep.service, the same as the
// DaemonSet's), then once more with Node's own defaults, for comparison. Request latencies are
// printed as well; they are what a probe or a scraper waits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonLines, recipeNodeOptions, REPO, stats } from '../lib/harness.mjs';

const RUNS = 50;
const REQUESTS = 1000;
const RSS_TOLERANCE = 0.2;
const PATHS = ['/readyz', '/healthz', '/report', '/metrics', '/report?format=junit', '/report?format=prometheus'];

function rssKiB(pid) {
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

/** Resident memory by kind: anonymous (the heaps, malloc) and file-backed (node's own binary, libraries). */
function residentKinds(pid) {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(rollup)?.[1]);
  return { anonymousKiB: field('Anonymous'), fileKiB: field('Rss') - field('Anonymous') };
}

async function heapUsedBytes(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1]);
}

function startServe(nodeOptions) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  if (nodeOptions) env.NODE_OPTIONS = nodeOptions;
  const child = spawn(process.execPath, [join(REPO, 'bin', 'qprep.js'), 'serve', '--snapshot', join(REPO, 'examples', 'snapshots', 'a2-healthy.json'), '--interval', '1h', '--allow-trigger', '--listen', '127.0.0.1:0'], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs = jsonLines(child.stderr);
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

/** The 50 runs and 1,000 requests on one agent; its memory after the first run and at the end. */
async function busyAgent(nodeOptions) {
  const { child, logs } = startServe(nodeOptions);
  try {
    const listening = await until('the listening line', () => logs.find((l) => l.event === 'listening'));
    const base = `http://127.0.0.1:${listening.port}`;
    const runsLogged = () => logs.filter((l) => l.event === 'run').length;
    await until('the first run', () => (runsLogged() >= 1 ? true : undefined));
    const first = { rssKiB: rssKiB(child.pid), ...residentKinds(child.pid), heapUsed: await heapUsedBytes(base) };
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
    const end = { rssKiB: rssKiB(child.pid), ...residentKinds(child.pid), heapUsed: await heapUsedBytes(base) };
    return { first, end, requests, latencies, runMs, growth: (end.rssKiB - first.rssKiB) / first.rssKiB };
  } finally {
    child.kill('SIGTERM');
  }
}

const mib = (kib) => (kib / 1024).toFixed(1);
const percent = (growth) => `${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`;
const memoryDetail = (m) =>
  `${mib(m.first.rssKiB)} MiB after the first run, ${mib(m.end.rssKiB)} MiB after ${RUNS} runs and ${m.requests} requests (${percent(m.growth)}); anonymous ${mib(m.first.anonymousKiB)} → ${mib(m.end.anonymousKiB)} MiB, file-backed ${mib(m.first.fileKiB)} → ${mib(m.end.fileKiB)} MiB`;

export default {
  name: 'serve',
  title: `\`qprep serve\`: ${RUNS} runs (a2-healthy demo snapshot) and ${REQUESTS} requests`,
  target: `resident memory after ${REQUESTS} requests and ${RUNS} runs within ${RSS_TOLERANCE * 100} % of what it was after the first run`,
  defaultRuns: 1,
  async run() {
    const nodeOptions = recipeNodeOptions();
    const recipe = await busyAgent(nodeOptions);
    const defaults = await busyAgent(undefined);
    return {
      rows: [
        { label: `request (${recipe.requests}, all endpoints)`, ...stats(recipe.latencies), unit: 'ms' },
        { label: `run with its requests (${recipe.runMs.length})`, ...stats(recipe.runMs), unit: 'ms' },
        { label: `run with its requests, Node's defaults (${defaults.runMs.length})`, ...stats(defaults.runMs), unit: 'ms' },
      ],
      verdicts: [
        {
          ok: Math.abs(recipe.growth) <= RSS_TOLERANCE,
          what: `resident memory, started as the install recipes start it (NODE_OPTIONS=${nodeOptions})`,
          detail: memoryDetail(recipe),
        },
        {
          info: true,
          what: 'JavaScript heap in use (nodejs_heap_size_used_bytes, between garbage collections)',
          detail: `${mib(recipe.first.heapUsed / 1024)} MiB after the first run, ${mib(recipe.end.heapUsed / 1024)} MiB at the end`,
        },
        {
          info: true,
          what: "resident memory with Node's defaults (no NODE_OPTIONS)",
          detail: memoryDetail(defaults),
        },
      ],
    };
  },
};
