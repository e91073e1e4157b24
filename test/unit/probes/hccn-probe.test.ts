import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PlannedPing } from '../../../src/cluster/plan.js';
import { performCheck } from '../../../src/app/session.js';
import { pass } from '../../../src/core/outcome.js';
import { createContext } from '../../../src/core/runner.js';
import { DEFAULT_TOOL_LIMITS, LimitedHost } from '../../../src/host/limited.js';
import type { CheckContext } from '../../../src/core/types.js';
import type { CommandResult, Host } from '../../../src/host/types.js';
import { parseHccnIp } from '../../../src/parsers/hccn.js';
import { busyBackoffMs, hccnConf, hccnIp, hccnTls, pingArgs, queryHccn, runHccnTool, runPing, runPings } from '../../../src/probes/hccn.js';
import { FakeHost, type FakeCommand, type FakeHostSpec } from '../../helpers/fake-host.js';
import { profileWith } from '../../helpers/run-check.js';
import { fakeCheck } from '../../helpers/fake-check.js';

const TOOL = '/usr/local/Ascend/driver/tools/hccn_tool';
const ascend = (name: string) => readFileSync(new URL(`../../fixtures/ascend/${name}`, import.meta.url), 'utf8');
const synthetic = (name: string) => readFileSync(new URL(`../../fixtures/synthetic/${name}`, import.meta.url), 'utf8');
const BUSY = synthetic('hccn-busy.txt');

function hostWith(commands: FakeCommand[], spec: FakeHostSpec = {}): FakeHost {
  return new FakeHost({ files: { [TOOL]: { kind: 'file', content: 'ELF', mode: 0o755 } }, commands, ...spec });
}

function contextOn(host: Host, profile = profileWith()): CheckContext {
  return createContext({ host, profile, timeoutMs: 1000 });
}

/** Records the pauses instead of waiting: no test here waits for a backoff. */
function recordingSleep(): { sleep: (ms: number) => Promise<void>; pauses: number[] } {
  const pauses: number[] = [];
  return { pauses, sleep: async (ms) => void pauses.push(ms) };
}

const ping = (address: string, method: PlannedPing['method'] = 'roce', localDevice = 3): PlannedPing => ({
  localNode: 'node1',
  localDevice,
  peerNode: 'node2',
  peerDevice: localDevice,
  address,
  method,
});

