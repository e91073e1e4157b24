import { spokenError } from '../../i18n/spoken-error.js';
import { z } from 'zod';
import { describeProbeError, type Host } from '../../host/types.js';
import type { ProcessIdentity } from '../../host/process.js';
import { STATE_DIR } from './knobs.js';

/** One tune or rollback at a time per host tree. */
export const LOCK_PATH = `${STATE_DIR}/tune.lock`;

const lockSchema = z.object({
  pid: z.number().int(),
  startTime: z.string().nullable(),
  hostname: z.string(),
  command: z.string(),
  since: z.string(),
});
type LockOwner = z.infer<typeof lockSchema>;

export interface LockDeps {
  self: ProcessIdentity;
  isRunning(identity: ProcessIdentity): boolean;
  hostname: string;
  now(): Date;
}

export interface HeldLock {
  release(): Promise<void>;
  /** set when a lock left by a dead process was taken over */
  tookOverFrom?: string;
}

function describeOwner(owner: LockOwner): string {
  return `"${owner.command}" (pid ${owner.pid} on ${owner.hostname}, since ${owner.since})`;
}

/**
 * Takes the lock file with O_EXCL. A lock whose owner is gone (killed, crashed: the pid is not
 * running, or runs another program) is stale and taken over; a lock held by a live process is
 * a QprepError('locked'). Liveness is judged in qprep's own PID namespace: two tunes of one
 * host tree from different containers do not see each other's pids.
 */
export async function acquireLock(host: Host, command: string, deps: LockDeps): Promise<HeldLock> {
  const dir = await host.makeDirectory(STATE_DIR, 0o755);
  if (!dir.ok) {
    const needsRoot = dir.code === 'EACCES' || dir.code === 'EPERM';
    const reason = describeProbeError(STATE_DIR, dir);
    throw spokenError('refused', (t) => t.lock.cannotCreateDir({ dir: STATE_DIR, reason, asRoot: needsRoot ? t.lock.needsRoot : '' }));
  }
  const owner: LockOwner = { pid: deps.self.pid, startTime: deps.self.startTime, hostname: deps.hostname, command, since: deps.now().toISOString() };
  const content = `${JSON.stringify(owner)}\n`;
  let tookOverFrom: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const created = await host.writeFile(LOCK_PATH, content, { how: 'exclusive', mode: 0o644 });
    if (created.ok) {
      const lock: HeldLock = {
        release: async () => {
          await host.removeFile(LOCK_PATH);
        },
      };
      if (tookOverFrom) lock.tookOverFrom = tookOverFrom;
      return lock;
    }
    if (created.code !== 'EEXIST') {
      const needsRoot = created.code === 'EACCES' || created.code === 'EPERM';
      const reason = describeProbeError(LOCK_PATH, created);
      throw spokenError('refused', (t) => t.lock.cannotCreate({ reason, asRoot: needsRoot ? t.lock.needsRoot : '' }));
    }

    const existing = await host.readFile(LOCK_PATH);
    if (!existing.ok) continue; // released in the meantime
    let parsed: LockOwner | undefined;
    try {
      const result = lockSchema.safeParse(JSON.parse(existing.value));
      if (result.success) parsed = result.data;
    } catch {
      // an empty or torn lock: its writer died between create and write
    }
    if (parsed && parsed.hostname === deps.hostname && deps.isRunning({ pid: parsed.pid, startTime: parsed.startTime })) {
      const owner = describeOwner(parsed);
      throw spokenError('locked', (t) => t.lock.heldHere({ owner, path: LOCK_PATH }));
    }
    if (parsed && parsed.hostname !== deps.hostname) {
      const owner = describeOwner(parsed);
      throw spokenError('locked', (t) => t.lock.heldElsewhere({ owner, path: LOCK_PATH }));
    }
    // Stale: move it aside under a unique name (rename is atomic, so of two qprep runs breaking
    // the same stale lock only one succeeds), then try again.
    const aside = `${LOCK_PATH}.stale-${deps.self.pid}-${attempt}`;
    const moved = await host.rename(LOCK_PATH, aside);
    if (moved.ok) {
      const movedContent = await host.readFile(aside);
      if (movedContent.ok && movedContent.value !== existing.value) {
        // We moved a fresh lock another run took in between: give it back and step aside.
        await host.writeFile(LOCK_PATH, movedContent.value, { how: 'exclusive', mode: 0o644 });
        await host.removeFile(aside);
        throw spokenError('locked', (t) => t.lock.takenWhileClearing({ path: LOCK_PATH }));
      }
      await host.removeFile(aside);
      tookOverFrom = parsed ? describeOwner(parsed) : 'an unreadable lock file';
    }
  }
  throw spokenError('locked', (t) => t.lock.keepsChanging({ path: LOCK_PATH }));
}
