import { describe, expect, it } from 'vitest';
import { pass, fail, error as errorOutcome } from '../../../src/core/outcome.js';
import { actionOf, createContext, runChecks, type RunOptions } from '../../../src/core/runner.js';
import { worstAction } from '../../../src/core/ids/actions.js';
import { LimitedHost } from '../../../src/host/limited.js';
import type { CommandOptions } from '../../../src/host/types.js';
import { CHECK_IDS, type CheckId } from '../../../src/core/ids/checks.js';
import type { Check, Outcome } from '../../../src/core/types.js';
import { blockingResults, exitCodeFor, summarize } from '../../../src/core/verdict.js';
import { fakeCheck as checkWith } from '../../helpers/fake-check.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { profileWith } from '../../helpers/run-check.js';

/** A check of the catalogue's ids with the given logic: the engine's behaviour, not the check's. */
function fakeCheck(id: CheckId, run: () => Promise<Outcome>, level: 'required' | 'recommended' = 'required'): Check {
  return checkWith(id, { level, run });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function options(overrides: Partial<RunOptions> = {}): RunOptions {
  return { concurrency: 4, commandConcurrency: 4, toolLimits: {}, timeoutMs: 200, ignore: new Set(), ...overrides };
}

describe('runChecks', () => {
  it('keeps causedBy only while the cause is in the report and did not pass, pointing at the first link of a chain', async () => {
    const checks = [
      fakeCheck('npu.tools', async () => fail('npu-smi not found')),
      fakeCheck('npu.smi', async () => errorOutcome('no table', { causedBy: 'npu.tools' })),
      fakeCheck('npu.count', async () => errorOutcome('cannot count', { causedBy: 'npu.smi' })),
      fakeCheck('npu.devices', async () => pass('fine')),
      fakeCheck('npu.health', async () => errorOutcome('cannot look', { causedBy: 'npu.devices' })),
      // its cause is not in this run
      fakeCheck('npu.idle', async () => errorOutcome('cannot look', { causedBy: 'hccn.peers' })),
      fakeCheck('npu.cann', async () => pass('fine', { causedBy: 'npu.tools' })),
    ];
    const results = await runChecks(checks, createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: 200 }), options());
    expect(Object.fromEntries(results.map((r) => [r.id, r.causedBy]))).toEqual({
      'npu.tools': undefined,
      'npu.smi': 'npu.tools',
      'npu.count': 'npu.tools',
      'npu.devices': undefined,
      'npu.health': undefined,
      'npu.idle': undefined,
      'npu.cann': undefined,
    });
  });

  it('returns results in catalogue order whatever order they finish in', async () => {
    const finished: string[] = [];
    const ids = CHECK_IDS.slice(0, 4);
    const checks = [30, 1, 15, 5].map((delay, i) =>
      fakeCheck(ids[i]!, async () => {
        await sleep(delay);
        finished.push(ids[i]!);
        return pass(`done after ${delay}`);
      }),
    );
    const results = await runChecks(checks, createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: 200 }), options());
    expect(results.map((r) => r.id)).toEqual(ids);
    expect(finished).not.toEqual(ids);
  });

  it("turns one check's exception into that check's error and runs the others", async () => {
    const checks = [
      fakeCheck('host.shm', async () => {
        throw new TypeError('cannot read properties of undefined');
      }),
      fakeCheck('host.disk', async () => pass('fine')),
    ];
    const [boom, fine] = await runChecks(checks, createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: 200 }), options());
    expect(boom!.status).toBe('error');
    expect(boom!.message).toBe('internal error in host.shm: cannot read properties of undefined');
    expect(boom!.remediation).toContain('qprep snapshot');
    expect(fine!.status).toBe('pass');
  });

  it('stops waiting for a check that never finishes (watchdog) and reports it', async () => {
    const hang = fakeCheck('host.memory', () => new Promise<Outcome>(() => undefined));
    hang.budgetMs = () => 50;
    const [result] = await runChecks([hang], createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: 200 }), options());
    expect(result!.status).toBe('error');
    expect(result!.message).toBe('host.memory did not finish within 50 ms');
  });

  it('respects the concurrency limit', async () => {
    let running = 0;
    let peak = 0;
    const checks = CHECK_IDS.slice(0, 10).map((id) =>
      fakeCheck(id, async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(5);
        running--;
        return pass('ok');
      }),
    );
    await runChecks(checks, createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: 200 }), options({ concurrency: 3 }));
    expect(peak).toBe(3);
  });

  it('reports a recommended fail as warn and keeps required fails', async () => {
    const checks = [fakeCheck('host.shm', async () => fail('bad', { remediation: 'x' })), fakeCheck('net.proxy', async () => fail('meh', { remediation: 'x' }), 'recommended')];
    const results = await runChecks(checks, createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: 200 }), options());
    expect(results.map((r) => r.status)).toEqual(['fail', 'warn']);
  });

  it('lets a profile promote a check to required', async () => {
    const checks = [fakeCheck('net.proxy', async () => fail('meh', { remediation: 'x' }), 'recommended')];
    const profile = profileWith({ levels: { 'net.proxy': 'required' } });
    const [result] = await runChecks(checks, createContext({ host: new FakeHost(), profile, timeoutMs: 200 }), options());
    expect(result!.level).toBe('required');
    expect(result!.status).toBe('fail');
  });

  it('downgrades an ignored fail to warn and records it, but never an error', async () => {
    const checks = [fakeCheck('host.shm', async () => fail('bad', { remediation: 'x' })), fakeCheck('host.disk', async () => errorOutcome('cannot tell', { remediation: 'x' }))];
    const results = await runChecks(checks, createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: 200 }), options({ ignore: 'all' }));
    expect(results[0]!.status).toBe('warn');
    expect(results[0]!.waived).toEqual({ reason: 'ignored with --ignore', found: 'fail' });
    expect(results[0]!.waiverRefused).toBeUndefined();
    expect(results[1]!.status).toBe('error');
    expect(results[1]!.waived).toBeUndefined();
    // the report says the waiver was asked for and not applied
    expect(results[1]!.waiverRefused).toBe('waiver not applied: error means could not assess; use --skip');
  });

  it('applies profile waivers until they expire', async () => {
    const checks = [fakeCheck('host.shm', async () => fail('bad', { remediation: 'x' })), fakeCheck('host.disk', async () => fail('bad', { remediation: 'x' }))];
    const profile = profileWith({
      waivers: [
        { id: 'host.shm', reason: 'known, ticket OPS-12', expires: '2027-01-31' },
        { id: 'host.disk', reason: 'old', expires: '2026-01-01' },
      ],
    });
    const now = () => new Date('2026-12-02T10:00:00Z');
    const results = await runChecks(checks, createContext({ host: new FakeHost(), profile, timeoutMs: 200, now }), options({ now }));
    expect(results[0]!.status).toBe('warn');
    expect(results[0]!.waived).toEqual({ reason: 'known, ticket OPS-12', expires: '2027-01-31', found: 'fail' });
    expect(results[1]!.status).toBe('fail');
    expect(results[1]!.message).toBe('bad (waiver expired 2026-01-01)');
    expect(results[1]!.waived).toBeUndefined();
    expect(results[1]!.waiverExpired).toEqual({ reason: 'old', expires: '2026-01-01' });
    expect(results[0]!.waiverExpired).toBeUndefined();
  });

  it('a waiver applies through its expiry day and stops the day after', async () => {
    const checks = [fakeCheck('host.shm', async () => fail('bad', { remediation: 'x' }))];
    const profile = profileWith({ waivers: [{ id: 'host.shm', reason: 'r', expires: '2026-12-02' }] });
    const on = async (iso: string) => (await runChecks(checks, createContext({ host: new FakeHost(), profile, timeoutMs: 200, now: () => new Date(iso) }), options({ now: () => new Date(iso) })))[0]!;
    expect((await on('2026-12-02T23:59:00Z')).status).toBe('warn');
    expect((await on('2026-12-03T00:00:00Z')).status).toBe('fail');
  });
});

