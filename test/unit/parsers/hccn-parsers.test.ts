import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isHccnBusy,
  isNetHealthy,
  parseHccnGateway,
  parseHccnIp,
  parseHccnLink,
  parseHccnNetdetect,
  parseHccnNetHealth,
  parseHccnSetAnswer,
  parseHccnTls,
  parseHccnVnic,
} from '../../../src/parsers/hccn.js';
import { parseHccnConf } from '../../../src/parsers/hccn-conf.js';
import { parseHccnKeyValues, parseHccnLinkStat, parseHccnRoute } from '../../../src/parsers/hccn-diag.js';
import { parseHccnLldp } from '../../../src/parsers/hccn-lldp.js';
import { parseHccnPing } from '../../../src/parsers/hccn-ping.js';
import type { Parsed } from '../../../src/parsers/parsed.js';
import { parseSpodInfo } from '../../../src/parsers/spod-info.js';

const ascend = (name: string) => readFileSync(new URL(`../../fixtures/ascend/${name}`, import.meta.url), 'utf8');
const synthetic = (name: string) => readFileSync(new URL(`../../fixtures/synthetic/${name}`, import.meta.url), 'utf8');

function ok<T>(result: Parsed<T>): T {
  if (!result.ok) throw new Error(`expected a parse, got: ${result.reason}`);
  return result.value;
}

describe('hccn_tool -ip -g', () => {
  it('reads the 8-device loop of the MindIE guide, address and netmask per device', () => {
    const ip = ok(parseHccnIp(ascend('hccn-ip-g-a2x8-mindie-dsv3doc.txt')));
    expect(ip.entries).toHaveLength(8);
    expect(ip.entries[0]).toEqual({ address: '11.12.165.80', netmask: '255.255.255.0' });
    expect(ip.entries.map((e) => e.address)).toEqual(Array.from({ length: 8 }, (_, i) => `11.12.165.${80 + i}`));
    expect(ip.skippedCount).toBe(0);
    expect(ip.notPreset).toBe(false);
  });

  it('an unconfigured device prints no ipaddr line: empty output, the "no ip was preset" text (derived)', () => {
    expect(ok(parseHccnIp(synthetic('hccn-ip-g-unconfigured-empty.txt'))).entries).toEqual([]);
    const notPreset = ok(parseHccnIp(synthetic('hccn-ip-g-no-ip-preset.txt')));
    expect(notPreset.entries).toEqual([]);
    expect(notPreset.notPreset).toBe(true);
  });

  it('a loop where one device is unconfigured yields one entry fewer (derived)', () => {
    const ip = ok(parseHccnIp(synthetic('hccn-ip-g-loop-one-unconfigured.txt')));
    expect(ip.entries.map((e) => e.address)).toEqual(['198.18.1.10', '198.18.1.11', '198.18.1.13']);
  });

  it('refuses an ipaddr that is not an address, naming the line', () => {
    const result = parseHccnIp('ipaddr:1.2.3.4; rm -rf /\n');
    expect(result).toMatchObject({ ok: false, line: 1 });
    expect(result.ok === false && result.reason).toContain('not an IP address');
    expect(parseHccnIp('netmask:255.255.255.0\n')).toMatchObject({ ok: false, line: 1, reason: 'netmask without an ipaddr line before it' });
  });

  it('calls other text what it is, with its first line', () => {
    expect(parseHccnIp('Command executed failed\n')).toEqual({
      ok: false,
      reason: 'not hccn_tool -ip -g output: line 1 is "Command executed failed"',
      line: 1,
      text: 'Command executed failed',
    });
  });
});

describe('hccn_tool -vnic -g', () => {
  it('reads the 950 doc sample: link, address, netmask', () => {
    expect(ok(parseHccnVnic(ascend('hccn-vnic-g-950doc-driver-repo.txt'))).entries).toEqual([
      { linkStatus: 'UP', address: '192.168.2.199', netmask: '255.255.255.0' },
    ]);
  });
  it('reads a vNIC whose link is down (derived)', () => {
    expect(ok(parseHccnVnic(synthetic('hccn-vnic-g-down.txt'))).entries[0]).toEqual({ linkStatus: 'DOWN', address: '198.19.129.12', netmask: '255.255.128.0' });
  });
  it('splits a loop into one entry per device', () => {
    const two = ok(parseHccnVnic(`${ascend('hccn-vnic-g-950doc-driver-repo.txt')}${synthetic('hccn-vnic-g-down.txt')}`));
    expect(two.entries.map((e) => e.linkStatus)).toEqual(['UP', 'DOWN']);
  });
});

