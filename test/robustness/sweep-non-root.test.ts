import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { tmp } from './support.js';

/*
 * qprep not running as root (an operator without sudo on a shared node) may not read the
 * environment of another user's processes. Those that start while a call runs are not the
 * call's (they cannot carry its token), and the sweep after the call must not take them for a
 * process caught in the middle of an exec, for which it looks again: one pass, not eight.
 */

const NOBODY = 65534;
const asRoot = process.geteuid?.() === 0;
if (!asRoot) console.log('sweep-non-root: skipped: switching to another user needs root');

/** Run as nobody: marks a call, waits for the go on stdin, sweeps it, prints the passes made. */
const SWEEPER = `import { markCall, sweepCall, sweepPasses } from './strays.js';
const { call } = markCall(['a-tool']);
process.stdout.write('marked\\n');
process.stdin.once('data', async () => {
  const left = await sweepCall(call);
  process.stdout.write(JSON.stringify({ passes: sweepPasses(), left }) + '\\n');
  process.exit(0);
});
`;

function nextLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`the sweeper exited ${code} before a line`)));
  });
}

describe.skipIf(!asRoot)('the stray sweep of a run that is not root', () => {
  it('makes one pass when processes of another user started during the call', async () => {
    const dir = tmp('sweep-non-root');
    chmodSync(dir, 0o755);
    // the module imports only node: builtins, so the file alone runs wherever nobody may read it
    copyFileSync(join(REPO, 'dist/src/host/strays.js'), join(dir, 'strays.js'));
    const script = join(dir, 'sweeper.mjs');
    writeFileSync(script, SWEEPER, { mode: 0o644 });
    const sweeper = spawn(process.execPath, [script], { cwd: dir, uid: NOBODY, gid: NOBODY, stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: '/usr/bin:/bin' } });
    const others: ChildProcess[] = [];
    try {
      expect(await nextLine(sweeper)).toBe('marked');
      // root's processes, started after the call began: pids in the sweep's window, environments nobody may not read
      for (let i = 0; i < 5; i++) others.push(spawn('sleep', ['30'], { stdio: 'ignore' }));
      await Promise.all(others.map((p) => new Promise((resolve) => p.once('spawn', resolve))));
      const answer = nextLine(sweeper);
      sweeper.stdin.write('go\n');
      expect(JSON.parse(await answer)).toEqual({ passes: 1, left: 0 });
    } finally {
      for (const p of others) p.kill('SIGKILL');
      sweeper.kill('SIGKILL');
    }
  });
});
