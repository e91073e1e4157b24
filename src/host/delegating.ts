import { hostPause } from './pause.js';
import type { CommandLocation, CommandOptions, CommandResult, Host, ReadProbeRequest, WriteOptions } from './types.js';

/**
 * A host that forwards every call to another one. Wrappers that change one aspect (the command
 * limits of the runner, a test host that enters a network namespace) extend it and override
 * only what they change.
 */
export class DelegatingHost implements Host {
  readonly description: string;
  readonly root: string;

  constructor(
    protected readonly inner: Host,
    description: string = inner.description,
  ) {
    this.description = description;
    this.root = inner.root;
  }

  run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    return this.inner.run(argv, options);
  }
  which(name: string, extraDirs?: readonly string[]): Promise<CommandLocation> {
    return this.inner.which(name, extraDirs);
  }
  readFile(path: string) {
    return this.inner.readFile(path);
  }
  readDir(path: string) {
    return this.inner.readDir(path);
  }
  stat(path: string) {
    return this.inner.stat(path);
  }
  lstat(path: string) {
    return this.inner.lstat(path);
  }
  readLink(path: string) {
    return this.inner.readLink(path);
  }
  statfs(path: string) {
    return this.inner.statfs(path);
  }
  env() {
    return this.inner.env();
  }
  interfaces() {
    return this.inner.interfaces();
  }
  identity() {
    return this.inner.identity();
  }
  inventory() {
    return this.inner.inventory();
  }
  tcpConnect(host: string, port: number, timeoutMs: number) {
    return this.inner.tcpConnect(host, port, timeoutMs);
  }
  pause(ms: number): Promise<void> {
    return hostPause(this.inner, ms);
  }
  readThroughput(request: ReadProbeRequest) {
    return this.inner.readThroughput(request);
  }
  writeFile(path: string, content: string, options: WriteOptions) {
    return this.inner.writeFile(path, content, options);
  }
  removeFile(path: string) {
    return this.inner.removeFile(path);
  }
  rename(from: string, to: string) {
    return this.inner.rename(from, to);
  }
  makeDirectory(path: string, mode: number) {
    return this.inner.makeDirectory(path, mode);
  }
}
