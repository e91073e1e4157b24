import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.ip.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { defaultIp, defaultVnic, hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

describe('hccn.ip', () => {
  it('passes on the A2 capture: eight addresses, one netmask', async () => {
    const { outcome } = await runHccn(check, hccnHost());
    expect(outcome).toMatchObject({ status: 'pass', message: '8 device IPs set and unique (netmask 255.255.255.0)' });
  });

  it('passes with a cluster file that gives this node its real addresses, and says so', async () => {
    const { outcome } = await runHccn(check, hccnHost(), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.message).toBe('8 device IPs set and unique (netmask 255.255.255.0), as the cluster file says');
  });

  it('fails on an unconfigured device (empty answer, and the "no ip was preset" variant)', async () => {
    const answers = { ip: (d: number) => (d === 2 ? syntheticFixture('hccn-ip-g-unconfigured-empty.txt') : d === 5 ? { stdout: syntheticFixture('hccn-ip-g-no-ip-preset.txt'), exitCode: 13 } : undefined) };
    const { outcome } = await runHccn(check, hccnHost({ answers }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('no IP on dev2, dev5');
    expect(outcome.remediation).toContain('hccn_tool -i 2 -ip -s address <ip> netmask <mask>');
    expectRemediation(outcome);
  });

  it('fails on duplicates, mixed netmasks and an address in the A2 vNIC range, listing each in details', async () => {
    const answers = {
      ip: (d: number) =>
        d === 1 ? `ipaddr:${defaultIp(0)}\nnetmask:255.255.255.0\n` : d === 3 ? `ipaddr:${defaultIp(3)}\nnetmask:255.255.0.0\n` : d === 4 ? 'ipaddr:192.168.2.14\nnetmask:255.255.255.0\n' : undefined,
    };
    const { outcome } = await runHccn(check, hccnHost({ answers }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.details).toEqual([
      'duplicate IP 11.12.165.80 on dev0 and dev1',
      'mixed netmasks 255.255.255.0, 255.255.0.0',
      'dev4 192.168.2.14 inside the reserved 192.168.2.0/24 (A1/A2 vNIC range)',
      'the cluster file gives node1 dev1 11.12.165.81, the device has 11.12.165.80',
      'the cluster file gives node1 dev4 11.12.165.84, the device has 192.168.2.14',
    ]);
    expect(outcome.message).toMatch(/^5 address problems: duplicate IP/);
  });

  it('fails when a local address is a peer\'s in the cluster file', async () => {
    const { outcome } = await runHccn(check, hccnHost(), { cluster: twoNodeCluster('', (d) => (d === 7 ? '11.12.165.99' : `11.12.165.${100 + d}`)).replace('ip: 11.12.165.99', `ip: 11.12.165.99`), node: 'node2' });
    // node2 runs on a host whose devices hold node1's addresses: every one collides and none matches
    expect(outcome.status).toBe('fail');
    expect(outcome.details).toContain("dev0 11.12.165.80 is also node1 dev0's address in the cluster file");
  });

  it('only warns on a single node', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: { ip: (d) => (d === 0 ? '' : undefined) } }));
    expect(outcome.status).toBe('warn');
  });

  it('A3: checks the vNIC IPs too, and the super pod member range 192.0.0.0/8', async () => {
    // spod-info (the A3 captures) reports Super Pod ID 0: a member, so RoCE addresses must avoid 192.0.0.0/8
    const roce192 = await runHccn(check, hccnHost({ family: 'a3', answers: { ip: (d) => (d === 9 ? 'ipaddr:192.1.0.9\nnetmask:255.255.255.0\n' : undefined) } }), { profile: { hccn: { kvTransfer: true } } });
    expect(roce192.outcome.status).toBe('fail');
    expect(roce192.outcome.message).toContain('dev9 192.1.0.9 inside the reserved 192.0.0.0/8 (A3 super pod member vNIC range)');
  });

  it('A3: passes with 16 RoCE and 16 vNIC addresses', async () => {
    const { outcome } = await runHccn(check, hccnHost({ family: 'a3' }));
    expect(outcome).toMatchObject({ status: 'pass', message: '16 device IPs set and unique (netmask 255.255.255.0), 16 vNIC IPs' });
    expect(outcome.evidence).toMatchObject({ reservedRange: '192.0.0.0/8 (A3 super pod member vNIC range)' });
    expect((outcome.evidence as { addresses: Array<{ vnicIp: string }> }).addresses[15]!.vnicIp).toBe(defaultVnic(15));
  });

  it('A3: a device without a vNIC address fails', async () => {
    const vnic = ascendFixture('hccn-vnic-g-950doc-driver-repo.txt');
    const { outcome } = await runHccn(check, hccnHost({ family: 'a3', answers: { vnic: (d) => (d === 0 ? vnic : d === 3 ? 'vnic link status: DOWN\n' : undefined) } }), { profile: { hccn: { kvTransfer: true } } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('no vNIC IP on dev3 (A3 HCCS pings and links use it)');
  });
});

describe('hccn.ip in Chinese', () => {
  const cluster = { cluster: twoNodeCluster(), node: 'node1' };

  it('the pass and the address problems in Chinese; actual and evidence as in English', async () => {
    const ok = await runHccn(check, hccnHost(), { ...cluster, lang: 'zh' });
    expect(ok.outcome.message).toBe('8 个设备 IP 均已设置且不重复（掩码 255.255.255.0），与集群文件一致');
    const answers = {
      ip: (d: number) =>
        d === 1 ? `ipaddr:${defaultIp(0)}\nnetmask:255.255.255.0\n` : d === 3 ? `ipaddr:${defaultIp(3)}\nnetmask:255.255.0.0\n` : d === 4 ? 'ipaddr:192.168.2.14\nnetmask:255.255.255.0\n' : undefined,
    };
    const english = await runHccn(check, hccnHost({ answers }), cluster);
    const chinese = await runHccn(check, hccnHost({ answers }), { ...cluster, lang: 'zh' });
    expect(chinese.outcome.details).toEqual([
      'IP 重复：11.12.165.80 同时在 dev0 和 dev1 上',
      '掩码不一致：255.255.255.0, 255.255.0.0',
      'dev4 192.168.2.14 落在保留网段 192.168.2.0/24 (A1/A2 vNIC range) 内',
      '集群文件给 node1 dev1 的地址是 11.12.165.81，设备上的是 11.12.165.80',
      '集群文件给 node1 dev4 的地址是 11.12.165.84，设备上的是 192.168.2.14',
    ]);
    expect(chinese.outcome.message).toMatch(/^5 个地址问题：IP 重复/);
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 4 -ip -s address <ip> netmask <mask>']);
  });
});
