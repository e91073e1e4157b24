import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.count.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { npuHost } from '../../helpers/npu-host.js';

const A3 = ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt');
const DUO = ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt');

describe('npu.count', () => {
  it('A3 with the A3 profile: 16 dies on 8 cards', async () => {
    const { outcome } = await runOn(check, npuHost({ info: A3 }), { npu: { minCount: 16, family: 'a3' } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('16 NPU devices (8 cards × 2 chips), family a3 (profile: at least 16, a3)');
  });

  it('a 910B3 host is A2, not A3, whatever its chip name suggests', async () => {
    const { outcome } = await runOn(check, npuHost(), { npu: { family: 'a3', minCount: 16 } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('this is a a2 host (a2 table layout), the profile is for a3');
    expectRemediation(outcome);
  });

  it("a table cut after card 0 (vllm-ascend #12980): the count is a lower bound, the card x chip shape is not stated, too few for the profile cannot be judged", async () => {
    const info = ascendFixture('npu-smi-info-a3-26.0.rc2-wide-header-vllm-ascend-12980-excerpt.txt');
    const few = await runOn(check, npuHost({ info }), { npu: { minCount: 1 } });
    expect(few.outcome.status).toBe('pass');
    expect(few.outcome.message).toBe("at least 2 NPU devices (npu-smi's table is cut short), family a3 (profile: at least 1)");
    expect(few.outcome.evidence).toMatchObject({ devices: 2, partial: true });
    const a3 = await runOn(check, npuHost({ info }), { npu: { minCount: 16, family: 'a3' } });
    expect(a3.outcome.status).toBe('error');
    expect(a3.outcome.message).toBe(
      "npu-smi's table is cut short (npu.smi says where): it lists 2 NPU devices, at least that many are here, and the profile needs 16: the count cannot be judged from a partial table",
    );
    expect(a3.outcome.remediation).toBe('record the whole output of npu-smi info (qprep snapshot on the host), not an excerpt');
    const zh = await runOn(check, npuHost({ info }), { npu: { minCount: 16, family: 'a3' } }, { lang: 'zh' });
    expect(zh.outcome.message).toBe('npu-smi 的表格不完整（见 npu.smi）：其中列出 2 个 NPU 设备，本机至少有这么多，而 profile 需要 16 个：无法根据不完整的表格判断数量');
  });

  it('fewer devices than the profile needs', async () => {
    const info = ascendFixture('npu-smi-info-910b4-25.0.rc1.1-single-redacted-mindie-notes.txt');
    const { outcome } = await runOn(check, npuHost({ info, devices: [0] }), { npu: { minCount: 8 } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('1 NPU device visible, the profile needs at least 8');
    expect(outcome.remediation).toContain('--device /dev/davinci0 ... /dev/davinci7');
  });

  it('ASCEND_RT_VISIBLE_DEVICES beyond the visible count fails like the runtime would ("input data rang[0-2)")', async () => {
    const two = A3.split('\n').slice(0, 12).join('\n');
    const { outcome } = await runOn(check, npuHost({ info: two, env: { ASCEND_RT_VISIBLE_DEVICES: '4' } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('ASCEND_RT_VISIBLE_DEVICES=4 names device 4, but only 2 are visible here (ids 0-1)');
  });

  it('the profile\'s visibleDevices stands in when the variable is not set; the variable wins when set', async () => {
    const fromProfile = await runOn(check, npuHost({ info: DUO }), { npu: { visibleDevices: '0,1' } });
    expect(fromProfile.outcome.message).toBe('8 NPU devices (4 cards × 2 chips), family 310p, 2 selected by profile');
    const fromEnv = await runOn(check, npuHost({ info: DUO, env: { ASCEND_RT_VISIBLE_DEVICES: '0-3' } }), { npu: { visibleDevices: '0,1' } });
    expect(fromEnv.outcome.message).toContain('4 selected by ASCEND_RT_VISIBLE_DEVICES');
  });

  it('a malformed ASCEND_RT_VISIBLE_DEVICES', async () => {
    const { outcome } = await runOn(check, npuHost({ env: { ASCEND_RT_VISIBLE_DEVICES: 'npu0' } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('ASCEND_RT_VISIBLE_DEVICES is invalid: "npu0" is not a list of device ids such as 0,1,4-7');
  });

  it('is an error pointing at npu.smi when npu-smi fails', async () => {
    const { outcome } = await runOn(check, npuHost({ info: { stdout: ascendFixture('npu-smi-error-dcmi-8005-vllm-ascend-2698.txt'), exitCode: 1 } }));
    expect(outcome.status).toBe('error');
    expect(outcome.message).toMatch(/^cannot check the NPU count: "\/usr\/local\/bin\/npu-smi info" failed/);
    expect(outcome.remediation).toContain('(npu.smi reports the same cause)');
  });
});
