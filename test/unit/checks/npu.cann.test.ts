import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.cann.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { npuHost } from '../../helpers/npu-host.js';

const TOOLKIT_83 = ascendFixture('cann-toolkit-install-info-8.3.RC2-vllm-ascend-5784.txt');
const INFO_83 = '/usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info';
const ARM = { identity: { arch: 'aarch64' } };

describe('npu.cann', () => {
  it('CANN 8.3.RC2 on driver 25.0.rc1.1: the CANN declares the driver', async () => {
    const { outcome } = await runOn(check, { ...npuHost({ files: { [INFO_83]: TOOLKIT_83 } }), ...ARM });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('CANN 8.3.RC2 (V100R001C23) with driver 25.0.rc1.1 (V100R001C21): declared compatible by the CANN');
  });

  it('reads ASCEND_TOOLKIT_HOME first, then the default places; the newer /usr/local/Ascend/cann layout too', async () => {
    const viaEnv = await runOn(check, { ...npuHost({ env: { ASCEND_TOOLKIT_HOME: '/opt/cann' }, files: { '/opt/cann/aarch64-linux/ascend_toolkit_install.info': TOOLKIT_83, [INFO_83]: 'version=7.0.T10\n' } }), ...ARM });
    expect((viaEnv.outcome.evidence as { via: string }).via).toBe('ASCEND_TOOLKIT_HOME');
    const cannDir = await runOn(check, { ...npuHost({ files: { '/usr/local/Ascend/cann/aarch64-linux/ascend_toolkit_install.info': TOOLKIT_83 } }), ...ARM });
    expect((cannDir.outcome.evidence as { path: string }).path).toBe('/usr/local/Ascend/cann/aarch64-linux/ascend_toolkit_install.info');
  });

  it('a component version.info is read when there is no install record', async () => {
    const spec = npuHost({
      files: { '/usr/local/Ascend/ascend-toolkit/latest/toolkit/version.info': ascendFixture('cann-toolkit-version-info-8.2.RC1-mindie-notes.txt') },
    });
    const { outcome } = await runOn(check, { ...spec, ...ARM });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('CANN 8.2.RC1 with driver 25.0.rc1.1 (V100R001C21): neither file declares the other; no known failure');
  });

  it('CANN 7.0.T10 on driver 25.0.rc1.1: neither lists the other', async () => {
    const { outcome } = await runOn(check, { ...npuHost({ files: { [INFO_83]: ascendFixture('cann-toolkit-install-info-7.0.T10-mindcluster-fixture.txt') } }), ...ARM });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('CANN 7.0.T10 (V100R001C13) with driver 25.0.rc1.1 (V100R001C21) is not a supported pair: the driver accepts CANN V100R001C17/C18/C19/C20/C21; CANN supports drivers V100R001C29, V100R001C30, V100R001C13, V100R003C10, V100R003C11');
    expectRemediation(outcome);
  });

  it('driver 24.1 with CANN 8.3.RC2 fails from the known-bad table even though the files let it through (inline synthetic driver file)', async () => {
    const driver = 'Version=24.1.rc2\nInnerversion=V100R001C18SPC001B100\npackage_version=24.1.rc2\n';
    const { outcome } = await runOn(check, { ...npuHost({ driverVersionInfo: driver, files: { [INFO_83]: TOOLKIT_83 } }), ...ARM });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('is known to fail: the model load hangs until "watchdog timeout, moduleId 7, timeout : 300s"');
    expect(outcome.remediation).toContain('https://github.com/vllm-project/vllm-ascend/issues/5468');
  });

  it('a reported (unconfirmed) bad pair only warns', async () => {
    const driver = 'Version=24.1.rc3\n';
    const nnae = '/usr/local/Ascend/nnae/latest/x86_64-linux/ascend_nnae_install.info';
    const { outcome } = await runOn(check, { ...npuHost({ driverVersionInfo: driver, files: { [nnae]: ascendFixture('cann-nnae-install-info-8.0.RC3-mindcluster-fixture.txt') } }), identity: { arch: 'x86_64' } });
    expect(outcome.status).toBe('warn');
    expect((outcome.evidence as { path: string }).path).toBe(nnae);
    expect(outcome.message).toContain('has a reported failure');
  });

  it('CANN built for another architecture', async () => {
    const { outcome } = await runOn(check, { ...npuHost({ files: { '/usr/local/Ascend/ascend-toolkit/latest/x86_64-linux/ascend_toolkit_install.info': TOOLKIT_83 } }), identity: { arch: 'x86_64' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('CANN 8.3.RC2 at /usr/local/Ascend/ascend-toolkit/latest is built for aarch64, this host is x86_64');
  });

  it('no CANN: skipped on a bare host, failed in a container', async () => {
    const host = await runOn(check, { ...npuHost(), ...ARM });
    expect(host.outcome.status).toBe('skip');
    expect(host.outcome.message).toContain('it ships in the vllm-ascend image');
    expectRemediation(host.outcome);
    const container = await runOn(check, { ...npuHost({ container: true, env: { ASCEND_TOOLKIT_HOME: '/usr/local/Ascend/ascend-toolkit/latest' } }), ...ARM });
    expect(container.outcome.status).toBe('fail');
    expect(container.outcome.message).toBe('no CANN toolkit in this container (ASCEND_TOOLKIT_HOME=/usr/local/Ascend/ascend-toolkit/latest does not exist)');
  });

  it('with the derived 25.3.rc1 driver (C23, no CANN list) and CANN 8.3.RC2 (lists C23)', async () => {
    const { outcome } = await runOn(check, { ...npuHost({ driverVersionInfo: syntheticFixture('driver-version-info-25.3.rc1-derived.txt'), files: { [INFO_83]: TOOLKIT_83 } }), ...ARM });
    expect(outcome.message).toBe('CANN 8.3.RC2 (V100R001C23) with driver 25.3.rc1 (V100R001C23): declared compatible by the CANN');
  });

  it("fails a CANN older than the profile's npu.minCann, and passes one at the minimum", async () => {
    const old = await runOn(check, { ...npuHost({ files: { [INFO_83]: TOOLKIT_83 } }), ...ARM }, { name: 'img', npu: { minCann: '8.5.0' } });
    expect(old.result.status).toBe('fail');
    expect(old.outcome.message).toBe('CANN 8.3.RC2 at /usr/local/Ascend/ascend-toolkit/latest is older than 8.5.0, the minimum of profile img');
    expectRemediation(old.outcome);
    const same = await runOn(check, { ...npuHost({ files: { [INFO_83]: TOOLKIT_83 } }), ...ARM }, { npu: { minCann: '8.3.RC2' } });
    expect(same.outcome.status).toBe('pass');
  });
});