it('records waivers of recommended checks too, so --strict respects them', async () => {
  const checks = [
    fakeCheck('net.proxy', async () => fail('meh', { remediation: 'x' }), 'recommended'),
    fakeCheck('mem.jemalloc', async () => ({ status: 'warn', message: 'proxy set', remediation: 'x' }), 'recommended'),
    fakeCheck('sysctl.swappiness', async () => fail('meh', { remediation: 'x' }), 'recommended'),
  ];
  const profile = profileWith({ waivers: [{ id: 'net.proxy', reason: 'accepted' }, { id: 'mem.jemalloc', reason: 'wrapper unsets it' }] });
  const results = await runChecks(checks, createContext({ host: new FakeHost(), profile, timeoutMs: 200 }), options());
  expect(results.map((r) => [r.status, r.waived?.reason])).toEqual([
    ['warn', 'accepted'],
    ['warn', 'wrapper unsets it'],
    ['warn', undefined],
  ]);
  expect(blockingResults(results, true).map((r) => r.id)).toEqual(['sysctl.swappiness']);
});

describe('LimitedHost', () => {
  it('runs at most one hccn_tool at a time while other tools overlap', async () => {
    let hccnRunning = 0;
    let hccnPeak = 0;
    let otherPeak = 0;
    let otherRunning = 0;
    const inner = new FakeHost();
    inner.run = async (argv) => {
      const hccn = argv[0]!.endsWith('hccn_tool');
      if (hccn) hccnPeak = Math.max(hccnPeak, ++hccnRunning);
      else otherPeak = Math.max(otherPeak, ++otherRunning);
      await sleep(10);
      if (hccn) hccnRunning--;
      else otherRunning--;
      return { argv: [...argv], exitCode: 0, signal: null, stdout: '', stderr: '', durationMs: 10, timedOut: false, notFound: false };
    };
    const host = new LimitedHost(inner, 8, { hccn_tool: 1 });
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => host.run(['/usr/local/Ascend/driver/tools/hccn_tool', '-i', String(i), '-link', '-g'])),
      ...Array.from({ length: 4 }, () => host.run(['npu-smi', 'info'])),
    ]);
    expect(hccnPeak).toBe(1);
    expect(otherPeak).toBeGreaterThan(1);
  });

  it('does not start a call whose startBy has passed when its turn comes, nor any call after stop(); it aborts the ones running', async () => {
    const started: string[] = [];
    const signals: AbortSignal[] = [];
    const inner = new FakeHost();
    inner.run = async (argv: readonly string[], options?: CommandOptions) => {
      started.push(argv.join(' '));
      if (options?.signal) signals.push(options.signal);
      await sleep(20);
      return { argv: [...argv], exitCode: 0, signal: null, stdout: '', stderr: '', durationMs: 20, timedOut: false, notFound: false };
    };
    const host = new LimitedHost(inner, 8, { hccn_tool: 1 });
    const tool = '/usr/local/Ascend/driver/tools/hccn_tool';
    // the first call takes the only slot; the second's deadline passes while it waits
    const first = host.run([tool, '-i', '0', '-link', '-g']);
    const late = host.run([tool, '-i', '1', '-link', '-g'], { startBy: performance.now() + 5 });
    expect(await late).toMatchObject({ expired: true, failure: 'not started: its time budget was spent' });
    await first;
    expect(started).toEqual([`${tool} -i 0 -link -g`]);
    expect(signals.every((signal) => !signal.aborted)).toBe(true);
    const running = host.run(['npu-smi', 'info']);
    await sleep(1);
    host.stop();
    expect(signals.at(-1)!.aborted).toBe(true);
    await running;
    expect(await host.run(['npu-smi', 'info'])).toMatchObject({ failure: 'not started: the run was over' });
    expect(started).toHaveLength(2);
  });

  it("starts a serialized tool's next call when the last one's process has ended, not when its result is ready", async () => {
    const events: string[] = [];
    const inner = new FakeHost();
    inner.run = async (argv: readonly string[], options?: CommandOptions) => {
      const device = argv[2];
      events.push(`start ${device}`);
      await sleep(5);
      events.push(`exit ${device}`);
      options?.onExit?.();
      // collecting the output and the stray sweep: the next call runs meanwhile
      await sleep(30);
      events.push(`result ${device}`);
      return { argv: [...argv], exitCode: 0, signal: null, stdout: '', stderr: '', durationMs: 35, timedOut: false, notFound: false };
    };
    const host = new LimitedHost(inner, 8, { hccn_tool: 1 });
    const tool = '/usr/local/Ascend/driver/tools/hccn_tool';
    await Promise.all([0, 1].map((d) => host.run([tool, '-i', String(d), '-link', '-g'])));
    expect(events).toEqual(['start 0', 'exit 0', 'start 1', 'exit 1', 'result 0', 'result 1']);
  });

  it('keeps the slot of a call killed at its timeout until its result is in, and queues nothing behind it', async () => {
    const started: string[] = [];
    const inner = new FakeHost();
    inner.run = async (argv: readonly string[], options?: CommandOptions) => {
      started.push(argv[2]!);
      await sleep(5);
      // a timed-out command never reports onExit (exec.ts); a stray call of onExit would be wrong, and is not made
      if (argv[2] !== '0') options?.onExit?.();
      return { argv: [...argv], exitCode: null, signal: 'SIGKILL', stdout: '', stderr: '', durationMs: 5, timedOut: argv[2] === '0', notFound: false };
    };
    const host = new LimitedHost(inner, 8, { hccn_tool: 1 });
    const tool = '/usr/local/Ascend/driver/tools/hccn_tool';
    const [first, second] = await Promise.all([0, 1].map((d) => host.run([tool, '-i', String(d), '-link', '-g'], { timeoutMs: 5 })));
    expect(first!.timedOut).toBe(true);
    expect(second!.failure).toMatch(/^not run: ".*-i 0 -link -g" hung earlier in this run \(killed after 5 ms\)/);
    expect(started).toEqual(['0']);
  });
});

