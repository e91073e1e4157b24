import { describe, expect, it } from 'vitest';
import check from '../../../checks/sched.migration-cost.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
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

describe('sched.migration-cost in Chinese', () => {
  it('passes and fails in Chinese with the debugfs command byte for byte', async () => {
    const ok = await runInBoth(check, { files: { [SYSCTL]: '50000\n' } });
    expect(ok.zh.outcome.message).toBe(`迁移开销为 50000 ns（${SYSCTL}）`);
    const fail = await runInBoth(check, { files: { [DEBUGFS]: '500000\n', '/run/.containerenv': '' } });
    expect(fail.zh.outcome.message).toBe('迁移开销为 500000 ns，应为 50000-100000 ns');
    expect(fail.zh.outcome.remediation).toBe(`在宿主机上（不是在容器中）：sudo qprep tune --only sched.migration-cost   (or: echo 50000 | sudo tee ${DEBUGFS})`);
    expectSameCommands(fail.en.outcome, fail.zh.outcome);
  });

  it('skips (debugfs not mounted, root only) and errs in Chinese', async () => {
    const unmounted = await runInBoth(check, { files: {} });
    expect(unmounted.zh.outcome.message).toBe(`${SYSCTL} 和 ${DEBUGFS} 都不存在：内核把该参数放在 debugfs 中，而 debugfs 未挂载`);
    expect(unmounted.zh.outcome.remediation).toBe('sudo mount -t debugfs none /sys/kernel/debug，然后重新运行');
    const rootOnly = await runInBoth(check, { files: { [DEBUGFS]: { error: 'EACCES' } } });
    expect(rootOnly.zh.outcome.remediation).toBe('运行 "sudo qprep check" 以完成检查');
    const error = await runInBoth(check, { files: { [SYSCTL]: { error: 'EIO' } } });
    expect(error.zh.outcome.message).toMatch(/^无法读取迁移开销：/);
  });
});
