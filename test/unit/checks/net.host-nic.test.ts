import { describe, expect, it } from 'vitest';
import check from '../../../checks/net.host-nic.js';
import type { NetInterface } from '../../../src/host/types.js';
import { parseIfnameSelector, selectorAllows } from '../../../src/parsers/socket-ifname.js';
import type { FakeHostSpec } from '../../helpers/fake-host.js';
import { runHccn } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

function iface(name: string, address: string | null, up = true, extra: Partial<NetInterface> = {}): NetInterface {
  return {
    name,
    adminUp: up,
    operState: up ? 'up' : 'down',
    running: up,
    mtu: 1500,
    mac: null,
    loopback: name === 'lo',
    addresses: address ? [{ family: 'IPv4', address, netmask: '255.255.255.0', prefix: 24 }] : [],
    ...extra,
  };
}

const INTERFACES = [iface('lo', '127.0.0.1'), iface('enp189s0f0', '10.0.0.1'), iface('enp189s0f1', '10.1.0.1'), iface('docker0', '172.17.0.1'), iface('enp61s0', null, false)];
const host = (env: Record<string, string> = {}): FakeHostSpec => ({ env, interfaces: INTERFACES });
const CLUSTER = `nodes:
  - {name: node1, host: 10.0.0.1, ifname: enp189s0f0}
  - {name: node2, host: 10.0.0.2}
`;
const ALL = (nic: string) => ({ GLOO_SOCKET_IFNAME: nic, TP_SOCKET_IFNAME: nic, HCCL_SOCKET_IFNAME: nic });

describe('HCCL_SOCKET_IFNAME and friends: the selector syntax', () => {
  it('prefixes, exclusion, exact names, exact exclusion; Gloo lists and TP single names are exact', () => {
    const hccl = (text: string) => parseIfnameSelector('HCCL_SOCKET_IFNAME', text);
    const allows = (text: string, name: string) => {
      const s = hccl(text);
      return s.ok && selectorAllows(s, name);
    };
    expect(allows('eth,enp', 'enp189s0f0')).toBe(true);
    expect(allows('eth,enp', 'docker0')).toBe(false);
    expect(allows('^docker,lo', 'enp189s0f0')).toBe(true);
    expect(allows('^docker,lo', 'docker0')).toBe(false);
    expect(allows('=eth0', 'eth0')).toBe(true);
    expect(allows('=eth0', 'eth01')).toBe(false);
    expect(allows('^=eth0', 'eth01')).toBe(true);
    const gloo = parseIfnameSelector('GLOO_SOCKET_IFNAME', 'enp1,enp2');
    expect(gloo.ok && selectorAllows(gloo, 'enp1') && !selectorAllows(gloo, 'enp10')).toBe(true);
    expect(parseIfnameSelector('TP_SOCKET_IFNAME', 'a,b')).toEqual({ ok: false, reason: 'names several interfaces; TP_SOCKET_IFNAME takes one' });
    expect(parseIfnameSelector('HCCL_SOCKET_IFNAME', 'eth0; rm -rf /')).toMatchObject({ ok: false });
    expect(parseIfnameSelector('HCCL_SOCKET_IFNAME', '  ')).toEqual({ ok: false, reason: 'is empty' });
  });
});

