import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The files of a host as a fresh install leaves it for `qprep tune`: governor powersave,
 * swappiness 60, NUMA balancing on, debugfs migration cost 500 us, two CPUs.
 */
export const UNTUNED_HOST_FILES: Readonly<Record<string, string>> = {
  'proc/sys/vm/swappiness': '60\n',
  'proc/sys/kernel/numa_balancing': '1\n',
  'sys/kernel/debug/sched/migration_cost_ns': '500000\n',
  'sys/devices/system/cpu/online': '0-1\n',
  'sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': 'powersave\n',
  'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor': 'powersave\n',
  'sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors': 'performance powersave\n',
  'etc/os-release': 'ID=openEuler\nPRETTY_NAME="openEuler 22.03 (LTS-SP3)"\n',
};

/** Writes that host under root, with `extra` files added or replacing its own. */
export function writeUntunedTree(root: string, extra: Readonly<Record<string, string>> = {}): void {
  for (const [path, content] of Object.entries({ ...UNTUNED_HOST_FILES, ...extra })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}
