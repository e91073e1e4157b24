import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprepWith, untunedTree } from './support.js';

/*
 * The files tune --persist and rollback write, and the journal, are the files themselves:
 * a symlink planted there (90-qprep.conf -> /etc/shadow) would have qprep copy the target into
 * its journal and write it back later as a plain file. Such a path is refused, named, and
 * left exactly as it is; the journal is readable by root only.
 */

const SYSCTL_D = 'etc/sysctl.d/90-qprep.conf';
const SHADOW = 'root:$6$SECRETHASHSECRETHASH:19000:0:99999:7:::\n';

function persistableTree(): string {
  const root = untunedTree();
  mkdirSync(join(root, 'etc/sysctl.d'), { recursive: true });
  mkdirSync(join(root, 'etc/tmpfiles.d'), { recursive: true });
  writeFileSync(join(root, 'etc/shadow'), SHADOW, { mode: 0o600 });
  return root;
}

/** Every byte qprep left under var/lib/qprep, for grepping. */
function stateFiles(root: string): string {
  try {
    const dir = join(root, 'var/lib/qprep');
    return readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8')).join('\n');
  } catch {
    return '';
  }
}

function expectLinkUntouched(root: string): void {
  expect(lstatSync(join(root, SYSCTL_D)).isSymbolicLink()).toBe(true);
  expect(readlinkSync(join(root, SYSCTL_D))).toBe('/etc/shadow');
  expect(readFileSync(join(root, 'etc/shadow'), 'utf8')).toBe(SHADOW);
}

describe('symlinks at the paths qprep writes', () => {
  it('tune --persist with 90-qprep.conf a symlink to /etc/shadow: the file is refused, naming the link; the shadow is in no output and no journal', async () => {
    const root = persistableTree();
    symlinkSync('/etc/shadow', join(root, SYSCTL_D));
    const run = await qprepWith(null, ['tune', '--root', root, '--persist', '--format', 'json']);
    expect(run.stdout + run.stderr).not.toContain('SECRETHASH');
    expect(stateFiles(root)).not.toContain('SECRETHASH');
    const document = JSON.parse(run.stdout);
    const change = document.changes.find((c: { path?: string; target?: string }) => (c.path ?? c.target) === '/etc/sysctl.d/90-qprep.conf');
    expect(change).toMatchObject({ status: 'refused' });
    expect(change.error).toBe(
      '/etc/sysctl.d/90-qprep.conf is a symbolic link to /etc/shadow: qprep does not read, journal or write a file it manages through a link; remove the link (or replace it with a regular file) and re-run',
    );
    expect(run.exitCode).not.toBe(0);
    expectLinkUntouched(root);
  });

  it('rollback when 90-qprep.conf became a symlink after tune: the restore is refused, naming it; the shadow is not written back', async () => {
    const root = persistableTree();
    const tuned = await qprepWith(null, ['tune', '--root', root, '--persist', '--format', 'json']);
    expect(tuned.exitCode).toBe(0);
    // the journal is root's only: it holds whole configuration files as they were
    expect(statSync(join(root, 'var/lib/qprep/journal.json')).mode & 0o777).toBe(0o600);
    rmSync(join(root, SYSCTL_D));
    symlinkSync('/etc/shadow', join(root, SYSCTL_D));
    const back = await qprepWith(null, ['rollback', '--root', root, '--format', 'json']);
    expect(back.stdout + back.stderr).not.toContain('SECRETHASH');
    const document = JSON.parse(back.stdout);
    const restore = document.restores.find((r: { path: string }) => r.path === '/etc/sysctl.d/90-qprep.conf');
    expect(restore).toMatchObject({ status: 'refused' });
    expect(restore.error).toMatch(/^\/etc\/sysctl\.d\/90-qprep\.conf is a symbolic link to \/etc\/shadow: /);
    expect(back.exitCode).not.toBe(0);
    expectLinkUntouched(root);
  });

  it('a journal that is a symlink is neither read nor replaced', async () => {
    const root = persistableTree();
    mkdirSync(join(root, 'var/lib/qprep'), { recursive: true });
    symlinkSync('/etc/shadow', join(root, 'var/lib/qprep/journal.json'));
    for (const args of [['tune', '--root', root, '--format', 'json'], ['rollback', '--root', root, '--format', 'json']]) {
      const run = await qprepWith(null, args);
      expect(run.stdout + run.stderr).not.toContain('SECRETHASH');
      expect(run.stderr).toContain('/var/lib/qprep/journal.json is a symbolic link to /etc/shadow');
      expect(run.exitCode).toBe(2);
    }
    expect(readlinkSync(join(root, 'var/lib/qprep/journal.json'))).toBe('/etc/shadow');
    expect(readFileSync(join(root, 'etc/shadow'), 'utf8')).toBe(SHADOW);
  });
});

describe('a value emptied by a crash', () => {
  it('kill -9 between the truncating open and the write leaves a value empty: plain rollback restores it from the journal, without --force', async () => {
    const root = untunedTree();
    const tuned = await qprepWith(null, ['tune', '--root', root, '--format', 'json']);
    expect(tuned.exitCode).toBe(0);
    // what the crash leaves: the journal fsynced before the first write says the run is applying,
    // the write to swappiness had started (the open truncated it) and never finished
    const journalFile = join(root, 'var/lib/qprep/journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
    const run = journal.runs[0];
    run.state = 'applying';
    delete run.finishedAt;
    const index = run.entries.findIndex((e: { path: string }) => e.path === '/proc/sys/vm/swappiness');
    expect(index).toBeGreaterThanOrEqual(0);
    for (const [i, entry] of run.entries.entries()) if (i >= index) entry.status = 'pending';
    writeFileSync(journalFile, `${JSON.stringify(journal, null, 2)}\n`);
    writeFileSync(join(root, 'proc/sys/vm/swappiness'), '');

    const back = await qprepWith(null, ['rollback', '--root', root, '--format', 'json']);
    const document = JSON.parse(back.stdout);
    const restore = document.restores.find((r: { path: string }) => r.path === '/proc/sys/vm/swappiness');
    expect(restore).toMatchObject({ status: 'restored', current: '' });
    expect(readFileSync(join(root, 'proc/sys/vm/swappiness'), 'utf8')).toBe('60\n');
    expect(back.exitCode).toBe(0);
  });
});
