import { execa, type ResultPromise } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO } from './cli.js';

/**
 * The built CLI running `qprep serve` on loopback: the kernel picks the port (--listen
 * 127.0.0.1:0) and the test reads it from the "listening" log line, so parallel test files
 * never race for a port. Every log line is kept, parsed.
 */

export interface LogLine {
  time: string;
  level: string;
  event: string;
  [field: string]: unknown;
}

export interface ServeProcess {
  base: string;
  port: number;
  pid: number;
  process: ResultPromise;
  logs: LogLine[];
  /** stderr lines that were not JSON (there should be none) */
  otherStderr: string[];
  /** resolves with the first log line matching, after `after` lines already seen */
  waitForLog(match: (line: LogLine) => boolean, options?: { timeoutMs?: number; after?: number }): Promise<LogLine>;
  /** SIGTERM, then the exit code */
  stop(): Promise<number | undefined>;
}

/**
 * `fileLimit`: serve runs under that limit of open files (soft and hard: Node raises its soft
 * limit to the hard one), set by the shell that then execs it, so the pid is serve's.
 */
export async function startServe(args: string[], options: { env?: Record<string, string>; timeoutMs?: number; fileLimit?: number } = {}): Promise<ServeProcess> {
  const command = [process.execPath, BIN, 'serve', '--listen', '127.0.0.1:0', ...args];
  const [file, ...argv] = options.fileLimit === undefined ? command : ['/bin/sh', '-c', `ulimit -n ${options.fileLimit} && exec "$@"`, 'sh', ...command];
  const child = execa(file!, argv, {
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...options.env },
    cwd: REPO,
    stdin: 'ignore',
    buffer: false,
  });
  const logs: LogLine[] = [];
  const otherStderr: string[] = [];
  const waiters: Array<() => void> = [];
  let pending = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const text of lines) {
      try {
        logs.push(JSON.parse(text) as LogLine);
      } catch {
        otherStderr.push(text);
      }
    }
    for (const wake of waiters.splice(0)) wake();
  });
  let exited = false;
  void child.then(() => {
    exited = true;
    for (const wake of waiters.splice(0)) wake();
  });

  const waitForLog = async (match: (line: LogLine) => boolean, { timeoutMs = options.timeoutMs ?? 60_000, after = 0 } = {}): Promise<LogLine> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = logs.slice(after).find(match);
      if (found) return found;
      if (exited) throw new Error(`qprep serve exited before the log line; stderr: ${JSON.stringify([...logs, ...otherStderr]).slice(0, 2000)}`);
      if (Date.now() > deadline) throw new Error(`no such log line within ${timeoutMs} ms; log: ${JSON.stringify(logs).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };

  const listening = await waitForLog((l) => l.event === 'listening');
  const port = listening.port as number;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    process: child,
    logs,
    otherStderr,
    waitForLog,
    async stop() {
      if (!exited) child.kill('SIGTERM');
      return (await child).exitCode;
    },
  };
}

export async function httpGet(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/**
 * A fake npu-smi whose `npu-smi info` prints whatever file `current` holds at the moment it
 * runs, so a test can change what the NPUs look like between two runs; with `sleepSeconds`
 * it first sleeps (in a child, as a hung tool's helper would) that long.
 */
export function switchableNpuSmi(options: { sleepSeconds?: number; pidFile?: string } = {}): { bin: string; current: string } {
  const dir = mkdtempSync(join(tmpdir(), 'qprep-serve-smi-'));
  const bin = join(dir, 'bin');
  const current = join(dir, 'current.txt');
  writeFileSync(current, '');
  const sleep = options.sleepSeconds
    ? `sleep ${options.sleepSeconds} &\n    ${options.pidFile ? `echo "$$ $!" > '${options.pidFile}'\n    ` : ''}wait\n    `
    : '';
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'npu-smi'),
    `#!/bin/sh\ncase "$*" in\n  info)\n    ${sleep}cat '${current}'\n    ;;\n  *) echo "Command or option is not found."; exit 1 ;;\nesac\n`,
  );
  chmodSync(join(bin, 'npu-smi'), 0o755);
  return { bin, current };
}

/** The NODE_OPTIONS the install recipes start serve with (the systemd unit's Environment= line). */
export function recipeNodeOptions(): string {
  const unit = readFileSync(join(REPO, 'examples', 'systemd', 'qprep.service'), 'utf8');
  const value = /^Environment="?NODE_OPTIONS=(.*?)"?$/m.exec(unit)?.[1];
  if (value === undefined) throw new Error('examples/systemd/qprep.service sets no NODE_OPTIONS');
  return value;
}
