// A disk whose reads are really limited, for the load-time measurement: an ext4 image on a
// loop device, mounted, and a cgroup whose block I/O controller limits the loop device's reads
// (v1 blkio.throttle.read_bps_device, or v2 io.max). A command run through `inCgroup` is
// charged to it. Needs root; `whyNotPossible` says what is missing. `remove` undoes every step.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GiB = 1024 ** 3;

function run(argv) {
  const result = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr.trim() || `exit ${result.status}`}`);
  return result.stdout.trim();
}

function throttleKind() {
  if (existsSync('/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device')) return 'v1';
  if (existsSync('/sys/fs/cgroup/cgroup.controllers') && readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(/\s+/).includes('io')) return 'v2';
  return undefined;
}

export function whyNotPossible() {
  if (process.platform !== 'linux') return 'loop devices and cgroups exist on Linux only';
  if (process.getuid?.() !== 0) return 'a loop device, a mount and a cgroup need root';
  for (const tool of ['losetup', 'mkfs.ext4', 'mount', 'umount']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `${tool} is not installed (util-linux, e2fsprogs)`;
  }
  if (!throttleKind()) return 'no block I/O controller (cgroup v1 blkio, or the io controller of cgroup v2)';
  if (spawnSync('losetup', ['--find']).status !== 0) return 'no free loop device';
  return undefined;
}

/**
 * The disk, with a weights directory of four sparse 10 GiB shards whose first `realMiB` are
 * real blocks (what a probe of `seconds` at `bytesPerSecond` reads), config and index.
 */
export function throttledDisk({ bytesPerSecond, realMiB }) {
  const made = { work: mkdtempSync(join(tmpdir(), 'qprep-bench-disk-')), loop: '', mnt: '', cgroup: '' };
  const remove = () => {
    for (const step of [() => made.cgroup && rmdirSync(made.cgroup), () => made.mnt && run(['umount', made.mnt]), () => made.loop && run(['losetup', '--detach', made.loop])]) {
      try {
        step();
      } catch (error) {
        console.error(`  clean-up: ${error.message}`);
      }
    }
    rmSync(made.work, { recursive: true, force: true });
  };
  try {
    const image = join(made.work, 'disk.img');
    writeFileSync(image, '');
    truncateSync(image, 2 * GiB);
    run(['mkfs.ext4', '-q', '-F', '-E', 'lazy_itable_init=0,lazy_journal_init=0', image]);
    made.loop = run(['losetup', '--find', '--show', image]);
    made.mnt = join(made.work, 'mnt');
    mkdirSync(made.mnt);
    run(['mount', made.loop, made.mnt]);
    const model = join(made.mnt, 'models', 'big');
    mkdirSync(model, { recursive: true });
    const shards = Array.from({ length: 4 }, (_, i) => `model-0000${i + 1}-of-00004.safetensors`);
    writeFileSync(join(model, 'config.json'), '{"model_type": "qwen3_moe"}\n');
    writeFileSync(join(model, 'model.safetensors.index.json'), JSON.stringify({ weight_map: Object.fromEntries(shards.map((s, i) => [`w${i}`, s])) }));
    run(['dd', 'if=/dev/zero', `of=${join(model, shards[0])}`, 'bs=1M', `count=${realMiB}`, 'conv=fsync', 'status=none']);
    for (const shard of shards) {
      if (!existsSync(join(model, shard))) writeFileSync(join(model, shard), '');
      truncateSync(join(model, shard), 10 * GiB);
    }
    const rdev = statSync(made.loop).rdev;
    const device = `${Math.floor(rdev / 256) & 0xfff}:${(rdev & 0xff) | ((rdev >> 12) & 0xfff00)}`;
    if (throttleKind() === 'v1') {
      made.cgroup = `/sys/fs/cgroup/blkio/qprep-bench-${process.pid}`;
      mkdirSync(made.cgroup);
      writeFileSync(join(made.cgroup, 'blkio.throttle.read_bps_device'), `${device} ${bytesPerSecond}\n`);
    } else {
      writeFileSync('/sys/fs/cgroup/cgroup.subtree_control', '+io');
      made.cgroup = `/sys/fs/cgroup/qprep-bench-${process.pid}`;
      mkdirSync(made.cgroup);
      writeFileSync(join(made.cgroup, 'io.max'), `${device} rbps=${bytesPerSecond}\n`);
    }
    return {
      model,
      work: made.work,
      /** argv that runs `argv` inside the cgroup: the shell joins it, then becomes the command */
      inCgroup: (argv) => ['sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', made.cgroup, ...argv],
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}
