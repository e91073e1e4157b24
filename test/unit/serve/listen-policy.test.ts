import { describe, expect, it } from 'vitest';
import { formatListenAddress, isLoopback, parseListenAddress } from '../../../src/serve/listen.js';
import { isStale, nextRunDelay, scheduleOf } from '../../../src/serve/policy.js';
import { MAX_TIMER_MS } from '../../../src/util/timeout.js';

describe('--listen', () => {
  it('reads IPv4, bracketed IPv6 and localhost, and knows loopback from the rest', () => {
    expect(parseListenAddress('127.0.0.1:9105')).toEqual({ host: '127.0.0.1', port: 9105, loopback: true });
    expect(parseListenAddress('[::1]:9105')).toEqual({ host: '::1', port: 9105, loopback: true });
    expect(parseListenAddress('localhost:0')).toEqual({ host: '127.0.0.1', port: 0, loopback: true });
    expect(parseListenAddress('0.0.0.0:9105')).toEqual({ host: '0.0.0.0', port: 9105, loopback: false });
    expect(parseListenAddress('[::]:9105').loopback).toBe(false);
    expect(parseListenAddress('10.20.0.11:80').loopback).toBe(false);
  });

  it('refuses hostnames, bare ports, unbracketed IPv6 and ports out of range with a line naming --listen', () => {
    for (const text of ['9105', ':9105', 'node1:9105', '::1:9105', '[127.0.0.1]:9105', '127.0.0.1:65536', '127.0.0.1:', '127.0.0.1:9105x', '']) {
      expect(() => parseListenAddress(text), text).toThrow(/^--listen/);
    }
  });

  it('prints addresses as --listen takes them', () => {
    expect(formatListenAddress('::1', 9105)).toBe('[::1]:9105');
    expect(formatListenAddress('127.0.0.1', 9105)).toBe('127.0.0.1:9105');
    expect(isLoopback('127.8.0.1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('192.168.1.1')).toBe(false);
  });
});

describe('--interval and --budget', () => {
  // the durations themselves (units, the 1 s minimum of --interval) are read by the command line: test/e2e/serve.test.ts
  it('the budget defaults to 80 % of the interval', () => {
    expect(scheduleOf(300_000, undefined)).toEqual({ intervalMs: 300_000, budgetMs: 240_000 });
    expect(scheduleOf(2000, undefined)).toEqual({ intervalMs: 2000, budgetMs: 1600 });
    expect(scheduleOf(3_600_000, 600_000)).toEqual({ intervalMs: 3_600_000, budgetMs: 600_000 });
  });

  it('refuses a budget longer than the interval', () => {
    expect(() => scheduleOf(300_000, 360_000)).toThrow('--budget 6m is longer than --interval 5m');
  });

  it('jitters the next run by at most ±10 % of the interval, less what the run took', () => {
    expect(nextRunDelay(60_000, 0, () => 0)).toBe(54_000);
    expect(nextRunDelay(60_000, 0, () => 1)).toBe(66_000);
    expect(nextRunDelay(60_000, 10_000, () => 0.5)).toBe(50_000);
    expect(nextRunDelay(60_000, 90_000, () => 0.5)).toBe(0);
  });

  it('at the longest --interval, the jitter above it stops at the longest delay a timer holds', () => {
    expect(nextRunDelay(MAX_TIMER_MS, 0, () => 1)).toBe(MAX_TIMER_MS);
    expect(nextRunDelay(MAX_TIMER_MS, 0, () => 0)).toBe(Math.round(MAX_TIMER_MS * 0.9));
  });

  it('calls a report stale after two intervals', () => {
    expect(isStale(120_000, 60_000)).toBe(false);
    expect(isStale(120_001, 60_000)).toBe(true);
  });
});
