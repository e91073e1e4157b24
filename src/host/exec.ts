import { execa } from 'execa';
import type { CommandResult } from './types.js';

/** Output beyond this is a sign of a broken tool, not data worth keeping in memory. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** How long to wait for the pipes to close after the process group was killed. */
const DRAIN_GRACE_MS = 1500;

/**
 * Process groups of commands still running. A signal to qprep itself (Ctrl-C, SIGTERM from
 * Ansible's timeout) must not leave a hung npu-smi or hccn_tool behind, and since every
 * command runs in its own process group the terminal's signal does not reach them.
 */
const liveGroups = new Set<number>();

export function killAllCommandGroups(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const pgid of liveGroups) killGroup(pgid, signal);
  liveGroups.clear();
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

export interface ExecOptions {
  timeoutMs: number;
  env: Record<string, string>;
}

/**
 * Runs argv without a shell, in a new process group, with LC_ALL=C. At the timeout the whole
 * group is killed with SIGKILL, so a tool that forks a helper and hangs leaves nothing behind.
 * Never rejects: a missing binary, a non-zero exit and a timeout are all data.
 */
export async function runCommand(argv: readonly string[], options: ExecOptions): Promise<CommandResult> {
  const [file, ...args] = argv;
  const started = performance.now();
  const base: CommandResult = {
    argv: [...argv],
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    durationMs: 0,
    timedOut: false,
    notFound: false,
  };
  if (!file) return { ...base, failure: 'empty command' };

  const subprocess = execa(file, args, {
    reject: false,
    detached: true,
    stdin: 'ignore',
    env: { ...options.env, LC_ALL: 'C', LANG: 'C', LANGUAGE: 'C' },
    extendEnv: false,
    stripFinalNewline: false,
    maxBuffer: MAX_OUTPUT_BYTES,
    encoding: 'utf8',
  });
  const pgid = subprocess.pid;
  if (pgid !== undefined) liveGroups.add(pgid);

  let timedOut = false;
  let drainTimer: NodeJS.Timeout | undefined;
  let giveUp: (() => void) | undefined;
  const abandoned = new Promise<'abandoned'>((resolve) => {
    giveUp = () => resolve('abandoned');
  });
  const timer = setTimeout(() => {
    timedOut = true;
    if (pgid !== undefined) killGroup(pgid, 'SIGKILL');
    // A grandchild that escaped the group (setsid) may still hold the pipes open.
    drainTimer = setTimeout(() => {
      subprocess.stdout?.destroy();
      subprocess.stderr?.destroy();
      giveUp?.();
    }, DRAIN_GRACE_MS);
  }, options.timeoutMs);

  try {
    const outcome = await Promise.race([subprocess, abandoned]);
    const durationMs = Math.round(performance.now() - started);
    if (outcome === 'abandoned') {
      return { ...base, durationMs, timedOut: true };
    }
    const result = outcome;
    const stdout = typeof result.stdout === 'string' ? result.stdout : '';
    const stderr = typeof result.stderr === 'string' ? result.stderr : '';
    const code = (result as { code?: string }).code;
    if (timedOut) {
      return { ...base, stdout, stderr, durationMs, timedOut: true, signal: result.signal ?? 'SIGKILL' };
    }
    if (code === 'ENOENT') return { ...base, durationMs, notFound: true, failure: `${file}: command not found` };
    if (code === 'EACCES') return { ...base, durationMs, failure: `${file}: permission denied` };
    if (result.isMaxBuffer) {
      return { ...base, stdout, stderr, durationMs, failure: `output exceeded ${MAX_OUTPUT_BYTES} bytes` };
    }
    if (result.exitCode === undefined && !result.signal && code) {
      return { ...base, durationMs, failure: `${file}: ${code}` };
    }
    return {
      ...base,
      exitCode: result.exitCode ?? null,
      signal: result.signal ?? null,
      stdout,
      stderr,
      durationMs,
    };
  } finally {
    clearTimeout(timer);
    if (drainTimer) clearTimeout(drainTimer);
    if (pgid !== undefined) liveGroups.delete(pgid);
  }
}
