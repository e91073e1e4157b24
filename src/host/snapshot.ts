import { hostPause } from './pause.js';
import { DEPTHS } from '../core/ids/depths.js';
import { z } from 'zod';
import { redactEnv } from '../util/redact.js';
import { commandNotRun } from './command-result.js';
import { unknownInventory } from './inventory.js';
import {
  probeFail,
  refuseWrite,
  type CommandLocation,
  type CommandOptions,
  type CommandResult,
  type DirEntry,
  type FileStat,
  type FsUsage,
  type Host,
  type HostInventory,
  type NetInterface,
  type Probe,
  type ReadProbeRequest,
  type ReadProbeResult,
  type SystemIdentity,
  type TcpProbeResult,
  type WriteOptions,
} from './types.js';

/** Recording and replaying observe a host; neither ever changes one. */

const probeErrorSchema = z.object({
  ok: z.literal(false),
  code: z.enum(['ENOENT', 'EACCES', 'EPERM', 'ENOTDIR', 'EISDIR', 'ETIMEDOUT', 'ENOTCAPTURED', 'EREADONLY', 'EIO', 'EEXIST', 'EOTHER']),
  message: z.string(),
});

function probeSchema<T extends z.ZodType>(value: T) {
  return z.union([z.object({ ok: z.literal(true), value }), probeErrorSchema]);
}

const fileKindSchema = z.enum(['file', 'directory', 'symlink', 'char-device', 'block-device', 'fifo', 'socket', 'other']);

const fileStatSchema = z.object({
  kind: fileKindSchema,
  mode: z.number().int(),
  uid: z.number().int(),
  gid: z.number().int(),
  size: z.number(),
  rdev: z.number(),
});

const dirEntrySchema = z.object({ name: z.string(), kind: fileKindSchema });

const fsUsageSchema = z.object({
  type: z.number(),
  totalBytes: z.number(),
  freeBytes: z.number(),
  availableBytes: z.number(),
});

const readProbeSchema = z.object({
  method: z.enum(['direct', 'uncached-files', 'buffered']),
  directRefused: z.string().optional(),
  residencyUnknown: z.string().optional(),
  bytesRead: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
  stoppedBy: z.enum(['time', 'bytes', 'files', 'stalled']),
  cachedBytesAtMost: z.number().nonnegative().nullable(),
  holeBytesAtLeast: z.number().nonnegative().default(0),
  files: z.array(
    z.object({
      path: z.string(),
      size: z.number().nonnegative(),
      residentBytes: z.number().nonnegative().nullable(),
      allocatedBytes: z.number().nonnegative().nullable().default(null),
      refused: z.string().optional(),
    }),
  ),
  reads: z.array(z.object({ path: z.string(), offset: z.number().nonnegative(), bytes: z.number().nonnegative() })),
  opens: z.array(z.object({ path: z.string(), ms: z.number().nonnegative() })),
  fsMagic: z.number().nullable(),
});

const netInterfaceSchema = z.object({
  name: z.string(),
  adminUp: z.boolean(),
  operState: z.string(),
  running: z.boolean(),
  mtu: z.number().int().nullable(),
  mac: z.string().nullable(),
  loopback: z.boolean(),
  addresses: z.array(
    z.object({
      family: z.enum(['IPv4', 'IPv6']),
      address: z.string(),
      netmask: z.string(),
      prefix: z.number().int(),
    }),
  ),
});

const nullableString = z.string().nullable();
const nullableCount = z.number().int().nullable();

export const inventorySchema = z
  .object({
    source: z.enum(['systeminformation', 'root-files', 'none']),
    system: z.object({ manufacturer: nullableString, model: nullableString, serial: nullableString, virtual: z.boolean().nullable() }).strict(),
    bios: z.object({ vendor: nullableString, version: nullableString }).strict(),
    cpu: z
      .object({ brand: nullableString, sockets: nullableCount, cores: nullableCount, threads: nullableCount, numaNodes: nullableCount })
      .strict(),
    memoryBytes: z.number().nullable(),
    os: z.object({ distro: nullableString, release: nullableString }).strict(),
    nics: z
      .array(
        z
          .object({
            name: z.string(),
            mac: nullableString,
            ipv4: nullableString,
            mtu: nullableCount,
            speedMbps: z.number().nullable(),
            duplex: nullableString,
            state: z.string(),
            virtual: z.boolean().nullable(),
          })
          .strict(),
      )
      .nullable(),
    unknown: z.array(z.object({ field: z.string(), reason: z.string() }).strict()),
  })
  .strict();

