import { describe, expect, it } from 'vitest';
import { commandNotRun, emptyCommandResult } from '../../../src/host/command-result.js';
import { DEFAULT_TOOL_LIMITS, LimitedHost, ToolSlots } from '../../../src/host/limited.js';
import type { CommandOptions, CommandResult } from '../../../src/host/types.js';
import { Semaphore } from '../../../src/util/semaphore.js';
import { FakeHost } from '../../helpers/fake-host.js';

const NPU_SMI = '/usr/local/bin/npu-smi';

/**
 * A host whose calls end when the test says: each call is held until released, and a call can
 * end as one that was killed and outlives its result (stuck in the kernel): onLingering, with
 * its end still to come.
 */
class HeldHost extends FakeHost {
  readonly started: string[] = [];
  private readonly pending: Array<{ finish: (lingering?: Promise<void>) => void }> = [];

  constructor() {
    super({});
  }

  override run(argv: readonly string[], options?: CommandOptions): Promise<CommandResult> {
    this.started.push(argv.join(' '));
    return new Promise((resolve) => {
      this.pending.push({
        finish: (lingering) => {
          if (lingering) options?.onLingering?.(lingering);
          else options?.onExit?.();
          resolve({ ...emptyCommandResult(argv), exitCode: lingering ? null : 0, signal: lingering ? 'SIGKILL' : null, timedOut: lingering !== undefined });
        },
      });
    });
  }

  /** Ends the oldest call still held. */
  finish(lingering?: Promise<void>): void {
    this.pending.shift()!.finish(lingering);
  }
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('LimitedHost and the tools\' slots', () => {
  it('a killed call that outlives its result keeps its tool from being started again, also by the next run, until it is gone', async () => {
    const inner = new HeldHost();
    const slots = new ToolSlots({ 'npu-smi': 1 });
    const first = new LimitedHost(inner, 8, DEFAULT_TOOL_LIMITS, slots);
    const hung = first.run([NPU_SMI, 'info'], { timeoutMs: 100 });
    await turn();
    let gone: () => void = () => undefined;
    inner.finish(new Promise<void>((resolve) => (gone = resolve)));
    expect((await hung).timedOut).toBe(true);
    // the next run (serve's: the same slots) does not start npu-smi while that process lives
    const next = new LimitedHost(inner, 8, DEFAULT_TOOL_LIMITS, slots);
    const refused = await next.run([NPU_SMI, 'info', '-t', 'board', '-i', '0'], { timeoutMs: 100 });
    expect(refused.failure).toMatch(/^not run: "\/usr\/local\/bin\/npu-smi info" was killed and has not ended yet; qprep does not start npu-smi again while it runs$/);
    expect(inner.started).toEqual([`${NPU_SMI} info`]);
    gone();
    await turn();
    const later = next.run([NPU_SMI, 'info', '-t', 'board', '-i', '0'], { timeoutMs: 100 });
    await turn();
    inner.finish();
    expect((await later).exitCode).toBe(0);
    expect(inner.started).toEqual([`${NPU_SMI} info`, `${NPU_SMI} info -t board -i 0`]);
  });

  it('one call of a tool at a time across runs that share the slots: the next run\'s call waits for the last one\'s end', async () => {
    const inner = new HeldHost();
    const slots = new ToolSlots({ 'npu-smi': 1 });
    const first = new LimitedHost(inner, 8, DEFAULT_TOOL_LIMITS, slots);
    const running = first.run([NPU_SMI, 'info'], { timeoutMs: 100 });
    await turn();
    // run one is over (its budget): its call goes on, and run two's waits for it
    const second = new LimitedHost(inner, 8, DEFAULT_TOOL_LIMITS, slots).run([NPU_SMI, 'info'], { timeoutMs: 100 });
    await turn();
    expect(inner.started).toHaveLength(1);
    inner.finish();
    await running;
    await turn();
    expect(inner.started).toHaveLength(2);
    inner.finish();
    expect((await second).exitCode).toBe(0);
  });

  it('the run\'s end gives up the calls still waiting for a slot', async () => {
    const inner = new HeldHost();
    const host = new LimitedHost(inner, 8, { hccn_tool: 1 });
    const running = host.run(['/x/hccn_tool', '-i', '0', '-link', '-g'], { timeoutMs: 100 });
    const waiting = host.run(['/x/hccn_tool', '-i', '1', '-link', '-g'], { timeoutMs: 100 });
    await turn();
    host.stop();
    expect(await waiting).toEqual(commandNotRun(['/x/hccn_tool', '-i', '1', '-link', '-g'], 'not started: the run was over'));
    inner.finish();
    await running;
    expect(inner.started).toEqual(['/x/hccn_tool -i 0 -link -g']);
  });
});

describe('Semaphore.hold with a cancel signal', () => {
  it('gives up the wait without taking a slot; a free slot is taken at once', async () => {
    const semaphore = new Semaphore(1);
    const release = await semaphore.hold();
    const cancel = new AbortController();
    const waiting = semaphore.hold(cancel.signal);
    cancel.abort();
    expect(await waiting).toBeUndefined();
    release();
    // the slot given back is free: the cancelled wait did not take it
    const again = await semaphore.hold(new AbortController().signal);
    expect(again).toBeTypeOf('function');
    const aborted = new AbortController();
    aborted.abort();
    expect(await semaphore.hold(aborted.signal)).toBeUndefined();
  });
});
