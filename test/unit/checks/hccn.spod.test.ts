import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.spod.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const devices = Array.from({ length: 16 }, (_, d) => `{device: ${d}, ip: 11.12.165.${80 + d}, vnicIp: 192.168.3.${10 + d}}`).join(', ');
const peer = Array.from({ length: 16 }, (_, d) => `{device: ${d}, ip: 11.12.166.${80 + d}, vnicIp: 192.168.4.${10 + d}}`).join(', ');
function cluster(self: number, other: number, third?: number): string {
  return `family: a3
nodes:
  - {name: a3n1, host: 10.0.0.1, superPod: ${self}, devices: [${devices}]}
  - {name: a3n2, host: 10.0.0.2, superPod: ${other}, devices: [${peer}]}
${third === undefined ? '' : `  - {name: a3n3, host: 10.0.0.3, superPod: ${third}}\n`}`;
}
const spodWith = (id: number, server = 40) => ascendFixture('npu-smi-info-t-spod-info-a3-dev0-mindcluster-vllm-log.txt').replace('Super Pod ID                   : 0', `Super Pod ID                   : ${id}`).replace(': 40', `: ${server}`);

describe('hccn.spod', () => {
  it('asks npu-smi by card and die (-i 0..7 -c 0|1), not by Phy-ID, and passes on the captures', async () => {
    const { outcome, host } = await runHccn(check, hccnHost({ family: 'a3' }));
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 16 dies report Super Pod ID 0, Server Index 40' });
    const asked = host.calls.filter((c) => c.includes('spod-info')).map((c) => `${c[5]}/${c[7]}`);
    expect(asked).toHaveLength(16);
    expect(new Set(asked)).toEqual(new Set(Array.from({ length: 16 }, (_, i) => `${Math.floor(i / 2)}/${i % 2}`)));
  });

  it('reads the collapsed one-line form of the docs too', async () => {
    const { outcome } = await runHccn(check, hccnHost({ family: 'a3', spod: () => syntheticFixture('npu-smi-info-t-spod-info-collapsed-doc.txt') }));
    expect(outcome.status).toBe('pass');
  });

  it('with a cluster: the id the file declares matches, and the plan says who is reached over HCCS and who over RoCE', async () => {
    const { outcome } = await runHccn(check, hccnHost({ family: 'a3' }), { cluster: cluster(0, 0, 1), node: 'a3n1' });
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 16 dies report Super Pod ID 0, Server Index 40, as the cluster file says; HCCS to a3n2, RoCE to a3n3' });
  });

  it('fails when the node is not in the super pod the cluster file puts it in', async () => {
    const { outcome } = await runHccn(check, hccnHost({ family: 'a3' }), { cluster: cluster(3, 3), node: 'a3n1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('this node reports Super Pod ID 0, Server Index 40 but the cluster file puts a3n1 in super pod 3 with a3n2: HCCS between them will not link');
    expect(outcome.remediation).toContain('HCCL_LOGIC_SUPERPOD_ID=3');
    expectRemediation(outcome);
  });

  it('HCCL_LOGIC_SUPERPOD_ID overrides the physical id, as HCCL does', async () => {
    const { outcome } = await runHccn(check, hccnHost({ family: 'a3', env: { HCCL_LOGIC_SUPERPOD_ID: '3' } }), { cluster: cluster(3, 3), node: 'a3n1' });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('(HCCL_LOGIC_SUPERPOD_ID=3)');
  });

  it('fails when the dies of one server disagree (a replaced board with a wrong Server Index)', async () => {
    const { outcome } = await runHccn(check, hccnHost({ family: 'a3', spod: (card) => spodWith(0, card === 5 ? 41 : 40) }), { cluster: cluster(0, 0), node: 'a3n1' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('the dies of this node report different Server Index values (dev0,dev1,dev2,dev3,dev4,dev5,dev6,dev7,dev8,dev9,dev12,dev13,dev14,dev15: 40; dev10,dev11: 41)');
  });

  it('skips on A2 and on a device that does not support spod-info; an npu-smi failure is an error', async () => {
    expect((await runHccn(check, hccnHost())).outcome.status).toBe('skip');
    const unsupported = await runHccn(check, hccnHost({ family: 'a3', spod: () => 'This device does not support querying spod-info.\n' }));
    expect(unsupported.outcome).toMatchObject({ status: 'skip' });
    const broken = await runHccn(check, hccnHost({ family: 'a3', spod: (card) => (card === 2 ? { stderr: 'dcmi module initialize failed. ret is -8005', exitCode: 255 } : spodWith(0)) }));
    expect(broken.outcome.status).toBe('error');
    expect(broken.outcome.remediation).toBe('run "npu-smi info -t spod-info -i 2 -c 0" by hand (-i is the npu-smi NPU id, -c the die)');
  });
});

describe('hccn.spod in Chinese', () => {
  it('the pass with the HCCS/RoCE plan, a wrong super pod and a die npu-smi cannot answer for, in Chinese', async () => {
    const ok = await runHccn(check, hccnHost({ family: 'a3' }), { cluster: cluster(0, 0, 1), node: 'a3n1', lang: 'zh' });
    expect(ok.outcome.message).toBe('全部 16 个 die 均报告 Super Pod ID 0，Server Index 40，与集群文件一致；经 HCCS 连接 a3n2；经 RoCE 连接 a3n3');
    const wrong = { cluster: cluster(3, 3), node: 'a3n1' };
    const english = await runHccn(check, hccnHost({ family: 'a3' }), wrong);
    const chinese = await runHccn(check, hccnHost({ family: 'a3' }), { ...wrong, lang: 'zh' });
    expect(chinese.outcome.message).toBe('本节点报告 Super Pod ID 0，Server Index 40，但集群文件把 a3n1 放在超节点 3 中（与 a3n2 一起）：它们之间的 HCCS 无法建链');
    expectChineseTwin(english.outcome, chinese.outcome, ['HCCL_LOGIC_SUPERPOD_ID=3', 'HCCL_INTER_HCCS_DISABLE=TRUE']);
    const broken = hccnHost({ family: 'a3', spod: (card) => (card === 2 ? { stderr: 'dcmi module initialize failed. ret is -8005', exitCode: 255 } : spodWith(0)) });
    const error = await runHccn(check, broken, { lang: 'zh' });
    expect(error.outcome.remediation).toBe('手动运行 "npu-smi info -t spod-info -i 2 -c 0"（-i 是 npu-smi 的 NPU ID，-c 是 die）');
    expectChineseTwin((await runHccn(check, broken)).outcome, error.outcome);
    const a2 = await runHccn(check, hccnHost(), { lang: 'zh' });
    expect(a2.outcome.message).toBe('超节点是 A3 的特性；本节点是 a2：其节点之间通过 RoCE 连接');
  });
});
