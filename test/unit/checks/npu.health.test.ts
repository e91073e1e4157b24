import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.health.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { NPU_SMI, npuHost } from '../../helpers/npu-host.js';

const WARNING = syntheticFixture('npu-smi-info-910b3-a2x8-25.3.rc1-npu3-warning-derived.txt');
const HEALTH_WARNING = ascendFixture('npu-smi-info-t-health-warning-errorcode-testfixture.txt');

describe('npu.health', () => {
  it('passes when every chip is OK, without asking for details', async () => {
    const { outcome, host } = await runOn(check, npuHost());
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('all 8 NPU devices report OK');
    expect(host.calls).toEqual([[NPU_SMI, 'info']]);
  });

  it('fails on a chip in Warning and names its error code (derived table, synthetic -t health fixture)', async () => {
    const spec = npuHost({ info: WARNING, commands: [{ argv: [NPU_SMI, 'info', '-t', 'health', '-i', '3', '-c', '0'], stdout: HEALTH_WARNING }] });
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('fail');
    // the table's name of the code replaces the tool's words
    expect(outcome.message).toBe('1 of 8 NPU devices the workload uses is not OK: NPU 3 Warning: 80E01801 RestartBusiness (Multi-bit ECC errors when accessing the HBM)');
    expect(outcome.action).toBe('restart-workload');
    expect(outcome.remediation!.split('\n')).toEqual([
      "re-run the workload on it: its worst code's handling level asks for that; reset the chip if the code comes back",
      "qprep explain 80E01801   # the code's meaning, handling level and source",
      'or: npu-smi set -t reset -i 3 -c 0   # reset the chip, or have it replaced',
    ]);
    expectRemediation(outcome);
  });

  it('only warns when the sick chip is outside ASCEND_RT_VISIBLE_DEVICES', async () => {
    const spec = npuHost({ info: WARNING, env: { ASCEND_RT_VISIBLE_DEVICES: '0,1,2' }, commands: [{ argv: [NPU_SMI, 'info', '-t', 'health', '-i', '3', '-c', '0'], stdout: HEALTH_WARNING }] });
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('outside ASCEND_RT_VISIBLE_DEVICES not OK: NPU 3 Warning');
  });

  it('910A doc sample: two NPUs in Warning; a failing detail query is reported, not fatal', async () => {
    const spec = npuHost({
      info: ascendFixture('npu-smi-info-910a-warning-proc-24.1.RC2-gpustack-huaweidoc.txt'),
      commands: [
        { argv: [NPU_SMI, 'info', '-t', 'health', '-i', '3', '-c', '0'], stdout: HEALTH_WARNING },
        { argv: [NPU_SMI, 'info', '-t', 'health', '-i', '7', '-c', '0'], timedOut: true },
      ],
    });
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('2 of 8 NPU devices the workload uses are not OK: NPU 3 Warning: 80E01801 RestartBusiness (Multi-bit ECC errors when accessing the HBM), NPU 7 Warning');
    const unhealthy = (outcome.evidence as { unhealthy: Array<{ detailProblem?: string }> }).unhealthy;
    expect(unhealthy[1]!.detailProblem).toContain('did not finish within 1000 ms');
  });

  it('an Alarm of three codes is judged by its worst, RestartNPU: reset-npu, the reset first (mind-cluster capture, derived table)', async () => {
    const spec = npuHost({
      info: syntheticFixture('npu-smi-info-910b3-a2x8-25.3.rc1-npu0-alarm-derived.txt'),
      commands: [{ argv: [NPU_SMI, 'info', '-t', 'health', '-i', '0', '-c', '0'], stdout: ascendFixture('npu-smi-info-t-health-alarm-3codes-mindcluster-fixture.txt') }],
    });
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('fail');
    expect(outcome.action).toBe('reset-npu');
    // worst first; A4025021 has no name in the knowledge graph, the others do
    expect(outcome.message).toBe(
      '1 of 8 NPU devices the workload uses is not OK: NPU 0 Alarm: 8C03A000 RestartNPU (ProcMgr heartbeat error); 8C084E00 FreeRestartNPU (ADDA heartbeat error); A4025021 NotHandleFault',
    );
    expect(outcome.remediation!.split('\n')).toEqual([
      "npu-smi set -t reset -i 0 -c 0   # reset the chip, the workload stopped first: its worst code's handling level asks for it",
      "qprep explain 8C03A000   # the code's meaning, handling level and source",
      "or: leave it out of ASCEND_RT_VISIBLE_DEVICES and the container's --device flags",
    ]);
    const unhealthy = (outcome.evidence as { unhealthy: Array<Record<string, unknown>> }).unhealthy[0]!;
    expect(unhealthy).toMatchObject({
      errorCodes: ['A4025021', '8C03A000', '8C084E00'],
      action: 'reset-npu',
      faults: [
        { code: '8C03A000', known: true, level: 'RestartNPU', action: 'reset-npu' },
        { code: '8C084E00', known: true, level: 'FreeRestartNPU', action: 'reset-npu' },
        { code: 'A4025021', known: true, level: 'NotHandleFault', action: 'monitor' },
      ],
    });
    expect(unhealthy.errorInformationLines).toHaveLength(3);
  });

  it('in Chinese: the fault names of the table in Chinese, the levels and codes as printed', async () => {
    const spec = npuHost({
      info: syntheticFixture('npu-smi-info-910b3-a2x8-25.3.rc1-npu0-alarm-derived.txt'),
      commands: [{ argv: [NPU_SMI, 'info', '-t', 'health', '-i', '0', '-c', '0'], stdout: ascendFixture('npu-smi-info-t-health-alarm-3codes-mindcluster-fixture.txt') }],
    });
    const { outcome } = await runOn(check, spec, {}, { lang: 'zh' });
    expect(outcome.message).toBe('负载使用的 8 个 NPU 设备中有 1 个状态不是 OK：NPU 0 Alarm：8C03A000 RestartNPU（ProcMgr心跳检测异常）；8C084E00 FreeRestartNPU（adda心跳检测异常）；A4025021 NotHandleFault');
    expect(outcome.action).toBe('reset-npu');
  });

  it('a code the table does not list is said to be unknown and counts as the health status says (a Warning: monitor, an Alarm: isolate-npu)', async () => {
    const health = (status: string) => `\tHealth Status                  : ${status}\n\tError Code                     : 80E01234\n\tError Information              : node type=SOC, sensor type=Temperature\n`;
    const command = (status: string) => [{ argv: [NPU_SMI, 'info', '-t', 'health', '-i', '3', '-c', '0'], stdout: health(status) }];
    const warning = await runOn(check, npuHost({ info: WARNING, commands: command('Warning') }));
    // no name in the table: the tool's own words stay
    expect(warning.outcome.message).toBe('1 of 8 NPU devices the workload uses is not OK: NPU 3 Warning: 80E01234 (not in the fault-code table) (node type=SOC, sensor type=Temperature)');
    expect(warning.outcome.action).toBe('monitor');
    const alarm = await runOn(check, npuHost({ info: WARNING.replace('| Warning       |', '| Alarm         |'), commands: command('Alarm') }));
    expect(alarm.outcome.action).toBe('isolate-npu');
    expect(alarm.outcome.remediation!.split('\n')[0]).toBe("leave it out of ASCEND_RT_VISIBLE_DEVICES and the container's --device flags until the fault is cleared");
  });

  it('A3 dies are named by device, card and chip', async () => {
    const info = ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt').replace('| 0     Ascend910           | OK            | -           37 ', '| 0     Ascend910           | Alarm         | -           37 ');
    const spec = npuHost({ info, commands: [{ argv: [NPU_SMI, 'info', '-t', 'health', '-i', '0', '-c', '1'], stdout: '\tHealth Status                  : Alarm\n\tError Code                     : NA\n' }] });
    const { outcome } = await runOn(check, spec);
    expect(outcome.message).toBe('1 of 16 NPU devices the workload uses is not OK: device 1 (NPU 0 chip 1) Alarm');
    // no code to look up: an Alarm takes the chip out of service, as the device plugin handles a fault it has no level for
    expect(outcome.action).toBe('isolate-npu');
  });

  it('is an error when npu-smi is missing', async () => {
    const { outcome } = await runOn(check, npuHost({ missing: [NPU_SMI] }));
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});
