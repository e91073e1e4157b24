import { describe, expect, it } from 'vitest';
import { pass } from '../../../src/core/outcome.js';
import { createContext, runChecks } from '../../../src/core/runner.js';
import type { CheckId } from '../../../src/core/ids/checks.js';
import type { Check } from '../../../src/core/types.js';
import type { CommandResult } from '../../../src/host/types.js';
import { hccnIp, prefetchDeviceIps } from '../../../src/probes/hccn.js';
import { npuInventory } from '../../../src/probes/npu.js';
import { fakeCheck } from '../../helpers/fake-check.js';
import { FakeHost, type FakeHostSpec } from '../../helpers/fake-host.js';
import { defaultConf, hccnHost } from '../../helpers/hccn-host.js';
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

const withoutDeviceNodes = (spec: FakeHostSpec): FakeHostSpec => ({ ...spec, files: Object.fromEntries(Object.entries(spec.files ?? {}).filter(([path]) => !/^\/dev\/davinci\d+$/.test(path))) });

/** The devices prefetchDeviceIps asks about before npu-smi answers (npu-smi held until `releaseAfter` hccn_tool calls). */
async function askedEarly(spec: FakeHostSpec, releaseAfter: number, profile = profileWith()): Promise<string[]> {
  const host = new GatedHost(spec, releaseAfter);
  await prefetchDeviceIps(createContext({ host, profile, timeoutMs: 1000 }));
  return ipCalls(host);
}

describe('prefetchDeviceIps: the hccn_tool queue starts while npu-smi lists the devices', () => {
  it('asks -ip -g of the devices known before npu-smi, in order, and stops once the inventory is in', async () => {
    const host = new GatedHost(hccnHost(), 3);
    const ctx = createContext({ host, profile: profileWith(), timeoutMs: 1000 });
    await prefetchDeviceIps(ctx);
    const asked = ipCalls(host);
    // the third call released npu-smi: one more question may have been waiting on the queue
    expect([3, 4]).toContain(asked.length);
    // (the fake records the third call after the fourth: it answers it a turn later)
    expect([...asked].sort()).toEqual(['-i 0 -ip -g', '-i 1 -ip -g', '-i 2 -ip -g', '-i 3 -ip -g'].slice(0, asked.length));
    expect((await npuInventory(ctx)).ok).toBe(true);
    // the checks find the answers: no second call
    const answer = await hccnIp(ctx, 1);
    expect(answer.ok && answer.value.entries[0]!.address).toBe('11.12.165.81');
    expect(ipCalls(host)).toHaveLength(asked.length);
  });

  it('starts from the device nodes, else the devices hccn.conf configures; the visible devices by rank among them', async () => {
    // the device nodes: a container that sees devices 4..7 only, whatever the host's hccn.conf lists
    expect(await askedEarly(hccnHost({ devices: [4, 5, 6, 7], conf: defaultConf([0, 1, 2, 3, 4, 5, 6, 7]) }), 99)).toEqual(['-i 4 -ip -g', '-i 5 -ip -g', '-i 6 -ip -g', '-i 7 -ip -g']);
    // ASCEND_RT_VISIBLE_DEVICES=0,1 of those is devices 4 and 5, as the runtime counts them
    expect(await askedEarly(hccnHost({ devices: [4, 5, 6, 7], env: { ASCEND_RT_VISIBLE_DEVICES: '0,1' } }), 99)).toEqual(['-i 4 -ip -g', '-i 5 -ip -g']);
    // the profile's npu.visibleDevices, when the variable is not set
    expect(await askedEarly(hccnHost(), 99, profileWith({ npu: { visibleDevices: '2-3' } }))).toEqual(['-i 2 -ip -g', '-i 3 -ip -g']);
    // no device node (a --root tree without them): the devices hccn.conf configures
    expect(await askedEarly(withoutDeviceNodes(hccnHost({ conf: defaultConf([0, 1, 2]) })), 99)).toEqual(['-i 0 -ip -g', '-i 1 -ip -g', '-i 2 -ip -g']);
  });

  it('asks nothing early without a device node or hccn.conf, or when the visible devices are not a list', async () => {
    for (const spec of [withoutDeviceNodes(hccnHost({ conf: null })), hccnHost({ env: { ASCEND_RT_VISIBLE_DEVICES: 'all of them' } })]) {
      const host = new GatedHost(spec, 1);
      const ctx = createContext({ host, profile: profileWith(), timeoutMs: 1000 });
      const prefetched = prefetchDeviceIps(ctx);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(ipCalls(host)).toEqual([]);
      // nothing waits on the held npu-smi: the prefetch has given up already
      await prefetched;
    }
  });
});

describe('runChecks and Check.prefetch', () => {
  const ran: string[] = [];
  const check = (id: CheckId, prefetch?: Check['prefetch']): Check =>
    fakeCheck(id, {
      ...(prefetch ? { prefetch } : {}),
      async run() {
        ran.push(`run ${id}`);
        return pass(`${id} ran`);
      },
    });

  it('starts every selected check\'s prefetch before any check runs; one that throws or rejects changes nothing', async () => {
    ran.length = 0;
    const checks = [
      check('hccn.conf'),
      check('hccn.ip', () => {
        ran.push('prefetch hccn.ip');
        throw new Error('boom');
      }),
      check('hccn.link', async () => {
        ran.push('prefetch hccn.link');
        throw new Error('boom');
      }),
      check('hccn.lldp', () => void ran.push('prefetch hccn.lldp')),
    ];
    const ctx = createContext({ host: new FakeHost({}), profile: profileWith(), timeoutMs: 1000 });
    const results = await runChecks(checks, ctx, { concurrency: 1, commandConcurrency: 8, toolLimits: {}, timeoutMs: 1000, ignore: new Set() });
    expect(ran).toEqual(['prefetch hccn.ip', 'prefetch hccn.link', 'prefetch hccn.lldp', 'run hccn.conf', 'run hccn.ip', 'run hccn.link', 'run hccn.lldp']);
    expect(results.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
  });
});
