import { describe, expect, it } from 'vitest';
import check from '../../../checks/npu.smi.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { NPU_SMI, npuHost } from '../../helpers/npu-host.js';

describe('npu.smi', () => {
  it('passes on the A2 table with its versions, devices and family', async () => {
    const { outcome, host } = await runOn(check, npuHost());
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('npu-smi 25.3.rc1 (driver 25.3.rc1): 8 NPU devices 0-7, family a2');
    expect(host.calls).toEqual([[NPU_SMI, 'info']]);
  });

  it('passes on the A3 table: 16 devices, family a3', async () => {
    const { outcome } = await runOn(check, npuHost({ info: ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'), devices: [...Array(16).keys()] }));
    expect(outcome.message).toBe('npu-smi 25.2.1 (driver 25.2.1): 16 NPU devices 0-15, family a3');
  });

  it('warns on a table cut after its header and card 0 (vllm-ascend #12980): the last row has no closing border', async () => {
    const info = ascendFixture('npu-smi-info-a3-26.0.rc2-wide-header-vllm-ascend-12980-excerpt.txt');
    const { outcome } = await runOn(check, npuHost({ info }));
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      "npu-smi's table stops after line 11, a row without its closing border: it is read for what it holds, 2 NPU devices (family a3) and 0 processes, and the NPUs after the cut are missing",
    );
    expect(outcome.evidence).toMatchObject({ cutAfterLine: 11, devices: 2 });
    const zh = await runOn(check, npuHost({ info }), {}, { lang: 'zh' });
    expect(zh.outcome.message).toBe('npu-smi 的表格在第 11 行之后中断，该行没有结束边框：按其内容读取，2 个 NPU 设备（a3 系列）、0 个进程，截断之后的 NPU 缺失');
  });

  it('warns on the incomplete-driver warning; in a container the fix is the ascend_install.info mount', async () => {
    const { outcome, result } = await runOn(check, npuHost({ container: true, info: syntheticFixture('npu-smi-info-910b3-26.1.0-npu5-warning-incomplete-driver-derived.txt') }));
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('npu-smi warns: [WARNING]The driver package may not be completely installed');
    expect(outcome.remediation).toContain('-v /etc/ascend_install.info:/etc/ascend_install.info');
    expect(result.status).toBe('warn');
  });

  it('fails on DCMI -8005 in a container with the cause and the in-container fix', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, info: { stdout: ascendFixture('npu-smi-error-dcmi-8005-vllm-ascend-2698.txt'), exitCode: 251 } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('"/usr/local/bin/npu-smi info" failed: "dcmi module initialize failed. ret is -8005" (DCMI_ERR_CODE_INNER_ERR: the driver could not be initialized: the NPUs are held by another container, or the driver is not usable)');
    expect(outcome.remediation).toContain('another container or process holds these NPUs');
    expectRemediation(outcome);
  });

  it('fails on DCMI -8020 on a host with the host fix', async () => {
    const { outcome } = await runOn(check, npuHost({ info: { stdout: syntheticFixture('npu-smi-error-dcmi-8020-derived.txt'), exitCode: 1 } }));
    expect(outcome.message).toContain('DCMI_ERR_CODE_RESOURCE_OCCUPIED: the device is used');
    expect(outcome.remediation).toBe('find the holder ("npu-smi info" process table on the host, docker ps) and stop it');
  });

  it('names the missing mount when npu-smi cannot load its libraries (HAMi #615 line on stderr)', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, info: { stderr: syntheticFixture('npu-smi-error-libc-sec-missing-hami-615.txt'), exitCode: 127 } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('libc_sec.so is missing');
    expect(outcome.remediation).toBe('add -v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/ to docker run');
  });

  it('the dcmi library maps to the /usr/local/dcmi mount', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, info: { stderr: 'npu-smi: error while loading shared libraries: libdcmi.so: cannot open shared object file: No such file or directory\n', exitCode: 127 } }));
    expect(outcome.remediation).toBe('add -v /usr/local/dcmi:/usr/local/dcmi to docker run');
  });

  it('fails when npu-smi is not installed, naming the flag in a container', async () => {
    const { outcome } = await runOn(check, npuHost({ container: true, missing: [NPU_SMI] }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('npu-smi not found (not on PATH, not in /usr/local/sbin or /usr/local/bin)');
    expect(outcome.remediation).toContain('-v /usr/local/bin/npu-smi:/usr/local/bin/npu-smi');
  });

  it('is an error naming argv and timeout when npu-smi hangs', async () => {
    const { outcome, result } = await runOn(check, npuHost({ info: { timedOut: true } }));
    expect(outcome.status).toBe('error');
    expect(outcome.message).toBe('"/usr/local/bin/npu-smi info" did not finish within 1000 ms and was killed with its child processes');
    expect(result.status).toBe('error');
    expectRemediation(outcome);
  });

  it('is an error naming the first offending line when the output is not npu-smi\'s', async () => {
    const { outcome } = await runOn(check, npuHost({ info: 'Segmentation fault\n' }));
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('line 1: no npu-smi table');
    expect(outcome.message).toContain('("Segmentation fault")');
  });

  it('fails on a non-zero exit with output it does not know, quoting it', async () => {
    const { outcome } = await runOn(check, npuHost({ info: { stdout: '', stderr: 'something odd\n', exitCode: 3 } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('"/usr/local/bin/npu-smi info" exited with code 3: something odd');
  });

  it('fails on "There is no NPU card on this server."', async () => {
    const { outcome } = await runOn(check, npuHost({ info: { stdout: 'There is no NPU card on this server.\n', exitCode: 1 } }));
    expect(outcome.status).toBe('fail');
    expect(outcome.remediation).toContain('lspci');
  });
});
