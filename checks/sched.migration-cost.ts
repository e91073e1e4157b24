import { error, fail, pass, skip } from '../src/core/outcome.js';
import { sysctlChange, type Change } from '../src/core/change.js';
import { defineCheck } from '../src/core/define-check.js';
import { isMissing, readInteger } from '../src/probes/files.js';

export const SYSCTL_PATH = '/proc/sys/kernel/sched_migration_cost_ns';
/** Linux 5.13 moved the knob out of sysctl into debugfs. */
export const DEBUGFS_PATH = '/sys/kernel/debug/sched/migration_cost_ns';

export default defineCheck({
  id: 'sched.migration-cost',
  category: 'tuning',
  order: 40,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  // title, why, fix and every message: src/i18n/*/checks/tuning.ts
  async run(ctx) {
    const t = ctx.text.checks['sched.migration-cost'];
    const { target, min, max } = ctx.profile.tuning.schedMigrationCostNs;
    const fromSysctl = await readInteger(ctx.host, SYSCTL_PATH, ctx.text.probes);
    const read = fromSysctl.ok || fromSysctl.code !== 'ENOENT' ? fromSysctl : await readInteger(ctx.host, DEBUGFS_PATH, ctx.text.probes);
    if (!read.ok) {
      if (read.path === DEBUGFS_PATH && (read.code === 'ENOENT' || read.code === 'EACCES' || read.code === 'EPERM')) {
        const needsRoot = read.code !== 'ENOENT';
        return skip(
          needsRoot ? t.rootOnly({ debugfs: DEBUGFS_PATH }) : t.notMounted({ sysctl: SYSCTL_PATH, debugfs: DEBUGFS_PATH }),
          {
            remediation: needsRoot ? t.runAsRoot : t.mountDebugfs,
            evidence: { paths: [SYSCTL_PATH, DEBUGFS_PATH] },
          },
        );
      }
      return error(t.cannotRead({ reason: read.reason }), { remediation: t.makeReadable({ path: read.path }) });
    }
    const evidence = { path: read.path, value: read.value, min, max, target };
    if (read.value >= min && read.value <= max) return pass(t.right({ value: read.value, path: read.path }), { evidence });
    const { inContainer } = await ctx.container();
    const manual = read.path === SYSCTL_PATH ? `sudo sysctl -w kernel.sched_migration_cost_ns=${target}` : `echo ${target} | sudo tee ${DEBUGFS_PATH}`;
    return fail(t.wrong({ value: read.value, min, max }), {
      expected: `${min}-${max}`,
      actual: String(read.value),
      remediation: t.tune({ inContainer, manual }),
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