describe('actions', () => {
  it('takes the outcome\'s own action, else the check\'s rule for the status it observed; none on a skip, reconfigure on an error, nothing on a pass', () => {
    expect(actionOf('restart-workload', { status: 'fail' })).toBe('restart-workload');
    expect(actionOf('restart-workload', { status: 'warn' })).toBe('restart-workload');
    expect(actionOf('restart-workload', { status: 'error' })).toBe('reconfigure');
    expect(actionOf('restart-workload', { status: 'skip' })).toBe('none');
    expect(actionOf('restart-workload', { status: 'pass', action: 'reset-npu' })).toBeUndefined();
    expect(actionOf('reconfigure', { status: 'fail', action: 'reset-npu' })).toBe('reset-npu');
    const rule = { fail: 'replace-part', warn: 'monitor', error: 'none' } as const;
    expect([actionOf(rule, { status: 'fail' }), actionOf(rule, { status: 'warn' }), actionOf(rule, { status: 'error' }), actionOf(rule, { status: 'skip' })]).toEqual(['replace-part', 'monitor', 'none', 'none']);
    expect(actionOf({ fail: 'isolate-npu' }, { status: 'warn' })).toBe('isolate-npu');
  });

  it('keeps the action of what was found on a recommended fail reported as warn and on a waived fail', async () => {
    const ctx = createContext({ host: new FakeHost({}), profile: profileWith({}), timeoutMs: 100 });
    const checks = [
      checkWith('npu.health', { run: async () => fail('NPU 3 Alarm', { action: 'reset-npu' }) }),
      checkWith('sysctl.swappiness', { level: 'recommended', action: 'replace-part', run: async () => fail('worn out') }),
      checkWith('npu.idle', { run: async () => fail('held') }),
      checkWith('cpu.governor', { run: async () => pass('fine') }),
    ];
    const results = await runChecks(checks, ctx, options({ ignore: new Set(['npu.idle']) }));
    expect(results.map((r) => [r.id, r.status, r.action])).toEqual([
      ['npu.health', 'fail', 'reset-npu'],
      ['sysctl.swappiness', 'warn', 'replace-part'],
      ['npu.idle', 'warn', 'restart-workload'],
      ['cpu.governor', 'pass', undefined],
    ]);
    expect(summarize(results).worstAction).toBe('replace-part');
    expect(worstAction([])).toBe('none');
    expect(worstAction(['monitor', undefined, 'isolate-npu', 'reconfigure'])).toBe('isolate-npu');
  });

  it('gives a check that hangs past its watchdog reconfigure (a longer --timeout) and one that throws none (a defect of qprep)', async () => {
    const ctx = createContext({ host: new FakeHost({}), profile: profileWith({}), timeoutMs: 10 });
    const checks = [
      checkWith('npu.health', { run: () => new Promise<Outcome>(() => undefined), budgetMs: () => 30 }),
      checkWith('npu.idle', { run: async () => { throw new Error('boom'); } }),
    ];
    const results = await runChecks(checks, ctx, options());
    expect(results.map((r) => [r.id, r.status, r.action])).toEqual([
      ['npu.health', 'error', 'reconfigure'],
      ['npu.idle', 'error', 'none'],
    ]);
  });
});

