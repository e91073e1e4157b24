import type { CheckContext } from '../core/types.js';
import type { ProbeErrorCode, ReadProbeResult } from '../host/types.js';
import { mountFor, type MountEntry } from '../parsers/mountinfo.js';
import { mountTable } from './mounts.js';

/**
 * What the storage under the weights delivers: the filesystem and mount the directory is on
 * (mountinfo), and a bounded read of real shard bytes (Host.readThroughput), once per
 * filesystem and run. The figure is the storage's own where the read went past the page cache,
 * and says so where it could not.
 */

/** The bounds of the read: a few seconds of a check, never the whole weights of a large model. */
export const IO_PROBE_MAX_MS = 3000;
export const IO_PROBE_MAX_BYTES = 2 * 1024 ** 3;
/** shards whose open and header read are timed, for the cost of a shard beyond its bytes */
const TIMED_OPENS = 4;

/**
 * What kind of storage a filesystem type is. Network, parallel and object-store filesystems
 * serve the small random reads of a memory-mapped load badly (vLLM's --safetensors-load-strategy
 * eager reads whole files instead); memory is the storage itself, where a cached read is its speed.
 */
export type StorageKind = 'local' | 'overlay' | 'network' | 'parallel' | 'object-store' | 'fuse' | 'memory' | 'unknown';

const KINDS: Array<[StorageKind, RegExp]> = [
  ['memory', /^(tmpfs|ramfs|hugetlbfs)$/],
  ['local', /^(ext[234]|xfs|btrfs|f2fs|zfs|bcachefs|jfs|reiserfs|vfat|exfat|ntfs3?|fuseblk)$/],
  ['overlay', /^(overlay|aufs)$/],
  ['network', /^(nfs4?|cifs|smb3?|smbfs|9p|ceph|afs|fuse\.(glusterfs|sshfs|cephfs|ceph-fuse|juicefs|curvefs))$/],
  ['parallel', /^(lustre|gpfs|beegfs|wekafs|orangefs|pvfs2|fuse\.(lustre|weka))$/],
  // object stores behind FUSE: S3 (s3fs, goofys, mountpoint-s3, rclone), Huawei OBS (obsfs), Alibaba OSS, Tencent COS, GCS, Azure Blob
  ['object-store', /^fuse\.(s3fs|goofys|mount-s3|mountpoint-s3|rclone|obsfs|ossfs|cosfs|gcsfuse|blobfuse2?|alluxio-fuse|geesefs)$/],
  ['fuse', /^fuse(\..+)?$/],
];

export function storageKind(fsType: string | null): StorageKind {
  if (!fsType) return 'unknown';
  return KINDS.find(([, pattern]) => pattern.test(fsType))?.[0] ?? 'unknown';
}

/** statfs(2) f_type of the filesystems KINDS names, for a host whose mountinfo was not read */
const MAGICS: Record<number, string> = {
  0x01021994: 'tmpfs',
  0x858458f6: 'ramfs',
  0xef53: 'ext4',
  0x58465342: 'xfs',
  0x9123683e: 'btrfs',
  0x794c7630: 'overlay',
  0x6969: 'nfs',
  0xff534d42: 'cifs',
  0xfe534d42: 'smb3',
  0x0bd00bd0: 'lustre',
  0x47504653: 'gpfs',
  0x65735546: 'fuse',
  0x00c36400: 'ceph',
};

/** Whether vLLM's mmap reads go badly on this kind of storage, and eager whole-file reads help. */
export function remoteKind(kind: StorageKind): boolean {
  return kind === 'network' || kind === 'parallel' || kind === 'object-store' || kind === 'fuse';
}

export interface StorageMount {
  mountPoint: string;
  fsType: string;
  source: string;
  /** major:minor of the filesystem, what the probe is kept once per */
  device: string;
}

