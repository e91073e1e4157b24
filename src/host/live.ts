import { randomBytes } from 'node:crypto';
import { constants as fsConstants, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { locateExecutable } from './commands.js';
import { takeEarlyCall } from './early-calls.js';
import { runCommand } from './exec.js';
import { trackFileOperation } from './exit.js';
import { liveInventory, rootInventory } from './inventory.js';
import type { LibraryAnswerCache } from './inventory-cache.js';
import { askInventoryProcess, libraryUnavailable, type LibraryAnswers } from './inventory-process.js';
import { readInterfaces } from './net-interfaces.js';
import { probeReadThroughput } from './read-probe.js';
import { inventoryProcessCommand } from './self-command.js';
import {
  probeFail,
  probeOk,
  type CommandLocation,
  type CommandOptions,
  type CommandResult,
  type DirEntry,
  type FileKind,
  type FileStat,
  type FsUsage,
  type Host,
  type HostInventory,
  type NetInterface,
  type Probe,
  type ProbeErrorCode,
  type ReadProbeRequest,
  type ReadProbeResult,
  type SystemIdentity,
  type TcpProbeResult,
  type WriteOptions,
} from './types.js';
import { Semaphore } from '../util/semaphore.js';
import { clampTimerMs, withTimeout } from '../util/timeout.js';

/** Files bigger than this are not configuration or kernel state; refuse rather than fill memory. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const MAX_SYMLINK_HOPS = 40;
/** Reads that check what they opened against --root (confine): they may take directories from resolve's memory. */
const CONFINED_READ = { confined: true } as const;
/** open(2)'s O_PATH on Linux (arm64 and x86_64): a handle to stat a name without opening the file itself (a device node). */
const O_PATH = 0o10000000;
/**
 * File probes at once, every host of the process together: a probe holds a descriptor from its
 * open to its close, and cpu.governor alone reads one file per CPU (192 on an Atlas 800 A3).
 * Unbounded, a run on the simulated A3 node held 226 descriptors at its peak, all a 256 file
 * limit has, before qprep serve's connections. libuv runs 4 file operations at a time, so more
 * slots would not read any faster. Each probe's timeout starts once it has its slot.
 */
const MAX_FILE_PROBES = 32;
const FILE_PROBES = new Semaphore(MAX_FILE_PROBES);

export interface LiveHostOptions {
  /** host files are read under this prefix; "/" for the running system */
  root?: string;
  /** default timeout of every command and file probe */
  timeoutMs: number;
  /** environment seen by checks and passed to commands; defaults to process.env */
  env?: Record<string, string | undefined>;
  /**
   * the command line of the inventory process (inventory-process.ts); this qprep started again
   * when not given. Tests give a program of their own that answers, hangs or crashes.
   */
  inventoryProcess?: readonly string[];
  /** qprep serve: the inventory process's answer kept from run to run (inventory-cache.ts) */
  libraryCache?: LibraryAnswerCache;
}

export function errorCode(error: unknown): ProbeErrorCode {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
    case 'EACCES':
    case 'EPERM':
    case 'ENOTDIR':
    case 'EISDIR':
    case 'EIO':
      return code;
    case 'EROFS':
      return 'EREADONLY';
    case 'EEXIST':
      return 'EEXIST';
    default:
      return 'EOTHER';
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function kindOf(stats: Stats): FileKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isCharacterDevice()) return 'char-device';
  if (stats.isBlockDevice()) return 'block-device';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  return 'other';
}

function toFileStat(stats: Stats): FileStat {
  return { kind: kindOf(stats), mode: stats.mode, uid: stats.uid, gid: stats.gid, size: stats.size, rdev: stats.rdev };
}

/** uname -m from Node's arch names, for the hosts qprep meets. */
export function machineArch(): string {
  const machine = typeof os.machine === 'function' ? os.machine() : '';
  if (machine) return machine;
  return ({ x64: 'x86_64', arm64: 'aarch64' } as Record<string, string>)[os.arch()] ?? os.arch();
}

export class LiveHost implements Host {
  readonly root: string;
  readonly description: string;
  private readonly timeoutMs: number;
  private readonly environment: Record<string, string>;
  private readonly inventoryProcess: readonly string[] | undefined;
  private readonly libraryCache: LibraryAnswerCache | undefined;
  /** the early calls ran with process.env: a host given another environment does not take them over */
  private readonly takesEarlyCalls: boolean;

