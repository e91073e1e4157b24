/**
 * The host seam: every read of the machine (commands, files, directories, file kinds,
 * environment, network) goes through this interface. Three implementations exist:
 * the live host, the recorder used by `qprep snapshot`, and the replay used by
 * `qprep check --snapshot`. Checks never import node:fs, node:child_process or execa.
 */

/** Why a probe could not produce a value. `ENOTCAPTURED` only comes from a snapshot replay. */
export type ProbeErrorCode =
  | 'ENOENT'
  | 'EACCES'
  | 'EPERM'
  | 'ENOTDIR'
  | 'EISDIR'
  | 'ETIMEDOUT'
  | 'ENOTCAPTURED'
  | 'EREADONLY'
  | 'EIO'
  | 'EEXIST'
  | 'EOTHER';

export type Probe<T> =
  | { ok: true; value: T }
  | { ok: false; code: ProbeErrorCode; message: string };

export type FileKind =
  | 'file'
  | 'directory'
  | 'symlink'
  | 'char-device'
  | 'block-device'
  | 'fifo'
  | 'socket'
  | 'other';

export interface FileStat {
  kind: FileKind;
  /** permission bits and type bits as st_mode */
  mode: number;
  uid: number;
  gid: number;
  size: number;
  /** major/minor device number of a device node (st_rdev) */
  rdev: number;
}

export interface DirEntry {
  name: string;
  kind: FileKind;
}

export interface FsUsage {
  /** filesystem type magic as reported by statfs(2) */
  type: number;
  totalBytes: number;
  freeBytes: number;
  /** bytes available to unprivileged users */
  availableBytes: number;
}

export interface CommandOptions {
  /** kill the command and its whole process group after this many milliseconds */
  timeoutMs?: number;
  /**
   * Do not start the command after this moment (performance.now() milliseconds): a call queued
   * behind others when a budget runs out comes back with `expired` instead of running.
   */
  startBy?: number;
  /** kill the command and its group when this aborts (the run is over: no probe outlives the report) */
  signal?: AbortSignal;
  /**
   * Called once, as soon as the command's process has ended by itself and its process group has
   * been killed: before its output is collected and what it left outside its group is swept.
   * A tool that runs one call at a time (hccn_tool) can take its next call from then on. Not
   * called for a command killed at its timeout or output cap, or by the signal: whether that
   * tool may be called again is known only from the result.
   */
  onExit?: () => void;
  /**
   * Called before the result is returned when the command's process has not ended yet: it was
   * killed (its timeout, the run's end) and has not died within the grace period, as a process
   * stuck in the kernel does. `gone` resolves when it ends, if ever. A tool's next call must
   * wait for that. Hosts without processes never call it.
   */
  onLingering?: (gone: Promise<void>) => void;
}

export interface CommandResult {
  argv: string[];
  /** null when the process was killed, did not start, or was not captured */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  /** the executable was not found (spawn ENOENT) */
  notFound: boolean;
  /** why the command could not be run when it is neither a timeout nor a missing binary */
  failure?: string;
  /**
   * processes the command left running when it ended (outside its process group: setsid, a
   * double fork), found by the run token in their environment and killed
   */
  leftProcesses?: number;
  /** the command was not started: its `startBy` had passed when its turn came */
  expired?: boolean;
}

export interface NetAddress {
  family: 'IPv4' | 'IPv6';
  address: string;
  netmask: string;
  /** prefix length */
  prefix: number;
}

export interface NetInterface {
  name: string;
  /** administratively up (IFF_UP) */
  adminUp: boolean;
  /** kernel operstate: up, down, unknown, dormant, lowerlayerdown, notpresent */
  operState: string;
  /** carrier present (IFF_RUNNING) */
  running: boolean;
  mtu: number | null;
  mac: string | null;
  loopback: boolean;
  addresses: NetAddress[];
}

export interface SystemIdentity {
  hostname: string;
  /** uname -m style: x86_64, aarch64 */
  arch: string;
  /** kernel release, uname -r */
  kernel: string;
}

/** One network interface as the inventory describes it (null: could not be read). */
export interface InventoryNic {
  name: string;
  mac: string | null;
  /** the first IPv4 address; null without one, or where addresses cannot be read (--root) */
  ipv4: string | null;
  mtu: number | null;
  /** link speed in Mbit/s; null when the driver reports none (link down, virtual) */
  speedMbps: number | null;
  /** full or half; null when unknown */
  duplex: string | null;
  /** kernel operstate: up, down, unknown, dormant, lowerlayerdown, notpresent */
  state: string;
  /** a software interface (bridge, veth, loopback, ...) rather than a NIC */
  virtual: boolean | null;
}

