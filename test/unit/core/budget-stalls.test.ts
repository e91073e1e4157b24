import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pass } from '../../../src/core/outcome.js';
import { createContext, runChecks } from '../../../src/core/runner.js';
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

/** Holds the event loop for `ms`, as a synchronous call that does not return would. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // nothing: the loop is held
  }
}

describe('deadlines leave out the time the event loop was held by something else', () => {
  it('a file read started before a 400 ms hold of the loop answers within its 100 ms budget', async () => {
    const read = withTimeout(
      readFile(THIS_FILE).then(() => 'answered'),
      100,
      () => 'timed out',
    );
    holdLoop(400);
    expect(await read).toBe('answered');
  });

  it('work that never answers still times out', async () => {
    await expect(withTimeout(new Promise<string>(() => undefined), 50, () => 'timed out')).resolves.toBe('timed out');
  });

  it('a LiveHost file probe (a sysctl read) is no error when the loop was held past its timeout', async () => {
    const host = new LiveHost({ timeoutMs: 100 });
    const read = host.readFile('/proc/sys/vm/swappiness');
    holdLoop(400);
    const probe = await read;
    expect(probe.ok, probe.ok ? '' : probe.message).toBe(true);
  });

  it("a check's watchdog counts its own work: another check holding the loop for 400 ms does not make a 100 ms check an error", async () => {
    const checks = [
      fakeCheck('sysctl.swappiness', { budgetMs: () => 100, run: async () => pass(`read ${(await readFile(THIS_FILE)).length} bytes`) }),
      fakeCheck('host.model', {
        run: async () => {
          holdLoop(400);
          return pass('held the loop');
        },
      }),
    ];
    const results = await runChecks(checks, createContext({ host: new FakeHost(), profile: profileWith(), timeoutMs: 100 }), {
      concurrency: 2,
      commandConcurrency: 2,
      toolLimits: {},
      timeoutMs: 100,
      ignore: new Set(),
    });
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ['sysctl.swappiness', 'pass'],
      ['host.model', 'pass'],
    ]);
  });
});
