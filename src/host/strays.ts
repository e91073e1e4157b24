import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';

/**
 * Processes a tool leaves behind outside its process group. A tool that calls setsid, or a
 * daemonizing wrapper that double-forks and exits 0, takes its descendants out of the group
 * that qprep kills; they keep running on the node after the call. Every command qprep starts
 * carries this run's token in its environment (`QPREP_RUN_TOKEN=<run>:<call>`), which every
 * descendant inherits whatever session or group it moves to; when a call has ended, the
 * processes still carrying its token are found in /proc/PID/environ and killed.
 *
 * What escapes this: a descendant that replaces its whole environment (`env -i`, execve with a
 * new environment), one in another PID namespace, and one qprep may not read (not running as root
 * and the tool changed user). These limits are stated in docs/robustness.md.
 */
export const RUN_TOKEN_VARIABLE = 'QPREP_RUN_TOKEN';
const runToken = randomBytes(8).toString('hex');
const marker = Buffer.from(`${RUN_TOKEN_VARIABLE}=${runToken}:`);

/**
 * Up to this many pids handed out since the calls began, a pass asks for each one by number
 * instead of listing /proc: a sweep after a call that started two processes reads a few files,
 * not a directory of every process on the node. More (a busy node, a fork loop): the listing.
 */
const MAX_PIDS_BY_NUMBER = 256;

/** A kill loop that keeps finding processes is a fork loop; a few rounds bound the work. */
const MAX_SWEEP_ROUNDS = 8;

let nextCall = 0;
/** The argv of each call started, by call number, until its sweep is done. */
const calls = new Map<number, readonly string[]>();
/** The last pid the kernel had handed out when each call started (see lastPid). */
const firstPids = new Map<number, number>();
/** Calls that have ended and wait for the next sweep. */
const ended = new Set<number>();
let pending: Promise<ReadonlyMap<number, number>> | undefined;
/** Passes over /proc made so far: each costs a read per new process, and a directory listing when there are many (listings). */
let passes = 0;
let listings = 0;

/** Per tool, the calls that left processes: one entry per executable, whatever the number of calls. */
export interface LeftBehind {
  /** the executable as run */
  tool: string;
  /** the first call that left processes, as argv */
  firstCall: string[];
  /** calls of this tool that left processes */
  calls: number;
  /** processes still carrying a call's token after it ended, all killed */
  processes: number;
}
const leftBehind = new Map<string, LeftBehind>();

/** The environment value of a new call, and its number for `sweepCall` and `startedAs`. */
export function markCall(argv: readonly string[]): { call: number; value: string } {
  const call = nextCall++;
  calls.set(call, argv);
  return { call, value: `${runToken}:${call}` };
}

/**
 * The call's process has started as `pid`: the first pid of its tree, so its descendants have
 * pids above `pid - 1` until the pids wrap (the sweep lists /proc then). Taken from the spawn
 * rather than from /proc/loadavg before it: one read less on the way to every tool call.
 */
export function startedAs(call: number, pid: number): void {
  firstPids.set(call, pid - 1);
}

/** A call that never started a process: nothing to look for. */
export function forgetCall(call: number): void {
  calls.delete(call);
  firstPids.delete(call);
}

/**
 * The last pid handed out in this PID namespace (the 5th field of /proc/loadavg). Pids grow
 * until they wrap at pid_max, so a call's descendants have pids between its own pid and the
 * value read when it ended: a sweep reads only their environments, not those of every process
 * on the node.
 */
function lastPid(): number | undefined {
  const text = readProcFile('/proc/loadavg')?.toString('latin1');
  if (text === undefined) return undefined;
  const last = Number(text.trim().split(' ')[4]);
  return Number.isInteger(last) && last > 0 ? last : undefined;
}

/**
 * One buffer for every read of a /proc file: procfs reports a size of 0, so readFileSync
 * allocates a 64 KiB buffer per read, and a run reads one file or more per call.
 */
