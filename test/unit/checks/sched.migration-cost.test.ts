import { describe, expect, it } from 'vitest';
import check from '../../../checks/sched.migration-cost.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const SYSCTL = '/proc/sys/kernel/sched_migration_cost_ns';
const DEBUGFS = '/sys/kernel/debug/sched/migration_cost_ns';

describe('sched.migration-cost', () => {
  it('passes at the value the guides prescribe (old kernels, /proc/sys)', async () => {
    const { outcome } = await runOn(check, { files: { [SYSCTL]: '50000\n' } });
    expect(outcome.status).toBe('pass');
    expect(outcome.evidence?.path).toBe(SYSCTL);
  });

  it('reads debugfs on kernels >= 5.13', async () => {
    const { outcome } = await runOn(check, { files: { [DEBUGFS]: '100000\n' } });
    expect(outcome.status).toBe('pass');
    expect(outcome.evidence?.path).toBe(DEBUGFS);
  });

  it('fails on the kernel default of 500000 with the right command for the debugfs kernel', async () => {
    const { outcome } = await runOn(check, { files: { [DEBUGFS]: '500000\n' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('migration cost is 500000 ns, expected 50000-100000 ns');
    expect(outcome.remediation).toContain(`echo 50000 | sudo tee ${DEBUGFS}`);
  });

  it('fails below the range with the sysctl command on old kernels', async () => {
    const { outcome } = await runOn(check, { files: { [SYSCTL]: '5000\n' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.remediation).toContain('sysctl -w kernel.sched_migration_cost_ns=50000');
  });

  it('skips with the reason when debugfs is not mounted', async () => {
    const { outcome } = await runOn(check, { files: {} });
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toContain('debugfs');
    expect(outcome.remediation).toContain('mount -t debugfs');
  });

  it('skips asking for root when debugfs is root-only', async () => {
    const { outcome } = await runOn(check, { files: { [DEBUGFS]: { error: 'EACCES' } } });
    expect(outcome.status).toBe('skip');
    expect(outcome.remediation).toContain('sudo qprep check');
  });

  it('is an error when the sysctl file exists but cannot be read', async () => {
    const { outcome } = await runOn(check, { files: { [SYSCTL]: { error: 'EIO' } } });
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });
});