describe('hccn_tool -link -g', () => {
  it('reads the elided MindIE loop: UP, and knows the sample was shortened', () => {
    const link = ok(parseHccnLink(ascend('hccn-link-up-mindie-dsv3doc.txt')));
    expect(link.entries).toEqual([
      { status: 'UP', up: true, vnic: false },
      { status: 'UP', up: true, vnic: false },
    ]);
    expect(link.elided).toBe(true);
  });
  it('reads DOWN and lower-case up (derived), and the vnic link status line', () => {
    expect(ok(parseHccnLink(synthetic('hccn-link-up-down.txt'))).entries.map((e) => [e.status, e.up])).toEqual([
      ['UP', true],
      ['DOWN', false],
      ['UP', true],
    ]);
    expect(ok(parseHccnLink('vnic link status: UP\n')).entries).toEqual([{ status: 'UP', up: true, vnic: true }]);
  });
});

describe('hccn_tool -net_health -g', () => {
  it('reads the MindIE loop: Success', () => {
    const health = ok(parseHccnNetHealth(ascend('hccn-net-health-success-mindie-dsv3doc.txt')));
    expect(health.entries).toEqual([
      { state: 'success', text: 'Success' },
      { state: 'success', text: 'Success' },
    ]);
    expect(health.elided).toBe(true);
  });
  it('maps every state of the tool table, case-insensitively, and the "Socket failed" variant (derived)', () => {
    const states = ok(parseHccnNetHealth(synthetic('hccn-net-health-every-state.txt'))).entries.map((e) => e.state);
    expect(states).toEqual([
      'success',
      'socket-fail',
      'receive-timeout',
      'unreachable',
      'time-exceeded',
      'fault',
      'init',
      'thread-error',
      'detect-ip-set',
      'unknown',
      'socket-fail',
      'success',
      'other',
    ]);
  });
  it('counts only Success as healthy, and Init when asked', () => {
    expect(isNetHealthy('success')).toBe(true);
    expect(isNetHealthy('init')).toBe(false);
    expect(isNetHealthy('init', { acceptInit: true })).toBe(true);
    expect(isNetHealthy('other', { acceptInit: true })).toBe(false);
  });
});

describe('hccn_tool -netdetect -g', () => {
  it('reads the doc spelling "netdetect address:"', () => {
    expect(ok(parseHccnNetdetect(ascend('hccn-netdetect-mindie-dsv3doc.txt'))).entries).toEqual([{ address: '11.12.165.1' }, { address: '11.12.165.1' }]);
  });
  it('reads the source spelling "netdetect addr:" (derived) and an empty value as unset', () => {
    expect(ok(parseHccnNetdetect(synthetic('hccn-netdetect-addr-source-spelling.txt'))).entries).toEqual([{ address: '198.18.0.1' }]);
    expect(ok(parseHccnNetdetect('netdetect addr:\n')).entries).toEqual([{ address: null }]);
  });
});

describe('hccn_tool -gateway -g', () => {
  it('reads gateway and device interface of the 8-device loop', () => {
    const gw = ok(parseHccnGateway(ascend('hccn-gateway-a2x8-mindie-dsv3doc.txt')));
    expect(gw.entries).toHaveLength(8);
    expect(gw.entries[7]).toEqual({ gateway: '11.12.165.1', iface: 'eth7' });
    expect(new Set(gw.entries.map((e) => e.gateway))).toEqual(new Set(['11.12.165.1']));
  });
});

