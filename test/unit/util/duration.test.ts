import { describe, expect, it } from 'vitest';
import { formatDuration, formatExactDuration, judgeDuration, parseDuration } from '../../../src/util/duration.js';
import { MAX_TIMER_MS } from '../../../src/util/timeout.js';

describe('durations (--max-age)', () => {
  it('reads what operators write', () => {
    expect(parseDuration('45s')).toBe(45_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration(' 1.5H ')).toBe(5_400_000);
  });

  it('refuses a bare number, an unknown unit, zero and garbage', () => {
    for (const text of ['90', '5w', '0m', '', 'm', '-5m', '1h 30m', '30 minutes']) expect(parseDuration(text), text).toBeUndefined();
  });

  it('prints ages with the two largest units', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(59_400)).toBe('59s');
    expect(formatDuration(95_000)).toBe('1m35s');
    expect(formatDuration(7_200_000)).toBe('2h');
    expect(formatDuration(11_400_000)).toBe('3h10m');
    expect(formatDuration(90_061_000)).toBe('1d1h');
    expect(formatDuration(-5000)).toBe('0s');
  });
});

describe('durations as every option takes them (--timeout, --interval, --budget, --max-age)', () => {
  it('takes 10s, 500ms, 2m and 1m30s', () => {
    expect(judgeDuration('10s')).toEqual({ ms: 10_000 });
    expect(judgeDuration('500ms')).toEqual({ ms: 500 });
    expect(judgeDuration('2m')).toEqual({ ms: 120_000 });
    expect(judgeDuration('1m30s')).toEqual({ ms: 90_000 });
  });

  it('refuses a bare number as having no unit: 10 is neither 10 ms nor 10 s until the user says so', () => {
    for (const bare of ['10', '2500', '1.5', ' 20000 ']) expect(judgeDuration(bare), bare).toEqual({ refused: 'no-unit' });
  });

  it('refuses zero, negatives and unknown units as not a duration', () => {
    for (const bad of ['0', '0s', '-5', '-5s', '10x', 's', '']) expect(judgeDuration(bad), bad).toEqual({ refused: 'not-a-duration' });
  });

  it('refuses what is shorter than the minimum of the option', () => {
    expect(judgeDuration('0.5s', 1000)).toEqual({ refused: 'too-short' });
    expect(judgeDuration('1s', 1000)).toEqual({ ms: 1000 });
  });
});

describe('the longest duration a timer waits for', () => {
  it('is written exactly, in a form the options take back', () => {
    expect(formatExactDuration(MAX_TIMER_MS)).toBe('24d20h31m23s647ms');
    expect(parseDuration(formatExactDuration(MAX_TIMER_MS))).toBe(MAX_TIMER_MS);
    expect(formatExactDuration(90_000)).toBe('1m30s');
    expect(formatExactDuration(0)).toBe('0ms');
  });

  it('a duration above the maximum is refused as too long, the maximum itself taken', () => {
    expect(judgeDuration('24d20h31m23s647ms', 1, MAX_TIMER_MS)).toEqual({ ms: MAX_TIMER_MS });
    expect(judgeDuration('24d20h31m23s648ms', 1, MAX_TIMER_MS)).toEqual({ refused: 'too-long' });
    expect(judgeDuration('30d', 1, MAX_TIMER_MS)).toEqual({ refused: 'too-long' });
    expect(judgeDuration('30d')).toEqual({ ms: 30 * 86_400_000 });
  });
});
