import { setMaxListeners } from 'node:events';
import { Semaphore } from '../util/semaphore.js';
import { commandLine } from './command-line.js';
import { commandNotRun } from './command-result.js';
import { DelegatingHost } from './delegating.js';
import type { CommandOptions, CommandResult, Host } from './types.js';

/** Commands of one tool running at once, by executable name: hccn_tool answers "busy" when run concurrently. */
export const DEFAULT_TOOL_LIMITS: Readonly<Record<string, number>> = { hccn_tool: 1, 'npu-smi': 2 };

/**
 * Limits commands globally and per tool, below the checks: a check that runs hccn_tool for 16
 * devices queues on the hccn_tool limit while the other checks go on with their own probes.
 *
 * A limited tool that hangs once (a call killed at its timeout: a wedged driver) is not called
 * again in this run: the calls queued behind it, and later ones, return at once saying which
 * call hung. Otherwise a hung hccn_tool would cost its timeout for every device and every
 * query, one after the other (16 devices x 10 queries x 10 s), and the run would look hung.
 */
export class LimitedHost extends DelegatingHost {
  private readonly global: Semaphore;
  private readonly perTool = new Map<string, Semaphore>();
  /** per tool, the call that hung */
  private readonly hung = new Map<string, string>();
  /** aborted by stop(): the running commands are killed, the queued ones not started */
  private readonly over = new AbortController();

  constructor(
    inner: Host,
    commandConcurrency: number,
    private readonly toolLimits: Readonly<Record<string, number>>,
  ) {
    super(inner);
    this.global = new Semaphore(commandConcurrency);
    // every command listens until its result is in, and a command whose process has ended gives
    // its slot back before that: more than Node's default of 10 at once is the normal case
    setMaxListeners(0, this.over.signal);
  }

  /**
   * The run is over (its report is being written): kill every command still running, whatever
   * check started it (one whose watchdog fired leaves its probes behind), and start no more.
   */
  stop(): void {
    this.over.abort();
  }

  override async run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    const tool = (argv[0] ?? '').replace(/^.*\//, '');
    const limit = this.toolLimits[tool];
    let semaphore: Semaphore | undefined;
    if (limit !== undefined) {
      semaphore = this.perTool.get(tool);
      if (!semaphore) {
        semaphore = new Semaphore(limit);
        this.perTool.set(tool, semaphore);
      }
    }
    const releaseTool = semaphore ? await semaphore.hold() : undefined;
    try {
      const hung = this.hung.get(tool);
      if (hung) return commandNotRun(argv, `not run: ${hung}; qprep does not queue more calls behind a hung tool`);
      const releaseGlobal = await this.global.hold();
      try {
        // checked once the call's turn has come: a call queued past its budget is not started
        if (this.over.signal.aborted) return commandNotRun(argv, 'not started: the run was over');
        if (options?.startBy !== undefined && performance.now() > options.startBy) {
          return { ...commandNotRun(argv, 'not started: its time budget was spent'), expired: true };
        }
        // The slots are given back when the process has ended by itself, not when its result is
        // ready: hccn_tool's queue is the run's critical path, and collecting the output and
        // sweeping /proc for what the call left behind can be done while the next call runs.
        // A call killed at its timeout keeps its slot until the result says so (the hung rule).
        const result = await this.inner.run(argv, {
          ...options,
          signal: this.over.signal,
          onExit: () => {
            releaseGlobal();
            releaseTool?.();
            options?.onExit?.();
          },
        });
        if (result.timedOut && releaseTool && !this.hung.has(tool)) {
          const after = options?.timeoutMs === undefined ? 'its timeout' : `${options.timeoutMs} ms`;
          this.hung.set(tool, `"${commandLine(argv)}" hung earlier in this run (killed after ${after})`);
        }
        return result;
      } finally {
        releaseGlobal();
      }
    } finally {
      releaseTool?.();
    }
  }
}
