import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import tuneJournal from '../../../checks/tune.journal.js';
import { sysctlChange, type Change } from '../../../src/core/change.js';
import { QprepError } from '../../../src/errors.js';
import { fail, pass } from '../../../src/core/outcome.js';
import { createContext } from '../../../src/core/runner.js';
import { rollback, tune, type TuneDeps, type TuneOptions } from '../../../src/core/tune/engine.js';
import { JOURNAL_PATH } from '../../../src/core/tune/journal.js';
import { profileKnobs } from '../../../src/core/tune/knobs.js';
import { LOCK_PATH } from '../../../src/core/tune/lock.js';
import type { Check } from '../../../src/core/types.js';
import type { LoadedProfile } from '../../../src/core/profile.js';
import { fakeCheck } from '../../helpers/fake-check.js';
import { FakeHost, type FakeHostSpec, type FakeNode } from '../../helpers/fake-host.js';
import { profileWith } from '../../helpers/run-check.js';

const CPU = '/sys/devices/system/cpu';
const GOV0 = `${CPU}/cpu0/cpufreq/scaling_governor`;
const GOV1 = `${CPU}/cpu1/cpufreq/scaling_governor`;
const SWAPPINESS = '/proc/sys/vm/swappiness';
const NUMA = '/proc/sys/kernel/numa_balancing';
const MIGRATION = '/proc/sys/kernel/sched_migration_cost_ns';
const SYSCTL_D = '/etc/sysctl.d/90-qprep.conf';
const TMPFILES = '/etc/tmpfiles.d/qprep.conf';

const tunable = catalogue.filter((c) => c.plan);

/** A host tuned the way a fresh install is: powersave, swappiness 60, NUMA balancing on, 500 us. */
function untuned(files: Record<string, FakeNode> = {}, extra: Partial<FakeHostSpec> = {}): FakeHostSpec {
  return {
    files: {
      [`${CPU}/online`]: '0-1\n',
      [GOV0]: 'powersave\n',
      [GOV1]: 'powersave\n',
      [`${CPU}/cpu0/cpufreq/scaling_available_governors`]: 'performance powersave\n',
      [SWAPPINESS]: '60\n',
      [NUMA]: '1\n',
      [MIGRATION]: '500000\n',
      '/etc/sysctl.d': { kind: 'directory' },
      '/etc/tmpfiles.d': { kind: 'directory' },
      '/var/lib': { kind: 'directory' },
      ...files,
    },
    ...extra,
  };
}

function loaded(overrides: Record<string, unknown> = {}): LoadedProfile {
  return { profile: profileWith(overrides), source: 'builtin' };
}

function deps(running: number[] = [], pid = 4242): TuneDeps & { running: Set<number> } {
  const set = new Set(running);
  return { self: { pid, startTime: '1000' }, isRunning: (id) => set.has(id.pid), now: () => new Date('2026-12-02T10:00:00Z'), running: set };
}

const run: TuneOptions = { dryRun: false, persist: false, force: false, timeoutMs: 1000, command: 'qprep tune', toolVersion: '0.1.0' };

function journalOf(host: FakeHost) {
  return JSON.parse(host.content(JOURNAL_PATH)!);
}