let procBuffer = Buffer.allocUnsafe(64 * 1024);

/** The content of a /proc file, or undefined when it cannot be read (`onError` gets the error's code). */
function readProcFile(path: string, onError?: (code: string | undefined) => void): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    onError?.((error as NodeJS.ErrnoException).code);
    return undefined;
  }
  try {
    let size = 0;
    for (;;) {
      if (size === procBuffer.length) {
        const larger = Buffer.allocUnsafe(procBuffer.length * 2);
        procBuffer.copy(larger);
        procBuffer = larger;
      }
      const read = readSync(fd, procBuffer, size, procBuffer.length - size, null);
      if (read === 0) break;
      size += read;
    }
    return Buffer.from(procBuffer.subarray(0, size));
  } catch (error) {
    onError?.((error as NodeJS.ErrnoException).code);
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether process `name` belongs to another user (the owner of /proc/N is the process's
 * effective uid): qprep not running as root will never read its environment, however often it
 * asks (a tool's descendant that changed user is the limit the header states). One of qprep's
 * own uid that refuses the read is caught in an exec.
 */
function ownedByAnother(name: string): boolean {
  const uid = process.geteuid?.();
  if (uid === undefined || uid === 0) return false;
  try {
    const owner = statSync(`/proc/${name}`, { throwIfNoEntry: false })?.uid;
    return owner !== undefined && owner !== uid;
  } catch {
    return false;
  }
}

/** The process (or the file) no longer exists: nothing a sweep need look at again. */
function isGone(code: string | undefined): boolean {
  return code === 'ENOENT' || code === 'ESRCH';
}

/**
 * Whether a process whose environment read as empty may still become one of ours: one caught
 * in the middle of an exec does (its new environment is not in place yet); a zombie, a process
 * being reaped and a kernel thread never will.
 */
function mayBeExecuting(name: string): boolean {
  const stat = readProcFile(`/proc/${name}/stat`)?.toString('latin1');
  if (stat === undefined) return false;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, ppid] = [fields[0], Number(fields[1])];
  if (state === 'Z' || state === 'X' || state === 'x') return false;
  // kthreadd (pid 2) and its children are the kernel's threads
  return name !== '2' && ppid !== 2;
}

/** Whether /proc/N is a thread of another process (its thread group id is not N): that process is found by its own number. */
function threadOfAnother(name: string): boolean {
  const status = readProcFile(`/proc/${name}/status`)?.toString('latin1');
  const tgid = status === undefined ? undefined : /^Tgid:\s*(\d+)$/m.exec(status)?.[1];
  return tgid !== undefined && tgid !== name;
}

/** The call number a process's environment marks it with, or undefined when it carries none of this run. */
function callOf(environ: Buffer): number | undefined {
  let at = environ.indexOf(marker);
  while (at > 0 && environ[at - 1] !== 0) at = environ.indexOf(marker, at + 1);
  if (at < 0) return undefined;
  let end = environ.indexOf(0, at);
  if (end < 0) end = environ.length;
  const call = Number(environ.subarray(at + marker.length, end).toString('latin1'));
  return Number.isInteger(call) ? call : undefined;
}

/**
 * One pass over /proc: kills every process of an ended call; returns how many it killed per call,
 * and how many processes started since the calls began had an environment it could not read.
 */
function sweepOnce(of: ReadonlySet<number>, signalled: Set<number>): { killed: Map<number, number>; unread: number } {
  const killed = new Map<number, number>();
  let unread = 0;
  passes++;
  // only the pids handed out since the earliest of these calls started; all of them after a wrap
  const starts = [...of].map((call) => firstPids.get(call));
  const last = lastPid();
  const above = starts.every((start) => start !== undefined) && last !== undefined && starts.length > 0 ? Math.min(...starts) : undefined;
  const window = above !== undefined && last! >= above ? { above, last: last! } : undefined;
  // by number: /proc/N also answers for a thread N (the listing shows processes only), which
  // must not count as a process of its own (threadOfAnother)
  const byNumber = window !== undefined && window.last - window.above <= MAX_PIDS_BY_NUMBER;
  let names: string[];
  if (byNumber) {
    names = [];
    for (let pid = window.above + 1; pid <= window.last; pid++) names.push(String(pid));
  } else {
    listings++;
    try {
      names = readdirSync('/proc');
    } catch {
      return { killed, unread }; // no procfs (not Linux): nothing to find this way
    }
  }
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(name);
    // a process signalled in an earlier round may not be gone yet: it is one process, killed once
    if (pid === process.pid || signalled.has(pid)) continue;
    if (window && pid <= window.above) continue;
    // A process that ended meanwhile has nothing left to kill. One of another user, which qprep
    // not running as root may not read, stays so (the limit the header states); one that reads
    // as empty, or refuses the read while it is qprep's own user's, may be a new process caught
    // in the middle of an exec: for those, and only those, the pass is made again. On a busy
    // node other processes start and end all the time; counting those would repeat every pass.
    let code: string | undefined;
    const environ = readProcFile(`/proc/${name}/environ`, (error) => {
      code = error;
    });
    if (environ === undefined) {
      if (window && !isGone(code) && !(code === 'EACCES' && ownedByAnother(name))) unread++;
      continue;
    }
    if (environ.length === 0) {
      // a thread of a process that is exiting reads as empty too: its process has a number of its own
      if (window && mayBeExecuting(name) && !(byNumber && threadOfAnother(name))) unread++;
      continue;
    }
    const call = callOf(environ);
    if (call === undefined || !of.has(call)) continue;
    if (byNumber && threadOfAnother(name)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      signalled.add(pid);
      killed.set(call, (killed.get(call) ?? 0) + 1);
    } catch {
      // ended meanwhile
    }
  }
  return { killed, unread };
}

