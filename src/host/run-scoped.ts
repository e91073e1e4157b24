import { commandNotRun } from './command-result.js';
import { DelegatingHost } from './delegating.js';
import { killAllCommandGroups } from './exec.js';
import { refuseWrite, type CommandOptions, type CommandResult, type Host, type Probe, type WriteOptions } from './types.js';

/**
 * The host of one run of `qprep serve`. It never writes: serve judges the host and never tunes
 * it, whatever a check might try. When the run is cut short (its budget is spent) `end()` kills
 * the process groups of the commands still running and refuses to start new ones, so that the
 * checks still going in the background cannot outlive their run and overlap the next one.
 * Unlike stopAllCommands, this ends only this run: the next run gets a new host.
 */
export class RunScopedHost extends DelegatingHost {
  private endedBecause: string | undefined;

  constructor(inner: Host) {
    super(inner);
  }

  /** Ends the run: running commands are killed with their process groups, later ones not started. */
  end(reason: string): void {
    this.endedBecause ??= reason;
    killAllCommandGroups();
  }

  get ended(): boolean {
    return this.endedBecause !== undefined;
  }

  override run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    if (this.endedBecause !== undefined) return Promise.resolve(commandNotRun(argv, `not started: ${this.endedBecause}`));
    return super.run(argv, options);
  }

  /** an ended run waits for nothing */
  override pause(ms: number): Promise<void> {
    if (this.endedBecause !== undefined) return Promise.resolve();
    return super.pause(ms);
  }

  override writeFile(path: string, _content: string, _options: WriteOptions): Promise<Probe<void>> {
    return refuseWrite(path, 'qprep serve is read-only');
  }
  override removeFile(path: string): Promise<Probe<void>> {
    return refuseWrite(path, 'qprep serve is read-only');
  }
  override rename(from: string, _to: string): Promise<Probe<void>> {
    return refuseWrite(from, 'qprep serve is read-only');
  }
  override makeDirectory(path: string, _mode: number): Promise<Probe<void>> {
    return refuseWrite(path, 'qprep serve is read-only');
  }
}
