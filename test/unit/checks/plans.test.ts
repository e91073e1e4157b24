import { describe, expect, it } from 'vitest';
import cpuGovernor from '../../../checks/cpu.governor.js';
import schedMigrationCost from '../../../checks/sched.migration-cost.js';
import sysctlNumaBalancing from '../../../checks/sysctl.numa-balancing.js';
import sysctlSwappiness from '../../../checks/sysctl.swappiness.js';
import { createContext } from '../../../src/core/runner.js';
import type { Check } from '../../../src/core/types.js';
import { FakeHost, type FakeHostSpec } from '../../helpers/fake-host.js';
import { profileWith } from '../../helpers/run-check.js';

const CPU = '/sys/devices/system/cpu';

/** Runs a check, then its plan with what it reported, as tune does; the host is never written. */
async function planOn(check: Check, spec: FakeHostSpec, profile: Record<string, unknown> = {}) {
  const host = new FakeHost(spec);
  const ctx = createContext({ host, profile: profileWith(profile), timeoutMs: 1000 });
  const outcome = await check.run(ctx);
  const changes = await check.plan!(ctx, outcome);
  expect(host.writes).toEqual([]);
  return { outcome, changes };
}

describe('cpu.governor plan', () => {
  it('writes the governor of every online CPU that differs, and only those', async () => {
    const { changes } = await planOn(cpuGovernor, {
      files: {
        [`${CPU}/online`]: '0-3\n',
        [`${CPU}/cpu0/cpufreq/scaling_governor`]: 'performance\n',
        [`${CPU}/cpu1/cpufreq/scaling_governor`]: 'powersave\n',
        [`${CPU}/cpu2/cpufreq/scaling_governor`]: 'ondemand\n',
        [`${CPU}/cpu3/cpufreq/scaling_governor`]: 'performance\n',
        [`${CPU}/cpu1/cpufreq/scaling_available_governors`]: 'performance powersave ondemand\n',
      },
    });
    expect(changes).toEqual([
      { kind: 'sysfs', path: `${CPU}/cpu1/cpufreq/scaling_governor`, value: 'performance' },
      { kind: 'sysfs', path: `${CPU}/cpu2/cpufreq/scaling_governor`, value: 'performance' },
    ]);
  });

  it('plans nothing when the cpufreq driver does not offer the governor (the check says what to do)', async () => {
    const { outcome, changes } = await planOn(cpuGovernor, {
      files: { [`${CPU}/online`]: '0\n', [`${CPU}/cpu0/cpufreq/scaling_governor`]: 'schedutil\n', [`${CPU}/cpu0/cpufreq/scaling_available_governors`]: 'schedutil\n' },
    });
    expect(outcome.status).toBe('fail');
    expect(changes).toEqual([]);
  });

  it('uses the profile governor', async () => {
    const { changes } = await planOn(cpuGovernor, { files: { [`${CPU}/online`]: '0\n', [`${CPU}/cpu0/cpufreq/scaling_governor`]: 'performance\n' } }, { tuning: { cpuGovernor: 'schedutil' } });
    expect(changes).toEqual([{ kind: 'sysfs', path: `${CPU}/cpu0/cpufreq/scaling_governor`, value: 'schedutil' }]);
  });
});

describe('sysctl plans', () => {
  it('vm.swappiness to the profile target', async () => {
    const { changes } = await planOn(sysctlSwappiness, { files: { '/proc/sys/vm/swappiness': '60\n' } }, { tuning: { swappiness: { target: 1 } } });
    expect(changes).toEqual([{ kind: 'sysctl', key: 'vm.swappiness', path: '/proc/sys/vm/swappiness', value: '1' }]);
  });

  it('kernel.numa_balancing to the profile target', async () => {
    const { changes } = await planOn(sysctlNumaBalancing, { files: { '/proc/sys/kernel/numa_balancing': '1\n' } });
    expect(changes).toEqual([{ kind: 'sysctl', key: 'kernel.numa_balancing', path: '/proc/sys/kernel/numa_balancing', value: '0' }]);
  });
});

describe('sched.migration-cost plan', () => {
  it('uses the sysctl on kernels that have it', async () => {
    const { changes } = await planOn(schedMigrationCost, { files: { '/proc/sys/kernel/sched_migration_cost_ns': '500000\n' } });
    expect(changes).toEqual([{ kind: 'sysctl', key: 'kernel.sched_migration_cost_ns', path: '/proc/sys/kernel/sched_migration_cost_ns', value: '50000' }]);
  });

  it('writes debugfs on kernels >= 5.13, where sysctl -w cannot reach it', async () => {
    const { changes } = await planOn(schedMigrationCost, { files: { '/sys/kernel/debug/sched/migration_cost_ns': '500000\n' } });
    expect(changes).toEqual([{ kind: 'sysfs', path: '/sys/kernel/debug/sched/migration_cost_ns', value: '50000' }]);
  });

  it('plans nothing when debugfs is not mounted', async () => {
    const host = new FakeHost({ files: {} });
    const ctx = createContext({ host, profile: profileWith(), timeoutMs: 1000 });
    expect(await schedMigrationCost.plan!(ctx, { status: 'skip', message: '' })).toEqual([]);
  });
});
