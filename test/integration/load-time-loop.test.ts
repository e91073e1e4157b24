import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, rmdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveHost } from '../../src/host/live.js';
import { BIN } from '../helpers/cli.js';

/*
 * The read probe and model.load-time on real storage whose throughput is really limited: a
 * loop device made here (an ext4 image), mounted, its reads throttled to 50 MB/s by the block
 * I/O controller of a cgroup made here (v1 blkio.throttle.read_bps_device on the device's
 * major:minor, or v2 io.max). The built CLI runs inside that cgroup. The weights are 40 GiB of
 * sparse shards whose first 320 MiB are real blocks: the probe reads at most 3 s at 50 MB/s from
 * the start of the first shard, so every byte it reads costs real I/O (a hole is read from no
 * device). The same directory on tmpfs passes. Everything is removed after, also on failure.
 */

const MB = 1000 * 1000;
const MiB = 1024 * 1024;
const GiB = 1024 ** 3;
const LIMIT = 50 * MB;
const SHARDS = Array.from({ length: 4 }, (_, i) => `model-0000${i + 1}-of-00004.safetensors`);

function has(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

/** The cgroup file that limits a device's reads: v1 blkio, or v2 io.max with the io controller. */
function throttleKind(): 'v1' | 'v2' | undefined {
  if (existsSync('/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device')) return 'v1';
  if (existsSync('/sys/fs/cgroup/cgroup.controllers') && readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(/\s+/).includes('io')) return 'v2';
  return undefined;
}

function whyNotPossible(): string | undefined {
  if (process.platform !== 'linux') return 'loop devices and cgroups exist on Linux only';
  if (process.getuid?.() !== 0) return 'a loop device, a mount and a cgroup need root: run the slow tests as root';
  for (const tool of ['losetup', 'mkfs.ext4', 'mount', 'umount', 'fincore']) if (!has(tool)) return `${tool} is not installed (util-linux, e2fsprogs)`;
  if (!throttleKind()) return 'no block I/O controller: neither /sys/fs/cgroup/blkio (cgroup v1) nor the io controller of cgroup v2 is mounted';
  const free = spawnSync('losetup', ['--find']);
  if (free.status !== 0) return `no free loop device (losetup --find: ${String(free.stderr).trim() || `exit ${free.status}`}): a container without /dev/loop*?`;
  return undefined;
}

const reason = whyNotPossible();
if (reason) {
  // CI installs what this needs (.ci/run) and runs as root: a missing part there is a failure, not a skip
  if (process.env.CI) throw new Error(`[load-time-loop] cannot run in CI: ${reason}`);
  console.warn(`[load-time-loop] skipped: ${reason}`);
}

function run(argv: string[]): string {
  const result = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr.trim() || `exit ${result.status}`}`);
  return result.stdout.trim();
}

/** A weights directory: config, index, four sparse shards of 10 GiB; the first `realMiB` of the first are written. */
function writeWeights(dir: string, realMiB: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), '{"model_type": "qwen3_moe"}\n');
  writeFileSync(join(dir, 'model.safetensors.index.json'), JSON.stringify({ weight_map: Object.fromEntries(SHARDS.map((s, i) => [`w${i}`, s])) }));
  if (realMiB > 0) run(['dd', 'if=/dev/zero', `of=${join(dir, SHARDS[0]!)}`, 'bs=1M', `count=${realMiB}`, 'conv=fsync', 'status=none']);
  for (const shard of SHARDS) {
    if (!existsSync(join(dir, shard))) writeFileSync(join(dir, shard), '');
    truncateSync(join(dir, shard), 10 * GiB);
  }
}

interface CheckJson {
  status: string;
  message: string;
  remediation?: string;
  evidence: Record<string, unknown> & { storage: Record<string, unknown> };
}

describe.skipIf(reason !== undefined)('model.load-time on a loop device throttled to 50 MB/s, and on tmpfs', () => {
  let work = '';
  let loop = '';
  let mnt = '';
  let shm = '';
  let cgroup = '';

  const script = (model: string, lines: string[] = []) => ['#!/bin/bash', ...lines, `vllm serve ${model} --tensor-parallel-size 8`, ''].join('\n');

  /** The built CLI inside the throttled cgroup: `qprep check --launch SCRIPT --only model.load-time --format json`. */
  async function loadTime(scriptText: string, inCgroup = true): Promise<CheckJson> {
    const file = join(work, `run-${Math.random().toString(36).slice(2)}.sh`);
    writeFileSync(file, scriptText);
    const argv = [process.execPath, BIN, 'check', '--launch', file, '--only', 'model.load-time', '--format', 'json'];
    // the shell joins the cgroup, then becomes qprep: every read qprep makes is charged to it
    const command = inCgroup ? ['sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup, ...argv] : argv;
    const result = await execa(command[0]!, command.slice(1), { reject: false, timeout: 60_000, env: { HOME: '/root', PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    const report = JSON.parse(String(result.stdout)) as { checks: CheckJson[] };
    return report.checks[0]!;
  }

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'qprep-loadtime-'));
    const image = join(work, 'disk.img');
    writeFileSync(image, '');
    truncateSync(image, 2 * GiB);
    run(['mkfs.ext4', '-q', '-F', '-E', 'lazy_itable_init=0,lazy_journal_init=0', image]);
    loop = run(['losetup', '--find', '--show', image]);
    mnt = join(work, 'mnt');
    mkdirSync(mnt);
    run(['mount', loop, mnt]);
    writeWeights(join(mnt, 'models/big'), 320);
    // what was just written, written out and dropped from the page cache (POSIX_FADV_DONTNEED
    // on each whole file). Not by a remount: a mount namespace another test file unshared
    // meanwhile keeps the filesystem, and its cache, alive after the umount here
    run(['sync']);
    for (const shard of SHARDS) run(['dd', `if=${join(mnt, 'models/big', shard)}`, 'iflag=nocache', 'count=0', 'status=none']);
    shm = join(work, 'shm');
    mkdirSync(shm);
    run(['mount', '-t', 'tmpfs', '-o', 'size=512m', 'qprep-loadtime', shm]);
    writeWeights(join(shm, 'models/big'), 0);
    const rdev = statSync(loop).rdev;
    const device = `${Math.floor(rdev / 256) & 0xfff}:${(rdev & 0xff) | ((rdev >> 12) & 0xfff00)}`;
    if (throttleKind() === 'v1') {
      cgroup = `/sys/fs/cgroup/blkio/qprep-loadtime-${process.pid}`;
      mkdirSync(cgroup);
      writeFileSync(join(cgroup, 'blkio.throttle.read_bps_device'), `${device} ${LIMIT}\n`);
    } else {
      writeFileSync('/sys/fs/cgroup/cgroup.subtree_control', '+io');
      cgroup = `/sys/fs/cgroup/qprep-loadtime-${process.pid}`;
      mkdirSync(cgroup);
      writeFileSync(join(cgroup, 'io.max'), `${device} rbps=${LIMIT}\n`);
    }
  });

  afterAll(() => {
    // each step on its own: one that fails must not leave the others' parts behind
    const steps = [
      () => cgroup && rmdirSync(cgroup),
      () => shm && run(['umount', shm]),
      () => mnt && run(['umount', mnt]),
      () => loop && run(['losetup', '--detach', loop]),
      () => work && rmSync(work, { recursive: true, force: true }),
    ];
    const failures: string[] = [];
    for (const step of steps) {
      try {
        step();
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    if (failures.length > 0) throw new Error(`clean-up: ${failures.join('; ')}`);
  });

  it('measures 40-60 MB/s within 3 s, and fails 40 GiB against the 600 s default with the export line that fixes it', async () => {
    const model = join(mnt, 'models/big');
    const first = await loadTime(script(model));
    const { evidence } = first;
    expect(evidence.throughputBytesPerSec as number).toBeGreaterThanOrEqual(40 * MB);
    expect(evidence.throughputBytesPerSec as number).toBeLessThanOrEqual(60 * MB);
    expect(evidence.storage.durationMs as number).toBeLessThanOrEqual(3000);
    expect(evidence.storage).toMatchObject({ method: 'direct', kind: 'local', source: loop, mountPoint: mnt });
    expect(evidence).toMatchObject({ bytesToRead: 40 * GiB, filesystem: 'ext4', cached: false, timeoutSeconds: 600 });
    expect(evidence.estimatedSeconds as number).toBeGreaterThan(600);
    expect(first.status).toBe('fail');
    const exportLine = /^\S+: (export VLLM_ENGINE_READY_TIMEOUT_S=\d+)   #/m.exec(first.remediation ?? '')?.[1];
    expect(exportLine, first.remediation).toBeDefined();

    // the line the fix names, in the script: the same storage now loads in time
    const fixed = await loadTime(script(model, [exportLine!]));
    expect(fixed.status, fixed.message).toBe('pass');
    expect(fixed.evidence.timeoutSeconds as number).toBeGreaterThan(2 * (fixed.evidence.estimatedSeconds as number));
  });

  it('passes the same directory on tmpfs, whose cache is the storage', async () => {
    const onTmpfs = await loadTime(script(join(shm, 'models/big')));
    expect(onTmpfs.status, onTmpfs.message).toBe('pass');
    expect(onTmpfs.evidence).toMatchObject({ filesystem: 'tmpfs', cached: true, bytesToRead: 40 * GiB });
    expect(onTmpfs.evidence.estimatedSeconds as number).toBeLessThan(300);
  });

  it('detects a cached read as cached, and a cold one as the storage', async () => {
    const model = join(mnt, 'models/big');
    const shard = join(model, SHARDS[0]!);
    const request = { directory: model, files: [shard], maxBytes: 64 * MiB, maxMs: 3000, timedOpens: 0, direct: false };
    run(['dd', `if=${shard}`, 'of=/dev/null', 'bs=4M', 'count=16', 'status=none']);
    const warm = await new LiveHost({ timeoutMs: 10_000 }).readThroughput(request);
    expect(warm.ok && warm.value.method).toBe('buffered');
    expect(warm.ok && warm.value.cachedBytesAtMost).toBe(64 * MiB);
    // the file's pages dropped from the cache (POSIX_FADV_DONTNEED on the whole file). Not by a
    // remount: a mount namespace another test file unshared meanwhile keeps the filesystem, and
    // its cache, alive after the umount here
    run(['dd', `if=${shard}`, 'iflag=nocache', 'count=0', 'status=none']);
    const cold = await new LiveHost({ timeoutMs: 10_000 }).readThroughput(request);
    expect(cold.ok && cold.value.method, JSON.stringify(cold.ok ? { ...cold.value, reads: undefined } : cold)).toBe('uncached-files');
    expect(cold.ok && cold.value.cachedBytesAtMost).toBe(0);
  });
});
