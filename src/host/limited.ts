import { setMaxListeners } from 'node:events';
import { Semaphore } from '../util/semaphore.js';
import { commandLine } from './command-line.js';
import { commandNotRun } from './command-result.js';
import { DelegatingHost } from './delegating.js';
import { abandonEarlyCalls, adoptEarlyCalls, isEarlyCall } from './early-calls.js';
import type { CommandOptions, CommandResult, Host } from './types.js';

/** Commands of one tool running at once, by executable name: hccn_tool answers "busy" when run concurrently. */
export const DEFAULT_TOOL_LIMITS: Readonly<Record<string, number>> = { hccn_tool: 1, 'npu-smi': 2 };

/**
 * The slots of the limited tools, and the calls of them that were killed and have not ended (a
 * process stuck in the kernel dies only when its system call returns). A one-shot run has its
 * own; `qprep serve` keeps one for its whole life, so that no run starts a tool while a call of
 * an earlier run is still running: a run cut at its budget kills its calls, and the next run
 * waits for them to be gone.
 */
export class ToolSlots {
  private readonly semaphores = new Map<string, Semaphore>();
  /** per tool, the call that was killed and has not ended yet */
  private readonly lingering = new Map<string, string>();

  constructor(readonly limits: Readonly<Record<string, number>>) {}

  /** The slots of a limited tool; undefined for a tool without a limit. */
  of(tool: string): Semaphore | undefined {
    const limit = this.limits[tool];
    if (limit === undefined) return undefined;
    let semaphore = this.semaphores.get(tool);
    if (!semaphore) {
      semaphore = new Semaphore(limit);
      this.semaphores.set(tool, semaphore);
    }
    return semaphore;
  }

  /** Why the tool is not called now: a killed call of it has not ended. */
  blocked(tool: string): string | undefined {
    return this.lingering.get(tool);
  }

  /** A killed call of `tool` outlives its result: the tool stays blocked until `gone`. */
  linger(tool: string, argv: readonly string[], gone: Promise<void>): void {
    const why = `"${commandLine(argv)}" was killed and has not ended yet; qprep does not start ${tool} again while it runs`;
    this.lingering.set(tool, why);
    void gone.then(() => {
      if (this.lingering.get(tool) === why) this.lingering.delete(tool);
    });
  }
}