describe('verdict', () => {
  const result = (id: string, status: 'pass' | 'warn' | 'fail' | 'skip' | 'error', level: 'required' | 'recommended' = 'required', waived = false) => ({
    id,
    title: id,
    category: 'host' as const,
    level,
    status,
    message: '',
    evidence: {},
    durationMs: 0,
    ...(waived ? { waived: { reason: 'r' } } : {}),
  });

  it('is ready with warnings, not ready with a required fail or error', () => {
    expect(blockingResults([result('a', 'pass'), result('b', 'warn', 'recommended'), result('c', 'skip')], false)).toEqual([]);
    expect(blockingResults([result('a', 'fail')], false).map((r) => r.id)).toEqual(['a']);
    expect(blockingResults([result('a', 'error')], false).map((r) => r.id)).toEqual(['a']);
    expect(blockingResults([result('a', 'error', 'recommended')], false)).toEqual([]);
  });

  it('blocks on unwaived warnings and recommended errors under --strict', () => {
    const results = [result('a', 'warn', 'recommended'), result('b', 'warn', 'required', true), result('c', 'error', 'recommended')];
    expect(blockingResults(results, true).map((r) => r.id)).toEqual(['a', 'c']);
  });

  it('maps readiness to exit codes 0 and 1 and counts statuses', () => {
    expect(exitCodeFor(true)).toBe(0);
    expect(exitCodeFor(false)).toBe(1);
    expect(summarize([result('a', 'pass'), result('b', 'pass'), result('c', 'skip')])).toEqual({ pass: 2, warn: 0, fail: 0, skip: 1, error: 0, worstAction: 'none' });
  });
});
