import { rootInventory } from './inventory.js';
import {
  probeFail,
  probeOk,
  refuseWrite,
  type CommandLocation,
  type CommandResult,
  type DirEntry,
  type FileKind,
  type FileStat,
  type FsUsage,
  type Host,
  type NetInterface,
  type Probe,
  type HostInventory,
  type ReadProbeRequest,
  type ReadProbeResult,
  type SystemIdentity,
  type TcpProbeResult,
} from './types.js';

/**
 * A host described entirely by data: files, device nodes, symlinks and command outputs. It
 * builds the demo snapshots (scripts/make-demo-snapshots.mjs records qprep running on one),
 * so that a demo host is as complete as a recorded one: what is not described does not
 * exist (ENOENT), and a command not described is "not found".
 */

export type MemoryNode =
  | string
  | { kind: 'file'; content: string; mode?: number; /** st_size when it must differ from the content (a 100 GiB shard) */ size?: number }
  | { kind: 'directory'; mode?: number }
  | { kind: 'char-device' | 'block-device' | 'fifo' | 'socket'; mode?: number; rdev?: number }
  | { kind: 'symlink'; target: string };

export interface MemoryCommand {
  argv: string[];
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

export interface MemoryHostSpec {
  identity: SystemIdentity;
  /** the inventory the host reports; without it, the one its files give (as under --root) */
  inventory?: HostInventory;
  env?: Record<string, string>;
  files?: Record<string, MemoryNode>;
  commands?: MemoryCommand[];
  statfs?: Record<string, FsUsage>;
  interfaces?: NetInterface[];
  /** what Host.readThroughput measured, by directory: a demo host's storage */
  readProbes?: Record<string, ReadProbeResult>;
}

const TYPE_BITS: Record<FileKind, number> = {
  file: 0o100000,
  directory: 0o040000,
  symlink: 0o120000,
  'char-device': 0o020000,
  'block-device': 0o060000,
  fifo: 0o010000,
  socket: 0o140000,
  other: 0,
};

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

function dirname(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}

const WHY = 'a demo host is read-only';

export class MemoryHost implements Host {
  readonly description = 'memory';
  readonly root = '/';
  private readonly nodes = new Map<string, MemoryNode>();

    writeFile(path: string): Promise<Probe<void>> {
    return refuseWrite(path, WHY);
  }
  removeFile(path: string): Promise<Probe<void>> {
    return refuseWrite(path, WHY);
  }
  rename(from: string): Promise<Probe<void>> {
    return refuseWrite(from, WHY);
  }
  makeDirectory(path: string): Promise<Probe<void>> {
    return refuseWrite(path, WHY);
  }

  constructor(private readonly spec: MemoryHostSpec) {
    this.nodes.set('/', { kind: 'directory' });
    for (const [path, node] of Object.entries(spec.files ?? {})) {
      const at = normalize(path);
      this.nodes.set(at, node);
      for (let parent = dirname(at); !this.nodes.has(parent); parent = dirname(parent)) this.nodes.set(parent, { kind: 'directory' });
    }
  }

  private kindOf(node: MemoryNode): FileKind {
    return typeof node === 'string' ? 'file' : node.kind;
  }

  /** Follows symlinks in every component, as the kernel does; undefined when a component is missing. */
  private resolve(path: string, followLast = true, depth = 0): string | undefined {
    if (depth > 40) return undefined;
    const parts = normalize(path).split('/').filter(Boolean);
    let current = '/';
    for (let i = 0; i < parts.length; i++) {
      const next = current === '/' ? `/${parts[i]}` : `${current}/${parts[i]}`;
      const node = this.nodes.get(next);
      if (node === undefined) return i === parts.length - 1 ? next : undefined;
      if (typeof node !== 'string' && node.kind === 'symlink' && (followLast || i < parts.length - 1)) {
        const target = node.target.startsWith('/') ? node.target : `${current}/${node.target}`;
        const rest = parts.slice(i + 1).join('/');
        return this.resolve(rest ? `${target}/${rest}` : target, followLast, depth + 1);
      }
      current = next;
    }
    return current;
  }

  private lookup(path: string, followLast = true): { at: string; node: MemoryNode } | undefined {
    const at = this.resolve(path, followLast);
    const node = at === undefined ? undefined : this.nodes.get(at);
    return at !== undefined && node !== undefined ? { at, node } : undefined;
  }

  async run(argv: readonly string[]): Promise<CommandResult> {
    const command = (this.spec.commands ?? []).find((c) => c.argv.length === argv.length && c.argv.every((a, i) => a === argv[i]));
    const base = { argv: [...argv], signal: null, durationMs: 0, timedOut: false };
    if (!command) return { ...base, exitCode: null, stdout: '', stderr: '', notFound: true, failure: `${argv[0]}: command not found` };
    return { ...base, exitCode: command.exitCode ?? 0, stdout: command.stdout ?? '', stderr: command.stderr ?? '', notFound: false };
  }

