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
    expect(outcome.message).toBe('1 of 8 NPU devices the workload uses is not OK: NPU 3 Warning error code 80E01801 (node type=SOC, sensor type=Temperature)');
    expect(outcome.remediation).toContain('npu-smi info -t health -i 3 -c 0');
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
    expect(outcome.message).toBe('2 of 8 NPU devices the workload uses are not OK: NPU 3 Warning error code 80E01801 (node type=SOC, sensor type=Temperature), NPU 7 Warning');
    const unhealthy = (outcome.evidence as { unhealthy: Array<{ detailProblem?: string }> }).unhealthy;
    expect(unhealthy[1]!.detailProblem).toContain('did not finish within 1000 ms');
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
