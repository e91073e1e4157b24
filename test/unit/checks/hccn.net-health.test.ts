import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.net-health.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const health = (states: Record<number, string>) => ({ net_health: (d: number) => (states[d] ? `net health status: ${states[d]}\n` : undefined) });

describe('hccn.net-health', () => {
  it('passes when every device reports Success (the capture)', async () => {
    const { outcome } = await runHccn(check, hccnHost());
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 8 NPU ports report Success' });
  });

  it('fails in a cluster on Fault, Receive timeout or a spelling the enum lacks (Socket failed)', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: health({ 1: 'Fault', 4: 'Receive timeout', 6: 'Socket failed' }) }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('3 of 8 NPU ports not healthy: dev1 Fault, dev4 Receive timeout, dev6 Socket failed');
    expect(outcome.remediation).toContain('hccn_tool -i 1 -link -g');
    expectRemediation(outcome);
  });

  it('warns on Init (probing not running): the data plane may be fine, but nothing watches it', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: health({ 0: 'Init', 2: 'Init' }) }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('2 of 8 NPU ports report Init');
    expect(outcome.remediation).toBe('set a netdetect address the port can reach, usually its gateway: hccn_tool -i 0 -netdetect -s address <gateway of device 0>');
  });

  it('a failure outranks an Init', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: health({ 0: 'Init', 2: 'Unreachable' }) }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome).toMatchObject({ status: 'fail', message: '1 of 8 NPU ports not healthy: dev2 Unreachable' });
  });

  it('an answer hccn_tool cannot have given is an error naming it', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: { net_health: (d) => (d === 3 ? 'garbage line\n' : undefined) } }));
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('dev3');
    expect(outcome.message).toContain('garbage line');
  });
});

describe('hccn.net-health in Chinese', () => {
  const cluster = { cluster: twoNodeCluster(), node: 'node1' };

  it('a failure and an Init in Chinese, the commands intact', async () => {
    const bad = hccnHost({ answers: health({ 1: 'Fault', 4: 'Receive timeout' }) });
    const english = await runHccn(check, bad, cluster);
    const chinese = await runHccn(check, bad, { ...cluster, lang: 'zh' });
    expect(chinese.outcome.message).toBe('8 个 NPU 网口中有 2 个不健康：dev1 Fault；dev4 Receive timeout');
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 1 -link -g', 'hccn_tool -i 1 -ip -g', 'hccn_tool -i 1 -netdetect -g']);
    const init = hccnHost({ answers: health({ 0: 'Init' }) });
    const chineseInit = await runHccn(check, init, { ...cluster, lang: 'zh' });
    expect(chineseInit.outcome.remediation).toBe('设置一个网口可达的 netdetect 地址，通常是其网关：hccn_tool -i 0 -netdetect -s address <设备 0 的网关>');
    expectChineseTwin((await runHccn(check, init, cluster)).outcome, chineseInit.outcome);
  });
});