describe('running hccn_tool', () => {
  it('finds it in the driver tools directory and runs "-i <device> <args>" as an argv array', async () => {
    const host = hostWith([{ argv: [TOOL, '-i', '0', '-ip', '-g'], stdout: 'ipaddr:198.18.1.10\nnetmask:255.255.0.0\n' }]);
    const answer = await hccnIp(contextOn(host), 0);
    expect(answer).toEqual({ ok: true, value: expect.objectContaining({ entries: [{ address: '198.18.1.10', netmask: '255.255.0.0' }] }), argv: [TOOL, '-i', '0', '-ip', '-g'], attempts: 1, exitCode: 0 });
  });

  it('asks once per run for the same answer, whichever check asks', async () => {
    const host = hostWith([{ argv: [TOOL, '-i', '1', '-tls', '-g'], stdout: ascend('hccn-tls-switch-a2x8-mindie-dsv3doc.txt').split('\n')[1]! }]);
    const ctx = contextOn(host);
    const [a, b] = await Promise.all([hccnTls(ctx, 1), hccnTls(ctx, 1)]);
    expect(a).toBe(b);
    expect(host.calls).toHaveLength(1);
  });

  it('retries a busy answer with a doubling pause, then returns the answer and the attempts it took', async () => {
    const argv = [TOOL, '-i', '2', '-ip', '-g'];
    const host = hostWith([
      { argv, stdout: BUSY, exitCode: 1, once: true },
      { argv, stderr: BUSY, exitCode: 255, once: true },
      { argv, stdout: BUSY, exitCode: 0, once: true },
      { argv, stdout: 'ipaddr:198.18.1.12\nnetmask:255.255.0.0\n' },
    ]);
    const { sleep, pauses } = recordingSleep();
    const answer = await queryHccn(contextOn(host), 2, ['-ip', '-g'], parseHccnIp, { sleep });
    expect(answer.ok && answer.value.entries[0]!.address).toBe('198.18.1.12');
    expect(answer.attempts).toBe(4);
    expect(pauses).toEqual([100, 200, 400]);
    expect(host.calls).toHaveLength(4);
  });

  it('gives up after the bounded number of retries (profile hccn.busyRetries) with a problem that says so', async () => {
    const argv = [TOOL, '-i', '0', '-link', '-g'];
    const host = hostWith([{ argv, stdout: BUSY, exitCode: 1 }]);
    const { sleep, pauses } = recordingSleep();
    const run = await runHccnTool(contextOn(host, profileWith({ hccn: { busyRetries: 2 } })), 0, ['-link', '-g'], { sleep });
    expect(run).toMatchObject({
      ok: false,
      kind: 'busy',
      attempts: 3,
      problem: `"${TOOL} -i 0 -link -g" answered "hccn_tool is busy" 3 times over 0.3 s; another program is using hccn_tool on this host`,
    });
    expect(pauses).toEqual([100, 200]);
    expect(busyBackoffMs(5)).toBe(1600);
    expect(busyBackoffMs(9)).toBe(1600);
  });

  it('a non-zero exit with a readable answer is that answer: an unconfigured device (derived text)', async () => {
    const host = hostWith([{ argv: [TOOL, '-i', '5', '-ip', '-g'], stdout: synthetic('hccn-ip-g-no-ip-preset.txt'), exitCode: 13 }]);
    expect(await hccnIp(contextOn(host), 5)).toMatchObject({ ok: true, exitCode: 13, value: { entries: [], notPreset: true } });
  });

  it('structured problems: not installed, failed, hung, unreadable, not a device id', async () => {
    const missing = await hccnIp(contextOn(new FakeHost()), 0);
    expect(missing).toMatchObject({ ok: false, kind: 'not-found', attempts: 0 });
    expect(!missing.ok && missing.problem).toContain('hccn_tool not found (searched /usr/local/bin/hccn_tool');
    expect(!missing.ok && missing.problem).toContain('/usr/local/Ascend/driver/tools/hccn_tool');

    const failing = hostWith([
      { argv: [TOOL, '-i', '0', '-ip', '-g'], stdout: 'dsmi get device ip failed, ret = -8005\n', exitCode: 13 },
      { argv: [TOOL, '-i', '1', '-ip', '-g'], timedOut: true },
      { argv: [TOOL, '-i', '2', '-ip', '-g'], stdout: 'something else entirely\n' },
      { argv: [TOOL, '-i', '3', '-ip', '-g'], stdout: '', exitCode: 1 },
    ]);
    const ctx = contextOn(failing);
    expect(await hccnIp(ctx, 0)).toMatchObject({ ok: false, kind: 'failed', problem: `"${TOOL} -i 0 -ip -g" exited with code 13: dsmi get device ip failed, ret = -8005` });
    expect(await hccnIp(ctx, 1)).toMatchObject({ ok: false, kind: 'failed', problem: `"${TOOL} -i 1 -ip -g" did not finish within 1000 ms and was killed with its child processes` });
    expect(await hccnIp(ctx, 2)).toMatchObject({ ok: false, kind: 'unparsable', problem: `"${TOOL} -i 2 -ip -g": not hccn_tool -ip -g output: line 1 is "something else entirely"` });
    expect(await hccnIp(ctx, 3)).toMatchObject({ ok: false, kind: 'failed', problem: `"${TOOL} -i 3 -ip -g" exited with code 1` });
    expect(await hccnIp(ctx, -1)).toMatchObject({ ok: false, kind: 'refused' });
    expect(await hccnIp(ctx, 2.5)).toMatchObject({ ok: false, kind: 'refused' });
    expect(failing.calls).toHaveLength(4);
  });
});

