import type { CheckId } from '../ids/checks.js';
import type { Profile } from '../profile.js';

/** Where `qprep tune` keeps its state on the examined host (under --root). */
export const STATE_DIR = '/var/lib/qprep';
/** The files `--persist` owns; rollback removes them or restores what was there. */
export const SYSCTL_D_FILE = '/etc/sysctl.d/90-qprep.conf';
export const TMPFILES_FILE = '/etc/tmpfiles.d/qprep.conf';
export const PERSISTENCE_FILES: readonly string[] = [SYSCTL_D_FILE, TMPFILES_FILE];

const CPU_ROOT = '/sys/devices/system/cpu';
const DEBUGFS_MIGRATION_COST = '/sys/kernel/debug/sched/migration_cost_ns';

/**
 * One host setting the profile asks for: the sysctl key when the kernel has it in /proc/sys,
 * and/or the kernel attribute files (sysfs, debugfs) that hold it otherwise.
 */
export interface Knob {
  /** the check that reads it and whose plan() changes it */
  checkId: CheckId;
  value: string;
  sysctl?: { key: string };
  sysfs?: {
    /** the files tune may write for this knob */
    pattern: RegExp;
    /** the same files as a tmpfiles.d glob, for --persist */
    glob: string;
    /** a file whose existence says this form of the knob is present here */
    probe: string;
  };
}

/** The settings of the profile's `tuning` section, the source of the write allow-list. */
export function profileKnobs(profile: Profile): Knob[] {
  const tuning = profile.tuning;
  return [
    {
      checkId: 'cpu.governor',
      value: tuning.cpuGovernor,
      sysfs: {
        pattern: /^\/sys\/devices\/system\/cpu\/cpu[0-9]+\/cpufreq\/scaling_governor$/,
        glob: `${CPU_ROOT}/cpu*/cpufreq/scaling_governor`,
        probe: `${CPU_ROOT}/cpu0/cpufreq/scaling_governor`,
      },
    },
    { checkId: 'sysctl.swappiness', value: String(tuning.swappiness.target), sysctl: { key: 'vm.swappiness' } },
    { checkId: 'sysctl.numa-balancing', value: String(tuning.numaBalancing.target), sysctl: { key: 'kernel.numa_balancing' } },
    {
      checkId: 'sched.migration-cost',
      value: String(tuning.schedMigrationCostNs.target),
      sysctl: { key: 'kernel.sched_migration_cost_ns' },
      sysfs: { pattern: /^\/sys\/kernel\/debug\/sched\/migration_cost_ns$/, glob: DEBUGFS_MIGRATION_COST, probe: DEBUGFS_MIGRATION_COST },
    },
  ];
}
