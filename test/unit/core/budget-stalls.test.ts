import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pass } from '../../../src/core/outcome.js';
import { createContext, runChecks } from '../../../src/core/runner.js';
import { runCommand } from '../../../src/host/exec.js';
import { LiveHost } from '../../../src/host/live.js';
import { withTimeout } from '../../../src/util/timeout.js';
import { fakeCheck } from '../../helpers/fake-check.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { profileWith } from '../../helpers/run-check.js';

/*
 * A budget counts the time the event loop was free for the work it bounds. Something else that
 * holds the loop (here a synchronous busy wait, as execSync in the same process did) delays the
 * delivery of every answer: when the loop is free again, the answer must not lose against a
 * timer that fell due meanwhile.
 */

const THIS_FILE = fileURLToPath(import.meta.url);

/**
 * Each case holds the loop for HOLD_MS against a budget of BUDGET_MS: after the hold, about
 * BUDGET_MS less one heartbeat (50 ms) is left for the answer the hold delayed, which must be
 * plenty on a loaded machine; before, the deadline fired as soon as the hold ended.
 */
const BUDGET_MS = 300;
const HOLD_MS = 700;

/** Holds the event loop for `ms`, as a synchronous call that does not return would. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // nothing: the loop is held
  }
}

describe('deadlines leave out the time the event loop was held by something else', () => {
  it('a file read started before a hold of the loop longer than its budget answers within the budget', async () => {
    const read = withTimeout(
      readFile(THIS_FILE).then(() => 'answered'),
      BUDGET_MS,
      () => 'timed out',
    );
    holdLoop(HOLD_MS);
    expect(await read).toBe('answered');
  });

  it('work that never answers still times out', async () => {
    await expect(withTimeout(new Promise<string>(() => undefined), 50, () => 'timed out')).resolves.toBe('timed out');
  });

  it('a LiveHost file probe (a sysctl read) is no error when the loop was held past its timeout', async () => {
    const host = new LiveHost({ timeoutMs: BUDGET_MS });
    const read = host.readFile('/proc/sys/vm/swappiness');
    holdLoop(HOLD_MS);
    const probe = await read;
    expect(probe.ok, probe.ok ? '' : probe.message).toBe(true);
  });

  it('a command that exited while the loop was held is no timeout: its exit is delivered before its deadline looks again', async () => {
    const result = runCommand(['true'], { timeoutMs: BUDGET_MS, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    holdLoop(HOLD_MS);
    expect(await result).toMatchObject({ timedOut: false, exitCode: 0 });
  });

  it("a check's watchdog counts its own work: another check holding the loop past its budget does not make it an error", async () => {
    const checks = [
      fakeCheck('sysctl.swappiness', { budgetMs: () => BUDGET_MS, run: async () => pass(`read ${(await readFile(THIS_FILE)).length} bytes`) }),
      fakeCheck('host.model', {
        run: async () => {
          holdLoop(HOLD_MS);
          return pass('held the loop');
        },
      }),
    ];
    const results = await runChecks(checks, createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: BUDGET_MS }), {
      concurrency: 2,
      commandConcurrency: 2,
      toolLimits: {},
      timeoutMs: BUDGET_MS,
      ignore: new Set(),
    });
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['sysctl.swappiness', 'pass'],
      ['host.model', 'pass'],
    ]);
  });
});
