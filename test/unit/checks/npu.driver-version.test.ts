import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.driver-version.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { npuHost } from '../../helpers/npu-host.js';

const TABLE_25_0 = ascendFixture('npu-smi-info-910b4-25.0.rc1.1-single-redacted-mindie-notes.txt');

describe('npu.driver-version', () => {
  it('passes when version.info and npu-smi agree (the same MindIE host)', async () => {
    const { outcome } = await runOn(check, npuHost({ info: TABLE_25_0, devices: [0] }));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('driver 25.0.rc1.1 (V100R001C21SPC002B220); version.info and npu-smi agree');
  });

  it('fails when they differ; in a container the fix is the version.info mount', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('driver 25.0.rc1.1 per /usr/local/Ascend/driver/version.info, but npu-smi reports driver 25.3.rc1');
    expect(outcome.remediation).toContain('-v /usr/local/Ascend/driver/version.info:/usr/local/Ascend/driver/version.info');
    expectRemediation(outcome);
  });

  it('passes with the derived 25.3.rc1 file; case of rc does not matter', async () => {
    expect((await runOn(check, npuHost({ driverVersionInfo: syntheticFixture('driver-version-info-25.3.rc1-derived.txt') }))).outcome.status).toBe('pass');
    const upper = await runOn(check, npuHost({ driverVersionInfo: 'Version=25.3.RC1\n' }));
    expect(upper.outcome.status).toBe('pass');
  });

  it('fails when version.info is missing, and reads the driver dir /etc/ascend_install.info names', async () => {
    const { outcome } = await runOn(check, npuHost({ files: { '/etc/ascend_install.info': 'Driver_Install_Path_Param=/opt/Ascend\n' } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('no driver version: /opt/Ascend/driver/version.info: no such file or directory');
  });

  it('warns when npu-smi cannot confirm the file', async () => {
    const { outcome } = await runOn(check, npuHost({ info: { timedOut: true } }));
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^driver 25.0.rc1.1 per \/usr\/local\/Ascend\/driver\/version.info; npu-smi could not confirm it: /);
  });

  it('is an error on a damaged file', async () => {
    const { outcome } = await runOn(check, npuHost({ driverVersionInfo: 'garbage\n' }));
    expect(outcome.status).toBe('error');
  });

  it("fails a driver older than the profile's npu.minDriver, with the HDK upgrade as the fix", async () => {
    const { outcome, result } = await runOn(check, npuHost({ info: TABLE_25_0, devices: [0] }), { name: 'qwen', npu: { minDriver: '25.5.0' } });
    expect(result.status).toBe('fail');
    expect(outcome.message).toBe('driver 25.0.rc1.1 (/usr/local/Ascend/driver/version.info) is older than 25.5.0, the minimum of profile qwen');
    expect(outcome).toMatchObject({ expected: '>= 25.5.0', actual: '25.0.rc1.1' });
    expect(outcome.remediation).toMatch(/^upgrade the NPU driver and firmware \(Ascend HDK\) to 25\.5\.0 or later/);
    expectRemediation(outcome);
  });

  it('passes at or above the minimum (a release candidate of 25.5 is below 25.5.0), and says which minimum it met', async () => {
    const at = await runOn(check, npuHost({ info: TABLE_25_0, devices: [0] }), { name: 'lab', npu: { minDriver: '25.0.rc1.1' } });
    expect(at.outcome.message).toBe('driver 25.0.rc1.1 (V100R001C21SPC002B220); version.info and npu-smi agree, at least 25.0.rc1.1 (profile lab)');
    const rc = await runOn(check, npuHost({ info: TABLE_25_0, devices: [0] }), { npu: { minDriver: '25.0.0' } });
    expect(rc.outcome.status).toBe('fail');
  });

  it('applies the minimum to version.info when npu-smi cannot confirm it, and lets a mismatch speak first', async () => {
    const unconfirmed = await runOn(check, npuHost({ info: { timedOut: true } }), { npu: { minDriver: '25.5.0' } });
    expect(unconfirmed.outcome.status).toBe('fail');
    expect(unconfirmed.outcome.message).toMatch(/is older than 25\.5\.0/);
    const mismatch = await runOn(check, npuHost({ container: true }), { npu: { minDriver: '26.0.0' } });
    expect(mismatch.outcome.message).toBe('driver 25.0.rc1.1 per /usr/local/Ascend/driver/version.info, but npu-smi reports driver 25.3.rc1');
  });
});
