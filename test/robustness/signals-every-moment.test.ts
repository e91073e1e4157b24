import { execa } from 'execa';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { expectAllGone, fakeBin, hangingWithChild, hostTree, pidsFrom, startQprep, tmp, untunedTree, waitForCaughtSignals } from './support.js';

/*
 * A signal at any moment of any command ends the run with exactly one document and exit code 2:
 * at the first moment the process can catch one (before the command's code has even loaded),
 * during aggregate, during tune and rollback after their writes. SIGHUP (a closed SSH session)
 * is handled like SIGTERM, the running tool killed. An --output file is replaced by the
 * interrupted document: an old "ready" must not survive a run that gave no verdict.
 */

const HEALTHY = join(REPO, 'examples/snapshots/a2-healthy.json');
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Starts qprep, signals it the moment it catches signals, and returns what it printed. */
async function signalledAtFirstMoment(args: string[], signal: NodeJS.Signals) {
  const child = startQprep(null, args);
  await waitForCaughtSignals(child.pid!);
  child.kill(signal);
  return child;
}

describe('a signal at the first moment of the run', () => {
  const COMMANDS: Array<[string, string[]]> = [
    ['check', ['check', '--snapshot', HEALTHY, '--format', 'json']],
    ['facts', ['facts', '--snapshot', HEALTHY]],
    ['aggregate', ['aggregate', join(REPO, 'examples/snapshots'), '--format', 'json']],
    ['env', ['env', '--snapshot', HEALTHY, '--format', 'json']],
    ['list', ['list', '--format', 'json']],
  ];
  for (const signal of SIGNALS) {
    it.each(COMMANDS)(`${signal} to %s: exit 2 and one interrupted document`, async (command, args) => {
      const result = await signalledAtFirstMoment(args, signal);
      expect(result.exitCode, String(result.stderr)).toBe(2);
      // one document: two concatenated would not parse
      const document = JSON.parse(String(result.stdout));
      expect(document.error.code).toBe('interrupted');
      expect(document.error.message).toContain(`interrupted by ${signal}`);
      expect(document.command ?? 'check').toBe(command);
    });
  }

  it('an old --output that said ready is replaced by the interrupted document (check and aggregate)', async () => {
    const dir = tmp('output');
    for (const args of [
      (file: string) => ['check', '--snapshot', HEALTHY, '--format', 'json', '-o', file],
      (file: string) => ['aggregate', '-', '--format', 'json', '-o', file],
    ]) {
      const file = join(dir, `verdict-${args('x')[0]}.json`);
      writeFileSync(file, JSON.stringify({ schemaVersion: 1, ready: true }));
      const result = await signalledAtFirstMoment(args(file), 'SIGTERM');
      expect(result.exitCode).toBe(2);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      expect(written.ready).toBe(false);
      expect(written.error.code).toBe('interrupted');
    }
  });
});

