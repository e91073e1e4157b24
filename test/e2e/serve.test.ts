import { execaSync } from 'execa';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';
import { fixturePath } from '../helpers/fixtures.js';
import { httpGet, startServe, switchableNpuSmi, type ServeProcess } from '../helpers/serve.js';
import { hasTool, PROMTOOL, XMLLINT } from '../helpers/tools.js';
import { UNTUNED_HOST_FILES, writeUntunedTree } from '../helpers/untuned-tree.js';

/**
 * The built CLI as `qprep serve` on loopback, read with real HTTP requests: a demo snapshot
 * replayed by every run, and a live --root tree.
 */

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('not within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const started: ServeProcess[] = [];
async function serve(args: string[], env?: Record<string, string>): Promise<ServeProcess> {
  const agent = await startServe(args, env ? { env } : {});
  started.push(agent);
  return agent;
}
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

const HEALTHY = 'examples/snapshots/a2-healthy.json';
const BROKEN = 'examples/snapshots/a2-broken.json';

describe('qprep serve --snapshot a2-healthy.json --interval 2s', () => {
  let agent: ServeProcess;

  it('answers /readyz 200 with the verdict on one line once the first run is done', async () => {
    agent = await serve(['--snapshot', HEALTHY, '--interval', '2s']);
    await agent.waitForLog((l) => l.event === 'run');
    const ready = await httpGet(`${agent.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatch(/^ready: \d+ checks, none blocking(, \d+ warnings?)? \(run [0-9a-f-]{36}, \d+s ago\)\n$/);
    expect((await httpGet(`${agent.base}/healthz`)).status).toBe(200);
  });

  it('/report is the report of qprep schema report, replayed from the snapshot', async () => {
    const response = await httpGet(`${agent.base}/report`);
    expect(response.status).toBe(200);
    const report = JSON.parse(response.body);
    const { valid, errors } = await validateAgainstSchema('report', report);
    expect(valid, errors).toBe(true);
    expect(report.ready).toBe(true);
    expect(report.source).toMatchObject({ kind: 'snapshot', snapshot: { file: HEALTHY } });
    expect(response.headers.get('etag')).toBe(`"${report.runId}-json"`);
    // the same report, unchanged, until the next run replaces it
    const again = await httpGet(`${agent.base}/report`, { headers: { 'If-None-Match': response.headers.get('etag')! } });
    expect([200, 304]).toContain(again.status);
    if (again.status === 304) expect(again.body).toBe('');
  });

  it.skipIf(!hasTool(XMLLINT, 'libxml2-utils'))('?format=junit is well-formed XML', async () => {
    const response = await httpGet(`${agent.base}/report?format=junit`);
    expect(response.status).toBe(200);
    const lint = execaSync('xmllint', ['--noout', '-'], { input: response.body, reject: false });
    expect(lint.stderr).toBe('');
    expect(lint.exitCode).toBe(0);
  });

  it.skipIf(!hasTool(PROMTOOL, 'prometheus'))('/metrics and ?format=prometheus pass promtool check metrics; the agent counts its runs', async () => {
    await agent.waitForLog((l) => l.event === 'run' && l.trigger === 'schedule', { timeoutMs: 30_000 });
    for (const path of ['/metrics', '/report?format=prometheus']) {
      const response = await httpGet(`${agent.base}${path}`);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const lint = execaSync('promtool', ['check', 'metrics'], { input: response.body, reject: false });
      expect(`${String(lint.stdout)}${String(lint.stderr)}`).toBe('');
      expect(response.body).toContain('\nqprep_ready 1\n');
    }
    const metrics = (await httpGet(`${agent.base}/metrics`)).body;
    const runs = Number(/^qprep_runs_total\{verdict="ready"\} (\d+)$/m.exec(metrics)?.[1]);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(metrics).toMatch(/^qprep_last_run_timestamp_seconds \d+(\.\d+)?$/m);
  });

  it('POST /run is off without --allow-trigger; SIGTERM ends it with exit 0 and a stop line; stderr is JSON lines only', async () => {
    expect((await httpGet(`${agent.base}/run`, { method: 'POST' })).status).toBe(403);
    expect(await agent.stop()).toBe(0);
    expect(agent.logs.at(-1)).toMatchObject({ event: 'stop', signal: 'SIGTERM' });
    expect(agent.otherStderr).toEqual([]);
    const first = agent.logs.find((l) => l.event === 'run')!;
    expect(first).toMatchObject({ level: 'info', trigger: 'start', verdict: 'ready', blocking: [] });
  });
});

describe.skipIf(!hasTool(['curl', '--version'], 'curl'))('read with curl, as a load balancer or an operator would', () => {
  function curl(args: string[]): { status: number; headers: string; body: string } {
    const run = execaSync('curl', ['--silent', '--show-error', '--include', '--max-time', '10', ...args], { reject: false, stripFinalNewline: false });
    expect(run.stderr).toBe('');
    const text = String(run.stdout);
    const split = text.indexOf('\r\n\r\n');
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), headers: text.slice(0, split), body: text.slice(split + 4) };
  }

  it('every endpoint and status: 200, 503, 304, 400, 403, 404, 405 and HEAD', async () => {
    const healthy = await serve(['--snapshot', HEALTHY, '--interval', '1m']);
    const broken = await serve(['--snapshot', BROKEN, '--interval', '1m', '--allow-trigger']);
    await healthy.waitForLog((l) => l.event === 'run');
    await broken.waitForLog((l) => l.event === 'run');
    expect(curl([`${healthy.base}/healthz`])).toMatchObject({ status: 200, body: 'ok\n' });
    expect(curl([`${healthy.base}/readyz`]).status).toBe(200);
    expect(curl([`${broken.base}/readyz`]).body).toMatch(/^not ready: 4 blocking checks/);
    expect(curl([`${broken.base}/readyz`]).status).toBe(503);
    const report = curl([`${healthy.base}/report`]);
    expect(report.status).toBe(200);
    const etag = /^ETag: (.+)$/im.exec(report.headers)![1]!.trim();
    expect(curl(['--header', `If-None-Match: ${etag}`, `${healthy.base}/report`])).toMatchObject({ status: 304, body: '' });
    expect(curl([`${healthy.base}/report?format=csv`]).status).toBe(400);
    expect(curl([`${healthy.base}/metrics`]).body).toContain('qprep_runs_total{verdict="ready"} 1');
    expect(curl(['--request', 'POST', `${healthy.base}/run`]).status).toBe(403);
    expect(curl(['--request', 'POST', `${broken.base}/run`]).status).toBe(202);
    expect(curl([`${healthy.base}/nothing`]).status).toBe(404);
    const wrong = curl(['--request', 'PUT', `${healthy.base}/readyz`]);
    expect(wrong.status).toBe(405);
    expect(wrong.headers).toMatch(/^Allow: GET, HEAD$/im);
    const head = curl(['--head', `${broken.base}/readyz`]);
    expect(head).toMatchObject({ status: 503, body: '' });
  });
});

describe('every run replays the snapshot from its start', () => {
  it('a snapshot whose later recorded answers differ gives every run the verdict of the first', async () => {
    const snapshot = JSON.parse(readFileSync(HEALTHY, 'utf8'));
    const info = snapshot.commands.filter((c: { argv: string[] }) => c.argv.join(' ') === '/usr/local/bin/npu-smi info');
    expect(info.length).toBeGreaterThan(1);
    // the last recorded `npu-smi info` shows a process on NPU 0: a replay that went on from the
    // previous run's position would reach it
    info.at(-1).stdout = readFileSync(fixturePath('ascend', 'npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt'), 'utf8');
    const file = join(mkdtempSync(join(tmpdir(), 'qprep-serve-snap-')), 'recorded.json');
    writeFileSync(file, JSON.stringify(snapshot));
    const agent = await serve(['--snapshot', file, '--interval', '1m', '--allow-trigger']);
    await agent.waitForLog((l) => l.event === 'run');
    for (let run = 2; run <= 4; run++) {
      expect((await httpGet(`${agent.base}/run`, { method: 'POST' })).status).toBe(202);
      await until(() => agent.logs.filter((l) => l.event === 'run').length >= run);
    }
    expect(agent.logs.filter((l) => l.event === 'run').map((l) => l.verdict)).toEqual(['ready', 'ready', 'ready', 'ready']);
    await agent.stop();
  });
});

describe('qprep serve --snapshot a2-broken.json', () => {
  it('answers /readyz 503 naming the blocking checks, and logs the state change with them', async () => {
    const agent = await serve(['--snapshot', BROKEN, '--interval', '2s']);
    const state = await agent.waitForLog((l) => l.event === 'state');
    expect(state).toMatchObject({ level: 'warn', from: 'unknown', to: 'not-ready', blocking: ['npu.driver-files', 'npu.health', 'npu.ecc', 'npu.idle'] });
    const ready = await httpGet(`${agent.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatch(/^not ready: 4 blocking checks: npu\.driver-files, npu\.health, npu\.ecc, npu\.idle \(run /);
    const report = JSON.parse((await httpGet(`${agent.base}/report`)).body);
    expect(report.ready).toBe(false);
    expect((await validateAgainstSchema('report', report)).valid).toBe(true);
    expect(await agent.stop()).toBe(0);
  });
});

describe('a replay judges like the node did: the profile the snapshot recorded', () => {
  it('qprep serve --snapshot a2-node2.json is not ready, as qprep check of the same snapshot says', async () => {
    const node2 = 'examples/snapshots/a2-node2.json';
    const check = await qprep(['check', '--snapshot', node2, '--format', 'json']);
    expect(check.exitCode).toBe(1);
    const judged = JSON.parse(check.stdout);
    expect(judged.profile.source).toBe('recorded');
    const agent = await serve(['--snapshot', node2, '--interval', '1m']);
    await agent.waitForLog((l) => l.event === 'run');
    const ready = await httpGet(`${agent.base}/readyz`);
    expect(ready.status).toBe(503);
    expect(agent.logs[0]).toMatchObject({ event: 'listening', profile: judged.profile.name, profileSource: 'recorded' });
    expect(ready.body).toMatch(new RegExp(`^not ready: ${judged.blocking.length} blocking checks: ${judged.blocking.join(', ').replace(/\./g, '\\.')} \\(run `));
    const report = JSON.parse((await httpGet(`${agent.base}/report`)).body);
    expect(report.profile).toEqual(judged.profile);
    expect(report.blocking).toEqual(judged.blocking);
    // --profile still wins over the recorded one
    const overridden = await serve(['--snapshot', node2, '--interval', '1m', '--profile', 'default']);
    expect(overridden.logs[0]).toMatchObject({ profile: 'default', profileSource: 'builtin' });
  });
});

describe('qprep serve on a live --root tree', () => {
  it('judges the tree and never tunes it, whatever the tuning checks find', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-serve-root-'));
    writeUntunedTree(root);
    const agent = await serve(['--root', root, '--only', 'sysctl,cpu.governor', '--interval', '1m']);
    await agent.waitForLog((l) => l.event === 'run');
    const report = JSON.parse((await httpGet(`${agent.base}/report`)).body);
    expect(report.source).toEqual({ kind: 'live', root });
    expect(report.checks.map((c: { id: string; status: string }) => `${c.id} ${c.status}`).sort()).toEqual(['cpu.governor warn', 'sysctl.numa-balancing warn', 'sysctl.swappiness warn']);
    expect((await httpGet(`${agent.base}/readyz`)).status).toBe(200);
    await agent.stop();
    for (const [path, content] of Object.entries(UNTUNED_HOST_FILES)) expect(readFileSync(join(root, path), 'utf8'), path).toBe(content);
  });

  it('POST /run with --allow-trigger: 409 while the first run waits on a slow npu-smi, 202 once it is done', async () => {
    const smi = switchableNpuSmi({ sleepSeconds: 3 });
    copyFileSync(fixturePath('ascend', 'npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt'), smi.current);
    const root = mkdtempSync(join(tmpdir(), 'qprep-serve-root-'));
    const agent = await serve(['--root', root, '--only', 'npu.idle', '--interval', '10m', '--allow-trigger'], { PATH: `${smi.bin}:/usr/bin:/bin` });
    const busy = await httpGet(`${agent.base}/run`, { method: 'POST' });
    expect(busy).toMatchObject({ status: 409, body: 'a run is already going on; GET /report when it has finished\n' });
    await agent.waitForLog((l) => l.event === 'run');
    expect((await httpGet(`${agent.base}/readyz`)).status).toBe(200);
    expect((await httpGet(`${agent.base}/run`, { method: 'POST' })).status).toBe(202);
    expect(await agent.waitForLog((l) => l.event === 'run' && l.trigger === 'http')).toMatchObject({ verdict: 'ready' });
    await agent.stop();
  });
});

describe('the log carries no secrets', () => {
  it('a token in the launch script and a password in the proxy variable stay out of every log line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-serve-secret-'));
    const script = join(dir, 'run.sh');
    writeFileSync(script, '#!/bin/bash\nexport HF_TOKEN=hf_TOKENs3cretTOKEN\nvllm serve /models/Qwen3-8B --port 8000\n');
    const root = mkdtempSync(join(tmpdir(), 'qprep-serve-root-'));
    writeUntunedTree(root);
    const agent = await serve(['--root', root, '--launch', script, '--only', 'net.proxy,launch', '--interval', '1m'], { https_proxy: 'http://alice:pr0xyPASS@proxy.example:3128' });
    await agent.waitForLog((l) => l.event === 'run');
    await agent.stop();
    const log = JSON.stringify(agent.logs);
    expect(agent.logs.filter((l) => l.event === 'run')).toHaveLength(1);
    expect(log).not.toContain('s3cret');
    expect(log).not.toContain('pr0xyPASS');
  });
});