/**
 * The machine itself: server model, firmware, CPUs, memory and NICs. A field that cannot be
 * read is null, and `unknown` says which one and why: an inventory is never a failure.
 */
export interface HostInventory {
  /** systeminformation on the running system, or the files under --root */
  source: 'systeminformation' | 'root-files' | 'none';
  system: { manufacturer: string | null; model: string | null; serial: string | null; virtual: boolean | null };
  bios: { vendor: string | null; version: string | null };
  cpu: { brand: string | null; sockets: number | null; cores: number | null; threads: number | null; numaNodes: number | null };
  memoryBytes: number | null;
  os: { distro: string | null; release: string | null };
  nics: InventoryNic[] | null;
  unknown: Array<{ field: string; reason: string }>;
}

/** Where an executable was found, and every place looked at, for "not found" messages. */
export interface CommandLocation {
  path: string | null;
  searched: string[];
}

export interface TcpProbeResult {
  ok: boolean;
  durationMs: number;
  error?: string;
}

/**
 * How `writeFile` writes:
 * - `existing`: replace the content of a file that must already exist, in one write, never
 *   creating it (O_WRONLY|O_TRUNC): kernel tunables in /proc/sys and /sys.
 * - `atomic`: a temporary file in the same directory, fsync, rename over the target, fsync the
 *   directory: configuration files and the tune journal; a crash leaves the old or the new file.
 * - `exclusive`: create a file that must not exist (O_CREAT|O_EXCL), fsync it: a lock. Fails
 *   with EEXIST when it exists.
 */
export type WriteMode = 'existing' | 'atomic' | 'exclusive';

export interface WriteOptions {
  how: WriteMode;
  /** permission bits of a created file (atomic, exclusive); default 0o644 */
  mode?: number;
}

/**
 * A bounded sequential read of real file bytes, to measure what the storage under a directory
 * delivers (`Host.readThroughput`). The files are read in the order given, from their start,
 * until one of the bounds is reached.
 */
export interface ReadProbeRequest {
  /** the directory no read may leave: every file is resolved (symlinks followed) and one that leads out of it is refused */
  directory: string;
  /** host paths inside `directory`, in the order to read them: the shards */
  files: readonly string[];
  /** stop once this many bytes are read */
  maxBytes: number;
  /** stop once this many milliseconds have passed, and start no read that would end after them */
  maxMs: number;
  /** how many of the files have their open and first bytes timed (the cost of each shard beyond its bytes) */
  timedOpens: number;
  /** allow O_DIRECT reads past the page cache (default true); a test turns it off to see a cached read */
  direct?: boolean;
}

/** One file the probe considered. */
export interface ReadProbeFile {
  path: string;
  size: number;
  /** bytes of it in the page cache before the read (fincore); null when that could not be told */
  residentBytes: number | null;
  /** bytes the filesystem has allocated for it (st_blocks x 512): less than its size is a sparse file, whose holes no storage reads */
  allocatedBytes: number | null;
  /** why the file was not read: a symlink leading out of the directory, an unreadable file */
  refused?: string;
}

export interface ReadProbeResult {
  /**
   * how the probe read past the page cache: `direct` with O_DIRECT, `uncached-files` with
   * buffered reads of files that had no page cached (fincore said so), `buffered` without
   * either (the figure may be the cache's)
   */
  method: 'direct' | 'uncached-files' | 'buffered';
  /** why O_DIRECT was not used, when it was not */
  directRefused?: string;
  /** why the page cache residency of the files could not be read, when it could not */
  residencyUnknown?: string;
  bytesRead: number;
  /** from the first read to the last byte */
  durationMs: number;
  /** what ended the read: a bound, the end of the files, or a read that did not return */
  stoppedBy: 'time' | 'bytes' | 'files' | 'stalled';
  /** at most this many of the bytes read came from pages already cached (0 with O_DIRECT); null when unknown */
  cachedBytesAtMost: number | null;
  /** at least this many of the bytes read were holes of sparse files (read from no storage) */
  holeBytesAtLeast: number;
  files: ReadProbeFile[];
  /** the ranges read, in order */
  reads: Array<{ path: string; offset: number; bytes: number }>;
  /** the timed opens: open(2) and the read of the first bytes of a file, in milliseconds */
  opens: Array<{ path: string; ms: number }>;
  /** statfs(2) f_type of the directory's filesystem */
  fsMagic: number | null;
}