describe('running a planned ping', () => {
  it('builds the documented argv: -ping for RoCE, -hccs_ping for HCCS', () => {
    expect(pingArgs({ method: 'roce', address: '198.18.2.13' })).toEqual(['-ping', '-g', 'address', '198.18.2.13']);
    expect(pingArgs({ method: 'hccs', address: '198.19.130.13' })).toEqual(['-hccs_ping', '-g', 'address', '198.19.130.13']);
    expect(pingArgs({ method: 'roce', address: '1.2.3.4; rm -rf /' })).toBeUndefined();
  });

  it('never runs anything for an address that is not IPv4', async () => {
    const host = hostWith([]);
    const run = await runPing(contextOn(host), ping('1.2.3.4; rm -rf /'));
    expect(run.outcome).toEqual({ status: 'error', problem: 'refused to ping "1.2.3.4; rm -rf /": not an IPv4 address' });
    expect(host.calls).toEqual([]);
  });

  it('judges success, loss and unreachable from the output, whatever the exit code', async () => {
    const argv = (address: string) => [TOOL, '-i', '3', '-ping', '-g', 'address', address];
    const host = hostWith([
      { argv: argv('29.1.137.205'), stdout: ascend('hccn-ping-success-910b-arthurchiao.txt') },
      { argv: argv('198.18.2.13'), stdout: synthetic('hccn-ping-partial-loss.txt') },
      { argv: argv('198.18.2.14'), stdout: synthetic('hccn-ping-no-reply.txt'), exitCode: 1 },
      { argv: argv('198.18.9.10'), stdout: synthetic('hccn-ping-unreachable.txt'), exitCode: 1 },
      { argv: argv('198.18.2.15'), stdout: 'device 3 PING 198.18.2.15\nping failed, ret = -1\n', exitCode: 1 },
      { argv: argv('198.18.2.16'), timedOut: true, stdout: 'device 3 PING 198.18.2.16\n3 packets transmitted, 3 received, 0.00% packet loss\n' },
    ]);
    const ctx = contextOn(host);
    const outcome = async (address: string) => (await runPing(ctx, ping(address))).outcome;
    expect(await outcome('29.1.137.205')).toEqual({ status: 'ok', received: 3, transmitted: 3 });
    expect(await outcome('198.18.2.13')).toEqual({ status: 'loss', lossPercent: 33.33, received: 2, transmitted: 3 });
    expect(await outcome('198.18.2.14')).toEqual({ status: 'loss', lossPercent: 100, received: 0, transmitted: 3 });
    expect(await outcome('198.18.9.10')).toEqual({ status: 'unreachable' });
    expect(await outcome('198.18.2.15')).toEqual({ status: 'error', problem: `"${TOOL} -i 3 -ping -g address 198.18.2.15" exited with code 1: ping failed, ret = -1` });
    expect(await outcome('198.18.2.16')).toMatchObject({ status: 'error', problem: expect.stringContaining('did not finish within 1000 ms') });
  });

  it('reads an A3 HCCS ping (documented format)', async () => {
    const host = hostWith([{ argv: [TOOL, '-i', '0', '-hccs_ping', '-g', 'address', '198.19.130.10'], stdout: synthetic('hccn-hccs-ping-success-a3.txt') }]);
    expect((await runPing(contextOn(host), ping('198.19.130.10', 'hccs', 0))).outcome).toEqual({ status: 'ok', received: 3, transmitted: 3 });
  });

  it('runs a plan in order, skipping the pings it is told to skip', async () => {
    const host = hostWith([{ argv: [TOOL, '-i', '1', '-ping', '-g', 'address', '198.18.2.11'], stdout: 'device 1 PING 198.18.2.11\n3 packets transmitted, 3 received, 0.00% packet loss\n' }]);
    const runs = await runPings(contextOn(host), [ping('198.18.2.10', 'roce', 0), ping('198.18.2.11', 'roce', 1)], {
      skip: (p) => (p.localDevice === 0 ? 'link of dev0 is DOWN' : undefined),
    });
    expect(runs.map((r) => r.outcome.status)).toEqual(['skipped', 'ok']);
    expect(host.calls).toHaveLength(1);
  });
});

