import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.supported.js';
import type { FakeHostSpec } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { imagePython } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/** A node printing this npu-smi capture, with the official image's Python at that vllm-ascend release (or none). */
function node(capture: string, version: string | null, deviceType: 'A2' | 'A3' | '_310P' | 'A5' = 'A2'): FakeHostSpec {
  const image = version === null ? { env: { PATH: '/usr/bin:/bin' }, files: {} } : imagePython(version, deviceType);
  return npuHost({ info: ascendFixture(capture), env: image.env, files: image.files });
}

describe('npu.supported', () => {
  it('passes an A2 with the vllm-ascend built for it, naming the release and the build', async () => {
    const { outcome } = await runOn(check, node('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt', 'v0.18.0', 'A2'));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('A2 is supported by vllm-ascend v0.18.0, built for A2');
    expect(outcome.evidence).toMatchObject({ hardware: 'A2', status: 'supported', judgedAs: 'v0.18.0', build: { deviceType: 'A2' } });
  });

  it('passes a 300I Duo as experimental', async () => {
    const { outcome } = await runOn(check, node('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt', 'v0.23.0', '_310P'));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('310P is supported, as experimental, by vllm-ascend v0.23.0, built for 310P');
  });

  it('fails a first-generation 910 whatever npu-smi names it (a gpustack doc capture names it xxx), with the FAQ line and the SoC guard', async () => {
    const { outcome, result } = await runOn(check, node('npu-smi-info-910a-warning-proc-24.1.RC2-gpustack-huaweidoc.txt', 'v0.13.0'));
    expectRemediation(outcome);
    expect(result.status).toBe('fail');
    expect(outcome.message).toMatch(/^this first-generation Ascend 910 \(npu-smi names it xxx\) is not supported by vllm-ascend v0\.13\.0: its FAQ says "Ascend 910, Ascend 910 Pro B \(Ascend-cann-kernels-910\) unplanned yet" /);
    expect(outcome.message).toMatch(/\(rule soc\.runtime-guard, vllm-ascend v0\.13\.0\)$/);
    expect(outcome.evidence).toMatchObject({ hardware: '910', guard: { rule: 'soc.runtime-guard', judgedAs: 'v0.13.0' } });
  });

  it('before v0.12.0rc1 there was no SoC guard: the 910 is still unsupported, without the start-up stop', async () => {
    const { outcome } = await runOn(check, node('npu-smi-info-910a-22.0.3.1-old-gpustack-huaweidoc.txt', 'v0.11.0'));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).not.toContain('soc_version');
  });

  it('fails the 310B and the Ascend 310 too', async () => {
    const b = await runOn(check, node('npu-smi-info-310b1-23.0.rc3-ascend-yolo-readme.txt', 'v0.23.0'));
    expect(b.outcome.status).toBe('fail');
    expect(b.outcome.message).toMatch(/^this Ascend 310B \(310B1\) is not supported by vllm-ascend v0\.23\.0: its FAQ says "Atlas 200I A2 \(Ascend-cann-kernels-310b\) unplanned yet"/);
    const plain = await runOn(check, node('npu-smi-info-310-21.0.4-old-gpustack-huaweidoc.txt', 'v0.23.0'));
    expect(plain.outcome.status).toBe('fail');
    expect(plain.outcome.message).toMatch(/^this Ascend 310 \(310\) is not supported by vllm-ascend v0\.23\.0: its FAQ does not list it/);
  });

  it('fails a vllm-ascend built for another device type (the A2 image on an A3), from v0.12.0rc1', async () => {
    const { outcome } = await runOn(check, node('npu-smi-info-a3-16chip-vllm-ascend-5784.txt', 'v0.18.0', 'A2'));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      "the installed vllm-ascend was built for A2 (/vllm-workspace/vllm-ascend/vllm_ascend/_build_info.py) and refuses to start on this A3 NPU: \"does not match the installed version's device type\" (rule vllm-ascend.build-device-type, vllm-ascend v0.18.0)",
    );
    expect(outcome.remediation).toBe('install the vllm-ascend built for A3: the release\'s image for A3, or a build with SOC_VERSION set to an A3 chip');
    expect(outcome.evidence).toMatchObject({ rule: 'vllm-ascend.build-device-type', source: expect.stringMatching(/device_config\.py:\d+ @ /) });
  });

  it('with no vllm-ascend found, judges by the newest release and says so; in Chinese too', async () => {
    const en = await runOn(check, node('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt', null));
    expect(en.outcome.status).toBe('pass');
    expect(en.outcome.message).toMatch(/^A2 is supported by vllm-ascend v\S+ \(no vllm-ascend version found here: judged by the FAQ of the newest release\)$/);
    const zh = await runOn(check, node('npu-smi-info-910a-warning-proc-24.1.RC2-gpustack-huaweidoc.txt', null), {}, { lang: 'zh' });
    expect(zh.outcome.status).toBe('fail');
    expect(zh.outcome.message).toMatch(/^这台第一代昇腾 910（npu-smi 显示名称为 xxx）不受 vllm-ascend v\S+（此处未找到 vllm-ascend 版本：按最新版本的 FAQ 判断）支持：/);
  });

  it('warns on an NPU the release does not list (the 950 before its FAQ names it)', async () => {
    const { outcome } = await runOn(check, node('npu-smi-info-950-template-doc-driver-repo.txt', 'v0.18.0', 'A5'));
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('950 is not among the devices vllm-ascend v0.18.0 lists as supported (A2, A3, 310P (experimental))');
  });

  it('is an error caused by npu.smi when npu-smi cannot be run', async () => {
    const { outcome } = await runOn(check, { env: { PATH: '/usr/bin' }, files: {} });
    expect(outcome.status).toBe('error');
    expect(outcome.causedBy).toBe('npu.smi');
  });
});
