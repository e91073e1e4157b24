import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { qprepWith, shellQuote, tmp } from './support.js';

/*
 * Outputs never follow links. Another user (nobody) plants a symbolic link in a sticky
 * world-writable directory, /tmp's kind, pointing at a file only root may read; root then runs
 * qprep with -o naming the link. write-file-atomic resolved the link and replaced its target
 * with the report, 0644: the root-only file became a world-readable report. Now every writer
 * (check, facts, snapshot, aggregate, serve's --nfd-features) refuses the link, naming it and
 * its target, and leaves both as they were; a file another user left there is replaced by
 * root's own, 0600 where the content is a report of the host.
 */

const asRoot = process.geteuid?.() === 0;
if (!asRoot) console.log('output-links: skipped: planting files as another user needs root');

const HEALTHY = join(REPO, 'examples/snapshots/a2-healthy.json');
const SECRET = 'root-only: do not overwrite\n';

let sticky: string;
let secret: string;
/** A directory of one node's report, for aggregate. */
let reports: string;

/** Runs argv as nobody (uid and gid 65534, no supplementary groups). */
function asNobody(argv: string[]): string {
  return execFileSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', ...argv], { encoding: 'utf8' });
}

function expectSecretUntouched(): void {
  const stat = statSync(secret);
  expect(readFileSync(secret, 'utf8')).toBe(SECRET);
  expect(stat.mode & 0o777).toBe(0o600);
  expect(stat.uid).toBe(0);
}

/** Every writer of qprep, given its output path. */
const WRITERS: Array<[string, (file: string) => string[]]> = [
  ['check -o', (file) => ['check', '--snapshot', HEALTHY, '--format', 'json', '-o', file]],
  ['check -f prometheus -o', (file) => ['check', '--snapshot', HEALTHY, '--format', 'prometheus', '-o', file]],
  ['facts -o', (file) => ['facts', '--snapshot', HEALTHY, '-o', file]],
  ['snapshot -o', (file) => ['snapshot', '--only', 'host.shm', '-o', file]],
  ['aggregate -o', (file) => ['aggregate', reports, '--format', 'json', '-o', file]],
];

beforeAll(async () => {
  if (!asRoot) return;
  reports = tmp('output-links-reports');
  const report = await qprepWith(null, ['check', '--snapshot', HEALTHY, '--format', 'json']);
  writeFileSync(join(reports, 'node.json'), report.stdout);
  const base = tmp('output-links');
  chmodSync(base, 0o755);
  const rootOnly = join(base, 'root-only');
  mkdirSync(rootOnly, { mode: 0o700 });
  secret = join(rootOnly, 'secret');
  writeFileSync(secret, SECRET, { mode: 0o600 });
  sticky = join(base, 'sticky');
  mkdirSync(sticky);
  chmodSync(sticky, 0o1777);
});

describe.skipIf(!asRoot)('an output path that is a link planted by another user in a sticky directory', () => {
  it.each(WRITERS)('%s: exit 2, one line naming the link and its target; the root-only file and the link are left as they were', async (name, args) => {
    const file = join(sticky, `${name.replace(/\W+/g, '-')}.out`);
    asNobody(['ln', '-s', secret, file]);
    const run = await qprepWith(null, args(file));
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain(`qprep: error: cannot write ${file}: it is a symbolic link (to ${secret}); qprep writes no output through a link: remove it, or name the file itself\n`);
    expectSecretUntouched();
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(readlinkSync(file)).toBe(secret);
    expect(lstatSync(file).uid).toBe(65534);
    // nothing else appeared in the directory: no temporary file left behind
    expect(readdirSync(sticky).filter((entry) => entry.includes(name.replace(/\W+/g, '-')))).toEqual([file.slice(sticky.length + 1)]);
  });

  it("serve --nfd-features: the run's labels are not written through the link; the agent says so and goes on", async () => {
    const file = join(sticky, 'qprep-features');
    asNobody(['ln', '-s', secret, file]);
    const agent = await startServe(['--snapshot', HEALTHY, '--interval', '1h', '--nfd-features', file]);
    try {
      const failed = await agent.waitForLog((line) => line.event === 'publish-failed');
      expect(String(failed.error)).toContain(`cannot write ${file}: it is a symbolic link (to ${secret})`);
      expectSecretUntouched();
      expect(lstatSync(file).isSymbolicLink()).toBe(true);
    } finally {
      await agent.stop();
    }
  });
});

describe.skipIf(!asRoot)('the mode and owner of what qprep writes', () => {
  it('a file another user left at the output path is replaced by root\'s own, 0600, which that user cannot read', async () => {
    const file = join(sticky, 'left-by-nobody.json');
    asNobody(['sh', '-c', `printf '{"ready": true}' > ${shellQuote(file)}; chmod 666 ${shellQuote(file)}`]);
    const run = await qprepWith(null, ['check', '--snapshot', HEALTHY, '--format', 'json', '-o', file]);
    expect(run.exitCode, run.stderr).toBe(0);
    const stat = lstatSync(file);
    expect(stat.isFile()).toBe(true);
    expect(stat.uid).toBe(0);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).ready).toBe(true);
    expect(() => asNobody(['cat', file])).toThrow();
  });

  it('reports of the host are 0600 whatever the umask; a .prom file for node_exporter is 0644 even under umask 077', async () => {
    const dir = tmp('output-modes');
    const expected: Array<[string, string[], number]> = [
      ['report.json', ['check', '--snapshot', HEALTHY, '--format', 'json'], 0o600],
      ['report.txt', ['check', '--snapshot', HEALTHY], 0o600],
      ['report.xml', ['check', '--snapshot', HEALTHY, '--format', 'junit'], 0o600],
      ['qprep.prom', ['check', '--snapshot', HEALTHY, '--format', 'prometheus'], 0o644],
      ['facts.json', ['facts', '--snapshot', HEALTHY], 0o600],
      ['snapshot.json', ['snapshot', '--only', 'host.shm'], 0o600],
      ['aggregate.json', ['aggregate', reports, '--format', 'json'], 0o600],
    ];
    for (const [name, args, mode] of expected) {
      // the umask that would give another mode than the one asked for: 000 would leave 0644 or
      // 0666 as it is, 077 would narrow the .prom file to 0600
      for (const umask of [mode === 0o600 ? '000' : '077']) {
        const file = join(dir, `${umask}-${name}`);
        const command = [process.execPath, BIN, ...args, '-o', file].map(shellQuote).join(' ');
        const exitCode = Number(execFileSync('sh', ['-c', `umask ${umask}; ${command} > /dev/null 2>&1; echo $?`], { cwd: REPO, encoding: 'utf8' }));
        expect(exitCode, `${name} under umask ${umask}`).toBeLessThan(2);
        expect(statSync(file).mode & 0o777, `${name} under umask ${umask}`).toBe(mode);
      }
    }
    // only the outputs: no temporary file left
    expect(readdirSync(dir).sort()).toEqual(expected.map(([name, , mode]) => `${mode === 0o600 ? '000' : '077'}-${name}`).sort());
  });
});
