import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveHost } from '../../../src/host/live.js';
import { RecordingHost, ReplayHost, snapshotSchema } from '../../../src/host/snapshot.js';

function hostTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'qprep-root-'));
  mkdirSync(join(root, 'usr/local/Ascend/cann-8.3.RC2/aarch64-linux'), { recursive: true });
  mkdirSync(join(root, 'usr/local/Ascend/ascend-toolkit'), { recursive: true });
  writeFileSync(join(root, 'usr/local/Ascend/cann-8.3.RC2/aarch64-linux/ascend_toolkit_install.info'), 'version=8.3.RC2\n');
  // an absolute link, as the CANN installer makes it: it points into the host tree, not ours
  symlinkSync('/usr/local/Ascend/cann-8.3.RC2', join(root, 'usr/local/Ascend/ascend-toolkit/latest'));
  symlinkSync('../../../../etc/passwd', join(root, 'usr/local/Ascend/escape'));
  mkdirSync(join(root, 'etc'), { recursive: true });
  writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:tree\n');
  mkdirSync(join(root, 'proc/sys/vm'), { recursive: true });
  writeFileSync(join(root, 'proc/sys/vm/swappiness'), '60\n');
  return root;
}

describe('LiveHost', () => {
  it('reads files under --root and resolves absolute symlinks inside the root', async () => {
    const root = hostTree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    const read = await host.readFile('/usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info');
    expect(read).toEqual({ ok: true, value: 'version=8.3.RC2\n' });
    expect(await host.readFile('/proc/sys/vm/swappiness')).toEqual({ ok: true, value: '60\n' });
    const link = await host.readLink('/usr/local/Ascend/ascend-toolkit/latest');
    expect(link).toEqual({ ok: true, value: '/usr/local/Ascend/cann-8.3.RC2' });
    const lstat = await host.lstat('/usr/local/Ascend/ascend-toolkit/latest');
    expect(lstat.ok && lstat.value.kind).toBe('symlink');
    const stat = await host.stat('/usr/local/Ascend/ascend-toolkit/latest');
    expect(stat.ok && stat.value.kind).toBe('directory');
  });

  it('remembers the directories a run read through, and still never reads outside the root when one becomes a link', async () => {
    const root = hostTree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    for (const cpu of [0, 1]) {
      mkdirSync(join(root, `sys/devices/system/cpu/cpu${cpu}/cpufreq`), { recursive: true });
      writeFileSync(join(root, `sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`), 'powersave\n');
    }
    expect(await host.readFile('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor')).toEqual({ ok: true, value: 'powersave\n' });
    // the directory the first read went through is now a link out of the tree, to a directory
    // with the same files: what the kernel opens through it must be refused, not read
    const { renameSync } = await import('node:fs');
    const outside = mkdtempSync(join(tmpdir(), 'qprep-outside-'));
    mkdirSync(join(outside, 'cpu1/cpufreq'), { recursive: true });
    writeFileSync(join(outside, 'cpu1/cpufreq/scaling_governor'), 'performance\n');
    renameSync(join(root, 'sys/devices/system/cpu'), join(root, 'sys/devices/system/cpu-moved'));
    symlinkSync(outside, join(root, 'sys/devices/system/cpu'));
    const second = await host.readFile('/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor');
    expect(second.ok).toBe(false);
    expect(second.ok ? '' : second.message).toMatch(/led outside --root/);
    // a new host (the next run) resolves the link by hand, inside the root: there is no cpu1 there now
    expect((await new LiveHost({ root, timeoutMs: 2000 }).readFile('/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor')).ok).toBe(false);
    expect(await new LiveHost({ root, timeoutMs: 2000 }).readFile('/sys/devices/system/cpu-moved/cpu1/cpufreq/scaling_governor')).toEqual({ ok: true, value: 'powersave\n' });
  });

  it('never leaves the root through .. in a link', async () => {
    const root = hostTree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    const read = await host.readFile('/usr/local/Ascend/escape');
    expect(read).toEqual({ ok: true, value: 'root:x:0:0:tree\n' });
  });

  it('tells a character device from a regular file and reports missing paths', async () => {
    const host = new LiveHost({ timeoutMs: 2000 });
    const dev = await host.stat('/dev/null');
    expect(dev.ok && dev.value.kind).toBe('char-device');
    const file = await host.stat('/etc/hostname');
    expect(file.ok && file.value.kind).toBe('file');
    const missing = await host.readFile('/nonexistent/qprep');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.code).toBe('ENOENT');
  });

  it('lists directories sorted with kinds and measures filesystems', async () => {
    const root = hostTree();
    const host = new LiveHost({ root, timeoutMs: 2000 });
    const listing = await host.readDir('/usr/local/Ascend');
    expect(listing.ok && listing.value).toEqual([
      { name: 'ascend-toolkit', kind: 'directory' },
      { name: 'cann-8.3.RC2', kind: 'directory' },
      { name: 'escape', kind: 'symlink' },
    ]);
    const usage = await host.statfs('/');
    expect(usage.ok && usage.value.totalBytes).toBeGreaterThan(0);
  });

  it('lists network interfaces with loopback up', async () => {
    const host = new LiveHost({ timeoutMs: 2000 });
    const interfaces = await host.interfaces();
    expect(interfaces.ok).toBe(true);
    const lo = interfaces.ok ? interfaces.value.find((i) => i.name === 'lo') : undefined;
    expect(lo?.loopback).toBe(true);
    expect(lo?.addresses.some((a) => a.address === '127.0.0.1' && a.prefix === 8)).toBe(true);
  });
});