export interface Host {
  /** A short label for reports: "live", "live --root /host", "snapshot FILE". */
  readonly description: string;
  /** The prefix under which host files are read ("/" for the live root). */
  readonly root: string;

  run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult>;
  /**
   * Finds an executable as `run` will: in qprep's own PATH and then in `extraDirs`, on the
   * filesystem qprep runs on (commands never run under --root; only files are read there).
   */
  which(name: string, extraDirs?: readonly string[]): Promise<CommandLocation>;
  /**
   * Lets time pass on purpose (a counter read again a few seconds later): the live host waits,
   * a snapshot replays its answers at once. Not given: the caller waits on the clock (hostPause).
   */
  pause?(ms: number): Promise<void>;
  readFile(path: string): Promise<Probe<string>>;
  readDir(path: string): Promise<Probe<DirEntry[]>>;
  /** stat(2), following symlinks */
  stat(path: string): Promise<Probe<FileStat>>;
  /** lstat(2), not following symlinks */
  lstat(path: string): Promise<Probe<FileStat>>;
  readLink(path: string): Promise<Probe<string>>;
  statfs(path: string): Promise<Probe<FsUsage>>;
  env(): Readonly<Record<string, string>>;
  interfaces(): Promise<Probe<NetInterface[]>>;
  identity(): Promise<SystemIdentity>;
  /** the server model, CPUs, memory and NICs; never throws, never hangs past the probe timeout */
  inventory(): Promise<HostInventory>;
  tcpConnect(host: string, port: number, timeoutMs: number): Promise<TcpProbeResult>;
  /**
   * Reads real bytes of the files under a directory, bounded in bytes and time, past the page
   * cache where the filesystem allows it (see ReadProbeRequest). One probe per filesystem and
   * run: a second request on the same filesystem gets the first answer. Never reads outside
   * the directory.
   */
  readThroughput(request: ReadProbeRequest): Promise<Probe<ReadProbeResult>>;

  /*
   * Writes, used only by `qprep tune` and `qprep rollback` (checks never write). Paths are host
   * paths, written under the root like reads; a snapshot replay and the recorder refuse them.
   */
  writeFile(path: string, content: string, options: WriteOptions): Promise<Probe<void>>;
  /** unlink(2) of a file (not a directory); the directory entry removal is fsynced */
  removeFile(path: string): Promise<Probe<void>>;
  /** rename(2) within one filesystem; the directory is fsynced */
  rename(from: string, to: string): Promise<Probe<void>>;
  /** mkdir -p */
  makeDirectory(path: string, mode: number): Promise<Probe<void>>;
}

export function probeOk<T>(value: T): Probe<T> {
  return { ok: true, value };
}

export function probeFail<T = never>(code: ProbeErrorCode, message: string): Probe<T> {
  return { ok: false, code, message };
}

/** The words of describeProbeError; the catalogue's probes.file has them in each language. */
export interface ProbeErrorWords {
  notFound: (p: { path: string }) => string;
  denied: (p: { path: string }) => string;
  notCaptured: (p: { path: string }) => string;
  exists: (p: { path: string }) => string;
  /** the operating system's own message, as the host seam gives it */
  other: (p: { path: string; message: string }) => string;
}

const ENGLISH_PROBE_ERRORS: ProbeErrorWords = {
  notFound: (p) => `${p.path}: no such file or directory`,
  denied: (p) => `${p.path}: permission denied`,
  notCaptured: (p) => `${p.path}: not captured in the snapshot`,
  exists: (p) => `${p.path}: already exists`,
  other: (p) => `${p.path}: ${p.message}`,
};

/** Human wording of a failed probe, for messages: "/etc/x: no such file"; English unless told. */
export function describeProbeError(path: string, probe: { code: ProbeErrorCode; message: string }, words: ProbeErrorWords = ENGLISH_PROBE_ERRORS): string {
  switch (probe.code) {
    case 'ENOENT':
      return words.notFound({ path });
    case 'EACCES':
    case 'EPERM':
      return words.denied({ path });
    case 'ENOTCAPTURED':
      return words.notCaptured({ path });
    case 'EEXIST':
      return words.exists({ path });
    default:
      return words.other({ path, message: probe.message });
  }
}

/** The answer of a host that cannot write (a snapshot, a demo host): a probe error, never a throw. */
export function refuseWrite(path: string, why: string): Promise<Probe<void>> {
  return Promise.resolve(probeFail('EREADONLY', `${why}: not writing ${path}`));
}
