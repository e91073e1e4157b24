import { error, fail, pass, skip } from '../src/core/outcome.js';
import { sysctlChange, type Change } from '../src/core/change.js';
import { defineCheck } from '../src/core/types.js';
import { isMissing, readInteger } from '../src/probes/files.js';

export const SYSCTL_PATH = '/proc/sys/kernel/sched_migration_cost_ns';
/** Linux 5.13 moved the knob out of sysctl into debugfs. */
export const DEBUGFS_PATH = '/sys/kernel/debug/sched/migration_cost_ns';

export default defineCheck({
  id: 'sched.migration-cost',
  title: 'Scheduler migration cost',
  category: 'tuning',
  level: 'recommended',
  why:
    'sched_migration_cost_ns is how long a task counts as cache-hot and is kept on its CPU. The deployment guides ' +
    'set kernel.sched_migration_cost_ns=50000 (range 50000-100000). Kernels from 5.13 on moved the knob to ' +
    `${DEBUGFS_PATH}, where "sysctl -w" fails, so the setting silently never happens.`,
  reads: [SYSCTL_PATH, DEBUGFS_PATH],
  fix: 'Write the value to whichever of the two files this kernel has (qprep tune picks the right one).',
  async run(ctx) {
    const { target, min, max } = ctx.profile.tuning.schedMigrationCostNs;
    const fromSysctl = await readInteger(ctx.host, SYSCTL_PATH);
    const read = fromSysctl.ok || fromSysctl.code !== 'ENOENT' ? fromSysctl : await readInteger(ctx.host, DEBUGFS_PATH);
    if (!read.ok) {
      if (read.path === DEBUGFS_PATH && (read.code === 'ENOENT' || read.code === 'EACCES' || read.code === 'EPERM')) {
        const needsRoot = read.code !== 'ENOENT';
        return skip(
          needsRoot
            ? `${DEBUGFS_PATH} is readable by root only (this kernel keeps the knob in debugfs)`
            : `neither ${SYSCTL_PATH} nor ${DEBUGFS_PATH} exists: the kernel keeps the knob in debugfs, which is not mounted`,
          {
            remediation: needsRoot ? 'run "sudo qprep check" to assess it' : 'sudo mount -t debugfs none /sys/kernel/debug, then re-run',
            evidence: { paths: [SYSCTL_PATH, DEBUGFS_PATH] },
          },
        );
      }
      return error(`cannot read the migration cost: ${read.reason}`, { remediation: `make ${read.path} readable and re-run` });
    }
    const evidence = { path: read.path, value: read.value, min, max, target };
    if (read.value >= min && read.value <= max) return pass(`migration cost is ${read.value} ns (${read.path})`, { evidence });
    const container = await ctx.container();
    const manual = read.path === SYSCTL_PATH ? `sudo sysctl -w kernel.sched_migration_cost_ns=${target}` : `echo ${target} | sudo tee ${DEBUGFS_PATH}`;
    return fail(`migration cost is ${read.value} ns, expected ${min}-${max} ns`, {
      expected: `${min}-${max}`,
      actual: String(read.value),
      remediation: `${container.inContainer ? 'on the host (not in the container): ' : ''}sudo qprep tune --only sched.migration-cost   (or: ${manual})`,
      evidence,
    });
  },
  /** The file this kernel has: sysctl before 5.13, debugfs after (where "sysctl -w" cannot reach). */
  async plan(ctx): Promise<Change[]> {
    const { target } = ctx.profile.tuning.schedMigrationCostNs;
    const fromSysctl = await ctx.host.readFile(SYSCTL_PATH);
    if (!isMissing(fromSysctl)) return [sysctlChange('kernel.sched_migration_cost_ns', target)];
    const fromDebugfs = await ctx.host.readFile(DEBUGFS_PATH);
    return fromDebugfs.ok ? [{ kind: 'sysfs', path: DEBUGFS_PATH, value: String(target) }] : [];
  },
});
