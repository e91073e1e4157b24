import { rootInventory } from '../../src/host/inventory.js';
import {
  probeFail,
  probeOk,
  type CommandLocation,
  type CommandResult,
  type DirEntry,
  type FileKind,
  type FileStat,
  type FsUsage,
  type Host,
  type NetInterface,
  type Probe,
  type ProbeErrorCode,
  type HostInventory,
  type ReadProbeRequest,
  type ReadProbeResult,
  type SystemIdentity,
  type TcpProbeResult,
  type WriteMode,
  type WriteOptions,
} from '../../src/host/types.js';

/** A file's content, or a node of another kind, or a read that fails with an errno. */
export type FakeNode =
  | string
  | { kind: Exclude<FileKind, 'file' | 'directory'>; mode?: number; target?: string }
  | { kind: 'file'; content: string; mode?: number; /** st_size when it must differ from the content (a 40 GB shard) */ size?: number }
  | { kind: 'directory' }
  | { error: ProbeErrorCode };

export interface FakeCommand {
  argv: string[];
  stdout?: string;
  stderr?: string;
  exitCode?: number | null;
  timedOut?: boolean;
  notFound?: boolean;
  failure?: string;
  /** answer only the first time; later identical calls take the next scripted entry */
  once?: boolean;
}

export interface FakeHostSpec {
  files?: Record<string, FakeNode>;
  commands?: FakeCommand[];
  env?: Record<string, string>;
  statfs?: Record<string, FsUsage | { error: ProbeErrorCode }>;
  interfaces?: NetInterface[] | { error: ProbeErrorCode };
  identity?: Partial<SystemIdentity>;
  /** the inventory the host reports; without it, the one its files give (as under --root) */
  inventory?: HostInventory;
  tcp?: Array<{ host: string; port: number; ok: boolean; error?: string }>;
  root?: string;
  /** writes (of any kind) to these paths fail with the errno */
  writeErrors?: Record<string, ProbeErrorCode>;
  /** a write to one of these paths never settles: qprep is killed in the middle of a tune */
  hangWrites?: string[];
  /** Host.readThroughput by directory: a result, or the errno it fails with */
  readProbes?: Record<string, ReadProbeResult | { error: ProbeErrorCode }>;
}

/** One change a test can assert on, in the order it happened. */
export interface FakeWrite {
  op: 'write' | 'remove' | 'rename' | 'mkdir';
  path: string;
  to?: string;
  content?: string;
  how?: WriteMode;
}

const MODE_BITS: Record<FileKind, number> = {
  file: 0o100000,
  directory: 0o040000,
  symlink: 0o120000,
  'char-device': 0o020000,
  'block-device': 0o060000,
  fifo: 0o010000,
  socket: 0o140000,
  other: 0,
};

function parentsOf(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  const parents: string[] = ['/'];
  for (let i = 1; i < parts.length; i++) parents.push(`/${parts.slice(0, i).join('/')}`);
  return parents;
}

/**
 * An in-memory host for check tests. Paths that are not in `files` do not exist (ENOENT);
 * directories are implied by the files under them. Commands are strict: a command that is
 * not scripted throws, which the runner turns into that check's error, so a test sees it.
 */
export class FakeHost implements Host {
  readonly description = 'fake';
  readonly root: string;
  readonly calls: string[][] = [];
  /** every successful write, remove, rename and mkdir, in order */
  readonly writes: FakeWrite[] = [];
  private readonly nodes = new Map<string, FakeNode>();
  private readonly commands: FakeCommand[];

  constructor(private readonly spec: FakeHostSpec = {}) {
    this.root = spec.root ?? '/';
    for (const [path, node] of Object.entries(spec.files ?? {})) {
      this.nodes.set(path, node);
      for (const parent of parentsOf(path)) if (!this.nodes.has(parent)) this.nodes.set(parent, { kind: 'directory' });
    }
    this.commands = [...(spec.commands ?? [])];
  }