const commandRecordSchema = z.object({
  argv: z.array(z.string()).min(1),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable().default(null),
  stdout: z.string(),
  stderr: z.string(),
  durationMs: z.number().default(0),
  timedOut: z.boolean().default(false),
  notFound: z.boolean().default(false),
  failure: z.string().optional(),
});

export const snapshotSchema = z
  .object({
    schemaVersion: z.literal(1),
    kind: z.literal('qprep-snapshot'),
    createdAt: z.string(),
    tool: z.object({ name: z.string(), version: z.string() }),
    /** the --root the recording was made with */
    root: z.string().default('/'),
    identity: z.object({ hostname: z.string(), arch: z.string(), kernel: z.string() }),
    env: z.record(z.string(), z.string()).default({}),
    interfaces: probeSchema(z.array(netInterfaceSchema)).optional(),
    /** the server model, CPUs, memory and NICs (Host.inventory), as the recorded host gave it */
    inventory: inventorySchema.optional(),
    commands: z.array(commandRecordSchema).default([]),
    /** executable look-ups: name and extra directories -> where it was found */
    which: z
      .array(z.object({ name: z.string(), extraDirs: z.array(z.string()), path: z.string().nullable(), searched: z.array(z.string()) }))
      .default([]),
    files: z.record(z.string(), probeSchema(z.string())).default({}),
    dirs: z.record(z.string(), probeSchema(z.array(dirEntrySchema))).default({}),
    stats: z.record(z.string(), probeSchema(fileStatSchema)).default({}),
    lstats: z.record(z.string(), probeSchema(fileStatSchema)).default({}),
    links: z.record(z.string(), probeSchema(z.string())).default({}),
    statfs: z.record(z.string(), probeSchema(fsUsageSchema)).default({}),
    /** Host.readThroughput by directory: the figure a replay gives, byte for byte */
    readProbes: z.record(z.string(), probeSchema(readProbeSchema)).default({}),
    tcp: z
      .array(z.object({ host: z.string(), port: z.number().int(), result: z.object({ ok: z.boolean(), durationMs: z.number(), error: z.string().optional() }) }))
      .default([]),
    /** the report of the run that made the recording: what qprep concluded on the machine itself */
    report: z.record(z.string(), z.unknown()).optional(),
    /**
     * the --launch script of the recording (secret values redacted): a replay judges it again
     * unless --launch names another one
     */
    launch: z
      .object({
        file: z.string(),
        text: z.string(),
        /** the further scripts of a repeated --launch: launchers that run it with its arguments */
        launchers: z.array(z.object({ file: z.string(), text: z.string() })).optional(),
      })
      .optional(),
    /**
     * the profile the recording judged the host with, resolved (its base merged in): a replay
     * judges with it unless --profile names another, so that it reaches the node's verdict
     */
    profile: z.object({ name: z.string(), source: z.string(), resolved: z.record(z.string(), z.unknown()) }).optional(),
    /** the --cluster file (its text) and --node of the recording: a replay is the same node of the same cluster */
    cluster: z.object({ file: z.string(), text: z.string(), node: z.string().optional() }).optional(),
    /** the --depth of the recording: a replay runs the checks the recording answered, unless --depth names another */
    depth: z.enum(DEPTHS).optional(),
  })
  .strict();

export type Snapshot = z.output<typeof snapshotSchema>;

function argvKey(argv: readonly string[]): string {
  return JSON.stringify(argv);
}

/**
 * Wraps a host and keeps every answer it gives, so that `qprep check --snapshot` can later
 * answer the same questions without the machine.
 */
export class RecordingHost implements Host {
  readonly description: string;
  readonly root: string;
  private readonly commands: CommandResult[] = [];
  private readonly lookups: Array<{ name: string; extraDirs: string[] } & CommandLocation> = [];
  private readonly files = new Map<string, Probe<string>>();
  private readonly dirs = new Map<string, Probe<DirEntry[]>>();
  private readonly stats = new Map<string, Probe<FileStat>>();
  private readonly lstats = new Map<string, Probe<FileStat>>();
  private readonly links = new Map<string, Probe<string>>();
  private readonly fsUsage = new Map<string, Probe<FsUsage>>();
  private readonly readProbes = new Map<string, Probe<ReadProbeResult>>();
  private readonly tcp: Array<{ host: string; port: number; result: TcpProbeResult }> = [];
  private netInterfaces: Probe<NetInterface[]> | undefined;
  private hostInventory: Promise<HostInventory> | undefined;
  private recordedInventory: HostInventory | undefined;
  private readonly pending = new Map<Map<string, unknown>, Map<string, Promise<unknown>>>();