/** The bytes a process has read so far (read(2) and the like): /proc/PID/io's rchar. */
function bytesRead(pid: number): number {
  try {
    return Number(/^rchar:\s*(\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

describe('a signal before the single file is parsed', () => {
  const SINGLE_FILE = join(REPO, 'dist/qprep.mjs');
  const ARGS = ['check', '--snapshot', HEALTHY, '--format', 'json'];

  it('npm bin: SIGTERM the moment Node has read the single file, before it parsed it: the interrupted document, exit 2', async () => {
    // Node parses the whole file before running any of it; the bin catches the signals before it reads it
    const size = statSync(SINGLE_FILE).size;
    for (let round = 0; round < 3; round++) {
      const child = startQprep(null, ARGS);
      const deadline = Date.now() + 20_000;
      while (bytesRead(child.pid!) < size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
      child.kill('SIGTERM');
      const result = await child;
      expect(result.exitCode, `round ${round}: ${String(result.stderr)}`).toBe(2);
      const document = JSON.parse(String(result.stdout));
      expect(document.error.code).toBe('interrupted');
      expect(document.error.message).toContain('interrupted by SIGTERM');
    }
  });

  it('the single file run directly: SIGTERM while its start-up part is compiled: the interrupted document, exit 2', async () => {
    // the head catches the signals, then compiles the start-up part (commander, the catalogues): a
    // preload sends the signal at that compilation
    const hook = join(tmp('hook'), 'signal-at-start-up.cjs');
    writeFileSync(
      hook,
      "const vm = require('node:vm');\nconst original = vm.compileFunction;\n" +
        "vm.compileFunction = function (code, params, options) {\n  if (options && options.filename === 'qprep-start-up.cjs') process.kill(process.pid, 'SIGTERM');\n  return original.apply(this, arguments);\n};\n",
    );
    const result = await execa(process.execPath, ['--require', hook, SINGLE_FILE, ...ARGS], { reject: false, cwd: REPO, extendEnv: false, env: { PATH: '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' } });
    expect(result.exitCode, String(result.stderr)).toBe(2);
    const document = JSON.parse(String(result.stdout));
    expect(document.error.code).toBe('interrupted');
    expect(document.error.message).toContain('interrupted by SIGTERM');
  });
});

describe('SIGHUP during a check', () => {
  it('is handled like SIGTERM: the running tool and its child killed, a partial report, exit 2', async () => {
    const pidFile = join(tmp('pid'), 'pids');
    const bin = fakeBin({ 'npu-smi': hangingWithChild(pidFile) });
    const child = startQprep(bin, ['check', '--root', hostTree(), '--timeout', '600s', '--skip', 'hccn.conf,hccn.ip', '--format', 'json']);
    const pids = await pidsFrom(pidFile);
    child.kill('SIGHUP');
    const result = await child;
    expect(result.exitCode).toBe(2);
    const report = JSON.parse(String(result.stdout));
    expect(report.interrupted.signal).toBe('SIGHUP');
    expect(report.error.code).toBe('interrupted');
    await expectAllGone(pids, [pids[0]!]);
  });
});

describe('the first tool calls of a check, started with the process', () => {
  it('a check that fails before its checks run (an unknown profile) leaves none of them running', async () => {
    const pidFile = join(tmp('pid'), 'pids');
    const bin = fakeBin({ 'npu-smi': hangingWithChild(pidFile) });
    const result = await startQprep(bin, ['check', '--root', hostTree(), '--profile', 'no-such-profile', '--format', 'json']);
    expect(result.exitCode, String(result.stderr)).toBe(2);
    expect(JSON.parse(String(result.stdout)).error.code).toBe('invalid-profile');
    // npu-smi started early, with its child: both killed as qprep exited
    const pids = await pidsFrom(pidFile);
    await expectAllGone(pids, [pids[0]!]);
  });
});

describe('tune and rollback signalled at every moment', () => {
  // delays spread over a whole run, so that some signals land after the writes, some after the document
  const DELAYS = [0, 40, 80, 120, 160, 200, 260, 320, 400, 500, 650, 800];
  for (const command of ['tune', 'rollback'] as const) {
    it(`${command}: exactly one JSON document whose outcome agrees with the exit code`, async () => {
      for (const delay of DELAYS) {
        const root = untunedTree();
        if (command === 'rollback') {
          const tuned = await startQprep(null, ['tune', '--root', root, '--format', 'json']);
          expect(tuned.exitCode).toBe(0);
        }
        const child = startQprep(null, [command, '--root', root, '--format', 'json']);
        await waitForCaughtSignals(child.pid!);
        await new Promise((resolve) => setTimeout(resolve, delay));
        child.kill(delay % 80 === 0 ? 'SIGTERM' : 'SIGINT');
        const result = await child;
        const stdout = String(result.stdout);
        const document = JSON.parse(stdout);
        expect(document.command, `${command} after ${delay} ms`).toBe(command);
        if (result.exitCode === 2) expect(document.error.code, `${command} after ${delay} ms: ${stdout}`).toBe('interrupted');
        else {
          expect(result.exitCode, `${command} after ${delay} ms: ${String(result.stderr)}`).toBe(0);
          expect(document.error).toBeUndefined();
          expect(document.outcome).toBe(command === 'tune' ? 'applied' : 'rolled-back');
        }
        // an interrupted tune leaves its journal for rollback; a finished one too (rollback retires it)
        if (command === 'rollback' && result.exitCode === 0) expect(existsSync(join(root, 'var/lib/qprep/journal.json'))).toBe(false);
      }
    });
  }
});
