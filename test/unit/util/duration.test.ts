import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration, parseTimeout } from '../../../src/util/duration.js';

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

describe('timeouts (--timeout)', () => {
  it('takes 10s, 500ms, 2m and a bare number of milliseconds', () => {
    expect(parseTimeout('10s')).toBe(10_000);
    expect(parseTimeout('500ms')).toBe(500);
    expect(parseTimeout('2m')).toBe(120_000);
    expect(parseTimeout('1m30s')).toBe(90_000);
    expect(parseTimeout('2500')).toBe(2500);
    expect(parseDuration('500ms')).toBe(500);
  });

  it('refuses zero, negatives and unknown units', () => {
    for (const bad of ['0', '0s', '-5', '10x', 's', '', '1.5']) expect(parseTimeout(bad)).toBeUndefined();
  });
});