describe('hccn_tool -lldp -g', () => {
  it('reads the full TLV dump (spaces, continuation lines, author elision): port, chassis, description, frame size', () => {
    const lldp = ok(parseHccnLldp(ascend('hccn-lldp-g-full-910b-arthurchiao.txt')));
    expect(lldp.neighbours).toHaveLength(1);
    const [n] = lldp.neighbours;
    expect(n!.ifname).toBe('400GE1/1/20:2');
    expect(n!.chassis).toBe('...');
    expect(n!.systemDescription).toBe('Versatile Routing Platform Software VRP (R) software, Version 8.211 (DX511 V200R021C10SPC600) Huarong DX511');
    expect(n!.managementAddress).toBe('26.xx.xx.xx');
    expect(n!.maxFrameSize).toBe(9216);
    expect(n!.tlvs[0]).toBe('Chassis ID TLV');
    expect(n!.tlvs.at(-1)).toBe('End of LLDPDU TLV');
    expect(lldp.elided).toBe(true);
  });
  it('reads the "grep Ifname" loop, TAB-indented: one neighbour per device', () => {
    const lldp = ok(parseHccnLldp(ascend('hccn-lldp-ifname-a2x8-mindie-dsv3doc.txt')));
    expect(lldp.neighbours.map((n) => n.ifname)).toEqual([
      '400GE1/1/5:1',
      '400GE1/1/5:2',
      '400GE1/2/5:1',
      '400GE1/2/5:2',
      '400GE1/3/5:1',
      '400GE1/3/5:2',
      '400GE1/4/5:1',
      '400GE1/4/5:2',
    ]);
  });
  it('reads the same form indented with spaces (derived); no output is no neighbour', () => {
    expect(ok(parseHccnLldp(synthetic('hccn-lldp-ifname-spaces.txt'))).neighbours.map((n) => n.ifname)).toEqual(['400GE1/1/5:1', '400GE1/1/5:2']);
    expect(ok(parseHccnLldp('')).neighbours).toEqual([]);
  });
});

