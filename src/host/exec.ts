import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { startDeadline } from '../util/timeout.js';
import { commandNotRun, emptyCommandResult } from './command-result.js';
import { forgetCall, markCall, RUN_TOKEN_VARIABLE, startedAs, sweepAllCalls, sweepCall } from './strays.js';
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

/**
 * Commands run in process groups of their own, which outlive qprep's exit: whatever ends the
 * process (a usage error after the first tool calls started, an interruption, a crash on the way
 * out), the groups still running are killed as it exits.
 */
let killingAtExit = false;
function killGroupsAtExit(): void {
  if (liveGroups.size > 0) killAllCommandGroups();
}

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
  /** the process has ended by itself and its group is killed (CommandOptions.onExit) */
  onExit?: () => void;
  /** the result comes while the process has not ended (CommandOptions.onLingering) */
  onLingering?: (gone: Promise<void>) => void;
}

/** Collects one output stream up to the cap; `onOverflow` runs once when the cap is reached. */
/** A pipe's output as it is read, up to MAX_OUTPUT_BYTES. */
interface Collected {
  text(): string;
  overflowed(): boolean;
}

function collect(stream: Readable | null | undefined, onOverflow: () => void): Collected {
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

/** What the process ended with; `error` when it could not be started (ENOENT, EACCES). */
type Ended = { exitCode: number | null; signal: NodeJS.Signals | null } | { error: NodeJS.ErrnoException };

/**
 * Runs argv without a shell, in a new process group, with LC_ALL=C. At the timeout the whole
 * group is killed with SIGKILL, so a tool that forks a helper and hangs leaves nothing behind;
 * so is a tool that prints more than MAX_OUTPUT_BYTES on either stream (the output is read
 * here as the bytes arrive, so the cap is enforced before anything is buffered whole).
 * When the process ends, what it left running (in its group, or out of it by setsid or a
 * double fork) is killed: found by the run token in its environment (strays.ts).
 * Never rejects: a missing binary, a non-zero exit, a timeout and an overflow are all data.
 *
 * node:child_process.spawn is called directly: a run makes a few hundred calls, one after the
 * other on hccn_tool's queue, and whatever a wrapper adds to each call (option normalization,
 * stream and promise plumbing) lengthens that queue.
 */
export async function runCommand(argv: readonly string[], options: ExecOptions): Promise<CommandResult> {
  const [file, ...args] = argv;
  const started = performance.now();
  const base = emptyCommandResult(argv);
  if (!file) return commandNotRun(argv, 'empty command');
  if (stopped) return commandNotRun(argv, 'not started: qprep was interrupted');
  if (options.signal?.aborted) return commandNotRun(argv, 'not started: the run was over');

  const mark = markCall(argv);
  let child: ChildProcess;
  try {
    child = spawn(file, args, {
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...options.env, LC_ALL: 'C', LANG: 'C', LANGUAGE: 'C', [RUN_TOKEN_VARIABLE]: mark.value },
    });
  } catch (caught) {
    // thrown before any process exists: an argument node refuses (a NUL byte), a bad option
    forgetCall(mark.call);
    const code = (caught as NodeJS.ErrnoException).code;
    return { ...base, durationMs: Math.round(performance.now() - started), failure: `${file}: ${code ?? (caught instanceof Error ? caught.message : String(caught))}` };
  }
  const pgid = child.pid;
  if (pgid !== undefined) {
    liveGroups.add(pgid);
    startedAs(mark.call, pgid);
  }
  if (!killingAtExit) {
    killingAtExit = true;
    process.once('exit', killGroupsAtExit);
  }

  let timedOut = false;
  let drainTimer: NodeJS.Timeout | undefined;
  let giveUp: (() => void) | undefined;
  const abandoned = new Promise<'abandoned'>((resolve) => {
    giveUp = () => resolve('abandoned');
  });
  // killed by qprep (timeout, output cap, the run's end): not an end by itself
  let killed = false;
  const killTree = () => {
    killed = true;
    if (pgid !== undefined) killGroup(pgid, 'SIGKILL');
    // A grandchild that escaped the group (setsid) may still hold the pipes open.
    drainTimer ??= setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      giveUp?.();
    }, DRAIN_GRACE_MS);
  };
  const stdout = collect(child.stdout, killTree);
  const stderr = collect(child.stderr, killTree);
  // loop time, not wall time: a command whose exit is queued behind a stall of qprep's own loop has answered
  const deadline = startDeadline(options.timeoutMs, () => {
    timedOut = true;
    killTree();
  });
  options.signal?.addEventListener('abort', killTree, { once: true });
  // The call has ended when its process has: what it leaves behind (in its group or out of it,
  // holding the pipes open or not) is killed then, and the pipes close.
  let swept: Promise<number> | undefined;
  const sweep = () => (swept ??= sweepCall(mark.call));
  // 'close' comes after 'exit' and after both pipes have closed: the output is complete then;
  // 'error' alone (no process) when the spawn itself failed
  const ended = new Promise<Ended>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve({ error }));
    child.once('close', (exitCode: number | null, signal: NodeJS.Signals | null) => resolve({ exitCode, signal }));
  });
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => {
    exited = true;
    if (pgid !== undefined) killGroup(pgid, 'SIGKILL');
    // before the sweep (next turn of the event loop) and the pipes' close: a serialized tool's
    // next call starts now, and the sweep runs while it does
    if (!killed && !stopped) options.onExit?.();
    void sweep();
  });

  const call: RunningCall = { file, base, started, ended, abandoned, child, pgid, stdout, stderr, timedOut: () => timedOut };
  let result: CommandResult;
  try {
    result = await settle(call);
  } finally {
    deadline.cancel();
    options.signal?.removeEventListener('abort', killTree);
    if (drainTimer) clearTimeout(drainTimer);
    if (pgid !== undefined) liveGroups.delete(pgid);
  }
  if (pgid === undefined) {
    forgetCall(mark.call);
    return result;
  }
  // killed and given up on (its pipes held, or stuck in the kernel): it has not ended yet
  if (!exited) options.onLingering?.(gone);
  const leftProcesses = await sweep();
  return leftProcesses > 0 ? { ...result, leftProcesses } : result;
}

