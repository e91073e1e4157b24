/**
 * What `qprep tune` can change, as data: a journal can hold it, a rollback can replay it after a
 * crash, a dry run can print it, and an allow-list can judge it before anything is written.
 */
export type Change =
  /** a sysctl under /proc/sys; `path` is the key with dots as slashes */
  | { kind: 'sysctl'; key: string; path: string; value: string }
  /** a kernel attribute file written by path: cpufreq under /sys, the scheduler knobs in debugfs */
  | { kind: 'sysfs'; path: string; value: string }
  /** a whole configuration file, written atomically */
  | { kind: 'file'; path: string; content: string; mode: number };

export function sysctlPath(key: string): string {
  return `/proc/sys/${key.replace(/\./g, '/')}`;
}

export function sysctlChange(key: string, value: string | number): Change {
  return { kind: 'sysctl', key, path: sysctlPath(key), value: String(value) };
}

/**
 * Kernel files print a value with a trailing newline and sometimes with tabs between fields
 * (kernel.printk); two values are the same setting when their words are.
 */
export function sameKernelValue(a: string, b: string): boolean {
  return a.trim().split(/\s+/).join(' ') === b.trim().split(/\s+/).join(' ');
}
