import { describe, expect, it } from 'vitest';
import check from '../../../checks/net.host-nic.js';
import type { NetInterface } from '../../../src/host/types.js';
import type { FakeHostSpec } from '../../helpers/fake-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

function iface(name: string, address: string): NetInterface {
  return {
    name,
    adminUp: true,
    operState: 'up',
    running: true,
    mtu: 1500,
    mac: null,
    loopback: false,
    addresses: [{ family: 'IPv4', address, netmask: '255.255.255.0', prefix: 24 }],
  };
}

/** The data NIC as sysfs describes it: what the host inventory reads for the link. */
function linkFiles(name: string, link: { speed: string; mtu?: string; operstate?: string; duplex?: string }): Record<string, string> {
  return {
    [`/sys/class/net/${name}/speed`]: `${link.speed}\n`,
    [`/sys/class/net/${name}/mtu`]: `${link.mtu ?? '1500'}\n`,
    [`/sys/class/net/${name}/operstate`]: `${link.operstate ?? 'up'}\n`,
    [`/sys/class/net/${name}/duplex`]: `${link.duplex ?? 'full'}\n`,
    [`/sys/class/net/${name}/device/vendor`]: '0x19e5\n',
  };
}

const ENV = { HCCL_IF_IP: '10.0.0.1', HCCL_SOCKET_IFNAME: 'enp189s0f0', GLOO_SOCKET_IFNAME: 'enp189s0f0', TP_SOCKET_IFNAME: 'enp189s0f0' };
const spec = (link: Parameters<typeof linkFiles>[1]): FakeHostSpec => ({
  env: ENV,
  interfaces: [iface('enp189s0f0', '10.0.0.1')],
  files: linkFiles('enp189s0f0', link),
});

describe('net.host-nic: the link of the NIC in use (host inventory)', () => {
  it('warns on a multi-node deployment when the NIC links below host.nic.minSpeedMbps', async () => {
    const { outcome, result } = await runOn(check, spec({ speed: '1000' }), { deployment: { nodes: 2 } });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('enp189s0f0 links at 1000 Mb/s, below the 25000 Mb/s a multi-node deployment needs (host.nic.minSpeedMbps)');
    expect(result.status).toBe('warn');
    expectRemediation(outcome);
    expect(outcome.evidence?.links).toEqual({ enp189s0f0: { state: 'up', speedMbps: 1000, mtu: 1500, duplex: 'full' } });
  });

  it('passes the same NIC on one node, and a 100 GbE NIC on several, naming speed and MTU', async () => {
    const single = await runOn(check, spec({ speed: '1000' }));
    expect(single.outcome.status).toBe('pass');
    expect(single.outcome.message).toContain('enp189s0f0 1000 Mb/s, MTU 1500');
    const fast = await runOn(check, spec({ speed: '100000', mtu: '9000' }), { deployment: { nodes: 2 } });
    expect(fast.outcome.status).toBe('pass');
    expect(fast.outcome.message).toContain('enp189s0f0 100000 Mb/s, MTU 9000');
  });

  it('the threshold is the profile\'s', async () => {
    const { outcome } = await runOn(check, spec({ speed: '10000' }), { deployment: { nodes: 2 }, host: { nic: { minSpeedMbps: 10000 } } });
    expect(outcome.status).toBe('pass');
  });

  it('does not judge a speed the driver does not report', async () => {
    const { outcome } = await runOn(check, spec({ speed: '-1' }), { deployment: { nodes: 2 } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('enp189s0f0 speed not reported, MTU 1500');
  });

  it('fails a NIC whose operstate says it does not forward', async () => {
    const { outcome } = await runOn(check, spec({ speed: '25000', operstate: 'dormant' }), { deployment: { nodes: 2 } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('enp189s0f0 is dormant (operstate)');
    expectRemediation(outcome);
  });
});

describe('net.host-nic: the link of the NIC in Chinese', () => {
  it('a slow NIC warns and a dormant one fails in Chinese; actual keeps the English link summary', async () => {
    const slow = spec({ speed: '1000' });
    const english = await runOn(check, slow, { deployment: { nodes: 2 } });
    const chinese = await runOn(check, slow, { deployment: { nodes: 2 } }, { lang: 'zh' });
    expect(chinese.outcome.message).toBe(
      'enp189s0f0 链路速率 1000 Mb/s，低于多节点部署所需的 25000 Mb/s（host.nic.minSpeedMbps）；HCCL_IF_IP 10.0.0.1 位于 enp189s0f0（UP）；GLOO_SOCKET_IFNAME, TP_SOCKET_IFNAME, HCCL_SOCKET_IFNAME 选中 enp189s0f0；enp189s0f0 1000 Mb/s，MTU 1500',
    );
    expect(chinese.outcome.actual).toBe('enp189s0f0 1000 Mb/s, MTU 1500');
    expectChineseTwin(english.outcome, chinese.outcome);
    const dormant = spec({ speed: '25000', operstate: 'dormant' });
    const failed = await runOn(check, dormant, { deployment: { nodes: 2 } }, { lang: 'zh' });
    expect(failed.outcome.message).toBe('enp189s0f0 处于 dormant 状态（operstate）');
    expectChineseTwin((await runOn(check, dormant, { deployment: { nodes: 2 } })).outcome, failed.outcome, ['export HCCL_IF_IP=10.0.0.1']);
  });
});
