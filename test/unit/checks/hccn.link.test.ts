import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.link.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { NPU_SMI } from '../../helpers/npu-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const DUO = ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt');
const down = (bad: number[]) => ({ link: (d: number) => (bad.includes(d) ? 'link status: DOWN\n' : undefined) });

describe('hccn.link', () => {
  it('passes when every device of the A2 says link status: UP (the capture, one device each)', async () => {
    const { outcome } = await runHccn(check, hccnHost());
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 8 NPU ports are UP' });
  });

  it('fails in a cluster, naming the DOWN devices and the commands that look closer', async () => {
    const { outcome, result } = await runHccn(check, hccnHost({ answers: down([3, 5]) }), { cluster: twoNodeCluster(), node: 'node1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('2 of 8 NPU ports not UP: dev3 DOWN, dev5 DOWN');
    expect(outcome.remediation).toContain('hccn_tool -i 3 -optical -g');
    expect(result.status).toBe('fail');
    expectRemediation(outcome);
  });

  it('only warns on a single node (no cluster), and says why', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: down([0]) }));
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('only traffic between nodes uses the NPU network');
  });

  it('blocks on a single node when the profile moves KV caches over the NPU network', async () => {
    const { outcome } = await runHccn(check, hccnHost({ answers: down([0]) }), { profile: { hccn: { kvTransfer: true } } });
    expect(outcome.status).toBe('fail');
  });

  it('checks only the devices the workload uses (ASCEND_RT_VISIBLE_DEVICES)', async () => {
    const { outcome, host } = await runHccn(check, hccnHost({ answers: down([7]), env: { ASCEND_RT_VISIBLE_DEVICES: '0-3' } }));
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 4 NPU ports are UP' });
    expect(host.calls.filter((c) => c.includes('-link')).map((c) => c[2])).toEqual(['0', '1', '2', '3']);
  });

  it('skips on the 310P family, which has no NPU network, without running hccn_tool', async () => {
    const { outcome, host } = await runHccn(check, hccnHost({ info: DUO }));
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toContain('310P');
    expect(host.calls.some((c) => c[0]!.endsWith('hccn_tool'))).toBe(false);
    expectRemediation(outcome);
  });

  it('is an error pointing at npu.smi when there is no npu-smi (no NPU to list)', async () => {
    const { outcome } = await runHccn(check, hccnHost({ missing: [NPU_SMI] }));
    expect(outcome.status).toBe('error');
    expect(outcome.remediation).toContain('npu.smi reports the same cause');
  });

  it('is an error naming the command when hccn_tool fails for one device', async () => {
    const failing = await runHccn(check, hccnHost({ answers: { link: (d) => (d === 2 ? { stdout: '', stderr: 'dsmi_get_device_info failed', exitCode: 1 } : undefined) } }));
    expect(failing.outcome.status).toBe('error');
    expect(failing.outcome.message).toContain('cannot read the link status of 1 of 8 devices (dev2)');
    expect(failing.outcome.message).toContain('exited with code 1: dsmi_get_device_info failed');
    expectRemediation(failing.outcome);
  });

  it('is an error with the docker flag when hccn_tool is not mounted into the container', async () => {
    const { outcome } = await runHccn(check, hccnHost({ container: true, missing: ['/usr/local/Ascend/driver/tools/hccn_tool'] }));
    expect(outcome.status).toBe('error');
    expect(outcome.remediation).toContain('-v /usr/local/Ascend/driver/tools/hccn_tool:/usr/local/Ascend/driver/tools/hccn_tool');
  });
});

describe('hccn.link in Chinese', () => {
  const cluster = { cluster: twoNodeCluster(), node: 'node1' };

  it('passes and fails in Chinese; the hccn_tool commands keep their bytes', async () => {
    const { outcome, result } = await runHccn(check, hccnHost(), { lang: 'zh' });
    expect(result.title).toBe('NPU 网口链路 UP');
    expect(outcome.message).toBe('全部 8 个 NPU 网口均为 UP');
    const english = await runHccn(check, hccnHost({ answers: down([3, 5]) }), cluster);
    const chinese = await runHccn(check, hccnHost({ answers: down([3, 5]) }), { ...cluster, lang: 'zh' });
    expect(chinese.outcome.message).toBe('8 个 NPU 网口中有 2 个不是 UP：dev3 DOWN；dev5 DOWN');
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 3 -optical -g', 'hccn_tool -i 3 -link_stat -g']);
  });

  it('the single-node note, the 310P skip and a failed hccn_tool call are Chinese too', async () => {
    const single = await runHccn(check, hccnHost({ answers: down([0]) }), { lang: 'zh' });
    expect(single.outcome.message).toMatch(/（单节点上只是警告：只有节点之间的流量走参数面网络；--cluster 或多节点 profile 会使其成为阻断项）$/);
    const duo = await runHccn(check, hccnHost({ info: DUO }), { lang: 'zh' });
    expect(duo.outcome.message).toBe('310P 系列没有参数面网络（无 RoCE 网口，无 hccn_tool）：各 NPU 网口链路不适用；节点之间经主机网络通信');
    const failing = { answers: { link: (d: number) => (d === 2 ? { stdout: '', stderr: 'dsmi_get_device_info failed', exitCode: 1 } : undefined) } };
    const english = await runHccn(check, hccnHost(failing));
    const chinese = await runHccn(check, hccnHost(failing), { lang: 'zh' });
    expect(chinese.outcome.message).toBe('无法读取 8 个设备中 1 个的链路状态（dev2）："/usr/local/Ascend/driver/tools/hccn_tool -i 2 -link -g" 以退出码 1 退出：dsmi_get_device_info failed');
    // the evidence keeps the English problem
    expect(JSON.stringify(chinese.outcome.evidence)).toContain('exited with code 1: dsmi_get_device_info failed');
    expectChineseTwin(english.outcome, chinese.outcome, ['"/usr/local/Ascend/driver/tools/hccn_tool -i 2 -link -g"', '"npu-smi info"']);
  });
});
