import { execa, type ResultPromise } from 'execa';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, validateAgainstSchema } from '../helpers/cli.js';

/*
 * The code path that writes the real /proc/sys and /sys files, tested for real without changing
 * this machine: in a private mount namespace, temporary files are bind-mounted over
 * /proc/sys/vm/swappiness and /proc/sys/kernel/numa_balancing, the migration-cost file (the
 * sysctl where the kernel has it, else a tmpfs on /sys/kernel/debug), a tmpfs CPU tree over
 * /sys/devices/system/cpu, and tmpfs over /var/lib, /etc/sysctl.d and /etc/tmpfiles.d. The
 * built CLI runs inside that namespace and opens the real paths; the mounts vanish with it.
 */

const SYSCTL_MIGRATION = '/proc/sys/kernel/sched_migration_cost_ns';
const DEBUGFS_MIGRATION = '/sys/kernel/debug/sched/migration_cost_ns';
const CPUS = [0, 1, 2, 3];
const governor = (cpu: number) => `/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`;

/** How to run as root: directly, or through passwordless sudo (CI runners); null when neither. */
function rootPrefix(): string[] | null {
  if (process.getuid?.() === 0) return [];
  return spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo', '-n'] : null;
}

const asRoot = rootPrefix();

function whyNotPossible(): string | undefined {
  if (process.platform !== 'linux') return 'mount namespaces exist on Linux only';
  if (asRoot === null) return 'creating a mount namespace and bind mounts needs root: run the tests as root or with passwordless sudo';
  for (const tool of ['unshare', 'nsenter', 'mount']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} (util-linux) is not installed`;
  }
  const probe = spawnSync(asRoot[0] ?? 'unshare', [...asRoot.slice(1), ...(asRoot.length ? ['unshare'] : []), '--mount', '--propagation', 'private', 'true']);
  if (probe.status !== 0) return `unshare --mount fails here (${String(probe.stderr).trim() || `exit ${probe.status}`}): no CAP_SYS_ADMIN (an unprivileged container?)`;
  return undefined;
}

const reason = whyNotPossible();
if (reason) console.warn(`[tune-namespace] skipped: ${reason}`);

/** The pid of the process named `comm` among the descendants of `pid` (sudo may fork a monitor in between). */
function descendantNamed(pid: number, comm: string): number | undefined {
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    try {
      if (readFileSync(`/proc/${current}/comm`, 'utf8').trim() === comm) return current;
      queue.push(...readFileSync(`/proc/${current}/task/${current}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}

/** Which migration-cost file this kernel has, and so which one the namespace provides. */
const migrationPath = existsSync(SYSCTL_MIGRATION) ? SYSCTL_MIGRATION : DEBUGFS_MIGRATION;
const debugfsUsable = migrationPath === SYSCTL_MIGRATION || (existsSync('/sys/kernel/debug') && statSync('/sys/kernel/debug').isDirectory());

