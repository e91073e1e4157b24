import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.peers.js';
import { checkBudgetMs, createContext } from '../../../src/core/runner.js';
import { parseClusterText } from '../../../src/cluster/load.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { syntheticFixture } from '../../helpers/fixtures.js';
import { captureLines, hccnHost, runHccn, twoNodeCluster, type Answer } from '../../helpers/hccn-host.js';
import { expectRemediation, profileWith } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const peerIp = (d: number) => `11.12.165.${100 + d}`;

/** Device d's section of the 8-device ping capture, aimed at the peer's address. */
function ok(d: number, address: string): string {
  return captureLines('hccn-ping-success-a2x8-mindie-dsv3doc.txt', d * 5, 5).replace('11.12.165.80', address);
}
const lost = (d: number, address: string) => syntheticFixture('hccn-ping-no-reply.txt').replace('device 3', `device ${d}`).replace('198.18.2.13', address);

function pings(answer: (d: number, address: string) => Answer, devices = [0, 1, 2, 3, 4, 5, 6, 7]) {
  return devices.map((d) => ({ device: d, address: peerIp(d), answer: answer(d, peerIp(d)) }));
}

describe('hccn.peers', () => {
  it('skips without a cluster file, saying how to give one', async () => {
    const { outcome } = await runHccn(check, hccnHost());
    expect(outcome.status).toBe('skip');
    expectRemediation(outcome);
  });

  it('pings device i of the peer from device i (same-index) and passes when all answer', async () => {
    const { outcome, result, host } = await runHccn(check, hccnHost({ pings: pings(ok) }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 8 pings to node2 ok (same-index, RoCE)' });
    expect(result.details).toEqual(['node2: 8 of 8 ok']);
    expect(host.calls.filter((c) => c.includes('-ping')).map((c) => c.slice(1).join(' '))).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7].map((d) => `-i ${d} -ping -g address ${peerIp(d)}`),
    );
  });

  it('names every failing pair with its loss and summarizes by peer', async () => {
    const answer = (d: number, a: string) => (d === 3 ? lost(d, a) : d === 5 ? syntheticFixture('hccn-ping-partial-loss.txt').replace('device 3', 'device 5').replace('198.18.2.13', a) : ok(d, a));
    const { outcome } = await runHccn(check, hccnHost({ pings: pings(answer) }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('2 of 8 pings failed: node1 dev3 -> node2 dev3 (11.12.165.103): 100% loss, node1 dev5 -> node2 dev5 (11.12.165.105): 33.33% loss');
    expect(outcome.details).toEqual([
      'node2: 6 of 8 ok; failing dev3 (100% loss), dev5 (33.33% loss)',
      'node1 dev3 -> node2 dev3 (11.12.165.103): 100% loss',
      'node1 dev5 -> node2 dev5 (11.12.165.105): 33.33% loss',
    ]);
    expect(outcome.remediation).toContain('retry: hccn_tool -i 3 -ping -g address 11.12.165.103');
    expectRemediation(outcome);
  });

  it('does not ping from a device whose link is DOWN: its pings are skipped with that cause, and the check fails', async () => {
    const spec = hccnHost({ answers: { link: (d) => (d === 2 ? 'link status: DOWN\n' : undefined) }, pings: pings(ok, [0, 1, 3, 4, 5, 6, 7]) });
    const { outcome, host } = await runHccn(check, spec, { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('1 of 8 pings not run (local dev2 link is DOWN (hccn.link))');
    expect(outcome.details).toContain('node1 dev2 -> node2 dev2 (11.12.165.102): skipped: local dev2 link is DOWN (hccn.link)');
    expect(host.calls.some((c) => c.includes('-ping') && c[2] === '2')).toBe(false);
  });

  it('full-mesh: every local device to every peer device', async () => {
    const all = [0, 1].flatMap((d) => [0, 1].map((p) => ({ device: d, address: peerIp(p), answer: ok(d, peerIp(p)) })));
    const spec = hccnHost({ env: { ASCEND_RT_VISIBLE_DEVICES: '0,1' }, pings: all });
    const { outcome } = await runHccn(check, spec, { cluster: twoNodeCluster('plan: full-mesh', peerIp, [0, 1]), node: 'node1' });
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 4 pings to node2 ok (full-mesh, RoCE)' });
  });

  it('pairs: once: pings only the pairs this node owns, says how many the peer pings, and lists them in the evidence', async () => {
    const cluster = twoNodeCluster('pairs: once');
    // node1 leads node2 (the first of two nodes): it owns the pairs of its even devices
    const { outcome, host } = await runHccn(check, hccnHost({ pings: pings(ok, [0, 2, 4, 6]) }), { cluster, node: 'node1' });
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 4 pings to node2 ok (same-index, RoCE, pairs once: 4 more pinged by the peers)' });
    expect(host.calls.filter((c) => c.includes('-ping')).map((c) => c[2])).toEqual(['0', '2', '4', '6']);
    expect(outcome.details).toEqual(['node2: 4 of 4 ok', 'pinged by the peers (pairs: once; qprep aggregate joins them): node2 4']);
    expect(outcome.evidence).toMatchObject({ pairs: 'once', peerOwned: [{ peerNode: 'node2', pairs: [[1, 1], [3, 3], [5, 5], [7, 7]] }] });
  });

  it('pairs: once: a node that owns none of its pairs passes without pinging, naming who does', async () => {
    const cluster = twoNodeCluster('pairs: once', peerIp, [0]);
    const spec = hccnHost({ env: { ASCEND_RT_VISIBLE_DEVICES: '0' } });
    const { outcome, host } = await runHccn(check, spec, { cluster, node: 'node2' });
    expect(outcome).toMatchObject({ status: 'pass', message: 'node2 owns none of its 1 pair: node1 pings them (same-index, pairs once)' });
    expect(outcome.evidence).toMatchObject({ pairs: 'once', results: [], peerOwned: [{ peerNode: 'node1', pairs: [[0, 0]] }] });
    expect(host.calls.some((c) => c.includes('-ping'))).toBe(false);
  });

  it('an answer that cannot be judged (no summary line) is an error, not a pass', async () => {
    const answer = (d: number, a: string) => (d === 6 ? syntheticFixture('hccn-ping-truncated.txt') : ok(d, a));
    const { outcome } = await runHccn(check, hccnHost({ pings: pings(answer) }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('node1 dev6 -> node2 dev6 (11.12.165.106): not assessed');
  });

  it('a peer listing fewer devices leaves pairs unplanned: a warning naming them', async () => {
    const cluster = twoNodeCluster().replace(/, \{device: 7, ip: 11\.12\.165\.107\}/, '');
    const { outcome } = await runHccn(check, hccnHost({ pings: pings(ok, [0, 1, 2, 3, 4, 5, 6]) }), { cluster, node: 'node1' });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('all 7 pings ok, but 1 planned pair has no address to ping: node1 dev7 -> node2 dev7: not planned: node2 has no device 7');
  });

  it('A3 in one super pod: -hccs_ping to the peer\'s vNIC IP', async () => {
    const vnicOf = (d: number) => `192.168.4.${10 + d}`;
    const hccs = (d: number) => syntheticFixture('hccn-hccs-ping-success-a3.txt').replace('device 0', `device ${d}`).replace('198.19.130.10', vnicOf(d));
    const devices = Array.from({ length: 16 }, (_, d) => d);
    const list = (ip: (d: number) => string, vnic: (d: number) => string) => devices.map((d) => `{device: ${d}, ip: ${ip(d)}, vnicIp: ${vnic(d)}}`).join(', ');
    const cluster = `family: a3
nodes:
  - {name: a3n1, host: 10.0.0.1, superPod: 0, devices: [${list((d) => `11.12.165.${80 + d}`, (d) => `192.168.3.${10 + d}`)}]}
  - {name: a3n2, host: 10.0.0.2, superPod: 0, devices: [${list((d) => `11.12.166.${80 + d}`, vnicOf)}]}
`;
    const spec = hccnHost({ family: 'a3', pings: devices.map((d) => ({ device: d, address: vnicOf(d), method: 'hccs' as const, answer: hccs(d) })) });
    const { outcome } = await runHccn(check, spec, { cluster, node: 'a3n1' });
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 16 pings to a3n2 ok (same-index, HCCS)' });
  });

  it('its budget grows with the plan, up to hccn.peersBudget and one probe timeout: serialized pings of 16 devices x 3 peers take long', () => {
    const nodes = ['n1', 'n2', 'n3', 'n4'].map((n, i) => `  - {name: ${n}, host: 10.0.0.${i + 1}}`).join('\n');
    const cluster = parseClusterText(`nodes:\n${nodes}\n`, 'c.yaml');
    const host = new FakeHost({});
    const self = { file: 'c.yaml', cluster, self: cluster.nodes[0]!, matchedBy: 'node-option' as const, evidence: '--node n1' };
    const ctx = createContext({ host, profile: profileWith(), timeoutMs: 10_000, cluster: self });
    // 3 peers x 16 devices, each up to the probe timeout plus the busy retries: 13 min, more than the 10 min budget
    expect(checkBudgetMs(check, ctx)).toBe(600_000 + 10_000 + 40_000 + 10_000);
    const larger = createContext({ host, profile: profileWith({ hccn: { peersBudget: '1h' } }), timeoutMs: 10_000, cluster: self });
    expect(checkBudgetMs(check, larger)).toBe(48 * (10_000 + 6_200) + 40_000 + 10_000);
  });
});

describe('hccn.peers in Chinese', () => {
  const cluster = { cluster: twoNodeCluster(), node: 'node1' };

  it('the pass, failing pairs and a DOWN link in Chinese; the evidence keeps its English reasons', async () => {
    const passed = await runHccn(check, hccnHost({ pings: pings(ok) }), { ...cluster, lang: 'zh' });
    expect(passed.result.title).toBe('跨节点 NPU 之间的连通性');
    expect(passed.outcome.message).toBe('到 node2 的全部 8 次 ping 正常（same-index，RoCE）');
    expect(passed.outcome.details).toEqual(['node2：8 个中 8 个正常']);
    const answer = (d: number, a: string) => (d === 3 ? lost(d, a) : ok(d, a));
    const english = await runHccn(check, hccnHost({ pings: pings(answer) }), cluster);
    const chinese = await runHccn(check, hccnHost({ pings: pings(answer) }), { ...cluster, lang: 'zh' });
    expect(chinese.outcome.message).toBe('8 次 ping 中有 1 次失败：node1 dev3 -> node2 dev3（11.12.165.103）：丢包 100%');
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 3 -link -g', 'hccn_tool -i 3 -ping -g address 11.12.165.103']);
    const down = hccnHost({ answers: { link: (d) => (d === 2 ? 'link status: DOWN\n' : undefined) }, pings: pings(ok, [0, 1, 3, 4, 5, 6, 7]) });
    const skipped = await runHccn(check, down, { ...cluster, lang: 'zh' });
    expect(skipped.outcome.message).toBe('8 次 ping 中有 1 次未运行（本地 dev2 链路 DOWN（hccn.link））');
    expect(skipped.outcome.details).toContain('node1 dev2 -> node2 dev2（11.12.165.102）：已跳过：本地 dev2 链路 DOWN（hccn.link）');
    const englishDown = await runHccn(check, down, cluster);
    expect(JSON.stringify(skipped.outcome.evidence)).toContain('local dev2 link is DOWN (hccn.link)');
    expectChineseTwin(englishDown.outcome, skipped.outcome);
  });

  it('pairs: once and a peer with fewer devices, in Chinese', async () => {
    const once = await runHccn(check, hccnHost({ env: { ASCEND_RT_VISIBLE_DEVICES: '0' } }), { cluster: twoNodeCluster('pairs: once', peerIp, [0]), node: 'node2', lang: 'zh' });
    expect(once.outcome.message).toBe('node2 的 1 对设备都不由它负责：由 node1（共 1 个对端）ping 它们（same-index，pairs once）');
    const fewer = { cluster: twoNodeCluster().replace(/, \{device: 7, ip: 11\.12\.165\.107\}/, ''), node: 'node1' };
    const spec = hccnHost({ pings: pings(ok, [0, 1, 2, 3, 4, 5, 6]) });
    const chinese = await runHccn(check, spec, { ...fewer, lang: 'zh' });
    expect(chinese.outcome.message).toBe('全部 7 次 ping 正常，但计划中的 1 对设备没有可 ping 的地址：node1 dev7 -> node2 dev7：未纳入计划：node2 has no device 7');
    expectChineseTwin((await runHccn(check, spec, fewer)).outcome, chinese.outcome);
  });
});
