import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../../src/util/duration.js';

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
