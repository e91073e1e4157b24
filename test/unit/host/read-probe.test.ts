import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveHost } from '../../../src/host/live.js';
import { RecordingHost, ReplayHost, snapshotSchema } from '../../../src/host/snapshot.js';
import type { ReadProbeRequest } from '../../../src/host/types.js';

const MiB = 1024 * 1024;
const hasFincore = spawnSync('fincore', ['--version']).status === 0;

/** A weights directory of real files: two dense shards of `mib` MiB and a link that leads out of it. */
function weights(mib = 3): { dir: string; outside: string } {
  const base = mkdtempSync(join(tmpdir(), 'qprep-read-'));
  const dir = join(base, 'w');
  mkdirSync(dir);
  writeFileSync(join(dir, 'model-00001-of-00002.safetensors'), randomBytes(mib * MiB));
  writeFileSync(join(dir, 'model-00002-of-00002.safetensors'), randomBytes(mib * MiB));
  const outside = join(base, 'secret');
  writeFileSync(outside, 'not weights\n');
  symlinkSync(outside, join(dir, 'model-00003-of-00003.safetensors'));
  return { dir, outside };
}

const request = (dir: string, overrides: Partial<ReadProbeRequest> = {}): ReadProbeRequest => ({
  directory: dir,
  files: ['model-00001-of-00002.safetensors', 'model-00003-of-00003.safetensors', 'model-00002-of-00002.safetensors'].map((f) => `${dir}/${f}`),
  maxBytes: 2 * 1024 ** 3,
  maxMs: 3000,
  timedOpens: 1,
  ...overrides,
});

describe('LiveHost.readThroughput', () => {
  it('reads the real bytes of the shards in order, and refuses a link that leads out of the directory', async () => {
    const { dir, outside } = weights();
    const probe = await new LiveHost({ timeoutMs: 5000 }).readThroughput(request(dir));
    expect(probe.ok).toBe(true);
    if (!probe.ok) return;
    expect(probe.value.bytesRead).toBe(6 * MiB);
    expect(probe.value.stoppedBy).toBe('files');
    expect(probe.value.reads).toEqual([
      { path: `${dir}/model-00001-of-00002.safetensors`, offset: 0, bytes: 3 * MiB },
      { path: `${dir}/model-00002-of-00002.safetensors`, offset: 0, bytes: 3 * MiB },
    ]);
    const refused = probe.value.files.find((f) => f.path.endsWith('00003.safetensors'))!;
    expect(refused.refused).toBe(`leads outside ${dir} (to ${outside})`);
    expect(probe.value.reads.some((r) => r.path.includes('00003'))).toBe(false);
    expect(probe.value.opens.map((o) => o.path)).toEqual([`${dir}/model-00002-of-00002.safetensors`]);
  });

  it('stops at its byte bound, within a block of it', async () => {
    const { dir } = weights(8);
    const probe = await new LiveHost({ timeoutMs: 5000 }).readThroughput(request(dir, { maxBytes: 5 * MiB }));
    expect(probe.ok && probe.value.stoppedBy).toBe('bytes');
    expect(probe.ok && probe.value.bytesRead).toBeGreaterThanOrEqual(5 * MiB);
    expect(probe.ok && probe.value.bytesRead).toBeLessThanOrEqual(5 * MiB + 4096);
  });

  it('probes a filesystem once per host: a second directory on it gets the first answer', async () => {
    const first = weights();
    const second = weights();
    const host = new LiveHost({ timeoutMs: 5000 });
    const a = await host.readThroughput(request(first.dir));
    const b = await host.readThroughput(request(second.dir));
    expect(b).toBe(a);
  });

  it('reads the dense shards of a directory with sparse ones, and counts the holes of a sparse-only one', async () => {
    const { dir } = weights(2);
    truncateSync(join(dir, 'model-00002-of-00002.safetensors'), 64 * MiB);
    const mixed = await new LiveHost({ timeoutMs: 5000 }).readThroughput(request(dir));
    expect(mixed.ok && mixed.value.reads.map((r) => r.path)).toEqual([`${dir}/model-00001-of-00002.safetensors`]);
    expect(mixed.ok && mixed.value.holeBytesAtLeast).toBe(0);
    const sparseOnly = weights(1);
    truncateSync(join(sparseOnly.dir, 'model-00001-of-00002.safetensors'), 32 * MiB);
    truncateSync(join(sparseOnly.dir, 'model-00002-of-00002.safetensors'), 32 * MiB);
    const holes = await new LiveHost({ timeoutMs: 5000 }).readThroughput(request(sparseOnly.dir));
    expect(holes.ok && holes.value.bytesRead).toBe(64 * MiB);
    expect(holes.ok && holes.value.holeBytesAtLeast).toBeGreaterThanOrEqual(60 * MiB);
  });

  it('without O_DIRECT, reads through the page cache and says how much of it was cached (fincore)', async () => {
    const { dir } = weights();
    const probe = await new LiveHost({ timeoutMs: 5000 }).readThroughput(request(dir, { direct: false }));
    expect(probe.ok && probe.value.directRefused).toBe('O_DIRECT not asked for');
    if (!probe.ok) return;
    if (hasFincore) {
      // the files were just written: their pages are in the cache
      expect(probe.value.method).toBe('buffered');
      expect(probe.value.cachedBytesAtMost).toBeGreaterThan(5 * MiB);
    } else {
      expect(probe.value.residencyUnknown).toBe('fincore (util-linux) is not installed');
      expect(probe.value.cachedBytesAtMost).toBeNull();
    }
  });

  it('under --root reads the tree, following its absolute links inside it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-read-root-'));
    mkdirSync(join(root, 'data/blobs'), { recursive: true });
    mkdirSync(join(root, 'data/snap'), { recursive: true });
    writeFileSync(join(root, 'data/blobs/abc'), randomBytes(MiB));
    symlinkSync('/data/blobs/abc', join(root, 'data/snap/model.safetensors'));
    const probe = await new LiveHost({ root, timeoutMs: 5000 }).readThroughput({ directory: '/data', files: ['/data/snap/model.safetensors'], maxBytes: MiB, maxMs: 3000, timedOpens: 0 });
    expect(probe.ok && probe.value.bytesRead).toBe(MiB);
  });

  it('is recorded by a snapshot and replayed byte for byte, whatever the bounds of the replay asks', async () => {
    const { dir } = weights(1);
    const recorder = new RecordingHost(new LiveHost({ timeoutMs: 5000 }));
    const recorded = await recorder.readThroughput(request(dir));
    const snapshot = snapshotSchema.parse(JSON.parse(JSON.stringify(await recorder.toSnapshot({ name: 'qprep', version: 'test' }))));
    const replay = new ReplayHost(snapshot, 'test.json');
    expect(await replay.readThroughput(request(dir, { maxMs: 1, maxBytes: 1 }))).toEqual(recorded);
    expect(await replay.readThroughput(request('/elsewhere'))).toEqual({ ok: false, code: 'ENOTCAPTURED', message: 'not captured in the snapshot' });
  });
});
