import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.tls.js';
import { syntheticFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const tlsOn = (devices: (d: number) => boolean) => ({ tls: (d: number) => (devices(d) ? syntheticFixture('hccn-tls-switch-enabled.txt').split('\n')[0]!.replace(/dev_id:\d+/, `dev_id:${d}`) + '\n' : undefined) });

/** The JSON array of qprep facts of three nodes, as Ansible gathers it; node3's devices have TLS on. */
function factsCluster(tls: [boolean, boolean, boolean]): string {
  const node = (name: string, host: string, base: number, on: boolean) => ({
    schemaVersion: 1,
    hostname: name,
    hostAddresses: [host],
    family: 'a2',
    devices: Array.from({ length: 8 }, (_, d) => ({ device: d, ip: `11.12.165.${base + d}`, netmask: '255.255.255.0', tls: on })),
  });
  return JSON.stringify([node('node1', '10.0.0.1', 80, tls[0]), node('node2', '10.0.0.2', 100, tls[1]), node('node3', '10.0.0.3', 120, tls[2])]);
}

describe('hccn.tls', () => {
  it('passes when the capture shows TLS 0 on every device', async () => {
    const { outcome } = await runHccn(check, hccnHost());
    expect(outcome).toMatchObject({ status: 'pass', message: 'the TLS switch is 0 on all 8 devices' });
  });

  it('fails when the devices of one node differ, naming both groups', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: tlsOn((d) => d >= 6) }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('the TLS switch differs between the devices of this node (dev0-5 TLS 0; dev6-7 TLS 1): they cannot link with each other');
    expect(outcome.remediation).toBe('for i in 0 1 2 3 4 5 6 7; do hccn_tool -i $i -tls -s enable 0; done');
    expectRemediation(outcome);
  });

  it('warns when TLS is on everywhere: consistent, but the guides recommend 0', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: tlsOn(() => true) }));
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('the TLS switch is 1 on all 8 devices');
  });

  it('compares with the peers\' facts when the cluster file is a JSON array of qprep facts', async () => {
    const same = await runHccn(check, hccnHost(), { cluster: factsCluster([false, false, false]), node: 'node1' });
    expect(same.outcome).toMatchObject({ status: 'pass', message: 'the TLS switch is 0 on all 8 devices and on the 2 peers whose facts carry it' });
    const odd = await runHccn(check, hccnHost(), { cluster: factsCluster([false, false, true]), node: 'node1' });
    expect(odd.outcome.status).toBe('fail');
    expect(odd.outcome.message).toBe('the TLS switch is 0 here but node3 has 1: devices with TLS on and off cannot link');
    expect(odd.outcome.remediation).toContain('run it on node1, node3');
  });

  it('the odd node itself fails too, seeing everybody else differ', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: tlsOn(() => true) }), { cluster: factsCluster([false, false, true]), node: 'node3' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('the TLS switch is 1 here but node1 has 0, node2 has 0: devices with TLS on and off cannot link');
  });

  it('compares with the tls a hand-written cluster file declares', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: tlsOn(() => true) }), { cluster: twoNodeCluster('tls: 0'), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('the TLS switch is 1 on this node but the cluster file declares tls: 0 for every node');
  });

  it('reads facts written with tls as a number or {switch} as well', async () => {
    const cluster = JSON.parse(factsCluster([false, false, false])) as Array<{ devices: Array<{ tls: unknown }> }>;
    cluster[1]!.devices.forEach((d) => (d.tls = 1));
    cluster[2]!.devices.forEach((d) => (d.tls = { switch: 0 }));
    const { outcome } = await runHccn(check, hccnHost(), { cluster: JSON.stringify(cluster), node: 'node1' });
    expect(outcome.message).toBe('the TLS switch is 0 here but node2 has 1: devices with TLS on and off cannot link');
  });
});

describe('hccn.tls in Chinese', () => {
  it('differing devices, a differing peer and TLS on everywhere, in Chinese; the loop command intact', async () => {
    const mixed = hccnHost({ answers: tlsOn((d) => d >= 6) });
    const cluster = { cluster: twoNodeCluster(), node: 'node1' };
    const chinese = await runHccn(check, mixed, { ...cluster, lang: 'zh' });
    expect(chinese.outcome.message).toBe('本节点各设备的 TLS 开关不一致（dev0-5 TLS 0; dev6-7 TLS 1）：它们之间无法建链');
    expect(chinese.outcome.remediation).toBe('for i in 0 1 2 3 4 5 6 7; do hccn_tool -i $i -tls -s enable 0; done');
    const peers = { cluster: factsCluster([false, false, true]), node: 'node1' };
    const english = await runHccn(check, hccnHost(), peers);
    const odd = await runHccn(check, hccnHost(), { ...peers, lang: 'zh' });
    expect(odd.outcome.message).toBe('本节点的 TLS 开关为 0，但 node3 为 1：TLS 开启与关闭的设备之间无法建链');
    expect(odd.outcome.actual).toBe(english.outcome.actual);
    expectChineseTwin(english.outcome, odd.outcome, ['for i in 0 1 2 3 4 5 6 7; do hccn_tool -i $i -tls -s enable 0; done']);
    const on = hccnHost({ answers: tlsOn(() => true) });
    expectChineseTwin((await runHccn(check, on)).outcome, (await runHccn(check, on, { lang: 'zh' })).outcome, ['hccn_tool -i $i -tls -s enable 0']);
  });
});
