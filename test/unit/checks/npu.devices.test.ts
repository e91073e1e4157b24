import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.devices.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { npuHost } from '../../helpers/npu-host.js';

describe('npu.devices', () => {
  it('passes with 8 davinci nodes and the standard control devices', async () => {
    const { outcome } = await runOn(check, npuHost());
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('8 NPU device nodes (/dev/davinci0-7) and davinci_manager, devmm_svm, hisi_hdc are character devices');
  });

  it('in a container: names the --device flags of a missing control device and of an NPU npu-smi lists', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, devices: [0, 1, 2, 3, 4, 5, 6], missing: ['/dev/hisi_hdc'] }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('2 device nodes are not usable: /dev/hisi_hdc missing, /dev/davinci7 missing (npu-smi lists this device)');
    expect(outcome.remediation).toBe('start the container with --device /dev/hisi_hdc --device /dev/davinci7');
    expectRemediation(outcome);
  });

  it('a regular file where a device node should be is not accepted', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, files: { '/dev/davinci0': 'placeholder', '/dev/devmm_svm': { kind: 'directory' } } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('/dev/devmm_svm a directory, not a character device');
    expect(outcome.message).toContain('/dev/davinci0 a file, not a character device');
    expect(outcome.remediation).toBe('start the container with --device /dev/devmm_svm --device /dev/davinci0');
  });

  it('on a host, missing nodes point at the driver, not at docker flags', async () => {
    const { outcome } = await runOn(check, npuHost({ missing: ['/dev/davinci_manager'] }));
    expect(outcome.status).toBe('fail');
    expect(outcome.remediation).toContain('reload or reinstall the NPU driver');
  });

  it('counts against the profile when npu-smi cannot run: an A3 profile wants 16 nodes', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, info: { stdout: ascendFixture('npu-smi-error-dcmi-8005-vllm-ascend-2698.txt'), exitCode: 1 } }), { npu: { minCount: 16 } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('/dev/davinci8 missing (the profile needs 16 NPUs)');
    expect(outcome.remediation).toBe('start the container with --device /dev/davinci8 --device /dev/davinci9 --device /dev/davinci10 --device /dev/davinci11 --device /dev/davinci12 --device /dev/davinci13 --device /dev/davinci14 --device /dev/davinci15');
  });

  it('the 200I Pro set: ascend_manager and user_config instead of devmm_svm and hisi_hdc (found by /dev/ascend_manager)', async () => {
    const spec = npuHost({ soc: true, devices: [0], info: ascendFixture('npu-smi-info-310p3-single-proc-table-23.0.0-unidentified.txt') });
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('1 NPU device node (/dev/davinci0) and davinci_manager, ascend_manager, user_config are character devices');
  });

  it('the profile can force the 200I Pro set; its flags use the guide\'s --device= form', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, devices: [0], info: ascendFixture('npu-smi-info-310p3-single-proc-table-23.0.0-unidentified.txt') }), { npu: { mountSet: '200i-pro' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.remediation).toBe('start the container with --device=/dev/ascend_manager --device=/dev/user_config');
  });

  it('is an error when /dev cannot be listed', async () => {
    const { outcome } = await runOn(check, npuHost({ files: { '/dev': { error: 'EACCES' } } }));
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});
