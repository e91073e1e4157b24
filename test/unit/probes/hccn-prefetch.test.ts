import { describe, expect, it } from 'vitest';
import { pass } from '../../../src/core/outcome.js';
import { createContext, runChecks } from '../../../src/core/runner.js';
import { defineCheck, type Check } from '../../../src/core/types.js';
import type { CommandResult } from '../../../src/host/types.js';
import { hccnIp, prefetchDeviceIps } from '../../../src/probes/hccn.js';
import { npuInventory } from '../../../src/probes/npu.js';
import { FakeHost, type FakeHostSpec } from '../../helpers/fake-host.js';
import { hccnHost } from '../../helpers/hccn-host.js';
import { profileWith } from '../../helpers/run-check.js';

/**
 * A host whose `npu-smi info` answers only when released, as a real one takes its time, and
 * that releases it when hccn_tool has been called `releaseAfter` times.
 */
class GatedHost extends FakeHost {
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => {
    this.release = resolve;
  });
  hccnCalls = 0;

  constructor(
    spec: FakeHostSpec,
    private readonly releaseAfter: number,
  ) {
    super(spec);
  }

  override async run(argv: readonly string[]): Promise<CommandResult> {
    if (argv[0]!.endsWith('/npu-smi') && argv.length === 2) await this.gate;
    if (argv[0]!.endsWith('/hccn_tool') && ++this.hccnCalls === this.releaseAfter) {
      this.release();
      // the inventory is parsed before this call's answer comes back
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return super.run(argv);
  }
}

const ipCalls = (host: FakeHost) => host.calls.filter((argv) => argv[0]!.endsWith('/hccn_tool')).map((argv) => argv.slice(1).join(' '));

describe('prefetchDeviceIps: the hccn_tool queue starts while npu-smi lists the devices', () => {
  it('asks -ip -g of the devices /etc/hccn.conf lists, one at a time, and stops once the inventory is in', async () => {
    const host = new GatedHost(hccnHost(), 3);
    const ctx = createContext(host, profileWith(), 1000);
    await prefetchDeviceIps(ctx);
    expect(ipCalls(host)).toEqual(['-i 0 -ip -g', '-i 1 -ip -g', '-i 2 -ip -g']);
    expect((await npuInventory(ctx)).ok).toBe(true);
    // the checks find the answers: no second call
    const answer = await hccnIp(ctx, 1);
    expect(answer.ok && answer.value.entries[0]!.address).toBe('11.12.165.81');
    expect(ipCalls(host)).toHaveLength(3);
  });

  it('asks nothing early when the workload\'s devices are restricted, or without /etc/hccn.conf', async () => {
    for (const spec of [hccnHost({ env: { ASCEND_RT_VISIBLE_DEVICES: '0,1' } }), hccnHost({ conf: null })]) {
      const host = new GatedHost(spec, 1);
      const ctx = createContext(host, profileWith(), 1000);
      const prefetched = prefetchDeviceIps(ctx);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(ipCalls(host)).toEqual([]);
      // nothing waits on the held npu-smi: the prefetch has given up already
      await prefetched;
    }
    const profileRestricted = new GatedHost(hccnHost(), 1);
    await prefetchDeviceIps(createContext(profileRestricted, profileWith({ npu: { visibleDevices: '0-3' } }), 1000));
    expect(ipCalls(profileRestricted)).toEqual([]);
  });
});

describe('runChecks and Check.prefetch', () => {
  const ran: string[] = [];
  const check = (id: string, prefetch?: Check['prefetch']): Check =>
    defineCheck({
      id,
      title: id,
      category: 'hccn',
      level: 'required',
      why: 'test',
      reads: [],
      fix: 'test',
      ...(prefetch ? { prefetch } : {}),
      async run() {
        ran.push(`run ${id}`);
        return pass(`${id} ran`);
      },
    });

  it('starts every selected check\'s prefetch before any check runs; one that throws or rejects changes nothing', async () => {
    ran.length = 0;
    const checks = [
      check('test.first'),
      check('test.throws', () => {
        ran.push('prefetch test.throws');
        throw new Error('boom');
      }),
      check('test.rejects', async () => {
        ran.push('prefetch test.rejects');
        throw new Error('boom');
      }),
      check('test.last', () => void ran.push('prefetch test.last')),
    ];
    const ctx = createContext(new FakeHost({}), profileWith(), 1000);
    const results = await runChecks(checks, ctx, { concurrency: 1, commandConcurrency: 8, toolLimits: {}, timeoutMs: 1000, ignore: new Set() });
    expect(ran).toEqual(['prefetch test.throws', 'prefetch test.rejects', 'prefetch test.last', 'run test.first', 'run test.throws', 'run test.rejects', 'run test.last']);
    expect(results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
  });
});