describe('hccn_tool -tls -g', () => {
  it('reads switch, preconfigured and alarm threshold per dev_id from the 8-device loop', () => {
    const tls = ok(parseHccnTls(ascend('hccn-tls-switch-a2x8-mindie-dsv3doc.txt')));
    expect(tls.entries).toHaveLength(8);
    expect(tls.entries.map((e) => e.device)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(tls.entries[5]).toEqual({ device: 5, switch: 0, preconfigured: 1, alarmThresholdDays: 60 });
  });
  it('reads an enabled switch (derived) and skips certificate lines', () => {
    const tls = ok(parseHccnTls(`${synthetic('hccn-tls-switch-enabled.txt')}certificate: something the tool prints\n`));
    expect(tls.entries).toEqual([{ device: 3, switch: 1, preconfigured: 0, alarmThresholdDays: 30 }]);
    expect(tls.skippedCount).toBe(1);
  });
  it('reads the answer of "-tls -s enable 0" on every device', () => {
    const set = ok(parseHccnSetAnswer(ascend('hccn-tls-set-enable0-mindie-dsv3doc.txt')));
    expect(set.succeeded).toBe(2);
    expect(set.elided).toBe(true);
    expect(parseHccnSetAnswer('permission denied: only root user is allowed\n').ok).toBe(false);
  });
});

describe('hccn_tool -ping -g address X', () => {
  it('reads the real capture: 3 replies with times, 0.00% loss', () => {
    const [report] = ok(parseHccnPing(ascend('hccn-ping-success-910b-arthurchiao.txt'))).reports;
    expect(report).toMatchObject({ device: 3, target: '29.1.137.205', method: 'roce', transmitted: 3, received: 3, lossPercent: 0, verdict: 'ok' });
    expect(report!.replies).toEqual([
      { seq: 0, timeMs: 1.418 },
      { seq: 1, timeMs: 0.034 },
      { seq: 2, timeMs: 0.04 },
    ]);
  });
  it('reads the 8-device loop of the MindIE guide as 8 reports', () => {
    const { reports } = ok(parseHccnPing(ascend('hccn-ping-success-a2x8-mindie-dsv3doc.txt')));
    expect(reports.map((r) => [r.device, r.target, r.verdict])).toEqual(Array.from({ length: 8 }, (_, i) => [i, '11.12.165.80', 'ok']));
  });
  it('reads the doc sample with its shell prompt and its "time-" typo', () => {
    const ping = ok(parseHccnPing(ascend('hccn-ping-success-with-prompt-typo-doc.txt')));
    expect(ping.reports).toHaveLength(1);
    expect(ping.reports[0]).toMatchObject({ device: 0, target: '10.10.100.10', received: 3, verdict: 'ok', messages: [] });
    expect(ping.reports[0]!.replies.map((r) => r.timeMs)).toEqual([0.067, 0.049, 0.047]);
    expect(ping.skippedCount).toBe(2);
  });
  it('partial loss (derived): the lost sequence and 33.33%', () => {
    const [report] = ok(parseHccnPing(synthetic('hccn-ping-partial-loss.txt'))).reports;
    expect(report).toMatchObject({ transmitted: 3, received: 2, lossPercent: 33.33, verdict: 'loss' });
    expect(report!.lost).toEqual([{ seq: 1, reason: 'recv time out' }]);
  });
  it('no reply (derived): every packet timed out, 100% loss', () => {
    const [report] = ok(parseHccnPing(synthetic('hccn-ping-no-reply.txt'))).reports;
    expect(report).toMatchObject({ received: 0, lossPercent: 100, verdict: 'loss' });
    expect(report!.lost.map((l) => l.seq)).toEqual([0, 1, 2]);
  });
  it('Destination Host Unreachable and Message too long (documented markers, derived)', () => {
    expect(ok(parseHccnPing(synthetic('hccn-ping-unreachable.txt'))).reports[0]).toMatchObject({ unreachable: true, verdict: 'unreachable', target: '198.18.9.10' });
    expect(ok(parseHccnPing(synthetic('hccn-ping-message-too-long.txt'))).reports[0]).toMatchObject({ messageTooLong: true, verdict: 'incomplete' });
  });
  it('a run cut short has no summary: incomplete, never ok (derived)', () => {
    expect(ok(parseHccnPing(synthetic('hccn-ping-truncated.txt'))).reports[0]).toMatchObject({ replies: [{ seq: 0, timeMs: 0.071 }], verdict: 'incomplete' });
  });
  it('keeps an error text of the tool inside a section as a message', () => {
    const [report] = ok(parseHccnPing('device 2 PING 198.18.2.12\nsome error text of the device\n')).reports;
    expect(report!.messages).toEqual(['some error text of the device']);
    expect(report!.verdict).toBe('incomplete');
  });
  it('is not fooled by text that is no ping at all', () => {
    expect(parseHccnPing('hccn_tool is busy, please try again\n')).toMatchObject({ ok: false, line: 1 });
  });
});

describe('hccn_tool -hccs_ping through parseHccnPing, as the probe reads it (A3; documented source format only, parsed leniently)', () => {
  it('reads a success: per-packet status, times in microseconds, "packets loss" summary (documented format, derived)', () => {
    const [report] = ok(parseHccnPing(synthetic('hccn-hccs-ping-success-a3.txt'))).reports;
    expect(report).toMatchObject({ device: 0, target: '198.19.130.10', method: 'hccs', transmitted: 3, received: 3, lossPercent: 0, verdict: 'ok' });
    expect(report!.replies).toEqual([
      { seq: 0, timeMs: 0.0125 },
      { seq: 1, timeMs: 0.00925 },
      { seq: 2, timeMs: 0.009 },
    ]);
  });
  it('reads failed packets with the reason the tool gave (documented format, derived)', () => {
    const [report] = ok(parseHccnPing(synthetic('hccn-hccs-ping-loss-a3.txt'))).reports;
    expect(report).toMatchObject({ method: 'hccs', received: 1, lossPercent: 66.67, verdict: 'loss' });
    expect(report!.lost).toEqual([
      { seq: 1, reason: 'This pkt check recv msg fail!' },
      { seq: null, reason: 'This pkt send fail!' },
    ]);
  });
});

describe('/etc/hccn.conf', () => {
  it('reads the real file with the author elision: address, netmask, netdetect, gateway per device', () => {
    const conf = ok(parseHccnConf(ascend('hccn-conf-910b-arthurchiao.txt')));
    expect(conf.devices.map((d) => d.device)).toEqual([0, 7]);
    expect(conf.devices[0]!.settings).toEqual({ address: '29.1.137.205', netmask: '255.255.0.0', netdetect: '29.1.0.1', gateway: '29.1.0.1', send_arp_status: '1' });
    expect(conf.devices[1]!.settings.address).toBe('29.1.170.143');
    expect(conf.devices[1]!.lines.address).toBe(7);
    expect(conf.elided).toBe(true);
    expect(conf.duplicates).toEqual([]);
  });
  it('reads keys in any order and reports a key given twice, the later winning (derived)', () => {
    const conf = ok(parseHccnConf(synthetic('hccn-conf-any-order-no-netdetect.txt')));
    expect(conf.devices.map((d) => d.device)).toEqual([0, 1]);
    expect(conf.devices[0]!.settings).toEqual({ xsfp_reset_max_times: '3', xsfp_reset_wait_times: '5', address: '198.18.1.10', netmask: '255.255.0.0', tls_enable: '0' });
    expect(conf.devices[1]!.settings.address).toBe('198.18.1.21');
    expect(conf.duplicates).toEqual([{ key: 'address_1', line: 9, previousLine: 4 }]);
  });
  it('skips comments, keeps keys without a device suffix, and refuses a file of prose', () => {
    const conf = ok(parseHccnConf('# managed by ansible\nbond_mode=4\naddress_0=198.18.1.10\n'));
    expect(conf.global).toEqual({ bond_mode: '4' });
    expect(parseHccnConf('this is not a config\n')).toMatchObject({ ok: false, line: 1 });
  });
});

describe('npu-smi info -t spod-info', () => {
  it('reads both dies of the A3 capture: SDID, size, super pod id, server index', () => {
    const die0 = ok(parseSpodInfo(ascend('npu-smi-info-t-spod-info-a3-dev0-mindcluster-vllm-log.txt')));
    expect(die0).toMatchObject({ supported: true, entries: [{ sdid: 167772160, superPodSize: 384, superPodId: 0, serverIndex: 40, chassisId: null }] });
    const die1 = ok(parseSpodInfo(ascend('npu-smi-info-t-spod-info-a3-dev1-mindcluster-vllm-log.txt')));
    expect(die1.supported && die1.entries[0]!.sdid).toBe(167837697);
  });
  it('reads the spaces-collapsed one-line doc form (derived)', () => {
    expect(ok(parseSpodInfo(synthetic('npu-smi-info-t-spod-info-collapsed-doc.txt')))).toMatchObject({
      supported: true,
      entries: [{ sdid: 16777216, superPodSize: 384, superPodId: 0, serverIndex: 4 }],
    });
  });
  it('splits a loop over two dies into two entries', () => {
    const both = ok(parseSpodInfo(ascend('npu-smi-info-t-spod-info-a3-dev0-mindcluster-vllm-log.txt') + ascend('npu-smi-info-t-spod-info-a3-dev1-mindcluster-vllm-log.txt')));
    expect(both.supported && both.entries.map((e) => e.sdid)).toEqual([167772160, 167837697]);
  });
  it('reads the 950 "does not support" answer', () => {
    expect(ok(parseSpodInfo(ascend('npu-smi-info-t-spod-info-950-unsupported-doc-driver-repo.txt')))).toEqual({
      supported: false,
      message: 'This device does not support querying spod-info.',
    });
  });
});

describe('the busy answer', () => {
  it('is recognised in any of the streams the tool may use (derived from the documented text)', () => {
    expect(isHccnBusy(synthetic('hccn-busy.txt'))).toBe(true);
    expect(isHccnBusy('HCCN_TOOL IS BUSY, please try again')).toBe(true);
    expect(isHccnBusy(ascend('hccn-ping-success-910b-arthurchiao.txt'))).toBe(false);
  });
});

describe('diagnostic dumps', () => {
  it('-link_stat -g, [devid N] prefix: up count and the change records', () => {
    const [entry] = ok(parseHccnLinkStat(ascend('hccn-link-stat-g-mindcluster-fixture.txt'))).entries;
    expect(entry).toMatchObject({ device: 0, currentTime: 'Wed Aug  2 03:09:26 2022', linkUpCount: 2, linkDownCount: null });
    expect(entry!.changes.map((c) => c.event)).toEqual(['UP', 'DOWN', 'UP']);
    expect(entry!.changes[0]!.time).toBe('Tue Aug  1 14:43:40 2022');
  });
  it('-link_stat -g, the [device N] variant of the docs', () => {
    const [entry] = ok(parseHccnLinkStat(ascend('hccn-link-stat-g-device-prefix-variant-mindcluster-doc.txt'))).entries;
    expect(entry).toMatchObject({ device: 0, linkUpCount: 2 });
    expect(entry!.changes).toHaveLength(3);
  });
  it('-stat -g, -optical -g, -fec -g, -hw_stats -g, -status -g as key/value dumps', () => {
    const stat = ok(parseHccnKeyValues(ascend('hccn-stat-g-short-mindcluster-fixture.txt')));
    expect(stat).toMatchObject({ title: 'packet statistics', values: { roce_rx_err_pkt_num: '0', roce_tx_err_pkt_num: '0' } });
    const optical = ok(parseHccnKeyValues(ascend('hccn-optical-g-mindcluster-fixture.txt')));
    expect(optical.title).toBe('optical info');
    expect(optical.values).toMatchObject({ present: 'not present', temperature: '47 C', 'Rx Los Flag': '0xff', 'Tx Power0': '4.4035 mW', 'Host SNR Lane3': 'not supported' });
    expect(ok(parseHccnKeyValues(ascend('hccn-fec-g-mindcluster-fixture.txt'))).values).toEqual({ 'fec mode': 'no FEC mode' });
    const hw = ok(parseHccnKeyValues(ascend('hccn-hw-stats-g-910b-arthurchiao.txt')));
    expect(hw.device).toBe(3);
    expect(hw.values).toMatchObject({ pd_alloc: '1', qp_active: '1', ceqe: '0' });
    const status = ok(parseHccnKeyValues(ascend('hccn-status-g-910b-annotated-arthurchiao.txt')));
    expect(status.values['Netdev status']).toBe('Settings for eth3:');
    expect(status.values.Speed).toMatch(/^200000Mb\/s/);
    expect(status.values['Supported link modes']).toBe('1000baseKX/Full 100000baseKR4/Full');
    expect(status.elided).toBe(true);
  });
  it('-route -g: the routing table, vNIC routes on end3v0 included', () => {
    const { routes } = ok(parseHccnRoute(ascend('hccn-route-g-910b-arthurchiao.txt')));
    expect(routes).toHaveLength(5);
    expect(routes[0]).toEqual({ destination: 'default', gateway: '29.1.0.1', genmask: '0.0.0.0', flags: 'UG', iface: 'eth3' });
    expect(routes.filter((r) => r.iface === 'end3v0').map((r) => r.destination)).toEqual(['192.168.1.0', '192.168.2.0']);
  });
});

const PARSERS: Record<string, (text: string) => Parsed<unknown>> = {
  ip: parseHccnIp,
  vnic: parseHccnVnic,
  link: parseHccnLink,
  netHealth: parseHccnNetHealth,
  netdetect: parseHccnNetdetect,
  gateway: parseHccnGateway,
  tls: parseHccnTls,
  set: parseHccnSetAnswer,
  lldp: parseHccnLldp,
  ping: parseHccnPing,
  conf: parseHccnConf,
  spod: parseSpodInfo,
  linkStat: parseHccnLinkStat,
  keyValues: parseHccnKeyValues,
  route: parseHccnRoute,
};

/** Lines that look like tool output, mixed with noise, so that the generators reach deep branches. */
const LINE_FRAGMENTS = [
  'ipaddr:198.18.1.1',
  'ipaddr:',
  'netmask:255.255.0.0',
  'vnic ipaddr: 198.19.1.1',
  'vnic link status: UP',
  'link status: DOWN',
  'net health status: Socket failed',
  'netdetect addr: 1.2.3.4',
  'default gateway:1.2.3.4, Iface:eth0',
  'Chassis ID TLV',
  '\tIfname: 400GE1/1/1:1',
  'End of LLDPDU TLV',
  'dev_id:0, tls switch[1](0:disable, 1:enable)',
  'device 3 PING 198.18.1.1',
  'recv seq=0,time=0.1ms',
  'recv time out seq=1',
  'This pkt send fail!',
  'recv seq 1, time = 1.0us, L1 plane check result = 0x0',
  '3 packets transmitted, 2 received, 33.33% packet loss',
  'Destination Host Unreachable',
  'address_0=198.18.1.1',
  'SDID : 1 / Super Pod ID : 0',
  '[devid 0]link up count       : 2',
  '...',
  '',
  '\r',
];

describe('every hccn parser', () => {
  it('never throws and always returns a result, on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        for (const parse of Object.values(PARSERS)) expect(typeof parse(text).ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on plausible lines mixed with garbage, truncated anywhere', () => {
    const line = fc.oneof(fc.constantFrom(...LINE_FRAGMENTS), fc.string({ maxLength: 40 }));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.nat(), (lines, cut) => {
        const text = lines.join('\n');
        const truncated = text.slice(0, cut % (text.length + 1));
        for (const parse of Object.values(PARSERS)) {
          const result = parse(truncated);
          if (!result.ok) {
            expect(result.reason.length).toBeGreaterThan(0);
            expect(result.reason).not.toContain('\n');
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on bytes that are not UTF-8, decoded the way the host decodes them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = Buffer.from(bytes).toString('utf8');
        for (const parse of Object.values(PARSERS)) expect(typeof parse(text).ok).toBe('boolean');
      }),
      { numRuns: 200 },
    );
  });

  it('handles a 10 MB answer, one huge line and many short ones, without throwing', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const many = 'ipaddr:198.18.1.1\nnetmask:255.255.0.0\n'.repeat(300_000);
    for (const [name, parse] of Object.entries(PARSERS)) {
      expect(parse(huge).ok, name).toBe(false);
      expect(typeof parse(many).ok, name).toBe('boolean');
    }
    const ip = parseHccnIp(many);
    expect(ip.ok && ip.value.entries.length).toBe(300_000);
  });
});