  async which(name: string, extraDirs: readonly string[] = []): Promise<CommandLocation> {
    const dirs = [...new Set([...(this.env().PATH ?? '').split(':').filter((d) => d.startsWith('/')), ...extraDirs])];
    const searched: string[] = [];
    for (const dir of dirs) {
      const candidate = `${dir.replace(/\/+$/, '')}/${name}`;
      searched.push(candidate);
      const stat = await this.stat(candidate);
      if (stat.ok && stat.value.kind === 'file' && (stat.value.mode & 0o111) !== 0) return { path: candidate, searched };
    }
    return { path: null, searched };
  }

  async readFile(path: string): Promise<Probe<string>> {
    const found = this.lookup(path);
    if (!found) return probeFail('ENOENT', `ENOENT: no such file or directory, open '${path}'`);
    const { node } = found;
    if (typeof node === 'string') return probeOk(node);
    if (node.kind === 'file') return probeOk(node.content);
    if (node.kind === 'directory') return probeFail('EISDIR', `EISDIR: illegal operation on a directory, read '${path}'`);
    return probeOk('');
  }

  async readDir(path: string): Promise<Probe<DirEntry[]>> {
    const found = this.lookup(path);
    if (!found) return probeFail('ENOENT', `ENOENT: no such file or directory, scandir '${path}'`);
    if (this.kindOf(found.node) !== 'directory') return probeFail('ENOTDIR', `ENOTDIR: not a directory, scandir '${path}'`);
    const prefix = found.at === '/' ? '/' : `${found.at}/`;
    const entries: DirEntry[] = [];
    for (const [candidate, node] of this.nodes) {
      if (candidate !== found.at && candidate.startsWith(prefix) && !candidate.slice(prefix.length).includes('/')) {
        entries.push({ name: candidate.slice(prefix.length), kind: this.kindOf(node) });
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return probeOk(entries);
  }

  private statOf(path: string, followLast: boolean): Probe<FileStat> {
    const found = this.lookup(path, followLast);
    if (!found) return probeFail('ENOENT', `ENOENT: no such file or directory, stat '${path}'`);
    const { node } = found;
    const kind = this.kindOf(node);
    const explicit = typeof node !== 'string' && 'mode' in node ? node.mode : undefined;
    const perm = explicit ?? (kind === 'directory' ? 0o755 : kind === 'char-device' ? 0o660 : 0o644);
    const size = typeof node === 'string' ? node.length : node.kind === 'file' ? (node.size ?? node.content.length) : 0;
    const rdev = typeof node !== 'string' && 'rdev' in node ? (node.rdev ?? 0) : 0;
    return probeOk({ kind, mode: TYPE_BITS[kind] | perm, uid: 0, gid: 0, size, rdev });
  }

  async stat(path: string): Promise<Probe<FileStat>> {
    return this.statOf(path, true);
  }

  async lstat(path: string): Promise<Probe<FileStat>> {
    return this.statOf(path, false);
  }

  async readLink(path: string): Promise<Probe<string>> {
    const found = this.lookup(path, false);
    if (!found) return probeFail('ENOENT', `ENOENT: no such file or directory, readlink '${path}'`);
    const { node } = found;
    if (typeof node !== 'string' && node.kind === 'symlink') return probeOk(node.target);
    return probeFail('EOTHER', `EINVAL: invalid argument, readlink '${path}'`);
  }

  async statfs(path: string): Promise<Probe<FsUsage>> {
    const usage = this.spec.statfs?.[normalize(path)];
    return usage ? probeOk(usage) : probeFail('ENOENT', `ENOENT: no such file or directory, statfs '${path}'`);
  }

  env(): Readonly<Record<string, string>> {
    return this.spec.env ?? {};
  }

  async interfaces(): Promise<Probe<NetInterface[]>> {
    return probeOk(this.spec.interfaces ?? []);
  }

  async identity(): Promise<SystemIdentity> {
    return this.spec.identity;
  }
  async inventory(): Promise<HostInventory> {
    return this.spec.inventory ?? rootInventory(this);
  }

  async tcpConnect(): Promise<TcpProbeResult> {
    return { ok: false, durationMs: 0, error: 'ECONNREFUSED' };
  }

  /** a host in memory (the demo hosts) answers the same whenever it is asked */
  pause(): Promise<void> {
    return Promise.resolve();
  }

  async readThroughput(request: ReadProbeRequest): Promise<Probe<ReadProbeResult>> {
    const described = this.spec.readProbes?.[normalize(request.directory)];
    return described ? probeOk(described) : probeFail('ENOENT', `${request.directory}: no read figure described for this demo host`);
  }
}
