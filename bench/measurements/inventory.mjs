// The inventory (systeminformation, asked in a process of its own) on this machine: what it adds
// to a run, and what a hung helper of the library costs. The hung helpers are fakes first on PATH
// (dmidecode, dmesg and nmcli that sleep for ever): `qprep check --timeout 2s` must end within 3 s,
// and `qprep serve` must answer /healthz within 100 ms while its run waits on them.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleaved, REPO, stats } from '../lib/harness.mjs';

/** The probe timeout of a live run: an inventory slower than this has a library call timing out. */
const PROBE_TIMEOUT_MS = 10_000;
const HUNG_TIMEOUT = '2s';
const HUNG_LIMIT_MS = 3000;
const HEALTHZ_LIMIT_MS = 100;
/** How long /healthz is asked, every 20 ms, while serve's first run waits on the hung helpers. */
const HEALTHZ_WINDOW_MS = 5000;

/** A bin directory whose dmidecode, dmesg and nmcli sleep for ever. */
function hungHelpers() {
  const bin = mkdtempSync(join(tmpdir(), 'qprep-bench-hung-helpers-'));
  for (const name of ['dmidecode', 'dmesg', 'nmcli']) {
    writeFileSync(join(bin, name), '#!/bin/sh\nexec sleep 3600\n');
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

function healthz(port) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('timeout', () => req.destroy(new Error('/healthz: no answer within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

/** /healthz latencies of a serve whose first run waits on the hung helpers (its --timeout keeps them hanging), from 1 s after it listens. */
async function healthzWhileHung(env) {
  const bin = join(REPO, 'bin', 'qprep.js');
  const child = spawn(process.execPath, [bin, 'serve', '--listen', '127.0.0.1:0', '--timeout', '30s', '--interval', '10m'], { cwd: REPO, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let pending = '';
  const port = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      const listening = pending.split('\n').map((line) => /"event":"listening".*"port":(\d+)/.exec(line)).find(Boolean);
      if (listening) resolve(Number(listening[1]));
    });
    child.on('exit', () => reject(new Error(`qprep serve exited: ${pending.slice(0, 500)}`)));
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const latencies = [];
    const until = performance.now() + HEALTHZ_WINDOW_MS;
    while (performance.now() < until) {
      latencies.push(await healthz(port));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const signalled = performance.now();
    const stopped = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await stopped;
    return { latencies, stopMs: performance.now() - signalled };
  } finally {
    child.kill('SIGKILL');
  }
}

export default {
  name: 'inventory',
  title: 'the inventory (systeminformation in its own process): its cost, and hung helpers of the library (dmidecode, dmesg, nmcli)',
  target: `the inventory adds well under the ${PROBE_TIMEOUT_MS} ms probe timeout; with hung helpers, check --timeout ${HUNG_TIMEOUT} ends within ${HUNG_LIMIT_MS} ms and /healthz answers within ${HEALTHZ_LIMIT_MS} ms`,
  defaultRuns: 6,
  async run({ runs }) {
    const bin = join(REPO, 'bin', 'qprep.js');
    const helpers = hungHelpers();
    const hungEnv = { ...process.env, PATH: `${helpers}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    try {
      // list loads the implementation and the profile but reads nothing of the host: the baseline
      const commands = [
        { label: 'qprep facts (live, with the inventory)', argv: [process.execPath, bin, 'facts'] },
        { label: 'qprep check --only host.model (live, inventory only)', argv: [process.execPath, bin, 'check', '--only', 'host.model', '--format', 'json'] },
        { label: 'qprep list (no inventory)', argv: [process.execPath, bin, 'list'] },
        {
          label: `qprep check --timeout ${HUNG_TIMEOUT}, dmidecode/dmesg/nmcli hung`,
          argv: [process.execPath, bin, 'check', '--only', 'tuning,host,network', '--timeout', HUNG_TIMEOUT, '--format', 'json'],
          options: { env: hungEnv },
        },
      ];
      const samples = await interleaved(commands, { runs, warmup: 1 });
      const rows = commands.map((command, i) => ({ label: command.label, unit: 'ms', ...stats(samples[i].ms) }));
      const [, inventoryOnly, baseline, hung] = rows;
      const over = inventoryOnly.median - baseline.median;
      const served = await healthzWhileHung(hungEnv);
      const health = stats(served.latencies);
      rows.push({ label: `GET /healthz of serve while its run waits on the hung helpers (${served.latencies.length} requests)`, unit: 'ms', ...health });
      rows.push({ label: 'serve: SIGTERM to exit, the hung helpers killed', unit: 'ms', ...stats([served.stopMs]) });
      return {
        rows,
        verdicts: [
          {
            what: 'inventory',
            ok: over < PROBE_TIMEOUT_MS,
            detail: `check --only host.model: median ${over.toFixed(0)} ms over qprep list (fastest runs ${(inventoryOnly.min - baseline.min).toFixed(0)} ms); limit ${PROBE_TIMEOUT_MS} ms`,
          },
          { what: 'hung helpers: check', ok: hung.max < HUNG_LIMIT_MS, detail: `check --timeout ${HUNG_TIMEOUT}: median ${hung.median.toFixed(0)} ms, slowest ${hung.max.toFixed(0)} ms; limit ${HUNG_LIMIT_MS} ms` },
          { what: 'hung helpers: /healthz', ok: health.max < HEALTHZ_LIMIT_MS, detail: `median ${health.median.toFixed(1)} ms, p90 ${health.p90.toFixed(1)} ms, slowest ${health.max.toFixed(1)} ms; limit ${HEALTHZ_LIMIT_MS} ms` },
        ],
      };
    } finally {
      rmSync(helpers, { recursive: true, force: true });
    }
  },
};
