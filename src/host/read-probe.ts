import { constants as fsConstants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { parseFincoreJson } from '../parsers/fincore.js';
import { safetensorsHeaderLength } from '../parsers/safetensors.js';
import { trackFileOperation } from './exit.js';
import { probeFail, probeOk, type CommandOptions, type CommandResult, type Probe, type ReadProbeFile, type ReadProbeRequest, type ReadProbeResult } from './types.js';

/**
 * The read-throughput probe of the live host (Host.readThroughput): real bytes of the files
 * given, read in order from their start, bounded in bytes and time.
 *
 * Past the page cache: with O_DIRECT where the filesystem takes it (ext4, xfs, NFS, Lustre;
 * the buffers are page-aligned, which O_DIRECT needs and Node's Buffers do not promise), else
 * with buffered reads of the files fincore (util-linux) says have no page cached, else with
 * buffered reads that may be the cache's, said as such. Two reads are in flight at a time, as
 * the kernel's read-ahead keeps a sequential reader busy; a read is not started when the reads
 * so far say it would end after the time bound.
 *
 * Never outside the directory: every file is resolved, symlinks followed, and one that leads
 * out of the directory is refused; what was opened is checked again through /proc/self/fd.
 */

const MiB = 1024 * 1024;
const CHUNK_BYTES = 4 * MiB;
const FIRST_CHUNK_BYTES = 1 * MiB;
const DEPTH = 2;
/** a read that has not returned this long after the time bound is a stalled storage */
const STALL_GRACE_MS = 2000;
/** reads are started only while the reads so far say they end before this share of the time bound */
const TIME_MARGIN = 0.97;
/** O_DIRECT on Linux (x86_64 and arm64 differ: fs.constants has the running one) */
const O_DIRECT = fsConstants.O_DIRECT ?? 0;
/** what a timed open reads of a safetensors header at most: the cost of opening a shard, not of reading it */
const HEADER_READ_CAP = 1 * MiB;
const FINCORE_TIMEOUT_MS = 10_000;

export interface ReadProbeDeps {
  /** the path to open for a host path, every symlink resolved (under --root: inside the root) */
  realPath(hostPath: string): Promise<string>;
  /** runs fincore */
  run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult>;
}

interface Candidate {
  file: ReadProbeFile;
  real: string;
}

function isInside(directory: string, path: string): boolean {
  return path === directory || path.startsWith(directory.endsWith('/') ? directory : `${directory}/`);
}

function errorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}

