import { execa } from 'execa';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, qprep, validateAgainstSchema } from '../helpers/cli.js';
import { writeUntunedTree } from '../helpers/untuned-tree.js';

/** The fresh-install host of test/helpers/untuned-tree.ts, with a local sysctl.d file and an empty tmpfiles.d. */
function untunedTree(extra: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'qprep-tune-'));
  writeUntunedTree(root, { 'etc/sysctl.d/99-local.conf': 'vm.swappiness = 10\n', ...extra });
  mkdirSync(join(root, 'etc/tmpfiles.d'), { recursive: true });
  return root;
}

/** Every regular file of a tree with its bytes and mode, for byte-for-byte comparisons. */
function treeState(root: string, skip: (path: string) => boolean = () => false): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const rel = relative(root, path);
      if (skip(rel)) continue;
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) state[rel] = `${(stat.mode & 0o7777).toString(8)} ${readFileSync(path).toString('base64')}`;
      else state[rel] = `kind ${stat.mode & 0o170000}`;
    }
  };
  walk(root);
  return state;
}

const ONLY_TUNING = ['--only', 'cpu,sysctl,sched,tune'];

describe('qprep tune on a host tree', () => {
  it('--dry-run shows the plan and changes nothing, not one byte', async () => {
    const root = untunedTree();
    const before = treeState(root);
    const run = await qprep(['tune', '--root', root, '--dry-run', '--persist', '--format', 'json']);
    expect(run.exitCode).toBe(0);
    const document = JSON.parse(run.stdout);
    expect((await validateAgainstSchema('tune', document)).valid).toBe(true);
    expect(document).toMatchObject({ command: 'tune', dryRun: true, persist: true, outcome: 'planned', changed: true, journal: null });
    expect(document.changes.map((c: { target: string; before: string; after: string }) => [c.target, c.before, c.after.split('\n').length > 1 ? 'file' : c.after])).toEqual([
      ['/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'powersave', 'performance'],
      ['/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor', 'powersave', 'performance'],
      ['vm.swappiness', '60', '0'],
      ['kernel.numa_balancing', '1', '0'],
      ['/sys/kernel/debug/sched/migration_cost_ns', '500000', '50000'],
      ['/etc/sysctl.d/90-qprep.conf', null, 'file'],
      ['/etc/tmpfiles.d/qprep.conf', null, 'file'],
    ]);
    expect(treeState(root)).toEqual(before);
    const human = await qprep(['tune', '--root', root, '--dry-run']);
    expect(human.stdout).toContain('/sys/devices/system/cpu/cpu{0-1}/cpufreq/scaling_governor  powersave -> performance (2 files)');
    expect(human.stdout).toContain('DRY RUN: 4 changes (5 writes) would be made; nothing was written');
    expect(treeState(root)).toEqual(before);
  });

  it('applies and verifies; a second run changes nothing; check passes; rollback restores every byte', async () => {
    const root = untunedTree();
    const original = treeState(root);

    const first = await qprep(['tune', '--root', root, '--persist', '--format', 'json']);
    expect(first.exitCode).toBe(0);
    const applied = JSON.parse(first.stdout);
    expect((await validateAgainstSchema('tune', applied)).valid).toBe(true);
    expect(applied).toMatchObject({ outcome: 'applied', changed: true, journal: '/var/lib/qprep/journal.json' });
    expect(applied.changes.every((c: { status: string }) => c.status === 'applied')).toBe(true);
    expect(applied.verify.every((c: { status: string }) => c.status === 'pass')).toBe(true);
    expect(applied.conflicts).toEqual([
      expect.objectContaining({ kind: 'sysctl.d', source: '/etc/sysctl.d/99-local.conf:1', target: 'vm.swappiness', value: '10', wanted: '0', winsOverPersist: true }),
    ]);
    expect(readFileSync(join(root, 'proc/sys/vm/swappiness'), 'utf8')).toBe('0\n');
    expect(readFileSync(join(root, 'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor'), 'utf8')).toBe('performance\n');
    expect(readFileSync(join(root, 'etc/sysctl.d/90-qprep.conf'), 'utf8')).toMatch(/\nvm\.swappiness = 0\nkernel\.numa_balancing = 0\n$/);
    expect(readFileSync(join(root, 'etc/tmpfiles.d/qprep.conf'), 'utf8')).toContain('w /sys/kernel/debug/sched/migration_cost_ns - - - - 50000\n');
    expect(existsSync(join(root, 'var/lib/qprep/tune.lock'))).toBe(false);

    const afterFirst = treeState(root);
    const second = await qprep(['tune', '--root', root, '--persist', '--format', 'json']);
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ outcome: 'unchanged', changed: false, journal: null });
    expect(treeState(root)).toEqual(afterFirst);

    const check = await qprep(['check', '--root', root, ...ONLY_TUNING, '--format', 'json']);
    const report = JSON.parse(check.stdout);
    expect(report.checks.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['cpu.governor', 'pass'],
      ['sysctl.swappiness', 'pass'],
      ['sysctl.numa-balancing', 'pass'],
      ['sched.migration-cost', 'pass'],
      ['tune.journal', 'pass'],
    ]);
    expect(report.checks[4].message).toMatch(/^7 settings changed by qprep tune since .* are in effect \(undo: sudo qprep rollback --root /);

    const back = await qprep(['rollback', '--root', root, '--format', 'json']);
    expect(back.exitCode).toBe(0);
    const undone = JSON.parse(back.stdout);
    expect((await validateAgainstSchema('rollback', undone)).valid).toBe(true);
    expect(undone).toMatchObject({ command: 'rollback', outcome: 'rolled-back', changed: true });
    expect(undone.journal).toMatch(/^\/var\/lib\/qprep\/journal-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.json$/);
    expect(treeState(root, (path) => path.startsWith('var'))).toEqual(original);
    expect(readdirSync(join(root, 'var/lib/qprep'))).toEqual([undone.journal.split('/').pop()]);
    const again = await qprep(['rollback', '--root', root, '--format', 'json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'nothing', changed: false });
  });

  it('human output: the plan, then what changed, the conflicts, and how to undo', async () => {
    const root = untunedTree();
    const run = await qprep(['tune', '--root', root]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('Plan: 4 changes (5 writes), old values journaled before the first write');
    expect(run.stdout).toContain('  ✓ applied       sysctl.swappiness      vm.swappiness  60 -> 0');
    expect(run.stdout).toContain('Conflicts (reported, not changed):\n  ! /etc/sysctl.d/99-local.conf:1 sets vm.swappiness = 10, not 0;');
    expect(run.stdout).toContain(`CHANGED: 4 changes (5 writes) applied and verified; journal /var/lib/qprep/journal.json; undo with: npx qprep rollback --root ${root}`);
    expect(run.stderr).toBe('');
  });

  it('a tune killed in the middle: check reports it, tune refuses, rollback puts back what was written', async () => {
    const root = untunedTree();
    // cpu1's governor is a FIFO: writing it blocks, so qprep is stuck after cpu0 and before the rest, and is killed there
    const fifo = join(root, 'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor');
    await execa('rm', [fifo]);
    await execa('mkfifo', [fifo]);
    const killed = execa(process.execPath, [BIN, 'tune', '--root', root, '--timeout', '120s'], { reject: false });
    const journal = join(root, 'var/lib/qprep/journal.json');
    for (let i = 0; i < 600; i++) {
      if (existsSync(journal) && readFileSync(join(root, 'sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'), 'utf8') === 'performance\n') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    killed.kill('SIGKILL');
    const result = await killed;
    expect(result.signal).toBe('SIGKILL');
    expect(JSON.parse(readFileSync(journal, 'utf8')).runs[0].state).toBe('applying');
    expect(existsSync(join(root, 'var/lib/qprep/tune.lock'))).toBe(true);

    const check = await qprep(['check', '--root', root, '--only', 'tune.journal', '--format', 'json']);
    const [entry] = JSON.parse(check.stdout).checks;
    expect(entry.status).toBe('warn');
    expect(entry.message).toMatch(/^"qprep tune --root .* --timeout 120s" started .* did not finish \(it was interrupted, or is running right now\): 5 changes may be half applied$/);
    expect(entry.remediation).toBe(`sudo qprep rollback --root ${root}   (restores the old values from /var/lib/qprep/journal.json)`);

    // the dead process's lock is stale: the next run takes it over (and so is not "locked") ...
    const refused = await qprep(['tune', '--root', root, '--format', 'json']);
    expect(refused.exitCode).toBe(2);
    expect(existsSync(join(root, 'var/lib/qprep/tune.lock'))).toBe(false);
    const error = JSON.parse(refused.stdout);
    expect((await validateAgainstSchema('tune', error)).valid).toBe(true);
    expect(error).toMatchObject({ command: 'tune', changed: false, error: { code: 'refused' } });
    // ... and refuses to tune on top of the unfinished run
    expect(error.error.message).toContain(`run "qprep rollback --root ${root}" first`);

    const back = await qprep(['rollback', '--root', root, '--format', 'json']);
    expect(back.exitCode).toBe(0);
    const undone = JSON.parse(back.stdout);
    expect(undone.restores.map((r: { target: string; status: string }) => [r.target.replace(/^.*\/cpu(\d)\/.*$/, 'cpu$1'), r.status])).toEqual([
      ['/sys/kernel/debug/sched/migration_cost_ns', 'unchanged'],
      ['kernel.numa_balancing', 'unchanged'],
      ['vm.swappiness', 'unchanged'],
      ['cpu1', 'unchanged'],
      ['cpu0', 'restored'],
    ]);
    expect(readFileSync(join(root, 'sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'), 'utf8')).toBe('powersave\n');
    expect(existsSync(journal)).toBe(false);
    expect(existsSync(join(root, 'var/lib/qprep/tune.lock'))).toBe(false);
  });

  it('refuses inside a container tree unless --force; the error is a tune document', async () => {
    const root = untunedTree({ '.dockerenv': '', 'proc/self/mountinfo': '1 0 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u\n' });
    const before = treeState(root);
    const run = await qprep(['tune', '--root', root, '--format', 'json']);
    expect(run.exitCode).toBe(2);
    const document = JSON.parse(run.stdout);
    expect((await validateAgainstSchema('tune', document)).valid).toBe(true);
    expect(document.error.code).toBe('refused');
    expect(run.stderr).toMatch(/^qprep: error: qprep tune runs inside a container \(docker: \/\.dockerenv exists and \/ is overlay\): these settings belong to the host OS/);
    expect(treeState(root)).toEqual(before);
    const forced = await qprep(['tune', '--root', root, '--force', '--format', 'json']);
    expect(forced.exitCode).toBe(0);
    expect(JSON.parse(forced.stdout).outcome).toBe('applied');
  });

  it('refuses while another live qprep holds the lock', async () => {
    const root = untunedTree();
    mkdirSync(join(root, 'var/lib/qprep'), { recursive: true });
    const owner = { pid: process.pid, startTime: null, hostname: (await import('node:os')).hostname(), command: 'qprep tune', since: '2026-12-02T10:00:00.000Z' };
    writeFileSync(join(root, 'var/lib/qprep/tune.lock'), JSON.stringify(owner));
    const run = await qprep(['tune', '--root', root, '--format', 'json']);
    expect(run.exitCode).toBe(2);
    expect(JSON.parse(run.stdout).error.code).toBe('locked');
    expect(readFileSync(join(root, 'proc/sys/vm/swappiness'), 'utf8')).toBe('60\n');
  });

  it('a snapshot is read-only: tune needs --dry-run there; bad selections are usage errors', async () => {
    const root = untunedTree();
    const snapshot = join(root, 'snap.json');
    expect((await qprep(['snapshot', '-o', snapshot, '--root', root, ...ONLY_TUNING])).exitCode).toBe(0);
    const refused = await qprep(['tune', '--snapshot', snapshot]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe('qprep: error: a snapshot is read-only: add --dry-run to see what tune would do on the host it was taken on\n');
    const planned = await qprep(['tune', '--snapshot', snapshot, '--dry-run', '--format', 'json']);
    expect(planned.exitCode).toBe(0);
    expect(JSON.parse(planned.stdout).changes).toHaveLength(5);
    const notTunable = await qprep(['tune', '--root', root, '--only', 'host.shm']);
    expect(notTunable.exitCode).toBe(2);
    expect(notTunable.stderr).toMatch(/^qprep: error: --only: unknown check or category "host\.shm"\nqprep: hint: the choices here: cpu\.governor, sysctl\.swappiness, sysctl\.numa-balancing, sched\.migration-cost, /);
  });
});

describe('qprep tune and rollback in Chinese', () => {
  it('--lang zh: the plan, the result and the verdict in Chinese; the JSON as in English but for the words', async () => {
    const root = untunedTree({ 'etc/tuned/active_profile': 'throughput-performance\n' });
    const plan = await qprep(['tune', '--root', root, '--dry-run', '--persist', '--lang', 'zh']);
    expect(plan.exitCode).toBe(0);
    expect(plan.stdout).toContain('/sys/devices/system/cpu/cpu{0-1}/cpufreq/scaling_governor  powersave -> performance（2 个文件）');
    expect(plan.stdout).toContain('计划：6 项改动（7 次写入）\n');
    expect(plan.stdout).toContain('冲突（仅报告，不改动）：');
    expect(plan.stdout).toMatch(/tuned 已配置，使用 profile "throughput-performance"：.*（systemctl disable --now tuned）/);
    expect(plan.stdout).toMatch(/演练（DRY RUN）：将进行 6 项改动（7 次写入）；未写入任何内容\n$/);

    const english = JSON.parse((await qprep(['tune', '--root', root, '--dry-run', '--persist', '--format', 'json'])).stdout);
    const chinese = JSON.parse((await qprep(['tune', '--root', root, '--dry-run', '--persist', '--format', 'json', '--lang', 'zh'])).stdout);
    const machine = (doc: Record<string, unknown> & { conflicts: Array<Record<string, unknown>> }) => ({
      ...doc,
      startedAt: null,
      durationMs: null,
      conflicts: doc.conflicts.map(({ message: _message, ...rest }) => rest),
    });
    expect(machine(chinese)).toEqual(machine(english));
    expect(chinese.conflicts.map((c: { message: string }) => c.message)).toEqual([expect.stringMatching(/^\/etc\/sysctl\.d\/99-local\.conf:1 将 vm\.swappiness 设为 10/), expect.stringMatching(/^tuned 已配置/)]);

    const applied = await qprep(['tune', '--root', root, '--lang', 'zh']);
    expect(applied.stderr).toBe('');
    expect(applied.exitCode).toBe(0);
    expect(applied.stdout).toContain('结果：');
    expect(applied.stdout).toMatch(/  ✓ 已应用 +sysctl\.swappiness/);
    expect(applied.stdout).toMatch(/已修改（CHANGED）：4 项改动（5 次写入）已应用并验证；日志 \/var\/lib\/qprep\/journal\.json；撤销命令：npx qprep rollback --root \S+\n$/);

    const undone = await qprep(['rollback', '--root', root, '--lang', 'zh']);
    expect(undone.exitCode).toBe(0);
    expect(undone.stdout).toContain('恢复，最新的改动在前：');
    expect(undone.stdout).toMatch(/已恢复（RESTORED）：已恢复 5 个值；日志保留为 \S+\n$/);
    const nothing = await qprep(['rollback', '--root', root, '--lang', 'zh']);
    expect(nothing.stdout).toMatch(/正常（OK）：此处没有调优日志；qprep 没有生效中的改动（changed: false）\n$/);
  });
});