describe('bad usage: exit 2 with one error line (and its hint, when there is one), before listening', () => {
  it.each([
    [['--interval', '300'], 'qprep: error: --interval 300: a duration needs its unit (ms, s, m, h or d)\nqprep: hint: did you mean "--interval 300s"?\n'],
    [['--interval', '0.5s'], 'qprep: error: --interval 0.5s is shorter than the minimum of 1s\n'],
    [['--interval', '1m', '--budget', '2m'], 'qprep: error: --budget 2m is longer than --interval 1m: a run would still be going when the next one is due\n'],
    [['--listen', 'node1:9105'], 'qprep: error: --listen: "node1" is not an IPv4 address or a bracketed IPv6 address ([::1]:9105); hostnames are not resolved\n'],
    [['--listen', '9105'], 'qprep: error: --listen expects ADDRESS:PORT (127.0.0.1:9105, [::1]:9105, 0.0.0.0:9105), got "9105"\n'],
    [['--snapshot', 'no/such.json'], /^qprep: error: .*no\/such\.json.*\n$/],
    [['--profile', 'no-such-profile'], 'qprep: error: unknown profile "no-such-profile"\nqprep: hint: npx qprep list --profiles shows the built-in profiles (or give a YAML/JSON file)\n'],
    [['--launch', '-'], 'qprep: error: qprep serve cannot read --launch from standard input: it reads the script at every run; give its path\n'],
    // the check options are read as qprep check reads them: an empty --only selects nothing, not everything
    [['--snapshot', 'examples/snapshots/a2-healthy.json', '--only', ''], 'qprep: error: no check selected: --only is empty\n'],
  ])('serve %j', async (args, stderr) => {
    const run = await qprep(['serve', ...args]);
    expect(run.exitCode).toBe(2);
    if (typeof stderr === 'string') expect(run.stderr).toBe(stderr);
    else expect(run.stderr).toMatch(stderr);
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines.filter((line) => !line.startsWith('qprep: hint: '))).toHaveLength(1);
    expect(lines[0]).toMatch(/^qprep: error: /);
  });

  it('a port already taken', async () => {
    const agent = await serve(['--snapshot', HEALTHY]);
    const run = await qprep(['serve', '--snapshot', HEALTHY, '--listen', `127.0.0.1:${agent.port}`]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`qprep: error: cannot listen on 127.0.0.1:${agent.port}: the address is already in use\n`);
  });
});