/** Where an opened handle really is: a rename racing the open cannot swap in a file outside. */
async function openedPath(handle: fsp.FileHandle): Promise<string | undefined> {
  try {
    return await fsp.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

async function openInside(real: string, directory: string, flags: number): Promise<fsp.FileHandle> {
  const handle = await fsp.open(real, flags);
  const opened = await openedPath(handle);
  if (opened !== undefined && !isInside(directory, opened)) {
    await handle.close();
    throw new Error(`${real} led outside ${directory} (to ${opened}) while it was opened: not read`);
  }
  return handle;
}

/** Each file resolved and judged: inside the directory, a regular file, its size. */
async function resolveFiles(request: ReadProbeRequest, realDirectory: string, deps: ReadProbeDeps): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  for (const path of request.files) {
    let real = '';
    let refused: string | undefined;
    let size = 0;
    let allocated: number | null = null;
    try {
      real = await deps.realPath(path);
      if (!isInside(realDirectory, real)) refused = `leads outside ${request.directory} (to ${real})`;
      else {
        const stat = await fsp.stat(real);
        if (!stat.isFile()) refused = 'not a regular file';
        size = stat.size;
        allocated = Number.isFinite(stat.blocks) ? stat.blocks * 512 : null;
      }
    } catch (error) {
      refused = errorText(error);
    }
    candidates.push({ file: { path, size, residentBytes: null, allocatedBytes: allocated, ...(refused ? { refused } : {}) }, real });
  }
  return candidates;
}

/** The page cache residency of each readable file, from one fincore call; why not, when it cannot tell. */
async function readResidency(candidates: Candidate[], deps: ReadProbeDeps): Promise<string | undefined> {
  const readable = candidates.filter((c) => !c.file.refused);
  if (readable.length === 0) return undefined;
  const result = await deps.run(['fincore', '--json', '--bytes', '--output', 'RES,SIZE,FILE', ...readable.map((c) => c.real)], { timeoutMs: FINCORE_TIMEOUT_MS });
  if (result.notFound) return 'fincore (util-linux) is not installed';
  if (result.timedOut) return `fincore did not answer within ${FINCORE_TIMEOUT_MS / 1000} s`;
  const document = parseFincoreJson(result.stdout);
  if (!document.ok) return `${document.reason}${result.stderr.trim() ? `: ${result.stderr.trim().split('\n')[0]}` : ''}`;
  const byFile = new Map(document.value.map((e) => [e.file, e.residentBytes]));
  for (const candidate of readable) {
    const resident = byFile.get(candidate.real);
    // fincore counts whole pages: the last one of a file can pass its size
    candidate.file.residentBytes = resident === undefined ? null : Math.min(resident, candidate.file.size);
  }
  return undefined;
}

/** open(2) and the read of the header of each of the last `count` files, timed: what a shard costs beyond its bytes. */
async function timeOpens(candidates: Candidate[], count: number, realDirectory: string): Promise<ReadProbeResult['opens']> {
  const opens: ReadProbeResult['opens'] = [];
  // the last files: the ones the sequential read is least likely to have opened
  for (const candidate of candidates.filter((c) => !c.file.refused).slice(-Math.max(0, count))) {
    const started = performance.now();
    try {
      const handle = await openInside(candidate.real, realDirectory, fsConstants.O_RDONLY);
      try {
        const prefix = Buffer.alloc(8);
        await handle.read(prefix, 0, 8, 0);
        const length = safetensorsHeaderLength(prefix);
        if (length !== null) await handle.read(Buffer.alloc(Math.min(length, HEADER_READ_CAP)), 0, Math.min(length, HEADER_READ_CAP), 8);
      } finally {
        await handle.close();
      }
      opens.push({ path: candidate.file.path, ms: Math.round((performance.now() - started) * 1000) / 1000 });
    } catch {
      // a file that cannot be opened is not a cost of opening it: the sequential read says why
    }
  }
  return opens;
}

/** Files with no cached page first, in the order given, then the least cached: what buffered reads can do. */
function bufferedOrder(candidates: Candidate[]): Candidate[] {
  const readable = candidates.filter((c) => !c.file.refused && c.file.size > 0);
  if (readable.some((c) => c.file.residentBytes === null)) return readable;
  return [...readable].sort((a, b) => (a.file.residentBytes! / a.file.size) - (b.file.residentBytes! / b.file.size));
}

/** Page-aligned buffers: WebAssembly memory is mapped by whole pages, Node's Buffers promise no alignment. */
function alignedBuffers(): Buffer[] {
  // the global exists in every Node; the compiler's libraries here (ES2023, node) do not type it
  const wasm = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer } } }).WebAssembly;
  const memory = new wasm.Memory({ initial: (CHUNK_BYTES * DEPTH) / 65536 });
  return Array.from({ length: DEPTH }, (_, i) => Buffer.from(memory.buffer, i * CHUNK_BYTES, CHUNK_BYTES));
}

interface Sequential {
  bytesRead: number;
  durationMs: number;
  stoppedBy: ReadProbeResult['stoppedBy'];
  reads: ReadProbeResult['reads'];
}

class DirectRefused extends Error {}

interface InFlight {
  promise: Promise<number>;
  range: { path: string; offset: number; bytes: number };
}

/**
 * Reads the files in order, DEPTH reads in flight, until a bound. With `direct`, an EINVAL of
 * the first open or read is the filesystem refusing O_DIRECT: DirectRefused, before any byte counts.
 */
class SequentialReader {
  private readonly buffers: Buffer[];
  private readonly flags: number;
  private readonly handles: Array<{ handle: fsp.FileHandle; pending: Array<Promise<unknown>> }> = [];
  private readonly inflight: InFlight[] = [];
  private readonly reads: Sequential['reads'] = [];
  private fileIndex = -1;
  private current: { candidate: Candidate; handle: fsp.FileHandle; offset: number; pending: Array<Promise<unknown>> } | undefined;
  private issuedBytes = 0;
  private bytesRead = 0;
  private completed = 0;
  private started = 0;
  private lastDone = 0;
  private cutAt = 0;
  private slot = 0;
  private stoppedBy: Sequential['stoppedBy'] = 'files';

  constructor(
    private readonly order: Candidate[],
    private readonly request: ReadProbeRequest,
    private readonly realDirectory: string,
    private readonly direct: boolean,
  ) {
    this.buffers = direct ? alignedBuffers() : Array.from({ length: DEPTH }, () => Buffer.allocUnsafeSlow(CHUNK_BYTES));
    this.flags = fsConstants.O_RDONLY | (direct ? O_DIRECT : 0);
  }

