import { describe, expect, it } from 'vitest';
import { QprepError } from '../../../src/errors.js';
import { allowListFor, isCanonicalPath, profileAllowList } from '../../../src/core/tune/allow-list.js';
import { profileKnobs } from '../../../src/core/tune/knobs.js';
import { acquireLock, LOCK_PATH } from '../../../src/core/tune/lock.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { profileWith } from '../../helpers/run-check.js';

describe('the write allow-list', () => {
  it('takes only canonical absolute paths', () => {
    expect(isCanonicalPath('/proc/sys/vm/swappiness')).toBe(true);
    for (const path of ['proc/sys/vm/swappiness', '/proc/sys/../../etc/passwd', '/proc/sys/./vm', '/proc//sys', '/proc/sys/', '/a\0b', '/']) {
      expect(isCanonicalPath(path), path).toBe(false);
    }
  });

  it('follows the profile: its keys, its values, its governor', () => {
    const allow = profileAllowList(profileWith({ tuning: { cpuGovernor: 'schedutil', swappiness: { target: 1 } } }));
    expect(allow.refuse({ kind: 'sysctl', key: 'vm.swappiness', path: '/proc/sys/vm/swappiness', value: '1' })).toBeUndefined();
    expect(allow.refuse({ kind: 'sysctl', key: 'vm.swappiness', path: '/proc/sys/vm/swappiness', value: '0' })).toBe('the profile sets vm.swappiness to 1, not 0');
    expect(allow.refuse({ kind: 'sysfs', path: '/sys/devices/system/cpu/cpu17/cpufreq/scaling_governor', value: 'schedutil' })).toBeUndefined();
    expect(allow.refuse({ kind: 'sysfs', path: '/sys/devices/system/cpu/cpu17/cpufreq/scaling_max_freq', value: 'schedutil' })).toMatch(/not a kernel file the profile tunes/);
    expect(allow.refuse({ kind: 'sysfs', path: '/sys/kernel/debug/sched/migration_cost_ns', value: '50000' })).toBeUndefined();
    expect(allow.refuse({ kind: 'file', path: '/etc/sysctl.d/90-qprep.conf', content: 'x', mode: 0o644 })).toBeUndefined();
    expect(allow.refuse({ kind: 'file', path: '/etc/sysctl.d/99-qprep.conf', content: 'x', mode: 0o644 })).toMatch(/not one of qprep's persistence files/);
    expect(allow.refuse({ kind: 'sysfs', path: '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', value: 'x'.repeat(70_000) })).toMatch(/larger than/);
  });

  it('for rollback judges paths only: the values are the old ones from the journal', () => {
    const allow = allowListFor(profileKnobs(profileWith()), { anyValue: true });
    expect(allow.refuse({ kind: 'sysctl', key: 'vm.swappiness', path: '/proc/sys/vm/swappiness', value: '60\n' })).toBeUndefined();
    expect(allow.refuse({ kind: 'sysfs', path: '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', value: 'powersave\n' })).toBeUndefined();
    expect(allow.refuse({ kind: 'sysctl', key: 'kernel.modprobe', path: '/proc/sys/kernel/modprobe', value: '/tmp/x' })).toMatch(/not one the profile tunes/);
  });
});

describe('the tune lock', () => {
  const deps = (running: number[]) => ({ self: { pid: 10, startTime: '5' }, isRunning: (id: { pid: number }) => running.includes(id.pid), hostname: 'node1', now: () => new Date('2026-12-02T10:00:00Z') });

  it('is created exclusively and removed on release', async () => {
    const host = new FakeHost({ files: { '/var/lib': { kind: 'directory' } } });
    const lock = await acquireLock(host, 'qprep tune', deps([]));
    expect(JSON.parse(host.content(LOCK_PATH)!)).toEqual({ pid: 10, startTime: '5', hostname: 'node1', command: 'qprep tune', since: '2026-12-02T10:00:00.000Z' });
    const second = await acquireLock(host, 'qprep rollback', { ...deps([10]), self: { pid: 11, startTime: '6' } }).catch((e: unknown) => e);
    expect((second as QprepError).code).toBe('locked');
    await lock.release();
    expect(host.content(LOCK_PATH)).toBeUndefined();
  });

  it('treats an empty or torn lock file (its writer died mid-write) as stale', async () => {
    const host = new FakeHost({ files: { [LOCK_PATH]: '{"pid": 12' } });
    const lock = await acquireLock(host, 'qprep tune', deps([12]));
    expect(lock.tookOverFrom).toBe('an unreadable lock file');
    expect(host.content(`${LOCK_PATH}.stale-10-0`)).toBeUndefined();
  });

  it('does not break a lock of another machine sharing the tree', async () => {
    const host = new FakeHost({ files: { [LOCK_PATH]: JSON.stringify({ pid: 12, startTime: null, hostname: 'node2', command: 'qprep tune', since: 'x' }) } });
    const error = await acquireLock(host, 'qprep tune', deps([])).catch((e: unknown) => e);
    expect((error as QprepError).message).toContain('another machine using this tree');
  });

  it('says so when the state directory cannot be created', async () => {
    const host = new FakeHost({ files: { '/var/lib': 'a file, not a directory' } });
    const error = await acquireLock(host, 'qprep tune', deps([])).catch((e: unknown) => e);
    expect((error as QprepError).code).toBe('refused');
    expect((error as QprepError).message).toMatch(/^cannot create \/var\/lib\/qprep: .*nothing was changed$/);
  });
});
