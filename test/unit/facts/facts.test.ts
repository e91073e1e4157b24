import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/core/runner.js';
import { buildFacts, factsContributors, factsContributorsFor, type FactsContributor } from '../../../src/facts/build.js';
import hccnTls from '../../../checks/hccn.tls.js';
import npuSmi from '../../../checks/npu.smi.js';
import { hccnHost } from '../../helpers/hccn-host.js';
import { factsSchema } from '../../../src/facts/schema.js';
import { FakeHost, type FakeHostSpec } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { NPU_SMI, npuHost } from '../../helpers/npu-host.js';
import { profileWith } from '../../helpers/run-check.js';
import { imagePython } from '../../helpers/launch.js';

function contextOn(spec: FakeHostSpec) {
  const host = new FakeHost(spec);
  return { host, ctx: createContext({ host, profile: profileWith(), timeoutMs: 1000 }) };
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
  it('an A3 node in a report of NPU checks only: family, 16 dies with their physical ids, versions, host addresses; no hccn_tool run', async () => {
    const spec = { ...npuHost({ info: ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'), devices: [...Array(16).keys()] }), interfaces: INTERFACES, identity: { hostname: 'a3-node1' } };
    const { ctx, host } = contextOn(spec);
    const facts = await buildFacts(ctx, factsContributorsFor([npuSmi]));
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

  it('qprep facts carries the installed stack; a report\'s facts leave it to the report\'s own stack field', async () => {
    const image = imagePython('v0.23.0', 'A3', { transformers: '5.2.0' });
    const { ctx } = contextOn({ ...npuHost({ info: ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'), env: image.env, files: image.files }), interfaces: INTERFACES });
    const facts = await buildFacts(ctx, factsContributors);
    expect(factsSchema.parse(facts)).toEqual(facts);
    expect(facts.stack?.packages.vllmAscend).toMatchObject({ version: '0.23.0', editable: '/vllm-workspace/vllm-ascend' });
    expect(facts.stack?.packages.transformers?.version).toBe('5.2.0');
    expect(facts.stack?.vllmAscendBuild?.deviceType).toBe('A3');
    expect(facts.stack?.image.socVersion).toBe('ascend910_9391');
    expect(factsContributorsFor([npuSmi]).map((c) => c.name)).not.toContain('stack');
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
    const facts = await buildFacts(ctx, [...factsContributorsFor([]), devicesFromNpus, broken]);
    expect(facts.devices.map((d) => d.ip)).toEqual(Array.from({ length: 8 }, (_, i) => `192.168.100.${i + 10}`));
    expect(facts.problems).toEqual([{ source: 'broken', message: 'internal error: boom' }]);
    expect(factsSchema.safeParse(facts).success).toBe(true);
  });

  it('the HCCN contributor: every device\'s RoCE IP, netmask, vNIC IP and TLS switch (a boolean), and the A3 super pod', async () => {
    const { ctx } = contextOn({ ...hccnHost({ family: 'a3', answers: { tls: (d) => (d === 5 ? 'dev_id:5, tls switch[1](0:disable, 1:enable)\n' : undefined) } }), interfaces: INTERFACES });
    const facts = await buildFacts(ctx, factsContributorsFor([hccnTls]));
    expect(factsSchema.safeParse(facts).success).toBe(true);
    expect(facts.devices).toHaveLength(16);
    expect(facts.devices[5]).toEqual({ device: 5, ip: '11.12.165.85', netmask: '255.255.255.0', vnicIp: '192.168.3.15', tls: true });
    expect(facts.devices[0]!.tls).toBe(false);
    expect(facts.superPod).toBe(0);
    expect(facts.problems).toEqual([]);
  });

  it('the HCCN contributor on an A2: no superPod; a device without an address is left out and named', async () => {
    const { ctx } = contextOn({ ...hccnHost({ answers: { ip: (d) => (d === 7 ? '' : undefined) } }), interfaces: INTERFACES });
    const facts = await buildFacts(ctx, factsContributors);
    expect(facts.devices.map((d) => d.device)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(facts.devices.every((d) => d.vnicIp === undefined && d.tls === false)).toBe(true);
    expect('superPod' in facts).toBe(false);
    expect(facts.problems).toEqual([{ source: 'hccn_tool', message: 'no RoCE address on dev7 (hccn_tool -i N -ip -g printed none): left out of devices' }]);
  });

  it('in a container without the firmware file the firmware comes from npu-smi -t board', async () => {
    const { ctx } = contextOn({ ...npuHost({ container: true, missing: ['/usr/local/Ascend/firmware'] }), interfaces: INTERFACES });
    expect((await buildFacts(ctx)).versions.firmware).toBe('7.7.0.1.231');
  });
});

describe('facts in Chinese', () => {
  it('the problems are said in the run\'s language; every other field is the same', async () => {
    const spec = { ...hccnHost({ answers: { ip: (d) => (d === 7 ? '' : undefined) } }), interfaces: INTERFACES };
    const english = await buildFacts(createContext({ host: new FakeHost(spec), profile: profileWith(), timeoutMs: 1000 }), factsContributors);
    const chinese = await buildFacts(createContext({ host: new FakeHost(spec), profile: profileWith(), timeoutMs: 1000, lang: 'zh' }), factsContributors);
    expect(chinese.problems).toEqual([{ source: 'hccn_tool', message: 'dev7 没有 RoCE 地址（hccn_tool -i N -ip -g 未输出地址）：未列入 devices' }]);
    expect({ ...chinese, problems: [] }).toEqual({ ...english, problems: [] });
    expect(factsSchema.safeParse(chinese).success).toBe(true);
  });
});
