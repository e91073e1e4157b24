import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostTree, parseReport, qprepWith, tmp, waitFor } from './support.js';

/*
 * --root confines every read to the host tree, links included. A rename racing the read (the
 * tree is another machine's disk, or a container's, that something else writes) could swap a
 * checked directory for a symlink out of the tree between the check and the open. The opened
 * file's real path is now verified (/proc/self/fd/N) before a byte of it is used.
 */

const CPU = 'sys/devices/system/cpu';
const CPUS = 1024;

/** A cpu directory with one governor file per CPU, all saying `governor`. */
function cpuTree(dir: string, governor: string): void {
  writeFileSync(join(dir, 'online'), `0-${CPUS - 1}\n`);
  for (let cpu = 0; cpu < CPUS; cpu++) {
    mkdirSync(join(dir, `cpu${cpu}`, 'cpufreq'), { recursive: true });
    writeFileSync(join(dir, `cpu${cpu}`, 'cpufreq', 'scaling_governor'), `${governor}\n`);
  }
}

/**
 * Swaps `path` between the real directory and a symlink to `outside` with renameat2(2)
 * RENAME_EXCHANGE, as fast as it can, until killed: the name is always one or the other.
 */
const RACER = String.raw`
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
path, outside = sys.argv[1].encode(), sys.argv[2].encode()
link = path + b".link"
os.symlink(outside, link)
while True:
    if libc.renameat2(-100, path, -100, link, 2) != 0:
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
`;

const racers: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const racer of racers.splice(0)) racer.kill('SIGKILL');
});

describe('--root under a racing rename', () => {
  it('a directory swapped for a symlink out of the root while 5 x 1024 governors are read: no byte from outside the root is reported', async () => {
    const root = hostTree();
    mkdirSync(join(root, CPU), { recursive: true });
    cpuTree(join(root, CPU), 'performance');
    const outside = join(tmp('outside'), 'cpu');
    mkdirSync(outside);
    cpuTree(outside, 'outsidetheroot');
    const racer = spawn('python3', ['-c', RACER, join(root, CPU), outside], { stdio: ['ignore', 'ignore', 'inherit'] });
    racers.push(racer);
    // the racer has started once its symlink exists
    await waitFor('the racer to start', () => existsSync(`${join(root, CPU)}.link`) || racer.exitCode !== null);
    for (let attempt = 0; attempt < 5; attempt++) {
      const run = await qprepWith(null, ['check', '--root', root, '--only', 'cpu.governor', '--format', 'json']);
      const { byId } = await parseReport(run.stdout);
      const result = byId['cpu.governor']!;
      expect(JSON.stringify(result), 'a governor read from outside --root').not.toContain('outsidetheroot');
    }
    expect(racer.exitCode, 'the racer stopped early: the race did not run').toBeNull();
  });
});
