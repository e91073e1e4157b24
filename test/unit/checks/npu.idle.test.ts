import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.idle.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { npuHost } from '../../helpers/npu-host.js';

const WIDE = ascendFixture('npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt');

describe('npu.idle', () => {
  it('passes on idle A2 NPUs with the HBM range', async () => {
    const { outcome } = await runOn(check, npuHost());
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('8 NPU devices free: no process, 3439-3440 MB in use (idle baseline)');
  });

  it('fails naming the NPU, pid, name and memory of a process', async () => {
    const { outcome } = await runOn(check, npuHost({ info: WIDE }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('1 of 8 NPU devices in use: NPU 0: pid 485946 pytest (5175 MB)');
    expect(outcome.remediation).toMatch(/^kill 485946   # stop the holder if it is a leftover/);
    expect(outcome.remediation!.split('\n')[1]).toMatch(/^or: (export ASCEND_RT_VISIBLE_DEVICES=[\d,]+   # only the free NPUs|set ASCEND_RT_VISIBLE_DEVICES to free NPUs)$/);
    expectRemediation(outcome);
  });

  it('only the NPUs the workload uses count', async () => {
    const { outcome } = await runOn(check, npuHost({ info: WIDE, env: { ASCEND_RT_VISIBLE_DEVICES: '1-7' } }));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('7 NPU devices free');
  });

  it('HBM far above the baseline with no process listed (a holder in another container, vllm-ascend #5650 values)', async () => {
    const info = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
    const busy = info.replace('| 0                         | 0000:01:00.0  | 0           0    / 0          3440 / 65536         |', '| 0                         | 0000:01:00.0  | 0           0    / 0          59833/ 65536         |');
    const { outcome } = await runOn(check, npuHost({ info: busy }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('1 of 8 NPU devices in use: NPU 4: 59833 of 65536 MB HBM in use, no process listed');
    expect(outcome.remediation).toContain('run npu-smi info on the host');
  });

  it('310P: DDR against the DDR threshold; the profile can lower it', async () => {
    const info = ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt');
    expect((await runOn(check, npuHost({ info }))).outcome.message).toBe('8 NPU devices free: this driver prints no process table, 1105-1863 MB in use (idle baseline)');
    const strict = await runOn(check, npuHost({ info }), { npu: { idleMemoryMB: { ddr: 1500 } } });
    expect(strict.outcome.status).toBe('fail');
    expect(strict.outcome.message).toBe('4 of 8 NPU devices in use: device 1 (NPU 1 chip 1): 1511 of 43693 MB DDR in use, no process listed, device 3 (NPU 2 chip 1): 1572 of 43693 MB DDR in use, no process listed, device 4 (NPU 4 chip 0): 1863 of 44278 MB DDR in use, no process listed and 1 more');
  });

  it('910A doc sample: four processes on every NPU', async () => {
    const { outcome } = await runOn(check, npuHost({ info: ascendFixture('npu-smi-info-910a-warning-proc-24.1.RC2-gpustack-huaweidoc.txt') }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^8 of 8 NPU devices in use: NPU 0: pid 37656 hlt_host_devmm_ \(686 MB\), pid 37664 hlt_host_devmm_ \(686 MB\) and 2 more/);
  });

  it('is an error when npu-smi times out', async () => {
    const { outcome } = await runOn(check, npuHost({ info: { timedOut: true } }));
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('did not finish within 1000 ms');
  });
});

describe('npu.idle in Chinese', () => {
  const zh = { lang: 'zh' as const };

  it('passes with a Chinese title and message; ids and evidence as in English', async () => {
    const english = await runOn(check, npuHost());
    const { outcome, result } = await runOn(check, npuHost(), {}, zh);
    expect(result.title).toBe('NPU 空闲可用');
    expect(outcome.message).toBe('8 个 NPU 设备空闲：无进程，已用 3439-3440 MB（空闲基线）');
    expect(result.id).toBe('npu.idle');
    expect(outcome.evidence).toEqual(english.outcome.evidence);
  });

  it('fails in Chinese with the kill command byte for byte and the "or:" line intact', async () => {
    const english = await runOn(check, npuHost({ info: WIDE }));
    const { outcome } = await runOn(check, npuHost({ info: WIDE }), {}, zh);
    expect(outcome.message).toBe('8 个 NPU 设备中有 1 个被占用：NPU 0：pid 485946 pytest（5175 MB）');
    const [kill, around] = outcome.remediation!.split('\n');
    const command = (line: string) => line.split('   #')[0];
    expect(command(kill!)).toBe(command(english.outcome.remediation!.split('\n')[0]!));
    expect(kill).toMatch(/# 若是残留进程则停止它/);
    expect(around).toMatch(/^or: (export ASCEND_RT_VISIBLE_DEVICES=[\d,]+   # 只用空闲的 NPU|将 ASCEND_RT_VISIBLE_DEVICES 设为空闲的 NPU)$/);
    // what a program reads does not change with the language
    expect(outcome.expected).toBe(english.outcome.expected);
    expect(outcome.actual).toBe(english.outcome.actual);
  });

  it('a holder npu-smi cannot see, and the 310P chip labels, in Chinese', async () => {
    const info = ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt');
    const english = await runOn(check, npuHost({ info }), { npu: { idleMemoryMB: { ddr: 1500 } } });
    const strict = await runOn(check, npuHost({ info }), { npu: { idleMemoryMB: { ddr: 1500 } } }, zh);
    expect(strict.outcome.message).toBe(
      '8 个 NPU 设备中有 4 个被占用：设备 1（NPU 卡 1 芯片 1）：已用 1511 / 43693 MB DDR，但未列出进程；设备 3（NPU 卡 2 芯片 1）：已用 1572 / 43693 MB DDR，但未列出进程；设备 4（NPU 卡 4 芯片 0）：已用 1863 / 44278 MB DDR，但未列出进程 等（另有 1 项）',
    );
    expect(strict.outcome.remediation).toMatch(/^此视图之外的进程占用了内存.*在宿主机上运行 npu-smi info 并停止它\n/);
    expect(strict.outcome.actual).toBe(english.outcome.actual);
    expect(strict.outcome.actual).toMatch(/^device 1 \(NPU 1 chip 1\), /);
  });

  it('an unreadable NPU table is an error in Chinese that points at npu.smi', async () => {
    const { outcome } = await runOn(check, npuHost({ info: { timedOut: true } }), {}, zh);
    expect(outcome.status).toBe('error');
    expect(outcome.message).toMatch(/^无法检查 NPU 是否空闲：/);
    expect(outcome.remediation).toMatch(/（npu\.smi 报告了同一原因）$/);
    expect(outcome.causedBy).toBe('npu.smi');
  });
});