/** Lets pending promises run until `done` holds: a tune that hangs is inspected mid-flight. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(done()).toBe(true);
}

describe('tune: the plan', () => {
  it('comes from the failing tuning checks, one write per CPU whose governor differs', async () => {
    const host = new FakeHost(untuned({ [GOV1]: 'performance\n', [SWAPPINESS]: '1\n' }));
    const result = await tune(host, loaded(), tunable, { ...run, dryRun: true }, deps());
    expect(result.changes.map((c) => [c.origin, c.change.path, c.before, c.status])).toEqual([
      ['cpu.governor', GOV0, 'powersave\n', 'planned'],
      ['sysctl.numa-balancing', NUMA, '1\n', 'planned'],
      ['sched.migration-cost', MIGRATION, '500000\n', 'planned'],
    ]);
  });

  it('--only selects among the tuning checks', async () => {
    const host = new FakeHost(untuned());
    const result = await tune(host, loaded(), tunable.filter((c) => c.id === 'sysctl.swappiness'), { ...run, dryRun: true }, deps());
    expect(result.changes.map((c) => c.origin)).toEqual(['sysctl.swappiness']);
  });

  it('--dry-run reads the old values and writes nothing at all (no lock, no journal)', async () => {
    const host = new FakeHost(untuned());
    const result = await tune(host, loaded(), tunable, { ...run, dryRun: true, persist: true }, deps());
    expect(result.outcome).toBe('planned');
    expect(result.changed).toBe(true);
    expect(result.changes).toHaveLength(7);
    expect(host.writes).toEqual([]);
  });

  it('leaves a waived check alone and lists it as not fixed', async () => {
    const host = new FakeHost(untuned());
    const result = await tune(host, loaded({ waivers: [{ id: 'sysctl.swappiness', reason: 'swap on purpose' }] }), tunable, { ...run, dryRun: true }, deps());
    expect(result.changes.some((c) => c.origin === 'sysctl.swappiness')).toBe(false);
    expect(result.remaining.map((r) => r.id)).toEqual(['sysctl.swappiness']);
  });
});

describe('tune: apply, verify, journal', () => {
  it('journals every old value before the first write, applies, verifies and reports changed', async () => {
    const host = new FakeHost(untuned());
    const result = await tune(host, loaded(), tunable, run, deps());
    expect(result.outcome).toBe('applied');
    expect(result.changed).toBe(true);
    expect(result.journal).toBe(JOURNAL_PATH);
    expect(result.verified.filter((r) => r.status !== 'pass')).toEqual([]);
    expect([host.content(GOV0), host.content(GOV1), host.content(SWAPPINESS), host.content(NUMA), host.content(MIGRATION)]).toEqual([
      'performance\n',
      'performance\n',
      '0\n',
      '0\n',
      '50000\n',
    ]);

    const journalWrite = host.writes.findIndex((w) => w.path === JOURNAL_PATH);
    const firstKernelWrite = host.writes.findIndex((w) => w.path.startsWith('/sys/') || w.path.startsWith('/proc/'));
    expect(journalWrite).toBeGreaterThanOrEqual(0);
    expect(journalWrite).toBeLessThan(firstKernelWrite);
    const journaled = JSON.parse(host.writes[journalWrite]!.content!);
    expect(journaled.runs[0].state).toBe('applying');
    expect(journaled.runs[0].entries.map((e: { path: string; before: string }) => [e.path, e.before])).toEqual([
      [GOV0, 'powersave\n'],
      [GOV1, 'powersave\n'],
      [SWAPPINESS, '60\n'],
      [NUMA, '1\n'],
      [MIGRATION, '500000\n'],
    ]);
    expect(journalOf(host).runs[0].state).toBe('applied');
    expect(host.content(LOCK_PATH)).toBeUndefined();
  });

  it('is idempotent: a second run changes nothing, writes no journal and reports changed false', async () => {
    const host = new FakeHost(untuned());
    await tune(host, loaded(), tunable, { ...run, persist: true }, deps());
    const journalBefore = host.content(JOURNAL_PATH);
    const writesBefore = host.writes.length;
    const second = await tune(host, loaded(), tunable, { ...run, persist: true }, deps());
    expect(second.outcome).toBe('unchanged');
    expect(second.changed).toBe(false);
    expect(second.changes.every((c) => c.status === 'unchanged')).toBe(true);
    // only the lock was taken and released
    expect(host.writes.slice(writesBefore).map((w) => [w.op, w.path])).toEqual([
      ['mkdir', '/var/lib/qprep'],
      ['write', LOCK_PATH],
      ['remove', LOCK_PATH],
    ]);
    expect(host.content(JOURNAL_PATH)).toBe(journalBefore);
  });

  it('a write that fails half-way puts back what was written, last first, and retires the journal', async () => {
    const host = new FakeHost(untuned({}, { writeErrors: { [NUMA]: 'EREADONLY' } }));
    const result = await tune(host, loaded(), tunable, run, deps());
    expect(result.outcome).toBe('rolled-back');
    expect(result.changed).toBe(false);
    expect(result.changes.map((c) => [c.change.path, c.status])).toEqual([
      [GOV0, 'reverted'],
      [GOV1, 'reverted'],
      [SWAPPINESS, 'reverted'],
      [NUMA, 'failed'],
      [MIGRATION, 'skipped'],
    ]);
    expect(result.changes[3]!.error).toBe('/proc/sys/kernel/numa_balancing: read-only file system');
    expect([host.content(GOV0), host.content(GOV1), host.content(SWAPPINESS), host.content(NUMA), host.content(MIGRATION)]).toEqual(['powersave\n', 'powersave\n', '60\n', '1\n', '500000\n']);
    const kernelWrites = host.writes.filter((w) => w.op === 'write' && !w.path.startsWith('/var/lib/')).map((w) => `${w.path}=${w.content!.trim()}`);
    expect(kernelWrites).toEqual([`${GOV0}=performance`, `${GOV1}=performance`, `${SWAPPINESS}=0`, `${SWAPPINESS}=60`, `${GOV1}=powersave`, `${GOV0}=powersave`]);
    expect(host.content(JOURNAL_PATH)).toBeUndefined();
    const record = host.writes.find((w) => w.op === 'rename' && w.path === JOURNAL_PATH)!;
    expect(record.to).toBe('/var/lib/qprep/journal-2026-12-02T10-00-00Z.json');
    expect(JSON.parse(host.content(record.to!)!).runs[0].state).toBe('reverted');
  });

  it('a check that still fails after the writes is a failed verification: everything is put back', async () => {
    // never satisfied; an id no tuning knob names, so that only its own plan is applied
    const stubborn = fakeCheck('mem.jemalloc', {
      level: 'recommended',
      run: async () => fail('still wrong', { remediation: 'x' }),
      plan: async () => [sysctlChange('vm.swappiness', 0)],
    });
    const host = new FakeHost(untuned());
    const result = await tune(host, loaded(), [stubborn], run, deps());
    expect(result.outcome).toBe('rolled-back');
    expect(result.changes[0]!.status).toBe('reverted');
    expect(result.changes[0]!.error).toBe('verification: mem.jemalloc is still warn: still wrong');
    expect(host.content(SWAPPINESS)).toBe('60\n');
  });

  it('a change whose old value cannot be read is refused, and then nothing is written', async () => {
    // cannot read its file; an id no tuning knob names
    const reader = fakeCheck('host.shm', {
      level: 'recommended',
      run: async () => fail('wrong', { remediation: 'x' }),
      plan: async () => [sysctlChange('kernel.numa_balancing', 0), sysctlChange('vm.swappiness', 0)],
    });
    const host = new FakeHost(untuned({ [NUMA]: { error: 'EACCES' } }));
    const result = await tune(host, loaded(), [reader], run, deps());
    expect(result.outcome).toBe('refused');
    expect(result.changes.map((c) => c.status)).toEqual(['refused', 'skipped']);
    expect(result.changes[0]!.error).toMatch(/^the old value cannot be read, so it could not be restored: .*permission denied/);
    expect(host.writes.filter((w) => w.path !== LOCK_PATH && w.op !== 'mkdir')).toEqual([]);
  });

  it('refuses changes outside the allow-list built from the profile, before any write', async () => {
    const rogue = (changes: Change[]) =>
      fakeCheck('host.disk', { level: 'recommended', run: async () => fail('x', { remediation: 'x' }), plan: async () => changes });
    const cases: Array<[Change, RegExp]> = [
      [{ kind: 'sysctl', key: '../../x', path: '/proc/sys/../../x', value: '1' }, /not a canonical absolute path/],
      [{ kind: 'sysctl', key: '../../x', path: '/proc/sys/x', value: '1' }, /sysctl "\.\.\/\.\.\/x" is not one the profile tunes/],
      [{ kind: 'sysctl', key: 'kernel.panic', path: '/proc/sys/kernel/panic', value: '1' }, /not one the profile tunes/],
      [{ kind: 'sysctl', key: 'vm.swappiness', path: '/proc/sys/vm/swappiness', value: '100' }, /the profile sets vm\.swappiness to 0, not 100/],
      [{ kind: 'sysctl', key: 'vm.swappiness', path: '/proc/sys/kernel/panic', value: '0' }, /lives at \/proc\/sys\/vm\/swappiness/],
      [{ kind: 'sysfs', path: '/etc/passwd', value: 'performance' }, /not a kernel file the profile tunes/],
      [{ kind: 'sysfs', path: `${CPU}/cpu0/cpufreq/../../../../../etc/shadow`, value: 'performance' }, /not a canonical absolute path/],
      [{ kind: 'sysfs', path: GOV0, value: 'powersave' }, /the profile sets .* to performance, not powersave/],
      [{ kind: 'file', path: '/etc/cron.d/qprep', content: '* * * * * root sh\n', mode: 0o644 }, /not one of qprep's persistence files/],
    ];
    for (const [change, why] of cases) {
      const host = new FakeHost(untuned({ '/etc/passwd': 'root:x:0:0\n', '/proc/sys/x': '0\n', '/proc/sys/kernel/panic': '0\n' }));
      const result = await tune(host, loaded(), [rogue([change])], run, deps());
      expect(result.outcome, JSON.stringify(change)).toBe('refused');
      expect(result.changes[0]!.error).toMatch(why);
      expect(host.content('/etc/passwd')).toBe('root:x:0:0\n');
      expect(host.writes.filter((w) => w.path !== LOCK_PATH && w.op !== 'mkdir')).toEqual([]);
    }
  });
});

describe('tune: lock, container, interrupted runs', () => {
  const lockOf = (pid: number, hostname = 'node1') => JSON.stringify({ pid, startTime: '7', hostname, command: 'qprep tune', since: '2026-12-02T09:59:00.000Z' });

  it('refuses while another live tune holds the lock', async () => {
    const host = new FakeHost(untuned({ [LOCK_PATH]: lockOf(999) }));
    const error = await tune(host, loaded(), tunable, run, deps([999])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QprepError);
    expect((error as QprepError).code).toBe('locked');
    expect((error as QprepError).message).toContain('"qprep tune" (pid 999 on node1, since 2026-12-02T09:59:00.000Z) holds /var/lib/qprep/tune.lock');
    expect(host.content(SWAPPINESS)).toBe('60\n');
  });

  it('takes over a lock whose owner is gone, and says so', async () => {
    const host = new FakeHost(untuned({ [LOCK_PATH]: lockOf(999) }));
    const result = await tune(host, loaded(), tunable, run, deps([]));
    expect(result.outcome).toBe('applied');
    expect(result.notes[0]).toContain('took over the lock left by "qprep tune" (pid 999');
    expect(host.content(LOCK_PATH)).toBeUndefined();
  });

  it('refuses inside a container unless --force; a dry run is allowed', async () => {
    const container = { '/.dockerenv': '', '/proc/self/mountinfo': '1 0 0:1 / / rw - overlay overlay rw\n' };
    const host = new FakeHost(untuned(container));
    const error = await tune(host, loaded(), tunable, run, deps()).catch((e: unknown) => e);
    expect((error as QprepError).code).toBe('refused');
    expect((error as QprepError).message).toMatch(/^qprep tune runs inside a container \(docker: \/\.dockerenv exists and \/ is overlay\): these settings belong to the host OS/);
    expect(host.writes).toEqual([]);
    expect((await tune(host, loaded(), tunable, { ...run, dryRun: true }, deps())).outcome).toBe('planned');
    expect((await tune(host, loaded(), tunable, { ...run, force: true }, deps())).outcome).toBe('applied');
  });

  it('a tune killed half-way leaves a journal that check reports, tune refuses, and rollback undoes', async () => {
    const host = new FakeHost(untuned({}, { hangWrites: [SWAPPINESS] }));
    // the first process: killed while writing vm.swappiness
    void tune(host, loaded(), tunable, run, deps([4242], 4242));
    await until(() => host.content(GOV1) === 'performance\n');
    await until(() => host.writes.length > 0 && host.content(JOURNAL_PATH) !== undefined);
    expect(journalOf(host).runs[0].state).toBe('applying');
    expect(host.content(LOCK_PATH)).toContain('"pid":4242');

    const ctx = createContext({ host, profile: profileWith(), timeoutMs: 1000 });
    const reported = await tuneJournal.run(ctx);
    expect(reported.status).toBe('fail');
    expect(reported.remediation).toContain('sudo qprep rollback');

    // the next process (pid 5000) sees pid 4242 gone
    const later = deps([5000], 5000);
    const refused = await tune(host, loaded(), tunable, run, later).catch((e: unknown) => e);
    expect((refused as QprepError).code).toBe('refused');
    expect((refused as QprepError).message).toBe(
      'an earlier "qprep tune" (started 2026-12-02T10:00:00.000Z) did not finish: 5 changes in /var/lib/qprep/journal.json may be half applied; run "qprep rollback" first, then tune again',
    );

    // that refusal came after taking over the dead process's lock, which it released
    expect(host.content(LOCK_PATH)).toBeUndefined();

    const undone = await rollback(host, loaded(), { dryRun: false, force: false, timeoutMs: 1000, command: 'qprep rollback' }, later);
    expect(undone.outcome).toBe('rolled-back');
    expect(undone.restores.map((r) => [r.path, r.status])).toEqual([
      [MIGRATION, 'unchanged'],
      [NUMA, 'unchanged'],
      [SWAPPINESS, 'unchanged'],
      [GOV1, 'restored'],
      [GOV0, 'restored'],
    ]);
    expect([host.content(GOV0), host.content(GOV1), host.content(SWAPPINESS)]).toEqual(['powersave\n', 'powersave\n', '60\n']);
    expect(host.content(JOURNAL_PATH)).toBeUndefined();
    expect(JSON.parse(host.content(undone.journal!)!).rolledBackAt).toBe('2026-12-02T10:00:00.000Z');
    expect((await tuneJournal.run(createContext({ host, profile: profileWith(), timeoutMs: 1000 }))).status).toBe('pass');
  });

  it('refuses to add to a journal it cannot parse; rollback says how to recover', async () => {
    const host = new FakeHost(untuned({ [JOURNAL_PATH]: '{"runs": [' }));
    const error = await tune(host, loaded(), tunable, run, deps()).catch((e: unknown) => e);
    expect((error as QprepError).code).toBe('refused');
    expect((error as QprepError).message).toMatch(/journal\.json is not JSON/);
    const back = await rollback(host, loaded(), { dryRun: false, force: false, timeoutMs: 1000, command: 'qprep rollback' }, deps()).catch((e: unknown) => e);
    expect((back as QprepError).code).toBe('invalid-input');
    expect(host.content(SWAPPINESS)).toBe('60\n');
  });
});

describe('tune --persist', () => {
  it('writes sysctl.d and tmpfiles.d files the distribution applies at boot, for what the kernel has', async () => {
    const host = new FakeHost(untuned({ [MIGRATION]: { error: 'ENOENT' }, '/sys/kernel/debug/sched/migration_cost_ns': '500000\n' }));
    const result = await tune(host, loaded(), tunable, { ...run, persist: true }, deps());
    expect(result.outcome).toBe('applied');
    expect(host.content(SYSCTL_D)).toBe(
      '# Written by "qprep tune --persist": kernel settings of the qprep profile,\n' +
        '# applied at boot by systemd-sysctl (and by "sysctl --system").\n' +
        '# "qprep rollback" removes this file or restores what was here; qprep rewrites it.\n' +
        'vm.swappiness = 0\nkernel.numa_balancing = 0\n',
    );
    expect(host.content(TMPFILES)).toContain(
      'w /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor - - - - performance\nw /sys/kernel/debug/sched/migration_cost_ns - - - - 50000\n',
    );
    expect(host.writes.find((w) => w.path === SYSCTL_D)!.how).toBe('atomic');
  });

  it('keeps what an earlier --persist wrote when this run tunes only some checks', async () => {
    const host = new FakeHost(untuned());
    await tune(host, loaded(), tunable.filter((c) => c.id === 'sysctl.numa-balancing'), { ...run, persist: true }, deps());
    await tune(host, loaded(), tunable.filter((c) => c.id === 'sysctl.swappiness'), { ...run, persist: true }, deps());
    expect(host.content(SYSCTL_D)).toMatch(/\nkernel\.numa_balancing = 0\nvm\.swappiness = 0\n$/);
  });

  it('rollback removes the files it created and restores the values, undoing runs newest first', async () => {
    const host = new FakeHost(untuned());
    await tune(host, loaded(), tunable, { ...run, persist: true }, deps());
    // a later run with another target is journaled on top of the first
    const stricter = { tuning: { schedMigrationCostNs: { min: 60000, target: 60000 } } };
    const second = await tune(host, loaded(stricter), tunable, { ...run, persist: true }, deps());
    expect(second.changes.filter((c) => c.status === 'applied').map((c) => [c.change.path, c.before])).toEqual([
      [MIGRATION, '50000\n'],
      [SYSCTL_D, host.writes.find((w) => w.path === SYSCTL_D)!.content],
    ]);
    expect(journalOf(host).runs).toHaveLength(2);
    const undone = await rollback(host, loaded(), { dryRun: false, force: false, timeoutMs: 1000, command: 'qprep rollback' }, deps());
    expect(undone.outcome).toBe('rolled-back');
    expect(undone.restores.filter((r) => r.path === MIGRATION).map((r) => [r.after, r.before, r.status])).toEqual([
      ['60000', '50000\n', 'restored'],
      ['50000', '500000\n', 'restored'],
    ]);
    expect(host.content(SYSCTL_D)).toBeUndefined();
    expect(host.content(TMPFILES)).toBeUndefined();
    expect([host.content(GOV0), host.content(SWAPPINESS), host.content(NUMA), host.content(MIGRATION)]).toEqual(['powersave\n', '60\n', '1\n', '500000\n']);
  });

  it('reports, and does not touch, configuration that sets the same knobs otherwise', async () => {
    const host = new FakeHost(
      untuned({
        '/etc/sysctl.d/10-vendor.conf': 'kernel.numa_balancing = 1\n',
        '/usr/lib/sysctl.d/99-hidden.conf': 'vm.swappiness = 30\n',
        '/etc/sysctl.d/99-hidden.conf': '# masks the vendor file of the same name\n',
        '/usr/lib/sysctl.d/95-vendor.conf': 'vm.swappiness=60\nvm.swappiness = 0\n',
        '/etc/sysctl.conf': 'kernel.sched_migration_cost_ns = 5000000\n',
        '/usr/lib/tmpfiles.d/cpu.conf': 'w /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor - - - - schedutil\n',
        '/etc/tuned/active_profile': 'throughput-performance\n',
        '/run/tuned/tuned.pid': '321\n',
        '/etc/sysconfig/cpupower': 'CPUPOWER_START_OPTS="frequency-set -g powersave"\n',
      }),
    );
    const result = await tune(host, loaded(), tunable, { ...run, dryRun: true, persist: true }, deps());
    expect(result.conflicts.map((c) => [c.kind, c.source, c.winsOverPersist])).toEqual([
      ['sysctl.d', '/etc/sysctl.d/10-vendor.conf:1', false],
      ['sysctl.d', '/usr/lib/sysctl.d/95-vendor.conf:1', true],
      ['sysctl.d', '/etc/sysctl.conf:1', true],
      ['tmpfiles.d', '/usr/lib/tmpfiles.d/cpu.conf:1', true],
      ['tuned', '/etc/tuned/active_profile', true],
      ['cpupower', '/etc/sysconfig/cpupower', true],
    ]);
    expect(result.conflicts[1]!.message).toBe(
      '/usr/lib/sysctl.d/95-vendor.conf:1 sets vm.swappiness = 60, not 0; it is applied after 90-qprep.conf, so it wins at every boot even with --persist: change or remove that line',
    );
    expect(result.conflicts[4]!.message).toMatch(/^tuned is running with the profile "throughput-performance"/);
    expect(host.writes).toEqual([]);
  });

  it('does not persist a governor the cpufreq driver does not offer (it would fail at every boot)', async () => {
    const host = new FakeHost(untuned({ [`${CPU}/cpu0/cpufreq/scaling_available_governors`]: 'powersave schedutil\n' }));
    const result = await tune(host, loaded(), tunable, { ...run, dryRun: true, persist: true }, deps());
    expect(result.remaining.map((r) => r.id)).toEqual(['cpu.governor']);
    expect(result.changes.some((c) => c.origin === 'cpu.governor')).toBe(false);
    expect(result.changes.some((c) => c.change.path === TMPFILES)).toBe(false);
    expect(result.changes.some((c) => c.change.path === SYSCTL_D)).toBe(true);
  });

  it('says when the distribution has no tmpfiles.d, and persists what it can', async () => {
    const host = new FakeHost(untuned({ '/etc/tmpfiles.d': { error: 'ENOENT' } }));
    const result = await tune(host, loaded(), tunable, { ...run, dryRun: true, persist: true }, deps());
    expect(result.notes).toEqual(['/etc/tmpfiles.d does not exist (no systemd-tmpfiles): /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor not made persistent']);
    expect(result.changes.filter((c) => c.origin === 'persist').map((c) => c.change.path)).toEqual([SYSCTL_D]);
  });
});

describe('rollback', () => {
  const options = { dryRun: false, force: false, timeoutMs: 1000, command: 'qprep rollback' };

  it('with no journal has nothing to do', async () => {
    const host = new FakeHost(untuned());
    const result = await rollback(host, loaded(), options, deps());
    expect(result).toMatchObject({ outcome: 'nothing', changed: false, restores: [], journal: null });
  });

  it('leaves a value changed since tune wrote it, unless --force; the journal stays until all is back', async () => {
    const host = new FakeHost(untuned());
    await tune(host, loaded(), tunable, run, deps());
    await host.writeFile(SWAPPINESS, '10\n', { how: 'existing' });
    const first = await rollback(host, loaded(), options, deps());
    expect(first.outcome).toBe('incomplete');
    const drifted = first.restores.find((r) => r.path === SWAPPINESS)!;
    expect(drifted).toMatchObject({ status: 'drifted', current: '10\n', before: '60\n', after: '0' });
    expect(host.content(SWAPPINESS)).toBe('10\n');
    expect(host.content(GOV0)).toBe('powersave\n');
    expect(host.content(JOURNAL_PATH)).toBeDefined();

    const forced = await rollback(host, loaded(), { ...options, force: true }, deps());
    expect(forced.outcome).toBe('rolled-back');
    expect(host.content(SWAPPINESS)).toBe('60\n');
    expect(host.content(JOURNAL_PATH)).toBeUndefined();
  });

  it('--dry-run shows what it would restore and writes nothing', async () => {
    const host = new FakeHost(untuned());
    await tune(host, loaded(), tunable, run, deps());
    host.writes.length = 0;
    const result = await rollback(host, loaded(), { ...options, dryRun: true }, deps());
    expect(result.outcome).toBe('planned');
    expect(result.restores.every((r) => r.status === 'planned')).toBe(true);
    expect(host.writes).toEqual([]);
  });

  it('refuses journal entries outside the allow-list (a journal is a file anyone with root can edit)', async () => {
    const entry = { origin: 'x', kind: 'sysfs', target: '/etc/shadow', path: '/etc/shadow', before: 'root::0:0\n', after: 'x', status: 'applied' };
    const journal = { schemaVersion: 1, kind: 'qprep-tune-journal', hostname: 'node1', createdAt: 'x', updatedAt: 'x', runs: [{ runId: 'r', toolVersion: '0', profile: 'p', command: 'c', startedAt: 'x', state: 'applied', entries: [entry] }] };
    const host = new FakeHost(untuned({ [JOURNAL_PATH]: JSON.stringify(journal), '/etc/shadow': 'x' }));
    const result = await rollback(host, loaded(), options, deps());
    expect(result.outcome).toBe('incomplete');
    expect(result.restores[0]).toMatchObject({ status: 'refused', error: 'not allowed: /etc/shadow is not a kernel file the profile tunes' });
    expect(host.content('/etc/shadow')).toBe('x');
  });

  it('refuses inside a container unless --force', async () => {
    const host = new FakeHost(untuned({ '/.dockerenv': '', '/proc/self/mountinfo': '1 0 0:1 / / rw - overlay overlay rw\n' }));
    const error = await rollback(host, loaded(), options, deps()).catch((e: unknown) => e);
    expect((error as QprepError).code).toBe('refused');
  });
});

describe('a check without plan is never tuned', () => {
  it('the checks with a plan are those of the profile\'s tuning knobs: mem.jemalloc and tune.journal are not among them', () => {
    const ids = tunable.map((c: Check) => c.id);
    expect([...ids].sort()).toEqual(profileKnobs(profileWith()).map((knob) => knob.checkId).sort());
    expect(ids).toContain('sysctl.swappiness');
    expect(ids).not.toContain('mem.jemalloc');
    expect(ids).not.toContain('tune.journal');
    expect(pass('x').status).toBe('pass');
  });
});
