import { readFileSync } from 'node:fs';

/**
 * A process as a lock file names it: the pid and its start time (field 22 of /proc/PID/stat,
 * in clock ticks since boot), so that a pid reused by an unrelated process after a crash is
 * not mistaken for the lock's owner.
 */
export interface ProcessIdentity {
  pid: number;
  startTime: string | null;
}

function startTimeOf(pid: number | 'self'): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may contain spaces and parentheses; fields after it are plain
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** This qprep process, judged in its own PID namespace. */
export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, startTime: startTimeOf('self') };
}

/** Is that process still running (in qprep's PID namespace)? */
export function isProcessRunning(identity: ProcessIdentity): boolean {
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (identity.startTime === null) return true;
  const now = startTimeOf(identity.pid);
  return now === null || now === identity.startTime;
}
