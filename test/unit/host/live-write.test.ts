import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveHost } from '../../../src/host/live.js';
import { RecordingHost, ReplayHost, snapshotSchema } from '../../../src/host/snapshot.js';

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'qprep-write-'));
  mkdirSync(join(root, 'proc/sys/vm'), { recursive: true });
  writeFileSync(join(root, 'proc/sys/vm/swappiness'), '60\n');
  mkdirSync(join(root, 'etc/sysctl.d'), { recursive: true });
  return root;
}

describe('LiveHost writes under --root', () => {
  it('"existing" replaces the whole value of a file that exists, and never creates one', async () => {
    const root = tree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    expect(await host.writeFile('/proc/sys/vm/swappiness', '0\n', { how: 'existing' })).toEqual({ ok: true, value: undefined });
    expect(readFileSync(join(root, 'proc/sys/vm/swappiness'), 'utf8')).toBe('0\n');
    const missing = await host.writeFile('/proc/sys/vm/dirty_ratio', '5\n', { how: 'existing' });
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.code).toBe('ENOENT');
    expect(existsSync(join(root, 'proc/sys/vm/dirty_ratio'))).toBe(false);
  });

  it('"atomic" writes the file with its mode whatever the umask, and leaves no temporary file', async () => {
    const root = tree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    const previous = process.umask(0o077);
    try {
      expect((await host.writeFile('/etc/sysctl.d/90-qprep.conf', 'vm.swappiness = 0\n', { how: 'atomic', mode: 0o644 })).ok).toBe(true);
    } finally {
      process.umask(previous);
    }
    expect(readFileSync(join(root, 'etc/sysctl.d/90-qprep.conf'), 'utf8')).toBe('vm.swappiness = 0\n');
    expect(statSync(join(root, 'etc/sysctl.d/90-qprep.conf')).mode & 0o777).toBe(0o644);
    expect((await host.writeFile('/etc/sysctl.d/90-qprep.conf', 'vm.swappiness = 1\n', { how: 'atomic' })).ok).toBe(true);
    expect(readFileSync(join(root, 'etc/sysctl.d/90-qprep.conf'), 'utf8')).toBe('vm.swappiness = 1\n');
    expect(readdirSync(join(root, 'etc/sysctl.d'))).toEqual(['90-qprep.conf']);
  });

  it('"atomic" into a directory that does not exist fails and creates nothing', async () => {
    const root = tree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    const result = await host.writeFile('/etc/tmpfiles.d/qprep.conf', 'w /x - - - - y\n', { how: 'atomic' });
    expect(!result.ok && result.code).toBe('ENOENT');
    expect(existsSync(join(root, 'etc/tmpfiles.d'))).toBe(false);
  });

  it('"exclusive" creates a file once and then answers EEXIST', async () => {
    const root = tree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    expect((await host.makeDirectory('/var/lib/qprep', 0o755)).ok).toBe(true);
    expect((await host.writeFile('/var/lib/qprep/tune.lock', 'one\n', { how: 'exclusive' })).ok).toBe(true);
    const second = await host.writeFile('/var/lib/qprep/tune.lock', 'two\n', { how: 'exclusive' });
    expect(!second.ok && second.code).toBe('EEXIST');
    expect(readFileSync(join(root, 'var/lib/qprep/tune.lock'), 'utf8')).toBe('one\n');
  });

  it('renames and removes files', async () => {
    const root = tree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    writeFileSync(join(root, 'etc/a'), 'a');
    expect((await host.rename('/etc/a', '/etc/b')).ok).toBe(true);
    expect(readFileSync(join(root, 'etc/b'), 'utf8')).toBe('a');
    expect((await host.removeFile('/etc/b')).ok).toBe(true);
    expect(existsSync(join(root, 'etc/b'))).toBe(false);
    const again = await host.removeFile('/etc/b');
    expect(!again.ok && again.code).toBe('ENOENT');
  });

  it('writes through an absolute symlink of the tree stay inside the tree', async () => {
    const root = tree();
    mkdirSync(join(root, 'sys/devices/system/cpu/cpufreq/policy0'), { recursive: true });
    mkdirSync(join(root, 'sys/devices/system/cpu/cpu0'), { recursive: true });
    writeFileSync(join(root, 'sys/devices/system/cpu/cpufreq/policy0/scaling_governor'), 'powersave\n');
    // as on real sysfs, cpuN/cpufreq links to the policy directory; absolute here, to prove confinement
    symlinkSync('/sys/devices/system/cpu/cpufreq/policy0', join(root, 'sys/devices/system/cpu/cpu0/cpufreq'));
    const host = new LiveHost({ root, timeoutMs: 2000 });
    expect((await host.writeFile('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'performance\n', { how: 'existing' })).ok).toBe(true);
    expect(readFileSync(join(root, 'sys/devices/system/cpu/cpufreq/policy0/scaling_governor'), 'utf8')).toBe('performance\n');
  });

  it('refuses relative paths', async () => {
    const host = new LiveHost({ root: tree(), timeoutMs: 2000 });
    const result = await host.writeFile('etc/x', 'x', { how: 'atomic' });
    expect(result.ok).toBe(false);
  });
});

describe('snapshot hosts never write', () => {
  it('the recorder refuses every write and the replay too, without touching the machine', async () => {
    const root = tree();
    const recorder = new RecordingHost(new LiveHost({ root, timeoutMs: 2000 }));
    const refused = await recorder.writeFile('/proc/sys/vm/swappiness', '0\n', { how: 'existing' });
    expect(!refused.ok && refused.code).toBe('EREADONLY');
    expect((await recorder.removeFile('/proc/sys/vm/swappiness')).ok).toBe(false);
    expect(readFileSync(join(root, 'proc/sys/vm/swappiness'), 'utf8')).toBe('60\n');

    const replay = new ReplayHost(
      snapshotSchema.parse({ schemaVersion: 1, kind: 'qprep-snapshot', createdAt: 'x', tool: { name: 'qprep', version: '0' }, root, identity: { hostname: 'h', arch: 'x86_64', kernel: '6' } }),
      'snap.json',
    );
    for (const result of [
      await replay.writeFile('/proc/sys/vm/swappiness', '0\n', { how: 'existing' }),
      await replay.makeDirectory('/var/lib/qprep', 0o755),
      await replay.rename('/a', '/b'),
      await replay.removeFile('/a'),
    ]) {
      expect(!result.ok && result.message).toContain('read-only');
    }
    expect(readFileSync(join(root, 'proc/sys/vm/swappiness'), 'utf8')).toBe('60\n');
  });
});
