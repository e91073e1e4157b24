import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { readdirSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { httpGet, startServe, type ServeProcess } from '../helpers/serve.js';
import { fakeBin, healthyNpuSmi, hostTree, tmp } from './support.js';

/*
 * qprep serve bounded in every dimension a client or an input can push, with the built CLI:
 * the longest interval a timer holds, the text of its plain answers (control characters shown
 * as \xNN, as the human report shows them), the number of connections under a small file
 * limit, and the Host headers it answers (DNS rebinding).
 */

const HEALTHY = 'examples/snapshots/a2-healthy.json';
/** What a terminal would interpret: an OSC title, a screen clear, a colour, a bell, a C1 CSI, a bidi override. */
const ATTACK = '\u001b]0;owned\u0007\u001b[2J\u001b[31m\u009b1m\u202e';
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const started: ServeProcess[] = [];
async function serve(args: string[], options: Parameters<typeof startServe>[1] = {}): Promise<ServeProcess> {
  const agent = await startServe(args, options);
  started.push(agent);
  return agent;
}
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

function expectVisible(body: string, what: string): void {
  const raw = RAW_CONTROL.exec(body);
  expect(raw ? `raw U+${raw[0].charCodeAt(0).toString(16).padStart(4, '0')} near "${body.slice(Math.max(0, raw.index - 40), raw.index)}"` : 'none', what).toBe('none');
  // shown, not dropped: whoever reads it sees that the input held an escape
  expect(body, what).toContain('\\x1b');
}

/** GET with a Host header of the test's choosing (fetch sets its own). */
function getWithHost(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits until the process has accepted what it will: its count of open descriptors stays put for 300 ms. */
async function settledDescriptors(pid: number): Promise<number> {
  let last = -1;
  let stableSince = Date.now();
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const count = readdirSync(`/proc/${pid}/fd`).length;
    if (count !== last) {
      last = count;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= 300) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return last;
}

/** The status of the first answer within 10 s: a connection refused at the limit is tried again. */
async function answered(url: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return (await httpGet(url)).status;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('durations at the longest a timer holds', () => {
  it('--interval 24d20h31m23s647ms (2^31-1 ms) runs once, then waits: the jitter above it does not fire the timer at once', async () => {
    const agent = await serve(['--snapshot', HEALTHY, '--interval', '24d20h31m23s647ms', '--only', 'host']);
    await agent.waitForLog((l) => l.event === 'run');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(agent.logs.filter((l) => l.event === 'run')).toHaveLength(1);
    expect((await httpGet(`${agent.base}/readyz`)).status).toBe(200);
  });
});

describe('plain-text answers show control characters as \\xNN', () => {
  it('/readyz after a profile reload that failed on a key with escapes, the 400 for such a ?format=, and the profile label of /metrics', async () => {
    const dir = tmp('serve-escapes');
    const profile = join(dir, 'site.yaml');
    // YAML's "\e" is ESC: the name a profile file may hold, which /metrics puts in a label
    writeFileSync(profile, 'name: "site\\e]0;owned\\a\\e[2J\\e[31m"\nextends: default\n');
    const agent = await serve(['--snapshot', HEALTHY, '--profile', profile, '--interval', '1m', '--only', 'host']);
    await agent.waitForLog((l) => l.event === 'run');

    const metrics = await httpGet(`${agent.base}/metrics`);
    expect(metrics.status).toBe(200);
    expectVisible(metrics.body, '/metrics');
    expect(metrics.body).toMatch(/^qprep_info\{version="[^"]+",profile="site\\\\x1b\]0;owned\\\\x07\\\\x1b\[2J\\\\x1b\[31m",/m);

    const format = await httpGet(`${agent.base}/report?format=${encodeURIComponent(`json${ATTACK}`)}`);
    expect(format.status).toBe(400);
    expectVisible(format.body, 'the 400 of /report?format=');
    expect(format.body.split('\n')).toHaveLength(2);

    const seen = agent.logs.length;
    writeFileSync(profile, `name: site\nextends: default\nnpu:\n  "minDrivers${ATTACK.replace(/\u001b/g, '\\e').replace(/\u0007/g, '\\a').replace(/\u009b/g, '\\x9b').replace(/\u202e/g, '\\u202e')}": "25.0"\n`);
    process.kill(agent.pid, 'SIGHUP');
    await agent.waitForLog((l) => l.event === 'reload-failed', { after: seen });
    const ready = await httpGet(`${agent.base}/readyz`);
    expect(ready.body).toContain('profile reload failed');
    expectVisible(ready.body, '/readyz after the failed reload');
    expect(ready.body.split('\n')).toHaveLength(2);
  });
});

describe('connections: at most --max-connections, so that idle clients cannot starve a run of file descriptors', () => {
  it('240 idle connections under a 256 file limit: the run judges what the run before them judged', async () => {
    const root = hostTree();
    const bin = fakeBin({ 'npu-smi': healthyNpuSmi() });
    const agent = await serve(['--root', root, '--interval', '10m', '--timeout', '5s'], { env: { PATH: `${bin}:/usr/bin:/bin` }, fileLimit: 256 });
    const first = await agent.waitForLog((l) => l.event === 'run');

    const sockets: Socket[] = [];
    let closedByServe = 0;
    await Promise.all(
      Array.from({ length: 240 }, () =>
        new Promise<void>((resolve) => {
          const socket = connect(agent.port, '127.0.0.1', () => resolve());
          socket.on('error', () => resolve());
          socket.on('close', () => closedByServe++);
          sockets.push(socket);
        }),
      ),
    );
    try {
      await settledDescriptors(agent.pid);
      const seen = agent.logs.length;
      // SIGHUP starts a run: every connection an HTTP request could use is taken
      process.kill(agent.pid, 'SIGHUP');
      const second = await agent.waitForLog((l) => l.event === 'run' && l.trigger === 'reload', { after: seen });
      expect(second.summary, JSON.stringify(second)).toEqual(first.summary);
      expect(second.verdict).toBe(first.verdict);
      // the connections beyond the limit were closed as they came, and the log said so once
      expect(agent.logs.filter((l) => l.event === 'connection-limit')).toEqual([expect.objectContaining({ level: 'warn', maxConnections: 32 })]);
      expect(closedByServe).toBeGreaterThanOrEqual(240 - 32);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
    // once serve has seen them close (it counts a connection until then), it answers again
    expect(await answered(`${agent.base}/healthz`)).toBe(200);
  });

  it("a run holds at most 32 files open at once: an Atlas 800 A3's 192 CPU governors under a 64 file limit", async () => {
    const governors = Object.fromEntries(Array.from({ length: 192 }, (_, cpu) => [`/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`, 'performance\n']));
    const root = hostTree({ '/sys/devices/system/cpu/online': '0-191\n', ...governors });
    const agent = await serve(['--root', root, '--only', 'cpu.governor', '--interval', '10m'], { fileLimit: 64 });
    const run = await agent.waitForLog((l) => l.event === 'run');
    expect(run.summary, JSON.stringify(run)).toMatchObject({ pass: 1, error: 0 });
  });

  it('--max-connections takes a positive integer', async () => {
    const agent = await serve(['--snapshot', HEALTHY, '--only', 'host', '--max-connections', '2']);
    expect(agent.logs.find((l) => l.event === 'listening')).toMatchObject({ maxConnections: 2 });
  });
});

describe('the Host header: loopback names and the listen address only, unless --allow-host (DNS rebinding)', () => {
  it('a rebound name gets 421 Misdirected Request and one line; the loopback names and the address are answered', async () => {
    const agent = await serve(['--snapshot', HEALTHY, '--only', 'host', '--interval', '1m']);
    await agent.waitForLog((l) => l.event === 'run');
    const rebound = await getWithHost(agent.port, '/report', `rebind.attacker.example:${agent.port}`);
    expect(rebound.status).toBe(421);
    expect(rebound.body).toBe(`misdirected request: this agent does not answer for host "rebind.attacker.example:${agent.port}"; reach it by its address or localhost, or start qprep serve with --allow-host NAME\n`);
    for (const path of ['/readyz', '/metrics', '/healthz']) expect((await getWithHost(agent.port, path, 'rebind.attacker.example')).status, path).toBe(421);
    for (const host of [`127.0.0.1:${agent.port}`, `localhost:${agent.port}`, 'localhost']) {
      const answered = await getWithHost(agent.port, '/report', host);
      expect(answered.status, host).toBe(200);
      expect(JSON.parse(answered.body).ready).toBe(true);
    }
    const refused = await agent.waitForLog((l) => l.event === 'host-refused');
    expect(refused).toMatchObject({ level: 'warn', host: `rebind.attacker.example:${agent.port}`, count: 1 });
    // throttled: the three other refusals made no line of their own
    expect(agent.logs.filter((l) => l.event === 'host-refused')).toHaveLength(1);
  });

  it('--allow-host NAME answers that name too', async () => {
    const agent = await serve(['--snapshot', HEALTHY, '--only', 'host', '--interval', '1m', '--allow-host', 'node7.example,qprep.kube-system.svc']);
    await agent.waitForLog((l) => l.event === 'run');
    expect((await getWithHost(agent.port, '/report', `node7.example:${agent.port}`)).status).toBe(200);
    expect((await getWithHost(agent.port, '/report', 'qprep.kube-system.svc')).status).toBe(200);
    expect((await getWithHost(agent.port, '/report', 'node8.example')).status).toBe(421);
  });
});
