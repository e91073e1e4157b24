import { describe, expect, it } from 'vitest';
import check from '../../../checks/sysctl.numa-balancing.js';
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