/** A host whose commands take a while, and that counts how many hccn_tool and npu-smi calls overlap. */
class SlowHost extends FakeHost {
  running = new Map<string, number>();
  peak = new Map<string, number>();
  order: string[] = [];

  override async run(argv: readonly string[]): Promise<CommandResult> {
    const tool = argv[0]!.replace(/^.*\//, '');
    this.running.set(tool, (this.running.get(tool) ?? 0) + 1);
    this.peak.set(tool, Math.max(this.peak.get(tool) ?? 0, this.running.get(tool)!));
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.running.set(tool, this.running.get(tool)! - 1);
    this.order.push(tool);
    return super.run(argv);
  }
}

function slowHost(): SlowHost {
  const commands: FakeCommand[] = [];
  for (let d = 0; d < 8; d++) commands.push({ argv: [TOOL, '-i', String(d), '-link', '-g'], stdout: 'link status: UP\n' });
  commands.push({ argv: ['/usr/local/sbin/npu-smi', 'info'], stdout: '' });
  return new SlowHost({ files: { [TOOL]: { kind: 'file', content: 'ELF', mode: 0o755 } }, commands });
}

describe('the hccn_tool limit per host', () => {
  it('LimitedHost lets through as many hccn_tool calls as configured, and never holds up other tools', async () => {
    for (const limit of [1, 3]) {
      const inner = slowHost();
      const host = new LimitedHost(inner, 8, { ...DEFAULT_TOOL_LIMITS, hccn_tool: limit });
      const calls = Array.from({ length: 8 }, (_, d) => host.run([TOOL, '-i', String(d), '-link', '-g']));
      await Promise.all([...calls, host.run(['/usr/local/sbin/npu-smi', 'info'])]);
      expect(inner.peak.get('hccn_tool')).toBe(limit);
      // npu-smi was not queued behind the 8 hccn_tool calls
      expect(inner.order.indexOf('npu-smi')).toBeLessThan(inner.order.lastIndexOf('hccn_tool'));
    }
  });

  // asks hccn_tool about 8 devices at once
  const probeEveryDevice = fakeCheck('hccn.link', {
    async run(ctx) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, d) => runHccnTool(ctx, d, ['-link', '-g'])));
      return pass(`${answers.filter((a) => a.ok).length} answers`);
    },
  });

  async function peakWith(options: { hccnConcurrency?: number }, profile = profileWith()): Promise<number | undefined> {
    const host = slowHost();
    const run = await performCheck({ host, source: { kind: 'live', root: '/' } }, { profile, source: 'builtin' }, options, { catalogue: [probeEveryDevice] });
    expect(run.results[0]!.message).toBe('8 answers');
    return host.peak.get('hccn_tool');
  }

  it('defaults to one call at a time; the profile (hccn.concurrency) and --hccn-concurrency raise it', async () => {
    expect(await peakWith({})).toBe(1);
    expect(await peakWith({}, profileWith({ hccn: { concurrency: 2 } }))).toBe(2);
    expect(await peakWith({ hccnConcurrency: 4 }, profileWith({ hccn: { concurrency: 2 } }))).toBe(4);
  });
});

describe('/etc/hccn.conf', () => {
  it('is read once per run and parsed; a missing or unreadable file is a problem naming the path', async () => {
    const ctx = contextOn(new FakeHost({ files: { '/etc/hccn.conf': ascend('hccn-conf-910b-arthurchiao.txt') } }));
    const [a, b] = await Promise.all([hccnConf(ctx), hccnConf(ctx)]);
    expect(a).toBe(b);
    expect(a.ok && a.value.devices.map((d) => d.settings.address)).toEqual(['29.1.137.205', '29.1.170.143']);
    expect(await hccnConf(contextOn(new FakeHost()))).toEqual({ ok: false, path: '/etc/hccn.conf', code: 'ENOENT', problem: '/etc/hccn.conf: no such file or directory' });
    expect(await hccnConf(contextOn(new FakeHost({ files: { '/etc/hccn.conf': 'not a config\n' } })))).toMatchObject({ ok: false, code: 'EPARSE', problem: '/etc/hccn.conf: not /etc/hccn.conf output: line 1 is "not a config"' });
  });
});
