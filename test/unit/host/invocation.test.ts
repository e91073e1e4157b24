import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprepInvocation } from '../../../src/host/invocation.js';
import { invokedAs } from '../../../src/util/invocation.js';

/** An install of qprep in a temporary directory: its package with bin/qprep.js and the single file. */
function install(): { dir: string; bin: string; single: string } {
  const dir = mkdtempSync(join(tmpdir(), 'qprep-invocation-'));
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'bin', 'qprep.js'), '#!/usr/bin/env node\n');
  writeFileSync(join(dir, 'dist', 'qprep.mjs'), '#!/usr/bin/env node\n');
  return { dir, bin: join(dir, 'bin', 'qprep.js'), single: join(dir, 'dist', 'qprep.mjs') };
}

/** A directory holding `qprep`, a link to `target`, as npm's node_modules/.bin or a PATH directory does. */
function linkDir(target: string, ...parts: string[]): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'qprep-path-')), ...parts);
  mkdirSync(dir, { recursive: true });
  symlinkSync(target, join(dir, 'qprep'));
  return dir;
}

describe('how the user started qprep', () => {
  it('under npx (npm exec): npx qprep, though npm put qprep on the PATH of the run', () => {
    const { bin } = install();
    const npxBin = linkDir(bin, 'node_modules', '.bin');
    const env = { PATH: `${npxBin}:/usr/bin:/bin`, npm_lifecycle_event: 'npx', npm_lifecycle_script: "'qprep'", npm_command: 'exec' };
    expect(qprepInvocation(join(npxBin, 'qprep'), env, '/')).toBe('npx qprep');
  });

  it('from an npm script: npx qprep, for node_modules/.bin is on the PATH of that script only', () => {
    const { bin } = install();
    const projectBin = linkDir(bin, 'node_modules', '.bin');
    expect(qprepInvocation(join(projectBin, 'qprep'), { PATH: `${projectBin}:/usr/bin`, npm_lifecycle_event: 'test' }, '/')).toBe('npx qprep');
  });

  it('a qprep on the user PATH that is this program: qprep (a node_modules/.bin the user put on PATH too)', () => {
    const { bin } = install();
    const global = linkDir(bin);
    expect(qprepInvocation(join(global, 'qprep'), { PATH: `/nonexistent:${global}` }, '/')).toBe('qprep');
    const ownBin = linkDir(bin, 'node_modules', '.bin');
    expect(qprepInvocation(join(ownBin, 'qprep'), { PATH: ownBin }, '/')).toBe('qprep');
  });

  it('a qprep on PATH that is another program does not count', () => {
    const { bin, dir } = install();
    const other = linkDir(install().bin);
    expect(qprepInvocation(bin, { PATH: other }, '/')).toBe(bin);
    expect(qprepInvocation(bin, { PATH: other }, dir)).toBe('bin/qprep.js');
  });

  it('in a project with qprep in node_modules/.bin, or in a checkout of qprep: npx qprep', () => {
    const { bin, dir } = install();
    const project = join(linkDir(bin, 'node_modules', '.bin'), '..', '..');
    expect(qprepInvocation(join(project, 'node_modules', '.bin', 'qprep'), { PATH: '/usr/bin' }, project)).toBe('npx qprep');
    writeFileSync(join(dir, 'package.json'), '{"name": "qprep"}');
    expect(qprepInvocation(bin, { PATH: '/usr/bin' }, dir)).toBe('npx qprep');
  });

  it('the single file: node and its path as typed, relative under the current directory', () => {
    const { dir, single } = install();
    expect(qprepInvocation(single, { PATH: '/usr/bin' }, dir)).toBe('node dist/qprep.mjs');
    expect(qprepInvocation(single, { PATH: '/usr/bin' }, '/')).toBe(`node ${single}`);
    expect(qprepInvocation(single, { PATH: '/usr/bin' }, join(dir, 'bin'))).toBe(`node ${single}`);
  });

  it('a path a shell would split is quoted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep invocation '));
    const single = join(dir, 'qprep.mjs');
    writeFileSync(single, '');
    expect(qprepInvocation(single, { PATH: '/usr/bin' }, '/nonexistent')).toBe(`node '${single}'`);
  });
});

describe('qprep as a command in a text to paste', () => {
  it('is renamed wherever it starts a command, in English and in Chinese', () => {
    expect(invokedAs('source <(qprep env --cluster FILE)', 'npx qprep')).toBe('source <(npx qprep env --cluster FILE)');
    expect(invokedAs('sudo qprep tune --only cpu.governor', 'node dist/qprep.mjs')).toBe('sudo node dist/qprep.mjs tune --only cpu.governor');
    expect(invokedAs('run "qprep --help" (or "qprep COMMAND --help") for usage', 'npx qprep')).toBe('run "npx qprep --help" (or "npx qprep COMMAND --help") for usage');
    expect(invokedAs('在主机上：qprep check --only npu.firmware-version', 'npx qprep')).toBe('在主机上：npx qprep check --only npu.firmware-version');
    expect(invokedAs('重新录制快照（qprep snapshot -o FILE）', 'npx qprep')).toBe('重新录制快照（npx qprep snapshot -o FILE）');
  });

  it('leaves words and paths that hold qprep, and a qprep of another install, alone', () => {
    for (const text of ["see qprep's journal", '/etc/sysctl.d/90-qprep.conf', '/var/lib/qprep/tune.lock', 'qprep_run_error', 'docker exec -it <container> qprep check --only python.triton-ascend']) {
      expect(invokedAs(text, 'npx qprep'), text).toBe(text);
    }
    expect(invokedAs('qprep tune', 'qprep')).toBe('qprep tune');
    expect(invokedAs('qprep tune', undefined)).toBe('qprep tune');
  });
});
