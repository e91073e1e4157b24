import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.js';
import { hostTree, mountNamespaceProblem, qprepWith, shellQuote, tmp } from './support.js';

/*
 * A full disk when writing --output: nothing half-written. The report is written to a
 * temporary file in the same directory and renamed over the old one, so a failure must leave
 * the old file intact and no temporary file behind, and say so in one line with exit code 2.
 * The disk is a 64 KiB tmpfs filled to the last block, mounted in a private mount namespace
 * (as root; it vanishes with the namespace).
 */

const problem = mountNamespaceProblem();
if (problem) console.warn(`[full-disk] the tmpfs cases are skipped: ${problem}`);

const OLD = '{"earlier": "report, must survive"}\n';

/** Runs qprep with `args` (FILE is replaced by the output path) on a full tmpfs; returns what happened there. */
async function onFullDisk(args: string[], { oldFile = true }: { oldFile?: boolean } = {}) {
  const work = tmp('full');
  const disk = join(work, 'disk');
  const file = join(disk, 'report.json');
  const argv = [process.execPath, BIN, ...args.map((a) => (a === 'FILE' ? file : a))].map(shellQuote).join(' ');
  const script = [
    'set -e',
    `mkdir -p ${shellQuote(disk)}`,
    `mount -t tmpfs -o size=64k qprep-full ${shellQuote(disk)}`,
    oldFile ? `printf '%s' ${shellQuote(OLD)} > ${shellQuote(file)}` : ':',
    // fill every remaining block; dd stops with "No space left on device"
    `dd if=/dev/zero of=${shellQuote(join(disk, 'filler'))} bs=4096 2>/dev/null || true`,
    'set +e',
    `${argv} > ${shellQuote(join(work, 'stdout'))} 2> ${shellQuote(join(work, 'stderr'))}`,
    'echo "exit=$?"',
    `ls -A ${shellQuote(disk)}`,
    `if [ -e ${shellQuote(file)} ]; then echo '--- report'; cat ${shellQuote(file)}; fi`,
  ].join('\n');
  const run = await execa('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script], { reject: false, cwd: REPO, timeout: 120_000, stripFinalNewline: false, encoding: 'utf8' });
  expect(run.exitCode, String(run.stderr)).toBe(0);
  const [head = '', report] = String(run.stdout).split('--- report\n');
  const [exitLine = '', ...entries] = head.trim().split('\n');
  return {
    file,
    exitCode: Number(exitLine.replace('exit=', '')),
    entries: entries.sort(),
    report: report ?? null,
    stdout: readFileSync(join(work, 'stdout'), 'utf8'),
    stderr: readFileSync(join(work, 'stderr'), 'utf8'),
  };
}

describe.skipIf(problem !== undefined)('a full disk under --output', () => {
  it('check --format json --output: the old report is intact, no temporary file is left, exit 2 with one line naming the file', async () => {
    const root = hostTree();
    const result = await onFullDisk(['check', '--root', root, '--only', 'host,tuning', '--format', 'json', '--output', 'FILE']);
    expect(result.exitCode).toBe(2);
    expect(result.report).toBe(OLD);
    expect(result.entries).toEqual(['filler', 'report.json']);
    const dir = result.file.replace(/\/report\.json$/, '');
    expect(result.stderr).toBe(`qprep: error: cannot write ${result.file}: no space left on the device of ${dir} (ENOSPC); the old file, if any, is unchanged\n`);
    // stdout still carries the error document of exit code 2
    expect(JSON.parse(result.stdout)).toMatchObject({ ready: false, error: { code: 'output' } });
  });

  it('snapshot -o: same; no file appears where there was none', async () => {
    const result = await onFullDisk(['snapshot', '--root', hostTree(), '--only', 'host', '-o', 'FILE'], { oldFile: false });
    expect(result.exitCode).toBe(2);
    expect(result.report).toBeNull();
    expect(result.entries).toEqual(['filler']);
    expect(result.stderr).toMatch(/^qprep: error: cannot write .*\/report\.json: no space left on the device of .* \(ENOSPC\); the old file, if any, is unchanged\n$/);
  });

  it('--format prometheus: the old .prom file a collector reads is left as it was, never truncated', async () => {
    const result = await onFullDisk(['check', '--root', hostTree(), '--only', 'host', '--format', 'prometheus', '--output', 'FILE']);
    expect(result.exitCode).toBe(2);
    expect(result.report).toBe(OLD);
    expect(result.entries).toEqual(['filler', 'report.json']);
  });
});

describe('standard output on a full device', () => {
  it('check > /dev/full: exit 2 and one line on stderr, not a stack trace and exit 1 (which would read as "not ready")', async () => {
    const run = await execa('sh', ['-c', `${shellQuote(process.execPath)} ${shellQuote(BIN)} check --root ${shellQuote(hostTree())} --only host --format json > /dev/full`], {
      reject: false,
      cwd: REPO,
      timeout: 120_000,
      stripFinalNewline: false,
      encoding: 'utf8',
    });
    expect(run.exitCode).toBe(2);
    expect(String(run.stderr)).toBe('qprep: error: cannot write the standard output: no space left on device (ENOSPC)\n');
  });

  it('a reader that went away (| true) is not an error: no message, and the exit code is still the verdict', async () => {
    const root = hostTree();
    const args = `check --root ${shellQuote(root)} --only host --format json`;
    // `true` exits at once, so qprep's write meets a closed pipe (EPIPE)
    const run = await execa('bash', ['-c', `${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args} | true; echo "\${PIPESTATUS[0]}"`], {
      reject: false,
      cwd: REPO,
      timeout: 120_000,
      stripFinalNewline: false,
      encoding: 'utf8',
    });
    const whole = await qprepWith(null, ['check', '--root', root, '--only', 'host', '--format', 'json']);
    expect([0, 1]).toContain(whole.exitCode);
    expect(String(run.stdout).trim()).toBe(String(whole.exitCode));
    expect(String(run.stderr)).toBe('');
  });
});