/** A started command, as settle() reads its end. */
interface RunningCall {
  file: string;
  base: CommandResult;
  started: number;
  /** 'close' (the process ended and both pipes closed), or 'error' alone when no process started */
  ended: Promise<Ended>;
  /** the pipes were given up: a grandchild holds them open */
  abandoned: Promise<'abandoned'>;
  child: ChildProcess;
  pgid: number | undefined;
  stdout: Collected;
  stderr: Collected;
  timedOut: () => boolean;
}

/** The result of a call once its process has ended, its pipes were given up, or it could not start. */
async function settle(call: RunningCall): Promise<CommandResult> {
  const { file, base, started, ended, abandoned, child, pgid, stdout, stderr } = call;
  const outcome = await Promise.race([ended, abandoned]);
  const durationMs = Math.round(performance.now() - started);
  const output = { stdout: stdout.text(), stderr: stderr.text() };
  const overflow = stdout.overflowed() ? 'stdout' : stderr.overflowed() ? 'stderr' : undefined;
  if (overflow) {
    return { ...base, ...output, durationMs, failure: `printed more than ${mebibytes(MAX_OUTPUT_BYTES)} on ${overflow}: stopped there and killed with its child processes` };
  }
  if (outcome === 'abandoned') return { ...base, ...output, durationMs, timedOut: true };
  if ('error' in outcome) {
    const code = outcome.error.code;
    if (code === 'ENOENT') return { ...base, durationMs, notFound: true, failure: `${file}: command not found` };
    if (code === 'EACCES') return { ...base, durationMs, failure: `${file}: permission denied` };
    if (pgid === undefined) return { ...base, durationMs, failure: `${file}: ${code ?? outcome.error.message}` };
    // an error after the process started (a pipe error): wait for its end as usual
    const late = await Promise.race([new Promise<Ended>((resolve) => child.once('close', (exitCode: number | null, signal: NodeJS.Signals | null) => resolve({ exitCode, signal }))), abandoned]);
    if (late === 'abandoned' || 'error' in late) return { ...base, ...output, durationMs, failure: `${file}: ${code ?? outcome.error.message}` };
    return finished(call, late, { stdout: stdout.text(), stderr: stderr.text() }, Math.round(performance.now() - started));
  }
  return finished(call, outcome, output, durationMs);
}

function finished(call: RunningCall, outcome: { exitCode: number | null; signal: NodeJS.Signals | null }, output: { stdout: string; stderr: string }, durationMs: number): CommandResult {
  const base = call.base;
  if (call.timedOut()) return { ...base, ...output, durationMs, timedOut: true, signal: outcome.signal ?? 'SIGKILL' };
  if (stopped && outcome.signal) return { ...base, ...output, durationMs, failure: 'interrupted: killed with its child processes when qprep was interrupted' };
  return { ...base, ...output, exitCode: outcome.exitCode, signal: outcome.signal, durationMs };
}