  async run(argv: readonly string[]): Promise<CommandResult> {
    this.calls.push([...argv]);
    const index = this.commands.findIndex((c) => c.argv.length === argv.length && c.argv.every((a, i) => a === argv[i]));
    if (index < 0) {
      throw new Error(`unexpected command: ${JSON.stringify(argv)}; scripted: ${this.commands.map((c) => JSON.stringify(c.argv)).join(' ') || 'none'}`);
    }
    const command = this.commands[index]!;
    if (command.once) this.commands.splice(index, 1);
    return {
      argv: [...argv],
      exitCode: command.exitCode === undefined ? (command.timedOut || command.notFound || command.failure ? null : 0) : command.exitCode,
      signal: command.timedOut ? 'SIGKILL' : null,
      stdout: command.stdout ?? '',
      stderr: command.stderr ?? '',
      durationMs: 1,
      timedOut: command.timedOut ?? false,
      notFound: command.notFound ?? false,
      ...(command.failure ? { failure: command.failure } : {}),
    };
  }

  /** PATH look-up over the fake files, as the live host does over the real ones. */
  async which(name: string, extraDirs: readonly string[] = []): Promise<CommandLocation> {
    const dirs = [...new Set([...(this.env().PATH ?? '').split(':').filter((d) => d.startsWith('/')), ...extraDirs])];
    const searched: string[] = [];
    for (const dir of dirs) {
      const candidate = `${dir}/${name}`;
      searched.push(candidate);
      const stat = await this.stat(candidate);
      if (stat.ok && stat.value.kind === 'file' && (stat.value.mode & 0o111) !== 0) return { path: candidate, searched };
    }
    return { path: null, searched };
  }

  private node(path: string): FakeNode | undefined {
    return this.nodes.get(path);
  }

  private kindOf(node: FakeNode): FileKind {
    if (typeof node === 'string') return 'file';
    if ('error' in node) return 'other';
    return node.kind;
  }

  private resolveLinks(path: string, depth = 0): FakeNode | undefined {
    const node = this.node(path);
    if (node && typeof node !== 'string' && 'kind' in node && node.kind === 'symlink' && node.target && depth < 10) {
      const target = node.target.startsWith('/') ? node.target : `${path.replace(/\/[^/]*$/, '')}/${node.target}`;
      return this.resolveLinks(target, depth + 1);
    }
    return node;
  }

  async readFile(path: string): Promise<Probe<string>> {
    const node = this.resolveLinks(path);
    if (node === undefined) return probeFail('ENOENT', `ENOENT: no such file or directory, open '${path}'`);
    if (typeof node === 'string') return probeOk(node);
    if ('error' in node) return probeFail(node.error, `${node.error}: ${path}`);
    if (node.kind === 'file') return probeOk(node.content);
    if (node.kind === 'directory') return probeFail('EISDIR', `EISDIR: illegal operation on a directory, read '${path}'`);
    return probeOk('');
  }