  constructor(options: LiveHostOptions) {
    this.root = path.resolve(options.root ?? '/');
    this.timeoutMs = options.timeoutMs;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.env ?? process.env)) {
      if (value !== undefined) env[key] = value;
    }
    this.environment = env;
    this.inventoryProcess = options.inventoryProcess;
    this.libraryCache = options.libraryCache;
    this.takesEarlyCalls = options.env === undefined;
    this.description = this.root === '/' ? 'live' : `live --root ${this.root}`;
  }

  run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
    // started by the process's first lines with this host's environment: the same call, made sooner
    const early = this.takesEarlyCalls ? takeEarlyCall(argv, { ...options, timeoutMs }) : undefined;
    if (early) return early;
    return runCommand(argv, {
      timeoutMs,
      env: this.environment,
      ...(options?.signal ? { signal: options.signal } : {}),
      ...(options?.onExit ? { onExit: options.onExit } : {}),
      ...(options?.onLingering ? { onLingering: options.onLingering } : {}),
    });
  }

  which(name: string, extraDirs: readonly string[] = []): Promise<CommandLocation> {
    return locateExecutable(name, this.environment.PATH, extraDirs);
  }

  readFile(file: string): Promise<Probe<string>> {
    return this.guard(file, async (real) => {
      const handle = await fsp.open(real, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
      try {
        await this.confine(handle, file);
        const chunks: Buffer[] = [];
        let total = 0;
        for (;;) {
          const buffer = Buffer.alloc(64 * 1024);
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
          if (bytesRead === 0) break;
          total += bytesRead;
          if (total > MAX_FILE_BYTES) return probeFail<string>('EOTHER', `larger than ${MAX_FILE_BYTES} bytes`);
          chunks.push(buffer.subarray(0, bytesRead));
        }
        return probeOk(Buffer.concat(chunks).toString('utf8'));
      } finally {
        await handle.close();
      }
    }, CONFINED_READ);
  }

  readDir(dir: string): Promise<Probe<DirEntry[]>> {
    return this.guard(dir, async (real) => {
      const entries = await this.withConfined(real, dir, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY, (opened) => fsp.readdir(opened, { withFileTypes: true }));
      const list: DirEntry[] = entries.map((entry) => ({
        name: entry.name,
        kind: entry.isFile()
          ? 'file'
          : entry.isDirectory()
            ? 'directory'
            : entry.isSymbolicLink()
              ? 'symlink'
              : entry.isCharacterDevice()
                ? 'char-device'
                : entry.isBlockDevice()
                  ? 'block-device'
                  : entry.isFIFO()
                    ? 'fifo'
                    : entry.isSocket()
                      ? 'socket'
                      : 'other',
      }));
      list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return probeOk(list);
    }, CONFINED_READ);
  }

  stat(file: string): Promise<Probe<FileStat>> {
    return this.guard(file, async (real) => probeOk(toFileStat(await this.withConfined(real, file, O_PATH, (opened) => fsp.stat(opened)))), CONFINED_READ);
  }

  lstat(file: string): Promise<Probe<FileStat>> {
    return this.guard(file, async (real) => probeOk(toFileStat(await fsp.lstat(real))), { followLast: false });
  }

  readLink(file: string): Promise<Probe<string>> {
    return this.guard(file, async (real) => probeOk(await fsp.readlink(real)), { followLast: false });
  }

  statfs(file: string): Promise<Probe<FsUsage>> {
    return this.guard(file, async (real) => {
      const s = await fsp.statfs(real);
      return probeOk({
        type: s.type,
        totalBytes: s.blocks * s.bsize,
        freeBytes: s.bfree * s.bsize,
        availableBytes: s.bavail * s.bsize,
      });
    });
  }

  env(): Readonly<Record<string, string>> {
    return this.environment;
  }

  async interfaces(): Promise<Probe<NetInterface[]>> {
    // The network namespace is this process's, whatever --root says.
    return withTimeout(
      readInterfaces().then((list) => probeOk(list)),
      this.timeoutMs,
      () => probeFail<NetInterface[]>('ETIMEDOUT', `reading network interfaces timed out after ${this.timeoutMs} ms`),
    ).catch((error: unknown) => probeFail<NetInterface[]>(errorCode(error), errorMessage(error)));
  }

  async identity(): Promise<SystemIdentity> {
    return { hostname: os.hostname(), arch: machineArch(), kernel: os.release() };
  }

  inventory(): Promise<HostInventory> {
    // systeminformation reads this machine's /proc and /sys: under --root they are not the host's
    if (this.root !== '/') return rootInventory(this);
    return liveInventory({
      files: this,
      interfaces: () => this.interfaces(),
      library: () => this.libraryAnswers(),
    });
  }

  /** systeminformation's answers, from the inventory process or, in a resident agent, as kept from an earlier run. */
  private async libraryAnswers(): Promise<LibraryAnswers> {
    const argv = this.inventoryProcess ?? inventoryProcessCommand();
    // the inventory's budget is one probe's timeout: the process and its helpers are killed then
    const ask = () =>
      argv
        ? askInventoryProcess((command, options) => this.run(command, options), argv, this.timeoutMs)
        : Promise.resolve(libraryUnavailable('systeminformation is not asked: this qprep was not started as a command, so it cannot start its inventory process'));
    if (!this.libraryCache) return ask();
    const bootId = await this.readFile('/proc/sys/kernel/random/boot_id');
    return this.libraryCache.answers(bootId.ok ? bootId.value.trim() : undefined, ask);
  }

  tcpConnect(host: string, port: number, timeoutMs: number): Promise<TcpProbeResult> {
    const started = performance.now();
    return new Promise((resolve) => {
      const socket = net.createConnection({ host, port });
      const done = (ok: boolean, error?: string) => {
        socket.removeAllListeners();
        socket.destroy();
        const durationMs = Math.round(performance.now() - started);
        resolve(error === undefined ? { ok, durationMs } : { ok, durationMs, error });
      };
      socket.setTimeout(clampTimerMs(timeoutMs), () => done(false, `no answer within ${timeoutMs} ms`));
      socket.once('connect', () => done(true));
      socket.once('error', (error: NodeJS.ErrnoException) => done(false, error.code ?? error.message));
    });
  }

  /** The probes of this run by filesystem (st_dev of the directory): one per filesystem. */
  private readonly readProbes = new Map<number, Promise<Probe<ReadProbeResult>>>();

  pause(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  async readThroughput(request: ReadProbeRequest): Promise<Probe<ReadProbeResult>> {
    if (!path.isAbsolute(request.directory)) return probeFail('EOTHER', `not an absolute path: ${request.directory}`);
    let device: number;
    try {
      device = (await fsp.stat(await this.realPath(request.directory))).dev;
    } catch (error) {
      return probeFail(errorCode(error), errorMessage(error));
    }
    let probe = this.readProbes.get(device);
    if (!probe) {
      // bounded by the probe's own time bound, its fincore call and a stalled read's grace
      const limitMs = request.maxMs + 2 * this.timeoutMs + 5000;
      probe = withTimeout(
        trackFileOperation(probeReadThroughput(request, { realPath: (p) => this.realPath(p), run: (argv, options) => this.run(argv, options) })),
        limitMs,
        () => probeFail<ReadProbeResult>('ETIMEDOUT', `the read probe of ${request.directory} did not end within ${Math.round(limitMs / 1000)} s`),
      ).catch((error: unknown) => probeFail<ReadProbeResult>(errorCode(error), errorMessage(error)));
      this.readProbes.set(device, probe);
    }
    return probe;
  }

  /** The real path of a host path, every symlink resolved, under --root inside the root. */
  private async realPath(hostPath: string): Promise<string> {
    if (this.root === '/') return fsp.realpath(path.posix.normalize(hostPath));
    const real = await fsp.realpath(await this.resolve(hostPath, true));
    this.realRootPromise ??= fsp.realpath(this.root);
    const root = await this.realRootPromise;
    if (real !== root && !real.startsWith(root.endsWith('/') ? root : `${root}/`)) {
      const error: NodeJS.ErrnoException = new Error(`${hostPath} leads outside --root ${this.root} (to ${real})`);
      error.code = 'EXDEV';
      throw error;
    }
    return real;
  }

  writeFile(file: string, content: string, options: WriteOptions): Promise<Probe<void>> {
    const mode = options.mode ?? 0o644;
    // A tunable is written through links (sysfs has them); a whole file replaces the name itself.
    const followLast = options.how === 'existing';
    return this.guard(
      file,
      async (real) => {
        switch (options.how) {
          case 'existing':
            // confined through an O_PATH handle, then opened again through it: the same inode, nothing truncated before
            return this.withConfined(real, file, O_PATH, (opened) => writeExisting(opened, content));
          case 'atomic':
            return writeAtomic(real, content, mode);
          case 'exclusive':
            return writeExclusive(real, content, mode);
        }
      },
      { followLast },
    );
  }

  removeFile(file: string): Promise<Probe<void>> {
    return this.guard(
      file,
      async (real) => {
        await fsp.unlink(real);
        await syncDirectory(path.dirname(real));
        return probeOk(undefined);
      },
      { followLast: false },
    );
  }

  rename(from: string, to: string): Promise<Probe<void>> {
    return this.guard(
      from,
      async (realFrom) => {
        if (!path.isAbsolute(to)) return probeFail<void>('EOTHER', `not an absolute path: ${to}`);
        const realTo = await this.resolve(to, false);
        await fsp.rename(realFrom, realTo);
        await syncDirectory(path.dirname(realTo));
        return probeOk(undefined);
      },
      { followLast: false },
    );
  }

  makeDirectory(dir: string, mode: number): Promise<Probe<void>> {
    return this.guard(dir, async (real) => {
      await fsp.mkdir(real, { recursive: true, mode });
      return probeOk(undefined);
    });
  }

  private realRootPromise: Promise<string> | undefined;
  /** Directories under --root that confined reads of this run went through (resolve). */
  private readonly plainDirectories = new Set<string>();

  /**
   * Refuses an opened file that is not inside --root. The path was resolved component by
   * component inside the root, but a rename racing the open can swap a directory on it for a
   * symlink that leads out; what the kernel actually opened is /proc/self/fd/N.
   */
  private async confine(handle: fsp.FileHandle, hostPath: string): Promise<void> {
    if (this.root === '/') return;
    this.realRootPromise ??= fsp.realpath(this.root);
    const root = await this.realRootPromise;
    let opened: string;
    try {
      opened = await fsp.readlink(`/proc/self/fd/${handle.fd}`);
    } catch {
      return; // no procfs to ask: the component walk is all there is
    }
    if (opened === root || opened.startsWith(root.endsWith('/') ? root : `${root}/`)) return;
    const error: NodeJS.ErrnoException = new Error(`${hostPath} led outside --root ${this.root} (to ${opened}) while it was opened: not used`);
    error.code = 'EXDEV';
    throw error;
  }

  /** Opens `real`, confines it, and runs `use` on the opened file's /proc/self/fd path, so the name cannot change under it. */
  private async withConfined<T>(real: string, hostPath: string, flags: number, use: (opened: string) => Promise<T>): Promise<T> {
    if (this.root === '/') return use(real);
    const handle = await fsp.open(real, flags);
    try {
      await this.confine(handle, hostPath);
      return await use(`/proc/self/fd/${handle.fd}`);
    } finally {
      await handle.close();
    }
  }

  /**
   * Maps a host path to the path to open, bounds the probe by the timeout (a wedged driver can
   * block a sysfs read forever) and turns exceptions into probe errors.
   */
  private async guard<T>(
    hostPath: string,
    action: (realPath: string) => Promise<Probe<T>>,
    options: { followLast?: boolean; confined?: boolean } = {},
  ): Promise<Probe<T>> {
    if (!path.isAbsolute(hostPath)) return probeFail('EOTHER', `not an absolute path: ${hostPath}`);
    const work = async (): Promise<Probe<T>> => {
      try {
        const real = await this.resolve(hostPath, options.followLast ?? true, options.confined ?? false);
        return await action(real);
      } catch (error) {
        return probeFail(errorCode(error), errorMessage(error));
      }
    };
    return FILE_PROBES.use(() => withTimeout(trackFileOperation(work()), this.timeoutMs, () => probeFail<T>('ETIMEDOUT', `no answer within ${this.timeoutMs} ms`)));
  }

  /**
   * Under a --root prefix an absolute symlink (ascend-toolkit/latest -> /usr/local/Ascend/cann)
   * points into the host tree, not into ours, so links are resolved by hand, confined to the root.
   */
  private async resolve(hostPath: string, followLast: boolean, confined = false): Promise<string> {
    const normalized = path.posix.normalize(hostPath);
    if (this.root === '/') return normalized;
    const pending = normalized.split('/').filter(Boolean);
    const resolved: string[] = [];
    let hops = 0;
    while (pending.length > 0) {
      const part = pending.shift()!;
      if (part === '.') continue;
      if (part === '..') {
        resolved.pop();
        continue;
      }
      const candidate = path.join(this.root, ...resolved, part);
      const isLast = pending.length === 0;
      if (isLast && !followLast) {
        resolved.push(part);
        break;
      }
      // A directory seen on the way to a confined read earlier in this run is taken as it was:
      // the 192 CPUs' cpufreq files share /sys/devices/system/cpu. Should it have become a link
      // since, the kernel follows it when the file is opened, and confine() refuses what that
      // opened outside the root.
      if (confined && !isLast && this.plainDirectories.has(candidate)) {
        resolved.push(part);
        continue;
      }
      let link: string | undefined;
      try {
        const stats = await fsp.lstat(candidate);
        if (stats.isSymbolicLink()) link = await fsp.readlink(candidate);
        else if (confined && !isLast && stats.isDirectory()) this.plainDirectories.add(candidate);
      } catch {
        // let the final operation report the error on the real path
      }
      if (link === undefined) {
        resolved.push(part);
        continue;
      }
      if (++hops > MAX_SYMLINK_HOPS) {
        const error: NodeJS.ErrnoException = new Error(`too many levels of symbolic links: ${hostPath}`);
        error.code = 'ELOOP';
        throw error;
      }
      const targetParts = link.split('/').filter(Boolean);
      if (link.startsWith('/')) resolved.length = 0;
      pending.unshift(...targetParts);
    }
    return path.join(this.root, ...resolved);
  }
}

/** One write(2) of the whole value: sysfs and procfs take a value in a single write. */
async function writeExisting(real: string, content: string): Promise<Probe<void>> {
  const handle = await fsp.open(real, fsConstants.O_WRONLY | fsConstants.O_TRUNC);
  try {
    const buffer = Buffer.from(content, 'utf8');
    const { bytesWritten } = await handle.write(buffer, 0, buffer.length, null);
    if (bytesWritten !== buffer.length) return probeFail('EIO', `short write: ${bytesWritten} of ${buffer.length} bytes`);
    return probeOk(undefined);
  } finally {
    await handle.close();
  }
}

async function writeAtomic(real: string, content: string, mode: number): Promise<Probe<void>> {
  const dir = path.dirname(real);
  const temporary = path.join(dir, `.${path.basename(real)}.qprep-${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await fsp.open(temporary, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, mode);
  try {
    await handle.writeFile(content, 'utf8');
    // the umask must not decide who can read a configuration file
    await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    await fsp.rename(temporary, real);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fsp.rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(dir);
  return probeOk(undefined);
}

/**
 * The file appears with its whole content or not at all: written under a temporary name, then
 * link(2)ed to its name, which fails with EEXIST like O_EXCL. Created empty and then written,
 * a lock would be seen empty by a rival qprep in between, taken for the debris of a crash and
 * broken, and both runs would tune at once.
 */
async function writeExclusive(real: string, content: string, mode: number): Promise<Probe<void>> {
  const dir = path.dirname(real);
  const temporary = path.join(dir, `.${path.basename(real)}.qprep-${process.pid}-${randomBytes(4).toString('hex')}`);
  const handle = await fsp.open(temporary, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, mode);
  try {
    try {
      await handle.writeFile(content, 'utf8');
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.link(temporary, real);
  } finally {
    await fsp.rm(temporary, { force: true });
  }
  await syncDirectory(dir);
  return probeOk(undefined);
}

/** Makes a rename or an unlink durable; filesystems that cannot fsync a directory are let be. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(dir, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY);
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP' && code !== 'EBADF') throw error;
  } finally {
    await handle?.close();
  }
}