describe('record and replay', () => {
  it('replays what was recorded and nothing else, redacting secrets', async () => {
    const root = hostTree();
    const live = new LiveHost({ root, timeoutMs: 2000, env: { PATH: '/usr/bin:/bin', HF_TOKEN: 'hf_secret', https_proxy: 'http://u:p@proxy:1' } });
    const recorder = new RecordingHost(live);
    const file = await recorder.readFile('/proc/sys/vm/swappiness');
    const missing = await recorder.readFile('/etc/nothing');
    const command = await recorder.run(['sh', '-c', 'echo first']);
    await recorder.run(['sh', '-c', 'echo first']);
    const snapshot = snapshotSchema.parse(JSON.parse(JSON.stringify(await recorder.toSnapshot({ name: 'qprep', version: 'test' }))));
    expect(snapshot.env.HF_TOKEN).toBe('***');
    expect(snapshot.env.https_proxy).toBe('http://***@proxy:1');

    const replay = new ReplayHost(snapshot, 'snap.json');
    expect(await replay.readFile('/proc/sys/vm/swappiness')).toEqual(file);
    expect(await replay.readFile('/etc/nothing')).toEqual(missing);
    expect(await replay.readFile('/etc/other')).toEqual({ ok: false, code: 'ENOTCAPTURED', message: 'not captured in the snapshot' });
    expect((await replay.run(['sh', '-c', 'echo first'])).stdout).toBe(command.stdout);
    const uncaptured = await replay.run(['npu-smi', 'info']);
    expect(uncaptured.exitCode).toBeNull();
    expect(uncaptured.failure).toBe('not captured in the snapshot');
    expect(replay.root).toBe(root);
  });

  it('answers every read of a path with the first answer, as its replay will, even when the file changes', async () => {
    const root = hostTree();
    const recorder = new RecordingHost(new LiveHost({ root, timeoutMs: 2000, env: {} }));
    const [first, concurrent] = await Promise.all([recorder.readFile('/proc/sys/vm/swappiness'), recorder.readFile('/proc/sys/vm/swappiness')]);
    writeFileSync(join(root, 'proc/sys/vm/swappiness'), '10\n');
    const later = await recorder.readFile('/proc/sys/vm/swappiness');
    expect(concurrent).toEqual(first);
    expect(later).toEqual(first);
    const snapshot = snapshotSchema.parse(JSON.parse(JSON.stringify(await recorder.toSnapshot({ name: 'qprep', version: 'test' }))));
    expect(await new ReplayHost(snapshot, 'snap.json').readFile('/proc/sys/vm/swappiness')).toEqual(first);
  });
});
