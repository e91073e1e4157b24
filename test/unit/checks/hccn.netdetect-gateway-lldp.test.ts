import { describe, expect, it } from 'vitest';
import gateway from '../../../checks/hccn.gateway.js';
import lldp from '../../../checks/hccn.lldp.js';
import netdetect from '../../../checks/hccn.netdetect.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const DUO = ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt');

describe('hccn.netdetect', () => {
  it('passes with the capture\'s netdetect address on every device', async () => {
    const { outcome } = await runHccn(netdetect, hccnHost());
    expect(outcome).toMatchObject({ status: 'pass', message: 'every device has a netdetect address (11.12.165.1)' });
  });

  it('reports the devices without one and suggests their gateway; recommended, so a warning', async () => {
    const { outcome, result } = await runHccn(netdetect, hccnHost({ answers: { netdetect: (d) => (d >= 6 ? 'netdetect addr: \n' : undefined) } }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(result.status).toBe('warn');
    expect(outcome.message).toBe('2 of 8 devices have no netdetect address (their net health stays Init): dev6, dev7');
    expect(outcome.remediation).toBe('hccn_tool -i 6 -netdetect -s address 11.12.165.1   (and likewise for dev6, dev7)');
  });

  it('skips on a 310P', async () => {
    expect((await runHccn(netdetect, hccnHost({ info: DUO }))).outcome.status).toBe('skip');
  });
});

describe('hccn.gateway', () => {
  it('passes with a gateway inside every device subnet', async () => {
    const { outcome } = await runHccn(gateway, hccnHost(), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome).toMatchObject({ status: 'pass', message: 'every device has a gateway in its subnet (11.12.165.1)' });
  });

  it('only warns about a missing gateway while every peer shares the subnet', async () => {
    const { outcome } = await runHccn(gateway, hccnHost({ answers: { gateway: () => 'default gateway:, Iface:eth0\n' } }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('8 of 8 devices have no default gateway');
    expectRemediation(outcome);
  });

  it('fails when peers are in another subnet and the device has no gateway, naming an example peer', async () => {
    const cluster = twoNodeCluster('', (d) => `11.12.166.${10 + d}`);
    const { outcome } = await runHccn(gateway, hccnHost({ answers: { gateway: (d) => (d === 2 ? 'default gateway:, Iface:eth2\n' : undefined) } }), { cluster, node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('1 device without a gateway has peers in other subnets (dev2; e.g. node2 dev0 11.12.166.10)');
  });

  it('fails on a gateway outside the device subnet', async () => {
    const { outcome } = await runHccn(gateway, hccnHost({ answers: { gateway: (d) => (d === 0 ? 'default gateway:10.9.9.1, Iface:eth0\n' : undefined) } }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('gateway outside the device subnet on dev0 (10.9.9.1 for 11.12.165.80/24)');
  });
});

describe('hccn.lldp', () => {
  it('passes when every port sees a switch port (the Ifname capture, one line per device)', async () => {
    const { outcome } = await runHccn(lldp, hccnHost());
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('dev0 400GE1/1/5:1');
  });

  it('reads the full TLV dump too', async () => {
    const { outcome } = await runHccn(lldp, hccnHost({ answers: { lldp: () => ascendFixture('hccn-lldp-g-full-910b-arthurchiao.txt') } }));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('400GE1/1/20:2');
  });

  it('an empty answer (no neighbour) is a warning-level failure naming the ports', async () => {
    const { outcome, result } = await runHccn(lldp, hccnHost({ answers: { lldp: (d) => (d === 4 ? '' : undefined) } }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.message).toBe('1 of 8 NPU ports see no switch by LLDP: dev4');
    expect(result.status).toBe('warn');
    expectRemediation(outcome);
  });
});

describe('hccn.netdetect, hccn.gateway and hccn.lldp in Chinese', () => {
  const cluster = { cluster: twoNodeCluster(), node: 'node1' };

  it('gateway: a peer in another subnet, a gateway outside the subnet, and the pass', async () => {
    const other = { cluster: twoNodeCluster('', (d) => `11.12.166.${10 + d}`), node: 'node1' };
    const spec = hccnHost({ answers: { gateway: (d) => (d === 2 ? 'default gateway:, Iface:eth2\n' : d === 0 ? 'default gateway:10.9.9.1, Iface:eth0\n' : undefined) } });
    const english = await runHccn(gateway, spec, other);
    const chinese = await runHccn(gateway, spec, { ...other, lang: 'zh' });
    expect(chinese.outcome.message).toBe(
      '1 个没有网关的设备有位于其他子网的对端（dev2；例如 node2 dev0 11.12.166.10）；网关不在设备子网内：dev0（10.9.9.1，设备地址 11.12.165.80/24）',
    );
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 2 -gateway -s gateway']);
    const ok = await runHccn(gateway, hccnHost(), { ...cluster, lang: 'zh' });
    expect(ok.outcome.message).toBe('每个设备都有位于其子网内的网关（11.12.165.1）');
  });

  it('lldp: no neighbour in Chinese, the grep command intact', async () => {
    const spec = hccnHost({ answers: { lldp: (d) => (d === 4 ? '' : undefined) } });
    const english = await runHccn(lldp, spec, cluster);
    const chinese = await runHccn(lldp, spec, { ...cluster, lang: 'zh' });
    expect(chinese.outcome.message).toBe('8 个 NPU 网口中有 1 个通过 LLDP 看不到交换机：dev4');
    expect(chinese.result.title).toBe('NPU 网口可见所连交换机（LLDP）');
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 4 -lldp -g | grep Ifname']);
  });

  it('netdetect: the pass and a missing address in Chinese', async () => {
    const ok = await runHccn(netdetect, hccnHost(), { lang: 'zh' });
    expect(ok.outcome.message).toMatch(/^每个设备都有 netdetect 地址（/);
    const spec = hccnHost({ answers: { netdetect: (d) => (d === 1 ? 'netdetect addr: \n' : undefined) } });
    const english = await runHccn(netdetect, spec);
    const chinese = await runHccn(netdetect, spec, { lang: 'zh' });
    expect(chinese.outcome.message).toMatch(/^8 个设备中有 1 个没有 netdetect 地址（其网络健康状态一直为 Init）：dev1$/);
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 1 -netdetect -s address']);
  });
});
