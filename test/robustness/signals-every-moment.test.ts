import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.js';
import { demoReport } from '../helpers/node-reports.js';
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

  it('an old --output that said ready is replaced by the interrupted document (check, aggregate and snapshot)', async () => {
    const dir = tmp('output');
    for (const args of [
      (file: string) => ['check', '--snapshot', HEALTHY, '--format', 'json', '-o', file],
      (file: string) => ['aggregate', '-', '--format', 'json', '-o', file],
      // host.shm: no inventory, whose helpers a signal cannot cut short (yet)
      (file: string) => ['snapshot', '--only', 'host.shm', '-o', file],
    ]) {
      const command = args('x')[0]!;
      const file = join(dir, `verdict-${command}.json`);
      // an old snapshot holds the report of its run, which said ready
      writeFileSync(file, JSON.stringify({ schemaVersion: 1, ready: true, kind: 'qprep-snapshot', report: { ready: true } }));
      const result = await signalledAtFirstMoment(args(file), 'SIGTERM');
      expect(result.exitCode, command).toBe(2);
      const written = JSON.parse(readFileSync(file, 'utf8'));
      // before the command took the signal: its error document; a snapshot signalled once it
      // had: what it recorded until then, its report marked interrupted
      const verdict = written.kind === 'qprep-snapshot' ? written.report : written;
      // ready: false in check's and aggregate's documents, which give a verdict; none in snapshot's
      expect(verdict.ready ?? false, command).toBe(false);
      expect(verdict.error.code, command).toBe('interrupted');
      if (written.kind === 'qprep-snapshot') expect(verdict.interrupted.signal).toBe('SIGTERM');
      else expect(written.command ?? 'check', command).toBe(command);
    }
  });

  it('snapshot -o that ends with exit 2 before recording (an invalid profile) leaves its error document, not the old snapshot', async () => {
    const dir = tmp('snapshot-failed');
    const file = join(dir, 'snap.json');
    writeFileSync(file, readFileSync(HEALTHY));
    const profile = join(dir, 'bad.yaml');
    writeFileSync(profile, 'extends: no-such-profile\n');
    const result = await startQprep(null, ['snapshot', '--profile', profile, '-o', file]);
    expect(result.exitCode).toBe(2);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toMatchObject({ command: 'snapshot', error: { code: 'invalid-profile' } });
    expect(written).not.toHaveProperty('report');
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

const strace = spawnSync('strace', ['-V']).status === 0;
if (!strace) console.log('signals-every-moment: the aggregate case is skipped: it counts the reports read with strace, which is not installed');

/** The children of a process (strace's: the traced qprep). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe.skipIf(!strace)('aggregate signalled while it reads its reports', () => {
  it('SIGTERM ends the run at the next report, not after the last of 1,000: the interrupted document, the old verdict replaced', async () => {
    const dir = tmp('aggregate-signal');
    const reports = join(dir, 'reports');
    mkdirSync(reports);
    const template = demoReport('a3-healthy');
    for (let i = 0; i < 1000; i++) {
      const name = `node${String(i).padStart(4, '0')}`;
      writeFileSync(join(reports, `${name}.json`), JSON.stringify({ ...template, runId: `run-${name}`, host: { ...template.host, hostname: name } }, null, 2));
    }
    const output = join(dir, 'verdict.json');
    writeFileSync(output, JSON.stringify({ schemaVersion: 1, ready: true }));
    const opens = join(dir, 'opens.log');
    const traced = execa('strace', ['-f', '-qq', '-e', 'trace=openat', '-o', opens, process.execPath, BIN, 'aggregate', reports, '--format', 'json', '-o', output], { reject: false, cwd: REPO, timeout: 120_000 });
    const opened = () => (existsSync(opens) ? readFileSync(opens, 'utf8').split('\n').filter((line) => line.includes(`${reports}/node`)).length : 0);
    // the first report opened: aggregate is reading
    while (opened() === 0 && traced.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
    const [qprep] = childrenOf(traced.pid!);
    expect(qprep).toBeGreaterThan(0);
    process.kill(qprep!, 'SIGTERM');
    const result = await traced;
    expect(result.exitCode, String(result.stderr)).toBe(2);
    // it stopped reading when the signal came (before, every report was read first)
    expect(opened()).toBeLessThan(1000);
    expect(JSON.parse(String(result.stdout))).toMatchObject({ command: 'aggregate', ready: false, error: { code: 'interrupted' } });
    expect(JSON.parse(readFileSync(output, 'utf8'))).toMatchObject({ ready: false, error: { code: 'interrupted' } });
    // some 50 MB of reports: not left in /tmp
    rmSync(dir, { recursive: true, force: true });
  });
});
