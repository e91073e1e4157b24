import type { Readable } from 'node:stream';
import { clampTimerMs } from '../util/timeout.js';
import { execa } from 'execa';
import { commandNotRun, emptyCommandResult } from './command-result.js';
import { forgetCall, markCall, RUN_TOKEN_VARIABLE, sweepAllCalls, sweepCall } from './strays.js';
import type { CommandResult } from './types.js';

/**
 * Output beyond this, on stdout or on stderr, is a sign of a broken tool, not data worth keeping
 * in memory: the command is killed with its process group when it reaches it, and what came
 * before is kept.
 */
export const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** How long to wait for the pipes to close after the process group was killed. */
const DRAIN_GRACE_MS = 1500;

/**
 * Process groups of commands still running. A signal to qprep itself (Ctrl-C, SIGTERM from
 * Ansible's timeout) must not leave a hung npu-smi or hccn_tool behind, and since every
 * command runs in its own process group the terminal's signal does not reach them.
 */
const liveGroups = new Set<number>();
/** Set once qprep is being interrupted: no command starts after that. */
let stopped = false;

export function killAllCommandGroups(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const pgid of liveGroups) killGroup(pgid, signal);
  liveGroups.clear();
  if (signal === 'SIGKILL') sweepAllCalls();
}

/**
 * Kills every running command group and refuses to start new ones: an interrupted run writes
 * its partial report while checks that were still running may try one more command.
 */
export function stopAllCommands(): void {
  stopped = true;
  killAllCommandGroups();
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

/** "16 MiB" for the cap message; the cap is a whole number of MiB. */
function mebibytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

export interface ExecOptions {
  timeoutMs: number;
  env: Record<string, string>;
  /** the run is over: kill the command with its group */
  signal?: AbortSignal;
}

/** Collects one output stream up to the cap; `onOverflow` runs once when the cap is reached. */
function collect(stream: Readable | null | undefined, onOverflow: () => void): { text(): string; overflowed(): boolean } {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflowed = false;
  stream?.on('data', (chunk: Buffer | string) => {
    if (overflowed) return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const room = MAX_OUTPUT_BYTES - size;
    if (bytes.length > room) {
      chunks.push(bytes.subarray(0, room));
      size += room;
      overflowed = true;
      onOverflow();
      return;
    }
    chunks.push(bytes);
    size += bytes.length;
  });
  // Invalid UTF-8 (a latin1 locale, random bytes) becomes U+FFFD; a NUL stays a NUL: parsers see text either way.
  return { text: () => Buffer.concat(chunks).toString('utf8'), overflowed: () => overflowed };
}

/**
 * Runs argv without a shell, in a new process group, with LC_ALL=C. At the timeout the whole
 * group is killed with SIGKILL, so a tool that forks a helper and hangs leaves nothing behind;
 * so is a tool that prints more than MAX_OUTPUT_BYTES on either stream (the output is read
 * here, not buffered whole by execa, so the cap is enforced as the bytes arrive).
 * When the process ends, what it left running (in its group, or out of it by setsid or a
 * double fork) is killed: found by the run token in its environment (strays.ts).
 * Never rejects: a missing binary, a non-zero exit, a timeout and an overflow are all data.
 */
export async function runCommand(argv: readonly string[], options: ExecOptions): Promise<CommandResult> {
  const [file, ...args] = argv;
  const started = performance.now();
  const base = emptyCommandResult(argv);
  if (!file) return commandNotRun(argv, 'empty command');
  if (stopped) return commandNotRun(argv, 'not started: qprep was interrupted');
  if (options.signal?.aborted) return commandNotRun(argv, 'not started: the run was over');

  const mark = markCall(argv);
  const subprocess = execa(file, args, {
    reject: false,
    detached: true,
    stdin: 'ignore',
    env: { ...options.env, LC_ALL: 'C', LANG: 'C', LANGUAGE: 'C', [RUN_TOKEN_VARIABLE]: mark.value },
    extendEnv: false,
    buffer: false,
    encoding: 'buffer',
  });
  const pgid = subprocess.pid;
  if (pgid !== undefined) liveGroups.add(pgid);

  let timedOut = false;
  let drainTimer: NodeJS.Timeout | undefined;
  let giveUp: (() => void) | undefined;
  const abandoned = new Promise<'abandoned'>((resolve) => {
    giveUp = () => resolve('abandoned');
  });
  const killTree = () => {
    if (pgid !== undefined) killGroup(pgid, 'SIGKILL');
    // A grandchild that escaped the group (setsid) may still hold the pipes open.
    drainTimer ??= setTimeout(() => {
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
      giveUp?.();
    }, DRAIN_GRACE_MS);
  };
  const stdout = collect(subprocess.stdout, killTree);
  const stderr = collect(subprocess.stderr, killTree);
  const timer = setTimeout(() => {
    timedOut = true;
    killTree();
  }, clampTimerMs(options.timeoutMs));
  options.signal?.addEventListener('abort', killTree, { once: true });
  // The call has ended when its process has: what it leaves behind (in its group or out of it,
  // holding the pipes open or not) is killed then, and the pipes close.
  let swept: Promise<number> | undefined;
  const sweep = () => (swept ??= sweepCall(mark.call));
  subprocess.once('exit', () => {
    if (pgid !== undefined) killGroup(pgid, 'SIGKILL');
    void sweep();
  });

  const result = await settle();
  if (pgid === undefined) {
    forgetCall(mark.call);
    return result;
  }
  const leftProcesses = await sweep();
  return leftProcesses > 0 ? { ...result, leftProcesses } : result;

  async function settle(): Promise<CommandResult> {
    try {
      const outcome = await Promise.race([subprocess, abandoned]);
      const durationMs = Math.round(performance.now() - started);
      const output = { stdout: stdout.text(), stderr: stderr.text() };
      const overflow = stdout.overflowed() ? 'stdout' : stderr.overflowed() ? 'stderr' : undefined;
      if (overflow) {
        return { ...base, ...output, durationMs, failure: `printed more than ${mebibytes(MAX_OUTPUT_BYTES)} on ${overflow}: stopped there and killed with its child processes` };
      }
      if (outcome === 'abandoned') return { ...base, ...output, durationMs, timedOut: true };
      const result = outcome;
      const code = (result as { code?: string }).code;
      if (timedOut) return { ...base, ...output, durationMs, timedOut: true, signal: result.signal ?? 'SIGKILL' };
      if (stopped && result.signal) return { ...base, ...output, durationMs, failure: 'interrupted: killed with its child processes when qprep was interrupted' };
      if (code === 'ENOENT') return { ...base, durationMs, notFound: true, failure: `${file}: command not found` };
      if (code === 'EACCES') return { ...base, durationMs, failure: `${file}: permission denied` };
      if (result.exitCode === undefined && !result.signal && code) {
        return { ...base, durationMs, failure: `${file}: ${code}` };
      }
      return {
        ...base,
        ...output,
        exitCode: result.exitCode ?? null,
        signal: result.signal ?? null,
        durationMs,
      };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', killTree);
      if (drainTimer) clearTimeout(drainTimer);
      if (pgid !== undefined) liveGroups.delete(pgid);
    }
  }
}