  async read(): Promise<Sequential> {
    try {
      for (;;) {
        while (this.inflight.length < DEPTH && (await this.start()));
        const oldest = this.inflight.shift();
        if (!oldest) break;
        const outcome = await this.settle(oldest);
        if (outcome === 'stalled' || outcome === 'cut') {
          // the read outlived the bound: not counted, and the time waited for it is (the storage gave that little)
          this.stoppedBy = outcome === 'stalled' ? 'stalled' : 'time';
          this.cutAt = performance.now();
          break;
        }
        this.completed++;
        this.lastDone = performance.now();
        this.bytesRead += outcome;
        this.reads.push({ ...oldest.range, bytes: outcome });
      }
    } finally {
      // a stalled read keeps its handle until it returns (if ever); the others close now
      for (const { handle, pending } of this.handles) void Promise.allSettled(pending).then(() => handle.close().catch(() => undefined));
    }
    // a stall counts the time spent waiting for nothing: the storage delivered that little
    const end = this.cutAt || this.lastDone;
    return { bytesRead: this.bytesRead, durationMs: end > this.started ? Math.round(end - this.started) : 0, stoppedBy: this.stoppedBy, reads: this.reads };
  }

  private refusal(error: unknown): DirectRefused | undefined {
    return this.direct && (error as NodeJS.ErrnoException).code === 'EINVAL' && this.completed === 0 ? new DirectRefused(errorText(error)) : undefined;
  }

  private async nextFile(): Promise<boolean> {
    while (++this.fileIndex < this.order.length) {
      const candidate = this.order[this.fileIndex]!;
      try {
        const handle = await openInside(candidate.real, this.realDirectory, this.flags);
        const entry = { handle, pending: [] as Array<Promise<unknown>> };
        this.handles.push(entry);
        this.current = { candidate, handle, offset: 0, pending: entry.pending };
        return true;
      } catch (error) {
        const refused = this.refusal(error);
        if (refused) throw refused;
        candidate.file.refused = errorText(error);
      }
    }
    this.current = undefined;
    return false;
  }

  /** Within the bounds: the bytes, and the time the reads so far say the next one would take. */
  private canStart(): boolean {
    if (this.issuedBytes >= this.request.maxBytes) {
      this.stoppedBy = 'bytes';
      return false;
    }
    if (this.completed > 0) {
      const elapsed = performance.now() - this.started;
      const perRead = (this.lastDone - this.started) / this.completed;
      // a little short of the bound: the reads of a throttled device come in bursts
      if (elapsed + perRead * (this.inflight.length + 1) > this.request.maxMs * TIME_MARGIN) {
        this.stoppedBy = 'time';
        return false;
      }
    }
    return true;
  }

  private async start(): Promise<boolean> {
    if (!this.canStart()) return false;
    while (!this.current || this.current.offset >= this.current.candidate.file.size) if (!(await this.nextFile())) return false;
    const file = this.current;
    // small reads first: on a storage of 1 MB/s a first read of 4 MiB alone would outlast the bound
    const length = Math.min(FIRST_CHUNK_BYTES * 2 ** Math.min(this.slot, 2), CHUNK_BYTES, this.request.maxBytes - this.issuedBytes);
    // O_DIRECT takes whole blocks: a bound that is not one reads the block it ends in
    const asked = this.direct ? Math.ceil(length / 4096) * 4096 : length;
    const buffer = this.buffers[this.slot++ % DEPTH]!;
    const range = { path: file.candidate.file.path, offset: file.offset, bytes: 0 };
    if (this.started === 0) this.started = performance.now();
    const promise = trackFileOperation(file.handle.read(buffer, 0, asked, file.offset)).then((r) => r.bytesRead);
    file.pending.push(promise.catch(() => undefined));
    file.offset += asked;
    this.issuedBytes += asked;
    this.inflight.push({ promise, range });
    return true;
  }

  /**
   * The bytes of a read; 'cut' when it has not returned at the time bound, or 'stalled' when no
   * read has returned at all a while after it.
   */
  private async settle(read: InFlight): Promise<number | 'stalled' | 'cut'> {
    const first = this.completed === 0;
    const deadline = this.started + this.request.maxMs + (first ? STALL_GRACE_MS : 0);
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'stalled' | 'cut'>((resolve) => {
      timer = setTimeout(() => resolve(first ? 'stalled' : 'cut'), Math.max(0, deadline - performance.now()));
    });
    try {
      return await Promise.race([read.promise, stalled]);
    } catch (error) {
      throw this.refusal(error) ?? error;
    } finally {
      clearTimeout(timer);
    }
  }
}

function readSequentially(order: Candidate[], request: ReadProbeRequest, realDirectory: string, direct: boolean): Promise<Sequential> {
  return new SequentialReader(order, request, realDirectory, direct).read();
}

/** Merges adjacent ranges of one file, so that a snapshot keeps a line per file read, not per chunk. */
function mergeRanges(reads: Sequential['reads']): Sequential['reads'] {
  const merged: Sequential['reads'] = [];
  for (const read of reads) {
    const last = merged[merged.length - 1];
    if (last && last.path === read.path && last.offset + last.bytes === read.offset) last.bytes += read.bytes;
    else merged.push({ ...read });
  }
  return merged;
}