  async readDir(path: string): Promise<Probe<DirEntry[]>> {
    const node = this.resolveLinks(path);
    if (node === undefined) return probeFail('ENOENT', `ENOENT: no such file or directory, scandir '${path}'`);
    if (typeof node !== 'string' && 'error' in node) return probeFail(node.error, `${node.error}: ${path}`);
    if (this.kindOf(node) !== 'directory') return probeFail('ENOTDIR', `ENOTDIR: not a directory, scandir '${path}'`);
    const prefix = path === '/' ? '/' : `${path}/`;
    const entries: DirEntry[] = [];
    for (const [candidate, child] of this.nodes) {
      if (candidate.startsWith(prefix) && candidate !== path && !candidate.slice(prefix.length).includes('/')) {
        entries.push({ name: candidate.slice(prefix.length), kind: this.kindOf(child) });
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    return probeOk(entries);
  }

  private statNode(path: string, node: FakeNode | undefined): Probe<FileStat> {
    if (node === undefined) return probeFail('ENOENT', `ENOENT: no such file or directory, stat '${path}'`);
    if (typeof node !== 'string' && 'error' in node) return probeFail(node.error, `${node.error}: ${path}`);
    const kind = this.kindOf(node);
    const explicitMode = typeof node !== 'string' && 'mode' in node ? node.mode : undefined;
    const perm = explicitMode ?? (kind === 'directory' ? 0o755 : 0o644);
    const size = typeof node === 'string' ? node.length : 'content' in node ? (node.size ?? node.content.length) : 0;
    return probeOk({ kind, mode: MODE_BITS[kind] | perm, uid: 0, gid: 0, size, rdev: 0 });
  }

  async stat(path: string): Promise<Probe<FileStat>> {
    return this.statNode(path, this.resolveLinks(path));
  }

  async lstat(path: string): Promise<Probe<FileStat>> {
    return this.statNode(path, this.node(path));
  }

  async readLink(path: string): Promise<Probe<string>> {
    const node = this.node(path);
    if (node === undefined) return probeFail('ENOENT', `ENOENT: ${path}`);
    if (typeof node !== 'string' && 'kind' in node && node.kind === 'symlink' && node.target) return probeOk(node.target);
    return probeFail('EOTHER', `EINVAL: not a symlink: ${path}`);
  }

  async statfs(path: string): Promise<Probe<FsUsage>> {
    const usage = this.spec.statfs?.[path];
    if (!usage) return probeFail('ENOENT', `ENOENT: statfs '${path}'`);
    if ('error' in usage) return probeFail(usage.error, `${usage.error}: ${path}`);
    return probeOk(usage);
  }

  env(): Readonly<Record<string, string>> {
    return this.spec.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin' };
  }

  async interfaces(): Promise<Probe<NetInterface[]>> {
    const interfaces = this.spec.interfaces ?? [];
    if (!Array.isArray(interfaces)) return probeFail(interfaces.error, `${interfaces.error}: interfaces`);
    return probeOk(interfaces);
  }

  async identity(): Promise<SystemIdentity> {
    return { hostname: 'node1', arch: 'x86_64', kernel: '5.10.0-182.0.0.95.oe2203sp3.aarch64', ...this.spec.identity };
  }
  async inventory(): Promise<HostInventory> {
    return this.spec.inventory ?? rootInventory(this);
  }

  async writeFile(path: string, content: string, options: WriteOptions): Promise<Probe<void>> {
    const refused = this.refuseWrite(path);
    if (refused) return refused;
    const node = this.node(path);
    const mode = options.mode ?? 0o644;
    if (options.how === 'existing') {
      const target = this.resolveLinks(path);
      if (target === undefined) return probeFail('ENOENT', `ENOENT: no such file or directory, open '${path}'`);
      if (typeof target !== 'string' && 'error' in target) return probeFail(target.error, `${target.error}: ${path}`);
      if (this.kindOf(target) === 'directory') return probeFail('EISDIR', `EISDIR: illegal operation on a directory, open '${path}'`);
      const real = this.realPath(path);
      const existing = this.nodes.get(real);
      this.nodes.set(real, typeof existing === 'object' && 'kind' in existing && existing.kind === 'file' ? { ...existing, content } : content);
    } else {
      if (options.how === 'exclusive' && node !== undefined) return probeFail('EEXIST', `EEXIST: file already exists, open '${path}'`);
      const missingParent = this.missingParent(path);
      if (missingParent) return missingParent;
      if (node !== undefined && this.kindOf(node) === 'directory') return probeFail('EISDIR', `EISDIR: illegal operation on a directory, rename '${path}'`);
      this.nodes.set(path, { kind: 'file', content, mode });
    }
    this.writes.push({ op: 'write', path, content, how: options.how });
    return probeOk(undefined);
  }

  async removeFile(path: string): Promise<Probe<void>> {
    const refused = this.refuseWrite(path);
    if (refused) return refused;
    const node = this.node(path);
    if (node === undefined) return probeFail('ENOENT', `ENOENT: no such file or directory, unlink '${path}'`);
    if (this.kindOf(node) === 'directory') return probeFail('EISDIR', `EISDIR: unlink '${path}'`);
    this.nodes.delete(path);
    this.writes.push({ op: 'remove', path });
    return probeOk(undefined);
  }

  async rename(from: string, to: string): Promise<Probe<void>> {
    const refused = this.refuseWrite(from) ?? this.refuseWrite(to);
    if (refused) return refused;
    const node = this.node(from);
    if (node === undefined) return probeFail('ENOENT', `ENOENT: no such file or directory, rename '${from}'`);
    const missingParent = this.missingParent(to);
    if (missingParent) return missingParent;
    this.nodes.delete(from);
    this.nodes.set(to, node);
    this.writes.push({ op: 'rename', path: from, to });
    return probeOk(undefined);
  }

  async makeDirectory(path: string): Promise<Probe<void>> {
    const refused = this.refuseWrite(path);
    if (refused) return refused;
    for (const dir of [...parentsOf(path), path]) {
      const node = this.node(dir);
      if (node === undefined) this.nodes.set(dir, { kind: 'directory' });
      else if (this.kindOf(node) !== 'directory') return probeFail('ENOTDIR', `ENOTDIR: mkdir '${path}'`);
    }
    this.writes.push({ op: 'mkdir', path });
    return probeOk(undefined);
  }

  /** The content of a file now, for assertions; undefined when absent. */
  content(path: string): string | undefined {
    const node = this.resolveLinks(path);
    if (typeof node === 'string') return node;
    if (node && 'kind' in node && node.kind === 'file') return node.content;
    return undefined;
  }

  private refuseWrite(path: string): Promise<Probe<void>> | undefined {
    if (this.spec.hangWrites?.includes(path)) return new Promise(() => undefined);
    const code = this.spec.writeErrors?.[path];
    return code ? Promise.resolve(probeFail(code, `${code}: ${path}`)) : undefined;
  }

  private missingParent(path: string): Probe<void> | undefined {
    const parent = path.replace(/\/[^/]*$/, '') || '/';
    const node = this.node(parent);
    if (node === undefined) return probeFail('ENOENT', `ENOENT: no such file or directory, open '${path}'`);
    if (this.kindOf(node) !== 'directory') return probeFail('ENOTDIR', `ENOTDIR: not a directory, open '${path}'`);
    return undefined;
  }

  private realPath(path: string, depth = 0): string {
    const node = this.node(path);
    if (node && typeof node !== 'string' && 'kind' in node && node.kind === 'symlink' && node.target && depth < 10) {
      const target = node.target.startsWith('/') ? node.target : `${path.replace(/\/[^/]*$/, '')}/${node.target}`;
      return this.realPath(target, depth + 1);
    }
    return path;
  }

  async tcpConnect(host: string, port: number): Promise<TcpProbeResult> {
    const entry = this.spec.tcp?.find((t) => t.host === host && t.port === port);
    if (!entry) return { ok: false, durationMs: 1, error: 'ECONNREFUSED' };
    return entry.error ? { ok: entry.ok, durationMs: 1, error: entry.error } : { ok: entry.ok, durationMs: 1 };
  }

  /** every request, in order: a test asserts the probe ran once, or not at all */
  readonly readProbeRequests: ReadProbeRequest[] = [];

  /** every pause asked, in milliseconds: a test does not wait for it */
  readonly pauses: number[] = [];
  pause(ms: number): Promise<void> {
    this.pauses.push(ms);
    return Promise.resolve();
  }

  async readThroughput(request: ReadProbeRequest): Promise<Probe<ReadProbeResult>> {
    this.readProbeRequests.push(request);
    const answer = this.spec.readProbes?.[request.directory];
    if (!answer) return probeFail('ENOENT', `${request.directory}: no read probe scripted`);
    if ('error' in answer) return probeFail(answer.error, `${answer.error}: ${request.directory}`);
    return probeOk(answer);
  }
}
