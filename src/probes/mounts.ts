import type { CheckContext } from '../core/types.js';
import { describeProbeError } from '../host/types.js';
import { mountFor, parseMountinfo, type MountEntry } from '../parsers/mountinfo.js';

export type MountTable = { ok: true; mounts: MountEntry[] } | { ok: false; reason: string };

/** /proc/self/mountinfo of the examined tree, parsed once per run. */
export function mountTable(ctx: CheckContext): Promise<MountTable> {
  return ctx.shared('mountinfo', async () => {
    const path = '/proc/self/mountinfo';
    const read = await ctx.host.readFile(path);
    if (!read.ok) return { ok: false as const, reason: describeProbeError(path, read) };
    const { mounts } = parseMountinfo(read.value);
    if (mounts.length === 0) return { ok: false as const, reason: `${path} lists no mount` };
    return { ok: true as const, mounts };
  });
}

/**
 * Where a path inside a container comes from: a mount of its own (or of a parent directory
 * other than /), which is how `docker run -v` brings host files in, or the container's root
 * filesystem, i.e. a copy baked into the image, which goes stale when the host's driver
 * changes.
 */
export type PathOrigin =
  | { kind: 'mounted'; mountPoint: string; source: string; root: string; fsType: string }
  | { kind: 'image'; fsType: string };

export function originOf(mounts: readonly MountEntry[], path: string): PathOrigin {
  const mount = mountFor(mounts, path);
  if (!mount || mount.mountPoint === '/') return { kind: 'image', fsType: mount?.fsType ?? 'unknown' };
  return { kind: 'mounted', mountPoint: mount.mountPoint, source: mount.source, root: mount.root, fsType: mount.fsType };
}