function sweep(of: ReadonlySet<number>): ReadonlyMap<number, number> {
  const total = new Map<number, number>();
  const signalled = new Set<number>();
  for (let round = 0; round < MAX_SWEEP_ROUNDS; round++) {
    const { killed, unread } = sweepOnce(of, signalled);
    if (killed.size === 0 && unread === 0) break;
    for (const [call, count] of killed) total.set(call, (total.get(call) ?? 0) + count);
  }
  for (const call of of) {
    const count = total.get(call);
    const argv = calls.get(call);
    calls.delete(call);
    firstPids.delete(call);
    if (!count || !argv) continue;
    const tool = argv[0] ?? '';
    const entry = leftBehind.get(tool);
    if (entry) {
      entry.calls++;
      entry.processes += count;
    } else {
      leftBehind.set(tool, { tool, firstCall: [...argv], calls: 1, processes: count });
    }
  }
  return total;
}

/**
 * Kills what the call left behind once it has ended (exited, timed out or been killed) and
 * returns how many processes that was. Calls that end together share one pass over /proc.
 */
export async function sweepCall(call: number): Promise<number> {
  ended.add(call);
  pending ??= new Promise((resolve) =>
    setImmediate(() => {
      const batch = new Set(ended);
      ended.clear();
      pending = undefined;
      resolve(sweep(batch));
    }),
  );
  return (await pending).get(call) ?? 0;
}

/** How many passes over /proc the sweeps of this process have made (one per batch of ended calls, unless a pass must be made again). */
export function sweepPasses(): number {
  return passes;
}

/** How many of those passes listed /proc instead of asking for the new pids by number. */
export function sweepListings(): number {
  return listings;
}

/** Interrupted: every process of every call of this run goes, running or not. */
export function sweepAllCalls(): void {
  sweep(new Set(calls.keys()));
}

/** The tools of this run that left processes behind, in the order they first did. */
export function processesLeftBehind(): LeftBehind[] {
  return [...leftBehind.values()].map((entry) => ({ ...entry, firstCall: [...entry.firstCall] }));
}