const toolOf = (argv: readonly string[]) => (argv[0] ?? '').replace(/^.*\//, '');

/**
 * Limits commands globally and per tool, below the checks: a check that runs hccn_tool for 16
 * devices queues on the hccn_tool limit while the other checks go on with their own probes.
 *
 * A limited tool that hangs once (a call killed at its timeout: a wedged driver) is not called
 * again in this run: the calls queued behind it, and later ones, return at once saying which
 * call hung. Otherwise a hung hccn_tool would cost its timeout for every device and every
 * query, one after the other (16 devices x 10 queries x 10 s), and the run would look hung.
 *
 * The calls the process started before the run (src/host/early-calls.ts) hold their tool's slot
 * from the moment the limiter exists until they end; the run takes over their results.
 */
export class LimitedHost extends DelegatingHost {
  private readonly global: Semaphore;
  private readonly slots: ToolSlots;
  /** per tool, the call that hung */
  private readonly hung = new Map<string, string>();
  /** aborted by stop(): the running commands are killed, the queued ones not started */
  private readonly over = new AbortController();

  /** `slots`, when given, are shared with other runs and their limits are the tools' (toolLimits is not read then). */
  constructor(inner: Host, commandConcurrency: number, toolLimits: Readonly<Record<string, number>>, slots?: ToolSlots) {
    super(inner);
    this.global = new Semaphore(commandConcurrency);
    this.slots = slots ?? new ToolSlots(toolLimits);
    // every command listens until its result is in, and a command whose process has ended gives
    // its slot back before that: more than Node's default of 10 at once is the normal case
    setMaxListeners(0, this.over.signal);
    for (const held of adoptEarlyCalls()) {
      // free slots are taken synchronously: no call of the tool starts before the early one ends;
      // one that hung marks its tool before the calls waiting behind it get its slot
      const slots = [this.global.hold(), this.slots.of(held.tool)?.hold()];
      void held.released.then(async () => {
        if (held.timedOut() && this.slots.of(held.tool)) this.markHung(held.tool, held.argv, held.timeoutMs);
        for (const slot of slots) (await slot)?.();
      });
    }
  }

  /**
   * The run is over (its report is being written): kill every command still running, whatever
   * check started it (one whose watchdog fired leaves its probes behind), and start no more.
   */
  stop(): void {
    this.over.abort();
    abandonEarlyCalls();
  }

  override async run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    const tool = toolOf(argv);
    const semaphore = this.slots.of(tool);
    // an early call holds its slot already (until it is gone): the run takes over its result
    if (isEarlyCall(argv, options?.timeoutMs)) {
      const result = await this.inner.run(argv, {
        ...options,
        signal: this.over.signal,
        onLingering: (gone) => {
          if (semaphore) this.slots.linger(tool, argv, gone);
          options?.onLingering?.(gone);
        },
      });
      return this.judged(tool, argv, options, result, semaphore !== undefined);
    }
    const refused = this.refusal(tool, argv);
    if (refused) return refused;
    const releaseTool = semaphore ? await semaphore.hold(this.over.signal) : undefined;
    if (semaphore && !releaseTool) return commandNotRun(argv, 'not started: the run was over');
    let lingering: Promise<void> | undefined;
    try {
      const refusedNow = this.refusal(tool, argv);
      if (refusedNow) return refusedNow;
      const releaseGlobal = await this.global.hold(this.over.signal);
      if (!releaseGlobal) return commandNotRun(argv, 'not started: the run was over');
      try {
        // checked once the call's turn has come: a call queued past its budget is not started
        if (this.over.signal.aborted) return commandNotRun(argv, 'not started: the run was over');
        if (options?.startBy !== undefined && performance.now() > options.startBy) {
          return { ...commandNotRun(argv, 'not started: its time budget was spent'), expired: true };
        }
        // The slots are given back when the process has ended by itself, not when its result is
        // ready: hccn_tool's queue is the run's critical path, and collecting the output and
        // sweeping /proc for what the call left behind can be done while the next call runs.
        // A call killed at its timeout keeps its slot until the result says so (the hung rule);
        // one that outlives its result (stuck in the kernel) keeps it until it is gone.
        const result = await this.inner.run(argv, {
          ...options,
          signal: this.over.signal,
          onExit: () => {
            releaseGlobal();
            releaseTool?.();
            options?.onExit?.();
          },
          onLingering: (gone) => {
            lingering = gone;
            if (semaphore) this.slots.linger(tool, argv, gone);
            options?.onLingering?.(gone);
          },
        });
        return this.judged(tool, argv, options, result, semaphore !== undefined);
      } finally {
        releaseGlobal();
      }
    } finally {
      if (lingering && releaseTool) void lingering.then(releaseTool);
      else releaseTool?.();
    }
  }

  /** Why a call of `tool` is not made: the tool hung earlier in this run, or a killed call of it has not ended. */
  private refusal(tool: string, argv: readonly string[]): CommandResult | undefined {
    const hung = this.hung.get(tool);
    if (hung) return commandNotRun(argv, `not run: ${hung}; qprep does not queue more calls behind a hung tool`);
    const blocked = this.slots.blocked(tool);
    if (blocked) return commandNotRun(argv, `not run: ${blocked}`);
    return undefined;
  }

  /** A limited tool's call that timed out marks the tool hung for the rest of the run. */
  private judged(tool: string, argv: readonly string[], options: CommandOptions | undefined, result: CommandResult, limited: boolean): CommandResult {
    if (result.timedOut && limited) this.markHung(tool, argv, options?.timeoutMs);
    return result;
  }

  private markHung(tool: string, argv: readonly string[], timeoutMs: number | undefined): void {
    if (this.hung.has(tool)) return;
    const after = timeoutMs === undefined ? 'its timeout' : `${timeoutMs} ms`;
    this.hung.set(tool, `"${commandLine(argv)}" hung earlier in this run (killed after ${after})`);
  }
}
