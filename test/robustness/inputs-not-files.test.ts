import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, qprep, REPO } from '../helpers/cli.js';
import { tmp } from './support.js';

/*
 * Inputs that are not files: /dev/zero where a document goes read half a gigabyte before failing,
 * and a FIFO with no writer hung the run forever. Only regular files are read (and "-" for
 * standard input where documented), opened without blocking, with a cap enforced while reading;
 * each refusal is one line naming the file.
 */

const HEALTHY = join(REPO, 'examples/snapshots/a2-healthy.json');

function fifo(): string {
  const path = join(tmp('fifo'), 'input');
  execFileSync('mkfifo', [path]);
  return path;
}

/** Exit 2 and exactly one line on stderr, containing `text`; a short timeout proves nothing blocked. */
async function expectRefused(args: string[], text: string) {
  const run = await qprep(args, { timeoutMs: 30_000 });
  expect(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBe(2);
  expect(run.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
  expect(run.stderr, args.join(' ')).toContain(text);
  return run;
}

describe('/dev/zero and a FIFO with no writer as an input document', () => {
  const inputs: Array<[string, (path: string) => string[]]> = [
    ['--snapshot', (path) => ['check', '--snapshot', path]],
    ['--profile', (path) => ['check', '--snapshot', HEALTHY, '--profile', path]],
    ['--cluster', (path) => ['check', '--snapshot', HEALTHY, '--cluster', path]],
    ['--launch', (path) => ['check', '--snapshot', HEALTHY, '--launch', path]],
  ];
  it.each(inputs)('%s /dev/zero is refused at once, naming it', async (flag, args) => {
    await expectRefused(args('/dev/zero'), `${flag} /dev/zero: it is a character device, not a regular file`);
  });
  it.each(inputs)('%s FIFO with no writer does not hang', async (flag, args) => {
    const path = fifo();
    await expectRefused(args(path), `${flag} ${path}: it is a FIFO, not a regular file`);
  });

  it('aggregate: /dev/zero and a FIFO as operands are refused; a FIFO inside a directory of reports is not read', async () => {
    await expectRefused(['aggregate', '/dev/zero'], 'aggregate: /dev/zero: it is a character device');
    const path = fifo();
    await expectRefused(['aggregate', path], `aggregate: ${path}: it is a FIFO`);
    const dir = tmp('reports');
    execFileSync('mkfifo', [join(dir, 'node1.json')]);
    await expectRefused(['aggregate', dir], `cannot read reports from ${dir}: no *.json file in it`);
  });

  it('--launch - and aggregate - with /dev/zero on standard input are refused, not read', async () => {
    const cases: Array<[string[], string]> = [
      [['check', '--snapshot', HEALTHY, '--launch', '-'], 'cannot read launch script from standard input: it is a character device, not a regular file or a pipe'],
      [['aggregate', '-'], 'cannot read standard input: it is a character device, not a regular file or a pipe'],
    ];
    for (const [args, refusal] of cases) {
      // the shell's redirection makes the device itself standard input (execa would pipe it)
      const command = [process.execPath, BIN, ...args].map((word) => `'${word}'`).join(' ');
      const run = await execa('sh', ['-c', `exec ${command} < /dev/zero`], { reject: false, timeout: 30_000, cwd: REPO });
      expect(run.exitCode, String(run.stderr)).toBe(2);
      expect(String(run.stderr)).toContain(refusal);
    }
  });
});

describe('the size cap, enforced while reading', () => {
  it('a profile larger than 16 MiB: one line naming the file and the cap', async () => {
    const dir = tmp('big');
    const profile = join(dir, 'huge.yaml');
    writeFileSync(profile, `extends: default\n# ${'x'.repeat(17 * 1024 * 1024)}\n`);
    await expectRefused(['check', '--snapshot', HEALTHY, '--profile', profile], `cannot read profile ${profile}: larger than 16 MiB`);
  });

  it('a cluster file larger than 16 MiB, too', async () => {
    const dir = tmp('big-cluster');
    mkdirSync(dir, { recursive: true });
    const cluster = join(dir, 'cluster.yaml');
    writeFileSync(cluster, `nodes: []\n# ${'x'.repeat(17 * 1024 * 1024)}\n`);
    await expectRefused(['check', '--snapshot', HEALTHY, '--cluster', cluster], `cannot read cluster ${cluster}: larger than 16 MiB`);
  });
});
