import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.driver-files.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { HCCN_TOOL, npuHost } from '../../helpers/npu-host.js';

describe('npu.driver-files', () => {
  it('on a host: the driver files are present', async () => {
    const { outcome } = await runOn(check, npuHost());
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toMatch(/^6 driver paths present under \/usr\/local\/Ascend\/driver and \/usr\/local/);
  });

  it('on a host: follows Driver_Install_Path_Param of /etc/ascend_install.info', async () => {
    const spec = npuHost({
      missing: ['/usr/local/Ascend/driver'],
      files: {
        '/etc/ascend_install.info': 'Driver_Install_Path_Param=/opt/Ascend\n',
        '/opt/Ascend/driver/lib64/driver/libascend_hal.so': 'ELF',
        '/opt/Ascend/driver/version.info': ascendFixture('driver-version-info-25.0.rc1.1-mindie-notes.txt'),
        '/opt/Ascend/driver/tools/hccn_tool': { kind: 'file', content: '', mode: 0o755 },
      },
    });
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain('/opt/Ascend/driver');
  });

  it('in a container: every guide mount present and mounted', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true }));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toMatch(/^6 driver paths mounted from the host/);
  });

  it('in a container: a missing lib64 and a version.info baked into the image, each with its -v flag', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, missing: ['/usr/local/Ascend/driver/lib64'], notMounted: ['/usr/local/Ascend/driver/version.info'] }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      "2 of 6 driver paths the guide mounts are not usable: /usr/local/Ascend/driver/lib64 missing, /usr/local/Ascend/driver/version.info present but not mounted from the host (a copy in the image's overlay root)",
    );
    expect(outcome.remediation).toBe(
      'add -v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/ -v /usr/local/Ascend/driver/version.info:/usr/local/Ascend/driver/version.info to docker run',
    );
    expectRemediation(outcome);
  });

  it('in a container: an empty directory docker created for a file the host lacks', async () => {
    const spec = npuHost({ container: true, files: { '/etc/ascend_install.info': { kind: 'directory' } } });
    spec.files!['/proc/self/mountinfo'] = `${spec.files!['/proc/self/mountinfo']}1200 1093 253:1 /etc/ascend_install.info /etc/ascend_install.info rw - ext4 /dev/vda1 rw\n`;
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('/etc/ascend_install.info a directory, not a file (the host has no such file, so docker created an empty directory)');
  });

  it('a 310P container does not need hccn_tool', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, missing: [HCCN_TOOL], info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt') }));
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toMatch(/^5 driver paths mounted/);
  });

  it('the 200I Pro container set names its own mounts', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, soc: true, devices: [0] }), { npu: { mountSet: '200i-pro' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.remediation).toContain('-v /etc/hdcBasic.cfg:/etc/hdcBasic.cfg');
    expect(outcome.remediation).toContain('-v /usr/lib/aarch64-linux-gnu/libyaml-0.so.2:/usr/lib64/libyaml-0.so.2 ');
    // npu-smi mounted at /usr/local/bin and the driver's lib64 count for this set too
    expect(outcome.remediation).not.toContain('npu-smi');
    expect(outcome.remediation).not.toContain('driver/lib64');
  });

  it('is an error in a container whose mountinfo cannot be read', async () => {
    const spec = npuHost({ container: true, files: { '/proc/self/mountinfo': { error: 'EACCES' } } });
    const { outcome } = await runOn(check, spec);
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('cannot tell whether the driver files are mounted from the host');
  });
});