  constructor(private readonly inner: Host) {
    this.description = `${inner.description} (recording)`;
    this.root = inner.root;
  }

  async run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    const result = await this.inner.run(argv, options);
    this.commands.push(result);
    return result;
  }

  async which(name: string, extraDirs: readonly string[] = []): Promise<CommandLocation> {
    const found = await this.inner.which(name, extraDirs);
    if (!this.lookups.some((l) => l.name === name && l.extraDirs.join(':') === extraDirs.join(':'))) {
      this.lookups.push({ name, extraDirs: [...extraDirs], ...found });
    }
    return found;
  }

  readFile(path: string) {
    return this.keep(this.files, path, () => this.inner.readFile(path));
  }
  readDir(path: string) {
    return this.keep(this.dirs, path, () => this.inner.readDir(path));
  }
  stat(path: string) {
    return this.keep(this.stats, path, () => this.inner.stat(path));
  }
  lstat(path: string) {
    return this.keep(this.lstats, path, () => this.inner.lstat(path));
  }
  readLink(path: string) {
    return this.keep(this.links, path, () => this.inner.readLink(path));
  }
  statfs(path: string) {
    return this.keep(this.fsUsage, path, () => this.inner.statfs(path));
  }
  env() {
    return this.inner.env();
  }
  async interfaces() {
    const result = await this.inner.interfaces();
    this.netInterfaces = result;
    return result;
  }
  identity(): Promise<SystemIdentity> {
    return this.inner.identity();
  }
  /** the first answer, kept and given to every later call, as the replay will */
  inventory(): Promise<HostInventory> {
    this.hostInventory ??= this.inner.inventory().then((inventory) => {
      this.recordedInventory = inventory;
      return inventory;
    });
    return this.hostInventory;
  }
  async tcpConnect(host: string, port: number, timeoutMs: number) {
    const result = await this.inner.tcpConnect(host, port, timeoutMs);
    this.tcp.push({ host, port, result });
    return result;
  }
  /** the recording waits as the live host does; the replay will not */
  pause(ms: number): Promise<void> {
    return hostPause(this.inner, ms);
  }
  readThroughput(request: ReadProbeRequest) {
    return this.keep(this.readProbes, request.directory, () => this.inner.readThroughput(request));
  }

  writeFile(path: string, _content?: string, _options?: WriteOptions): Promise<Probe<void>> {
    return refuseWrite(path, 'qprep snapshot only records reads');
  }
  removeFile(path: string): Promise<Probe<void>> {
    return refuseWrite(path, 'qprep snapshot only records reads');
  }
  rename(from: string, _to?: string): Promise<Probe<void>> {
    return refuseWrite(from, 'qprep snapshot only records reads');
  }
  makeDirectory(path: string, _mode?: number): Promise<Probe<void>> {
    return refuseWrite(path, 'qprep snapshot only records reads');
  }

  /**
   * One answer per path, the first: a replay answers every read of a path with the one value
   * the snapshot holds, so the recording run must see that same value too, or the report kept
   * in the snapshot disagrees with its replay (two checks read /proc/meminfo, which changes
   * between reads).
   */
  private keep<T>(store: Map<string, Probe<T>>, path: string, read: () => Promise<Probe<T>>): Promise<Probe<T>> {
    let pending = this.pending.get(store) as Map<string, Promise<Probe<T>>> | undefined;
    if (!pending) {
      pending = new Map();
      this.pending.set(store, pending);
    }
    const inFlight = pending.get(path);
    if (inFlight) return inFlight;
    const answer = read().then((result) => {
      store.set(path, result);
      return result;
    });
    pending.set(path, answer);
    return answer;
  }

  /** The snapshot document; secrets in environment values are redacted. */
  async toSnapshot(tool: { name: string; version: string }, createdAt = new Date()): Promise<Snapshot> {
    const sorted = <T>(map: Map<string, T>): Record<string, T> =>
      Object.fromEntries([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const snapshot: Snapshot = {
      schemaVersion: 1,
      kind: 'qprep-snapshot',
      createdAt: createdAt.toISOString(),
      tool,
      root: this.root,
      identity: await this.inner.identity(),
      env: redactEnv(this.inner.env()),
      commands: this.commands.map((c) => ({ ...c })),
      which: [...this.lookups],
      files: sorted(this.files),
      dirs: sorted(this.dirs),
      stats: sorted(this.stats),
      lstats: sorted(this.lstats),
      links: sorted(this.links),
      statfs: sorted(this.fsUsage),
      readProbes: sorted(this.readProbes),
      tcp: [...this.tcp],
    };
    if (this.netInterfaces) snapshot.interfaces = this.netInterfaces;
    if (this.recordedInventory) snapshot.inventory = this.recordedInventory;
    return snapshot;
  }
}

/**
 * Answers only from a snapshot and never touches the machine it runs on. Anything the
 * snapshot does not hold is reported as not captured, never looked up live.
 */
export class ReplayHost implements Host {
  readonly description: string;
  readonly root: string;
  private readonly commandQueues = new Map<string, CommandResult[]>();

  constructor(
    private readonly snapshot: Snapshot,
    label: string,
  ) {
    this.description = `snapshot ${label}`;
    this.root = snapshot.root;
    for (const command of snapshot.commands) {
      const key = argvKey(command.argv);
      const queue = this.commandQueues.get(key) ?? [];
      queue.push(command);
      this.commandQueues.set(key, queue);
    }
  }

  async run(argv: readonly string[]): Promise<CommandResult> {
    const queue = this.commandQueues.get(argvKey(argv));
    if (!queue || queue.length === 0) {
      return commandNotRun(argv, 'not captured in the snapshot');
    }
    // Repeated runs (retries) replay in recorded order; the last answer repeats.
    const next = queue.length > 1 ? queue.shift()! : queue[0]!;
    return { ...next, argv: [...next.argv] };
  }

  async which(name: string, extraDirs: readonly string[] = []): Promise<CommandLocation> {
    const found = this.snapshot.which.find((l) => l.name === name && l.extraDirs.join(':') === extraDirs.join(':'));
    // Not captured: say so in the search list rather than pretend it is absent on the host.
    return found ? { path: found.path, searched: found.searched } : { path: null, searched: [`${name}: not captured in the snapshot`] };
  }

  readFile(path: string) {
    return Promise.resolve(this.lookup(this.snapshot.files, path));
  }
  readDir(path: string) {
    return Promise.resolve(this.lookup(this.snapshot.dirs, path));
  }
  stat(path: string) {
    return Promise.resolve(this.lookup(this.snapshot.stats, path));
  }
  lstat(path: string) {
    return Promise.resolve(this.lookup(this.snapshot.lstats, path));
  }
  readLink(path: string) {
    return Promise.resolve(this.lookup(this.snapshot.links, path));
  }
  statfs(path: string) {
    return Promise.resolve(this.lookup(this.snapshot.statfs, path));
  }
  env() {
    return this.snapshot.env;
  }
  async interfaces(): Promise<Probe<NetInterface[]>> {
    return this.snapshot.interfaces ?? probeFail('ENOTCAPTURED', 'network interfaces not captured in the snapshot');
  }
  async identity(): Promise<SystemIdentity> {
    return this.snapshot.identity;
  }
  async inventory(): Promise<HostInventory> {
    return this.snapshot.inventory ?? unknownInventory('not captured in the snapshot');
  }
  async tcpConnect(host: string, port: number): Promise<TcpProbeResult> {
    const found = this.snapshot.tcp.find((entry) => entry.host === host && entry.port === port);
    return found?.result ?? { ok: false, durationMs: 0, error: 'not captured in the snapshot' };
  }
  /** the recorded figure of the directory, whatever the request's bounds: a replay reads nothing */
  /** a replay's answers are recorded: time passing changes none of them */
  pause(): Promise<void> {
    return Promise.resolve();
  }
  readThroughput(request: ReadProbeRequest): Promise<Probe<ReadProbeResult>> {
    return Promise.resolve(this.lookup(this.snapshot.readProbes, request.directory));
  }

  writeFile(path: string, _content?: string, _options?: WriteOptions): Promise<Probe<void>> {
    return refuseWrite(path, 'a snapshot replay is read-only');
  }
  removeFile(path: string): Promise<Probe<void>> {
    return refuseWrite(path, 'a snapshot replay is read-only');
  }
  rename(from: string, _to?: string): Promise<Probe<void>> {
    return refuseWrite(from, 'a snapshot replay is read-only');
  }
  makeDirectory(path: string, _mode?: number): Promise<Probe<void>> {
    return refuseWrite(path, 'a snapshot replay is read-only');
  }

  private lookup<T>(store: Record<string, Probe<T>>, path: string): Probe<T> {
    return Object.prototype.hasOwnProperty.call(store, path)
      ? store[path]!
      : probeFail('ENOTCAPTURED', 'not captured in the snapshot');
  }
}