/** At least this many of the bytes read were holes: per file, what was read beyond what the filesystem allocated. */
function holesAtLeast(candidates: Candidate[], reads: Sequential['reads']): number {
  const readPerFile = new Map<string, number>();
  for (const read of reads) readPerFile.set(read.path, (readPerFile.get(read.path) ?? 0) + read.bytes);
  let total = 0;
  for (const [path, bytes] of readPerFile) {
    const allocated = candidates.find((c) => c.file.path === path)?.file.allocatedBytes;
    if (allocated !== null && allocated !== undefined) total += Math.max(0, bytes - allocated);
  }
  return total;
}

/** The dense files, in the order given: a sparse file's holes are read from no storage. Only sparse files: all of them, the holes counted. */
function denseFirst(candidates: Candidate[]): Candidate[] {
  const dense = candidates.filter((c) => c.file.allocatedBytes === null || c.file.allocatedBytes >= c.file.size * 0.95);
  return dense.length > 0 ? dense : candidates;
}

/** At most this many of the bytes read were cached before: per file, what was read or what was resident, the lesser. */
function cachedAtMost(candidates: Candidate[], reads: Sequential['reads']): number | null {
  const readPerFile = new Map<string, number>();
  for (const read of reads) readPerFile.set(read.path, (readPerFile.get(read.path) ?? 0) + read.bytes);
  let total = 0;
  for (const [path, bytes] of readPerFile) {
    const resident = candidates.find((c) => c.file.path === path)?.file.residentBytes;
    if (resident === null || resident === undefined) return null;
    total += Math.min(bytes, resident);
  }
  return total;
}

export async function probeReadThroughput(request: ReadProbeRequest, deps: ReadProbeDeps): Promise<Probe<ReadProbeResult>> {
  let realDirectory: string;
  try {
    realDirectory = await deps.realPath(request.directory);
    if (!(await fsp.stat(realDirectory)).isDirectory()) return probeFail('ENOTDIR', `${request.directory}: not a directory`);
  } catch (error) {
    return probeFail((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'ENOENT' : 'EOTHER', errorText(error));
  }
  const fsMagic = await fsp.statfs(realDirectory).then((s) => s.type, () => null);
  const candidates = await resolveFiles(request, realDirectory, deps);
  if (!candidates.some((c) => !c.file.refused && c.file.size > 0)) return probeFail('ENOENT', `no readable file of ${request.files.length} in ${request.directory}`);
  // what the cache holds, asked before anything is read: O_DIRECT reads leave the cache as it
  // was, so fincore (mincore over every page: most of a second on 40 GiB) runs beside them
  const residency = readResidency(candidates, deps);
  // the opens are timed after the read: their header reads warm no page the read would meet
  const finish = async (result: Omit<ReadProbeResult, 'files' | 'opens' | 'fsMagic' | 'residencyUnknown'>): Promise<Probe<ReadProbeResult>> => {
    const residencyUnknown = await residency;
    const opens = await timeOpens(candidates, request.timedOpens, realDirectory);
    return probeOk({ ...result, files: candidates.map((c) => c.file), opens, fsMagic, ...(residencyUnknown ? { residencyUnknown } : {}) });
  };

  let directRefused: string | undefined;
  if (request.direct !== false && O_DIRECT !== 0) {
    try {
      const order = denseFirst(candidates.filter((c) => !c.file.refused && c.file.size > 0));
      const read = await readSequentially(order, request, realDirectory, true);
      const reads = mergeRanges(read.reads);
      return await finish({ method: 'direct', ...read, reads, cachedBytesAtMost: 0, holeBytesAtLeast: holesAtLeast(candidates, reads) });
    } catch (error) {
      if (!(error instanceof DirectRefused)) {
        await residency;
        return probeFail('EIO', errorText(error));
      }
      directRefused = `the filesystem refuses O_DIRECT (${error.message})`;
    }
  } else directRefused = request.direct === false ? 'O_DIRECT not asked for' : 'O_DIRECT is not available on this platform';

  // buffered reads go past the cache only by choosing the files it does not hold: residency first
  await residency;
  const order = denseFirst(bufferedOrder(candidates));
  try {
    const read = await readSequentially(order, request, realDirectory, false);
    const reads = mergeRanges(read.reads);
    const cached = cachedAtMost(candidates, reads);
    const method = cached === 0 ? 'uncached-files' : 'buffered';
    return await finish({ method, ...(directRefused ? { directRefused } : {}), ...read, reads, cachedBytesAtMost: cached, holeBytesAtLeast: holesAtLeast(candidates, reads) });
  } catch (error) {
    return probeFail('EIO', errorText(error));
  }
}
