import { describe, expect, it } from 'vitest';
import { clampTimerMs, MAX_TIMER_MS, withTimeout } from '../../../src/util/timeout.js';

describe('timers past 2^31 ms', () => {
  it('are clamped to the most a Node timer waits, never negative or NaN', () => {
    expect(clampTimerMs(18_430_170_800)).toBe(MAX_TIMER_MS);
    expect(clampTimerMs(Infinity)).toBe(MAX_TIMER_MS);
    expect(clampTimerMs(-5)).toBe(0);
    expect(clampTimerMs(Number.NaN)).toBe(0);
    expect(clampTimerMs(1500)).toBe(1500);
  });

  it('a budget of 18430170800 ms does not fire at once (Node would fire an unclamped one after 1 ms)', async () => {
    const late = new Promise<string>((resolve) => setTimeout(() => resolve('finished'), 50));
    await expect(withTimeout(late, 18_430_170_800, () => 'timed out')).resolves.toBe('finished');
  });
});