describe.skipIf(reason !== undefined)('qprep tune on the real /proc/sys and /sys paths, in a private mount namespace', () => {
  let holder: ResultPromise | undefined;
  let pid = 0;
  let work = '';
  let extraFlags: string[] = [];

  const root = asRoot ?? [];
  const asRootArgv = (argv: string[]): [string, string[]] => (root.length ? [root[0]!, [...root.slice(1), ...argv]] : [argv[0]!, argv.slice(1)]);
  const inNamespace = (argv: string[]) => {
    const [file, args] = asRootArgv(['nsenter', '-t', String(pid), '-m', '--', ...argv]);
    return execa(file, args, { reject: false, stripFinalNewline: false, encoding: 'utf8', timeout: 120_000 });
  };
  const ourNamespace = readLinkSafe('/proc/self/ns/mnt');
  const namespaceOf = async () => String((await inNamespace(['readlink', '/proc/self/ns/mnt'])).stdout).trim();
  const qprepIn = async (args: string[]) => {
    const run = await inNamespace([process.execPath, BIN, ...args]);
    return { exitCode: run.exitCode ?? -1, stdout: String(run.stdout), stderr: String(run.stderr) };
  };
  const readIn = async (path: string) => {
    const run = await inNamespace(['cat', path]);
    if (run.exitCode !== 0) throw new Error(`cat ${path} in the namespace: ${String(run.stderr)}`);
    return String(run.stdout);
  };
  const state = async () => {
    const paths = [...CPUS.map(governor), '/proc/sys/vm/swappiness', '/proc/sys/kernel/numa_balancing', ...(debugfsUsable ? [migrationPath] : [])];
    return Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await readIn(p)] as const)));
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'qprep-ns-'));
    writeFileSync(join(work, 'swappiness'), '60\n');
    writeFileSync(join(work, 'numa_balancing'), '1\n');
    writeFileSync(join(work, 'migration_cost_ns'), '500000\n');
    const [file, args] = asRootArgv(['unshare', '--mount', '--propagation', 'private', 'sleep', '3600']);
    holder = execa(file, args, { reject: false });
    for (let i = 0; i < 200 && !pid; i++) {
      pid = descendantNamed(holder.pid!, 'sleep') ?? 0;
      if (!pid) await new Promise((r) => setTimeout(r, 20));
    }
    if (!pid) throw new Error('the namespace holder did not start');
    const cpuTree = CPUS.map(
      (cpu) =>
        `mkdir -p /sys/devices/system/cpu/cpu${cpu}/cpufreq && echo powersave > ${governor(cpu)} && ` +
        `echo 'performance powersave schedutil' > /sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_available_governors`,
    ).join(' && ');
    const migration =
      migrationPath === SYSCTL_MIGRATION
        ? `mount --bind ${work}/migration_cost_ns ${SYSCTL_MIGRATION}`
        : debugfsUsable
          ? `mount -t tmpfs qprep-debugfs /sys/kernel/debug && mkdir -p /sys/kernel/debug/sched && touch ${DEBUGFS_MIGRATION} && mount --bind ${work}/migration_cost_ns ${DEBUGFS_MIGRATION}`
          : 'true';
    const setup = [
      'set -e',
      `mount --bind ${work}/swappiness /proc/sys/vm/swappiness`,
      `mount --bind ${work}/numa_balancing /proc/sys/kernel/numa_balancing`,
      migration,
      'mount -t tmpfs qprep-cpu /sys/devices/system/cpu',
      "echo '0-3' > /sys/devices/system/cpu/online",
      cpuTree,
      'mount -t tmpfs qprep-state /var/lib',
      'if [ -d /etc/sysctl.d ]; then mount -t tmpfs qprep-sysctl /etc/sysctl.d; fi',
      'if [ -d /etc/tmpfiles.d ]; then mount -t tmpfs qprep-tmpfiles /etc/tmpfiles.d; fi',
    ].join('\n');
    // the holder is "sleep" once unshare has entered the new namespace and exec'd it
    if ((await namespaceOf()) === ourNamespace) throw new Error('the holder is not in a namespace of its own');
    const done = await inNamespace(['sh', '-c', setup]);
    if (done.exitCode !== 0) throw new Error(`namespace setup failed: ${String(done.stderr)}`);
    // Never run tune unless every path it writes is one of our mounts in that namespace.
    const mountinfo = await readIn('/proc/self/mountinfo');
    const mountPoints = new Set(mountinfo.split('\n').map((line) => line.split(' ')[4]));
    for (const target of ['/proc/sys/vm/swappiness', '/proc/sys/kernel/numa_balancing', '/sys/devices/system/cpu', '/var/lib', ...(debugfsUsable ? [migrationPath] : [])]) {
      if (!mountPoints.has(target)) throw new Error(`${target} is not a mount point in the test namespace; refusing to run tune`);
    }
    const probe = JSON.parse((await qprepIn(['check', '--only', 'tune.journal', '--format', 'json'])).stdout);
    if (probe.host.inContainer) {
      // The container verdict is about this test machine, not about the write path under test.
      console.warn('[tune-namespace] the test runs in a container: tune gets --force');
      extraFlags = ['--force'];
    }
  });

  afterAll(async () => {
    // the namespace and its mounts end with the holder
    if (pid) {
      const [file, args] = asRootArgv(['kill', '-KILL', String(pid)]);
      await execa(file, args, { reject: false });
    }
    await holder;
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the outside world is untouched by the namespace', async () => {
    expect(readFileSync(join(work, 'swappiness'), 'utf8')).toBe('60\n');
    expect(await namespaceOf()).not.toBe(ourNamespace);
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain('qprep-cpu');
  });

  it('tune changes them, a second tune changes nothing, check passes, rollback restores the originals byte for byte', async () => {
    const original = await state();
    expect(original['/proc/sys/vm/swappiness']).toBe('60\n');

    const dry = await qprepIn(['tune', '--dry-run', ...extraFlags]);
    expect(dry.exitCode).toBe(0);
    expect(await state()).toEqual(original);

    const first = await qprepIn(['tune', '--format', 'json', ...extraFlags]);
    expect(first.exitCode, first.stderr).toBe(0);
    const applied = JSON.parse(first.stdout);
    expect((await validateAgainstSchema('tune', applied)).valid).toBe(true);
    expect(applied.outcome).toBe('applied');
    expect(applied.changes.map((c: { target: string; status: string }) => c.status)).toEqual(applied.changes.map(() => 'applied'));
    const tuned = await state();
    for (const cpu of CPUS) expect(tuned[governor(cpu)]).toBe('performance\n');
    expect(tuned['/proc/sys/vm/swappiness']).toBe('0\n');
    expect(tuned['/proc/sys/kernel/numa_balancing']).toBe('0\n');
    if (debugfsUsable) expect(tuned[migrationPath]).toBe('50000\n');
    // the file outside the namespace is the one the bind mount showed: written through the real path
    expect(readFileSync(join(work, 'swappiness'), 'utf8')).toBe('0\n');

    const second = await qprepIn(['tune', '--format', 'json', ...extraFlags]);
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ outcome: 'unchanged', changed: false });
    expect(await state()).toEqual(tuned);

    const check = await qprepIn(['check', '--only', 'cpu,sysctl,sched,tune', '--format', 'json']);
    const statuses = Object.fromEntries(JSON.parse(check.stdout).checks.map((c: { id: string; status: string }) => [c.id, c.status]));
    expect(statuses).toEqual({
      'cpu.governor': 'pass',
      'sysctl.swappiness': 'pass',
      'sysctl.numa-balancing': 'pass',
      'sched.migration-cost': debugfsUsable ? 'pass' : 'skip',
      'tune.journal': 'pass',
    });

    const back = await qprepIn(['rollback', '--format', 'json', ...extraFlags]);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(JSON.parse(back.stdout).outcome).toBe('rolled-back');
    expect(await state()).toEqual(original);
  });

  it('a write that fails half-way (a read-only bind mount) rolls back the ones already written and exits 1', async () => {
    const original = await state();
    const ro = await inNamespace(['mount', '-o', 'remount,bind,ro', '/proc/sys/kernel/numa_balancing']);
    expect(ro.exitCode, String(ro.stderr)).toBe(0);
    try {
      const run = await qprepIn(['tune', '--format', 'json', ...extraFlags]);
      expect(run.exitCode).toBe(1);
      const document = JSON.parse(run.stdout);
      expect(document.outcome).toBe('rolled-back');
      expect(document.changed).toBe(false);
      const byTarget = Object.fromEntries(document.changes.map((c: { target: string; status: string; error?: string }) => [c.target, c]));
      for (const cpu of CPUS) expect(byTarget[governor(cpu)].status).toBe('reverted');
      expect(byTarget['vm.swappiness'].status).toBe('reverted');
      expect(byTarget['kernel.numa_balancing'].status).toBe('failed');
      expect(byTarget['kernel.numa_balancing'].error).toMatch(/read-only file system/i);
      if (debugfsUsable) expect(byTarget[migrationPath === SYSCTL_MIGRATION ? 'kernel.sched_migration_cost_ns' : DEBUGFS_MIGRATION].status).toBe('skipped');
      expect(await state()).toEqual(original);
      const human = await qprepIn(['tune', ...extraFlags]);
      expect(human.exitCode).toBe(1);
      expect(human.stdout).toMatch(/FAILED: \/proc\/sys\/kernel\/numa_balancing: .*; every change was rolled back/);
      expect(await state()).toEqual(original);
    } finally {
      await inNamespace(['mount', '-o', 'remount,bind,rw', '/proc/sys/kernel/numa_balancing']);
    }
  });

  it('tune --snapshot "" and tune --root "" are usage errors that write nothing anywhere (the live host they once fell back to)', async () => {
    const original = await state();
    const journalDir = async () => String((await inNamespace(['sh', '-c', 'ls -A /var/lib /etc/sysctl.d /etc/tmpfiles.d 2>/dev/null'])).stdout);
    const before = await journalDir();
    for (const args of [['tune', '--snapshot', ''], ['tune', '--root', ''], ['rollback', '--root', '']]) {
      const run = await qprepIn([...args, '--format', 'json', ...extraFlags]);
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(JSON.parse(run.stdout)).toMatchObject({ command: args[0], error: { code: 'usage' } });
      expect(run.stderr).toMatch(/^qprep: error: --(snapshot|root) expects a path, got an empty value\n$/);
    }
    // every faked file byte for byte as it was, and no journal, lock or persistence file appeared
    expect(await state()).toEqual(original);
    expect(await journalDir()).toBe(before);
  });

  it('--persist writes the boot-time files atomically and rollback removes them', async () => {
    const original = await state();
    const run = await qprepIn(['tune', '--persist', '--format', 'json', ...extraFlags]);
    expect(run.exitCode, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout);
    expect(document.outcome).toBe('applied');
    const persisted = document.changes.filter((c: { origin: string }) => c.origin === 'persist').map((c: { path: string }) => c.path);
    expect(persisted).toContain('/etc/sysctl.d/90-qprep.conf');
    expect(await readIn('/etc/sysctl.d/90-qprep.conf')).toMatch(/\nvm\.swappiness = 0\nkernel\.numa_balancing = 0\n/);
    expect(await readIn('/etc/tmpfiles.d/qprep.conf')).toContain('w /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor - - - - performance\n');
    const back = await qprepIn(['rollback', '--format', 'json', ...extraFlags]);
    expect(back.exitCode).toBe(0);
    expect((await inNamespace(['test', '-e', '/etc/sysctl.d/90-qprep.conf'])).exitCode).toBe(1);
    expect((await inNamespace(['test', '-e', '/etc/tmpfiles.d/qprep.conf'])).exitCode).toBe(1);
    expect(await state()).toEqual(original);
  });
});

function readLinkSafe(path: string): string {
  try {
    return spawnSync('readlink', [path]).stdout.toString().trim();
  } catch {
    return '';
  }
}
