// A small host tree for --root runs: the files the host checks read, tuned badly on purpose
// (the same shape as the end-to-end tests' tree).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Builds the tree under `root` (a new temporary directory by default) and returns its path. */
export function makeHostTree(root = mkdtempSync(join(tmpdir(), 'qprep-bench-tree-'))) {
  mkdirSync(root, { recursive: true });
  const cpus = 192;
  const files = {
    'proc/sys/vm/swappiness': '60\n',
    'proc/sys/kernel/numa_balancing': '1\n',
    'proc/sys/kernel/sched_migration_cost_ns': '500000\n',
    'proc/meminfo': 'MemTotal:       1048576000 kB\nMemAvailable:    900000000 kB\n',
    'proc/net/tcp': '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n',
    'sys/devices/system/cpu/online': `0-${cpus - 1}\n`,
    'sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors': 'performance powersave\n',
    'etc/os-release': 'ID=ubuntu\nID_LIKE=debian\nPRETTY_NAME="Ubuntu 22.04.4 LTS"\n',
    'usr/lib/aarch64-linux-gnu/libjemalloc.so.2': 'ELF',
    'usr/lib/x86_64-linux-gnu/libjemalloc.so.2': 'ELF',
  };
  for (let cpu = 0; cpu < cpus; cpu++) files[`sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`] = 'powersave\n';
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  mkdirSync(join(root, 'dev/shm'), { recursive: true });
  mkdirSync(join(root, 'root/.cache'), { recursive: true });
  return root;
}
