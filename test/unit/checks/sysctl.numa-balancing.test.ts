import { describe, expect, it } from 'vitest';
import check from '../../../checks/sysctl.numa-balancing.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

describe('sysctl.numa-balancing', () => {
  it('passes when off', async () => {
    expect((await runOn(check, { files: { '/proc/sys/kernel/numa_balancing': '0\n' } })).outcome.status).toBe('pass');
  });
  it('fails when on', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/sys/kernel/numa_balancing': '1\n' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('kernel.numa_balancing is 1, expected 0');
    expect(outcome.remediation).toContain('sysctl -w kernel.numa_balancing=0');
  });
  it('skips on kernels without NUMA balancing', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/sys/kernel/hostname': 'x' } });
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toContain('CONFIG_NUMA_BALANCING');
    expectRemediation(outcome);
  });
  it('is an error when unreadable', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/sys/kernel/numa_balancing': { error: 'EIO' } } });
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});

describe('sysctl.numa-balancing in Chinese', () => {
  it('passes, fails (in a container), skips and errs in Chinese; the sysctl command unchanged', async () => {
    const on = await runInBoth(check, { files: { '/proc/sys/kernel/numa_balancing': '0\n' } });
    expect(on.zh.outcome.message).toBe('kernel.numa_balancing 为 0');
    const fail = await runInBoth(check, { files: { '/proc/sys/kernel/numa_balancing': '1\n', '/run/.containerenv': '' } });
    expect(fail.zh.outcome.message).toBe('kernel.numa_balancing 为 1，应为 0');
    expect(fail.zh.outcome.remediation).toBe('在宿主机上（不是在容器中）：sudo qprep tune --only sysctl.numa-balancing   (or: sudo sysctl -w kernel.numa_balancing=0)');
    expectSameCommands(fail.en.outcome, fail.zh.outcome);
    const skip = await runInBoth(check, { files: {} });
    expect(skip.zh.outcome.message).toMatch(/^\/proc\/sys\/kernel\/numa_balancing 不存在：/);
    const error = await runInBoth(check, { files: { '/proc/sys/kernel/numa_balancing': { error: 'EIO' } } });
    expect(error.zh.outcome.message).toMatch(/^无法读取 kernel\.numa_balancing：/);
  });
});