describe('net.host-nic', () => {
  it('skips when nothing names an address or interface and there is no cluster', async () => {
    const { outcome } = await runHccn(check, host());
    expect(outcome.status).toBe('skip');
    expectRemediation(outcome);
  });

  it('passes when HCCL_IF_IP is on an UP interface that the three variables name', async () => {
    const { outcome } = await runHccn(check, host({ HCCL_IF_IP: '10.0.0.1', ...ALL('enp189s0f0') }));
    expect(outcome).toMatchObject({ status: 'pass', message: 'HCCL_IF_IP 10.0.0.1 is on enp189s0f0 (UP); GLOO_SOCKET_IFNAME, TP_SOCKET_IFNAME, HCCL_SOCKET_IFNAME select enp189s0f0' });
  });

  it('accepts HCCL prefix syntax that selects the address\'s interface', async () => {
    const { outcome } = await runHccn(check, host({ HCCL_IF_IP: '10.0.0.1', HCCL_SOCKET_IFNAME: '^docker,lo' }));
    expect(outcome.status).toBe('pass');
  });

  it('with only a cluster file: its host address must be here, on the ifname it names', async () => {
    const { outcome } = await runHccn(check, host(), { cluster: CLUSTER, node: 'node1' });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('the cluster host address 10.0.0.1 is on enp189s0f0 (UP)');
    const wrongNic = await runHccn(check, host(), { cluster: CLUSTER.replace('ifname: enp189s0f0', 'ifname: enp189s0f1'), node: 'node1' });
    expect(wrongNic.outcome).toMatchObject({ status: 'fail', message: 'ifname enp189s0f1 (cluster file) does not select enp189s0f0, which carries 10.0.0.1' });
  });

  it('fails on an address that is not local, naming the local ones', async () => {
    const { outcome } = await runHccn(check, host({ HCCL_IF_IP: '10.0.0.9' }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('HCCL_IF_IP 10.0.0.9 is not an address of this host (it has 10.0.0.1 on enp189s0f0, 10.1.0.1 on enp189s0f1, 172.17.0.1 on docker0)');
    expect(outcome.remediation).toContain('export HCCL_IF_IP=10.0.0.9');
  });

  it('fails when HCCL_IF_IP and the cluster file disagree, and when the variables name different interfaces', async () => {
    const { outcome } = await runHccn(check, host({ HCCL_IF_IP: '10.1.0.1', GLOO_SOCKET_IFNAME: 'enp189s0f0', TP_SOCKET_IFNAME: 'enp189s0f1' }), { cluster: CLUSTER, node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.details).toEqual([
      'HCCL_IF_IP=10.1.0.1 but the cluster file gives node1 the host address 10.0.0.1',
      'GLOO_SOCKET_IFNAME=enp189s0f0 does not select enp189s0f1, which carries 10.1.0.1',
    ]);
  });

  it('fails on an interface that does not exist or is down, and on bad syntax', async () => {
    const missing = await runHccn(check, host({ HCCL_SOCKET_IFNAME: '=eth0' }));
    expect(missing.outcome.message).toBe('HCCL_SOCKET_IFNAME==eth0 matches no interface (this host has lo, enp189s0f0, enp189s0f1, docker0, enp61s0)');
    const down = await runHccn(check, host({ TP_SOCKET_IFNAME: 'enp61s0' }));
    expect(down.outcome.message).toBe('TP_SOCKET_IFNAME=enp61s0 names enp61s0 (DOWN, operstate down)');
    const bad = await runHccn(check, host({ GLOO_SOCKET_IFNAME: 'enp 1' }));
    expect(bad.outcome.message).toBe('GLOO_SOCKET_IFNAME=enp 1 "enp 1" is not an interface name');
  });

  it('is an error when the interfaces cannot be listed', async () => {
    const { outcome } = await runHccn(check, { env: { HCCL_IF_IP: '10.0.0.1' }, interfaces: { error: 'EACCES' } });
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});

describe('net.host-nic in Chinese', () => {
  it('the pass, the skip and the problems in Chinese; actual stays English, the export line intact', async () => {
    const ok = await runHccn(check, host({ HCCL_IF_IP: '10.0.0.1', ...ALL('enp189s0f0') }), { lang: 'zh' });
    expect(ok.result.title).toBe('HCCL、Gloo 与 TP socket 使用的主机网卡');
    expect(ok.outcome.message).toBe('HCCL_IF_IP 10.0.0.1 位于 enp189s0f0（UP）；GLOO_SOCKET_IFNAME, TP_SOCKET_IFNAME, HCCL_SOCKET_IFNAME 选中 enp189s0f0');
    const skipped = await runHccn(check, host(), { lang: 'zh' });
    expect(skipped.outcome.message).toMatch(/^HCCL_IF_IP 和 \*_SOCKET_IFNAME 变量均未设置/);
    const notLocal = await runHccn(check, host({ HCCL_IF_IP: '10.0.0.9' }), { lang: 'zh' });
    expect(notLocal.outcome.message).toBe('HCCL_IF_IP 10.0.0.9 不是本主机的地址（本主机有 10.0.0.1（enp189s0f0）；10.1.0.1（enp189s0f1）；172.17.0.1（docker0））');
    const spec = host({ HCCL_IF_IP: '10.1.0.1', GLOO_SOCKET_IFNAME: 'enp189s0f0', TP_SOCKET_IFNAME: 'enp189s0f1' });
    const english = await runHccn(check, spec, { cluster: CLUSTER, node: 'node1' });
    const chinese = await runHccn(check, spec, { cluster: CLUSTER, node: 'node1', lang: 'zh' });
    expect(chinese.outcome.details).toEqual([
      'HCCL_IF_IP=10.1.0.1，但集群文件给 node1 的主机地址是 10.0.0.1',
      'GLOO_SOCKET_IFNAME=enp189s0f0 未选中承载 10.1.0.1 的 enp189s0f1',
    ]);
    expect(chinese.outcome.actual).toBe('HCCL_IF_IP=10.1.0.1 but the cluster file gives node1 the host address 10.0.0.1; GLOO_SOCKET_IFNAME=enp189s0f0 does not select enp189s0f1, which carries 10.1.0.1');
    expectChineseTwin(english.outcome, chinese.outcome, [
      'export HCCL_IF_IP=10.1.0.1 GLOO_SOCKET_IFNAME=enp189s0f1 TP_SOCKET_IFNAME=enp189s0f1 HCCL_SOCKET_IFNAME=enp189s0f1',
      'source <(qprep env --cluster cluster.yaml)',
    ]);
    const wrongNic = { cluster: CLUSTER.replace('ifname: enp189s0f0', 'ifname: enp189s0f1'), node: 'node1' };
    const fileIfname = await runHccn(check, host(), { ...wrongNic, lang: 'zh' });
    expect(fileIfname.outcome.message).toBe('ifname enp189s0f1（集群文件） 未选中承载 10.0.0.1 的 enp189s0f0');
    expect(fileIfname.outcome.evidence).toEqual((await runHccn(check, host(), wrongNic)).outcome.evidence);
  });
});
