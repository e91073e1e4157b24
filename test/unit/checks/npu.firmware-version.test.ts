import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.firmware-version.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { NPU_SMI, npuHost } from '../../helpers/npu-host.js';

const BOARD_910B2C = ascendFixture('npu-smi-info-t-board-910b2c-25.5.2-nodeexporter-cmdb-test.txt');

describe('npu.firmware-version', () => {
  it('firmware 7.7.0.1.231 with driver 25.0.rc1.1: both files declare the pair; npu-smi says OK', async () => {
    const { outcome } = await runOn(check, npuHost());
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('firmware 7.7.0.1.231 with driver 25.0.rc1.1: within the range the driver and firmware declare; npu-smi Compatibility OK');
  });

  it('fails when the running firmware is outside every declared range (7.8 firmware, 25.0.rc1.1 driver takes up to 7.7.99)', async () => {
    const spec = npuHost();
    spec.commands![1] = { argv: [NPU_SMI, 'info', '-t', 'board', '-i', '0'], stdout: BOARD_910B2C };
    const { outcome, result } = await runOn(check, spec);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('firmware 7.8.0.7.220 does not fit driver 25.0.rc1.1: driver 25.0.rc1.1 takes firmware [7.0.0, 7.7.99]');
    expect(result.status).toBe('warn');
    expectRemediation(outcome);
  });

  it('a newer driver that declares the older firmware is fine (25.3.rc1 takes [7.0.0, 8.9.9])', async () => {
    const spec = npuHost({ driverVersionInfo: syntheticFixture('driver-version-info-25.3.rc1-derived.txt') });
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('within the range the driver declares');
  });

  it('Compatibility NOK from npu-smi -t board fails whatever the files say', async () => {
    const spec = npuHost();
    spec.commands![1] = { argv: [NPU_SMI, 'info', '-t', 'board', '-i', '0'], stdout: ascendFixture('npu-smi-info-t-board-910a-mindcluster-fixture.txt').replace('Compatibility                  : OK', 'Compatibility                  : NOK').replace('7.1.0.7.220', '7.7.0.1.231') };
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('the driver reports firmware 7.7.0.1.231 as not compatible (npu-smi info -t board: Compatibility NOK)');
  });

  it('in a container without npu-smi and without the firmware file: skipped, to be checked on the host', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, info: { timedOut: true }, missing: ['/usr/local/Ascend/firmware'] }));
    expect(outcome.status).toBe('skip');
    expectRemediation(outcome);
  });

  it('on a host with no firmware version anywhere: fails', async () => {
    const { outcome } = await runOn(check, npuHost({ info: { timedOut: true }, missing: ['/usr/local/Ascend/firmware'] }));
    expect(outcome.status).toBe('fail');
    expect(outcome.remediation).toContain('npu-firmware');
  });
});
