export interface MountEntry {
  mountId: number;
  parentId: number;
  /** "major:minor" of the device */
  device: string;
  /** the path inside the source filesystem that is mounted (the bind source for bind mounts) */
  root: string;
  mountPoint: string;
  options: string[];
  fsType: string;
  source: string;
  superOptions: string[];
}

/** mountinfo escapes space, tab, newline and backslash as octal: "\040". */
function unescapeOctal(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/**
 * /proc/<pid>/mountinfo (proc(5)). Lines that do not have the documented shape are skipped and
 * counted, so a caller can tell "no such mount" from "unreadable file". Never throws.
 */
export function parseMountinfo(text: string): { mounts: MountEntry[]; skippedLines: number } {
  const mounts: MountEntry[] = [];
  let skippedLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const fields = line.split(' ');
    const separator = fields.indexOf('-', 6);
    if (fields.length < 10 || separator < 0 || fields.length < separator + 3) {
      skippedLines++;
      continue;
    }
    const mountId = Number(fields[0]);
    const parentId = Number(fields[1]);
    if (!Number.isInteger(mountId) || !Number.isInteger(parentId) || !/^\d+:\d+$/.test(fields[2]!)) {
      skippedLines++;
      continue;
    }
    mounts.push({
      mountId,
      parentId,
      device: fields[2]!,
      root: unescapeOctal(fields[3]!),
      mountPoint: unescapeOctal(fields[4]!),
      options: fields[5]!.split(','),
      fsType: fields[separator + 1]!,
      source: unescapeOctal(fields[separator + 2]!),
      superOptions: (fields[separator + 3] ?? '').split(',').filter(Boolean),
    });
  }
  return { mounts, skippedLines };
}

/** The mount that holds `path`: the last-mounted entry whose mount point is the longest prefix. */
export function mountFor(mounts: readonly MountEntry[], path: string): MountEntry | undefined {
  let best: MountEntry | undefined;
  for (const mount of mounts) {
    const point = mount.mountPoint;
    const covers = point === '/' || path === point || path.startsWith(`${point}/`);
    if (covers && (!best || point.length >= best.mountPoint.length)) best = mount;
  }
  return best;
}
