import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/core/runner.js';
import { buildFacts, factsContributors, type FactsContributor } from '../../../src/facts/build.js';
import { factsSchema } from '../../../src/facts/schema.js';
import { FakeHost, type FakeHostSpec } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { NPU_SMI, npuHost } from '../../helpers/npu-host.js';
import { profileWith } from '../../helpers/run-check.js';

function contextOn(spec: FakeHostSpec) {
  const host = new FakeHost(spec);
  return { host, ctx: createContext(host, profileWith(), 1000) };
}

const INTERFACES: FakeHostSpec['interfaces'] = [
  { name: 'lo', adminUp: true, operState: 'unknown', running: true, mtu: 65536, mac: null, loopback: true, addresses: [{ family: 'IPv4', address: '127.0.0.1', netmask: '255.0.0.0', prefix: 8 }] },
  {
    name: 'enp189s0f0',
    adminUp: true,
    operState: 'up',
    running: true,
    mtu: 1500,
    mac: '00:11:22:33:44:55',
    loopback: false,
    addresses: [
      { family: 'IPv4', address: '10.0.0.11', netmask: '255.255.255.0', prefix: 24 },
      { family: 'IPv6', address: 'fe80::211:22ff:fe33:4455', netmask: 'ffff:ffff:ffff:ffff::', prefix: 64 },
      { family: 'IPv6', address: '2001:db8::11', netmask: 'ffff:ffff:ffff:ffff::', prefix: 64 },
    ],
  },
];

describe('qprep facts', () => {
  it('an A3 node: family, 16 dies with their physical ids, versions, host addresses; devices left to the HCCN contributor', async () => {
    const spec = { ...npuHost({ info: ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'), devices: [...Array(16).keys()] }), interfaces: INTERFACES, identity: { hostname: 'a3-node1' } };
    const { ctx, host } = contextOn(spec);
    const facts = await buildFacts(ctx);
    expect(factsSchema.parse(facts)).toEqual(facts);
    expect(facts).toMatchObject({
      schemaVersion: 1,
      hostname: 'a3-node1',
      hostAddresses: ['10.0.0.11', '2001:db8::11'],
      family: 'a3',
      devices: [],
      versions: { npuSmi: '25.2.1', driver: '25.2.1', firmware: '7.7.0.1.231', cann: null },
      problems: [],
    });
    expect(facts.npus).toHaveLength(16);
    expect(facts.npus[3]).toEqual({
      card: 1,
      chip: 1,
      device: 3,
      visibleIndex: 3,
      name: 'Ascend910',
      health: 'OK',
      busId: '0000:9B:00.0',
      memory: { usedMB: 2884, totalMB: 65536, kind: 'hbm' },
      processes: [],
    });
    // no -t board: the firmware came from its version.info
    expect(host.calls).toEqual([[NPU_SMI, 'info']]);
  });

  it('processes are carried with their pid, name and memory', async () => {
    const { ctx } = contextOn({ ...npuHost({ info: ascendFixture('npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt') }), interfaces: INTERFACES });
    const facts = await buildFacts(ctx);
    expect(facts.npus[0]!.processes).toEqual([{ pid: 485946, name: 'pytest', memoryMB: 5175, containerPid: null }]);
  });

  it('a node whose npu-smi fails still gives a document, with the problem named and the driver from version.info', async () => {
    const { ctx } = contextOn({ ...npuHost({ info: { stdout: ascendFixture('npu-smi-error-dcmi-8005-vllm-ascend-2698.txt'), exitCode: 1 } }), interfaces: INTERFACES });
    const facts = await buildFacts(ctx);
    expect(facts.family).toBe('unknown');
    expect(facts.npus).toEqual([]);
    expect(facts.versions.driver).toBe('25.0.rc1.1');
    expect(facts.problems).toEqual([{ source: 'npu-smi', message: expect.stringContaining('ret is -8005') }]);
  });

  it('contributors compose: a later one reads what an earlier one wrote; a failing one becomes a problem', async () => {
    const { ctx } = contextOn({ ...npuHost(), interfaces: INTERFACES });
    const devicesFromNpus: FactsContributor = {
      name: 'hccn (example)',
      async contribute(_ctx, facts) {
        facts.devices = facts.npus.map((n) => ({ device: n.device, ip: `192.168.100.${n.device + 10}`, netmask: '255.255.255.0' }));
      },
    };
    const broken: FactsContributor = {
      name: 'broken',
      async contribute() {
        throw new Error('boom');
      },
    };
    const facts = await buildFacts(ctx, [...factsContributors, devicesFromNpus, broken]);
    expect(facts.devices.map((d) => d.ip)).toEqual(Array.from({ length: 8 }, (_, i) => `192.168.100.${i + 10}`));
    expect(facts.problems).toEqual([{ source: 'broken', message: 'internal error: boom' }]);
    expect(factsSchema.safeParse(facts).success).toBe(true);
  });

  it('in a container without the firmware file the firmware comes from npu-smi -t board', async () => {
    const { ctx } = contextOn({ ...npuHost({ container: true, missing: ['/usr/local/Ascend/firmware'] }), interfaces: INTERFACES });
    expect((await buildFacts(ctx)).versions.firmware).toBe('7.7.0.1.231');
  });
});
