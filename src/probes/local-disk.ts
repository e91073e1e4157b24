import type { CheckContext } from '../core/types.js';
import { mountTable } from './mounts.js';
import { storageKind } from './storage.js';

/**
 * A local disk that could hold a copy of the weights: a mounted local filesystem (ext4, xfs,
 * btrfs, ...), writable, outside the system's own directories, with room for them. NVMe
 * devices first, then the most free space. Only read when a load is too slow to say where
 * its copy could go.
 */

export interface CopyTarget {
  mountPoint: string;
  fsType: string;
  source: string;
  availableBytes: number;
}

/** Mount points that are the system's or a container runtime's, never a place for weights. */
const SYSTEM = /^\/(?:$|boot|proc|sys|dev|run|etc|usr|lib|lib64|bin|sbin|snap|tmp|var\/lib\/(?:docker|containerd|kubelet))(?:\/|$)/;

export async function localCopyTarget(ctx: CheckContext, bytes: number, weightsMountPoint: string | null): Promise<CopyTarget | null> {
  const table = await mountTable(ctx);
  if (!table.ok) return null;
  const weights = weightsMountPoint === null ? undefined : table.mounts.find((m) => m.mountPoint === weightsMountPoint);
  const candidates = table.mounts.filter(
    (m) => storageKind(m.fsType) === 'local' && !SYSTEM.test(m.mountPoint) && !m.options.includes('ro') && m.device !== weights?.device,
  );
  const targets: CopyTarget[] = [];
  for (const mount of candidates) {
    const usage = await ctx.host.statfs(mount.mountPoint);
    if (usage.ok && usage.value.availableBytes >= bytes * 1.05) targets.push({ mountPoint: mount.mountPoint, fsType: mount.fsType, source: mount.source, availableBytes: usage.value.availableBytes });
  }
  const nvme = (t: CopyTarget) => (/nvme/.test(t.source) ? 0 : 1);
  targets.sort((a, b) => nvme(a) - nvme(b) || b.availableBytes - a.availableBytes);
  return targets[0] ?? null;
}