export type StorageProbe =
  | {
      ok: true;
      mount: StorageMount | null;
      /** the filesystem type: from mountinfo, else from statfs */
      filesystem: string | null;
      kind: StorageKind;
      sample: ReadProbeResult;
      /** bytes per second of the read; null when nothing was read */
      throughputBytesPerSec: number | null;
      /** the page cache served the read (on memory storage it always does: that is its speed); null when it cannot be told */
      cached: boolean | null;
      /** the median of the timed opens, seconds */
      perShardSeconds: number | null;
      /** of the files given, the bytes the page cache holds now; null when unknown */
      residentBytes: number | null;
      /** part of the read was holes of sparse files, which no storage delivers: the figure is not the storage's */
      sparse: boolean;
    }
  | { ok: false; off: true; mount: StorageMount | null; filesystem: string | null; kind: StorageKind }
  /** the probe failed: `message` is the host's own, for describeProbeError in the run's language */
  | { ok: false; off: false; mount: StorageMount | null; filesystem: string | null; kind: StorageKind; code: ProbeErrorCode; message: string };

/** The mount holding a host path; under --root also the mount of the tree's own path, the longer. */
function mountOf(mounts: readonly MountEntry[], path: string, root: string): MountEntry | undefined {
  const direct = mountFor(mounts, path);
  if (root === '/') return direct;
  const viaTree = mountFor(mounts, `${root.replace(/\/+$/, '')}${path}`);
  if (!viaTree || viaTree.mountPoint === '/') return direct;
  return !direct || viaTree.mountPoint.length > direct.mountPoint.length ? viaTree : direct;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Whether the page cache served the read. O_DIRECT and files with no cached page (fincore)
 * read the storage; on memory storage the cache is the storage. A buffered read of files that
 * had cached pages, or of files whose residency is unknown, may be the cache's.
 */
function servedByCache(sample: ReadProbeResult, kind: StorageKind): boolean | null {
  if (kind === 'memory') return true;
  if (sample.method === 'direct') return false;
  if (sample.cachedBytesAtMost === null) return null;
  // a few pages the timed opens or read-ahead left do not make a figure the cache's
  return sample.cachedBytesAtMost > sample.bytesRead * 0.05;
}

function summarize(sample: ReadProbeResult, base: { mount: StorageMount | null; filesystem: string | null; kind: StorageKind }): StorageProbe {
  const filesystem = base.filesystem ?? (sample.fsMagic !== null ? (MAGICS[sample.fsMagic] ?? null) : null);
  const kind = base.kind === 'unknown' ? storageKind(filesystem) : base.kind;
  const throughput = sample.bytesRead > 0 ? sample.bytesRead / (Math.max(sample.durationMs, 1) / 1000) : null;
  const resident = sample.files.some((f) => !f.refused && f.residentBytes === null)
    ? null
    : sample.files.reduce((sum, f) => sum + (f.refused ? 0 : Math.min(f.residentBytes ?? 0, f.size)), 0);
  const perShard = median(sample.opens.map((o) => o.ms));
  return {
    ok: true,
    ...base,
    filesystem,
    kind,
    sample,
    throughputBytesPerSec: throughput === null ? null : Math.round(throughput),
    cached: servedByCache(sample, kind),
    perShardSeconds: perShard === null ? null : perShard / 1000,
    residentBytes: resident,
    // on memory a hole costs what data costs (a copy of a zero page): only a storage reads holes faster
    sparse: kind !== 'memory' && sample.holeBytesAtLeast > sample.bytesRead * 0.05,
  };
}

/**
 * The storage of `directory` (the weights, or the cache entry their shards link into) measured
 * by reading `files` (host paths inside it), once per filesystem and run.
 */
export async function storageProbe(ctx: CheckContext, directory: string, files: readonly string[]): Promise<StorageProbe> {
  const table = await mountTable(ctx);
  const entry = table.ok ? mountOf(table.mounts, directory, ctx.host.root) : undefined;
  const mount = entry ? { mountPoint: entry.mountPoint, fsType: entry.fsType, source: entry.source, device: entry.device } : null;
  const base = { mount, filesystem: mount?.fsType ?? null, kind: storageKind(mount?.fsType ?? null) };
  if (ctx.ioProbe === false) return { ok: false, off: true, ...base };
  const key = `io-probe:${mount ? mount.device : directory}`;
  return ctx.shared(key, async (): Promise<StorageProbe> => {
    const read = await ctx.host.readThroughput({ directory, files, maxBytes: IO_PROBE_MAX_BYTES, maxMs: IO_PROBE_MAX_MS, timedOpens: TIMED_OPENS });
    if (!read.ok) return { ok: false, off: false, ...base, code: read.code, message: read.message };
    return summarize(read.value, base);
  });
}
