import { z } from 'zod';
import { describeProbeError, type Host } from '../../host/types.js';
import type { ProcessIdentity } from '../../host/process.js';
import { QprepError } from '../../errors.js';
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
    const asRoot = dir.code === 'EACCES' || dir.code === 'EPERM' ? ' (tune and rollback need root)' : '';
    throw new QprepError('refused', `cannot create ${STATE_DIR}: ${describeProbeError(STATE_DIR, dir)}${asRoot}; nothing was changed`);
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
      const asRoot = created.code === 'EACCES' || created.code === 'EPERM' ? ' (tune and rollback need root)' : '';
      throw new QprepError('refused', `cannot create the lock: ${describeProbeError(LOCK_PATH, created)}${asRoot}; nothing was changed`);
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
      throw new QprepError('locked', `another qprep is changing this host: ${describeOwner(parsed)} holds ${LOCK_PATH}; wait for it to finish`);
    }
    if (parsed && parsed.hostname !== deps.hostname) {
      throw new QprepError('locked', `${LOCK_PATH} is held by ${describeOwner(parsed)}, another machine using this tree; remove the file if that run is gone`);
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
        throw new QprepError('locked', `another qprep took ${LOCK_PATH} while a stale lock was being cleared; run again`);
      }
      await host.removeFile(aside);
      tookOverFrom = parsed ? describeOwner(parsed) : 'an unreadable lock file';
    }
  }
  throw new QprepError('locked', `cannot take ${LOCK_PATH}: it keeps changing; another qprep is running`);
}
