import { describe, expect, it } from 'vitest';
import { jsonLogLine, throttledLog, type LogFields } from '../../../src/serve/log.js';

describe('the JSON log line', () => {
  it('is one line: control characters in messages are escaped, undefined fields left out', () => {
    const line = jsonLogLine('error', 'reload-failed', { error: 'invalid profile p.yaml:\nline 2\u0007', kept: 'site-a', note: undefined }, new Date('2026-12-02T10:00:00Z'));
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\u0007]/);
    expect(JSON.parse(line)).toEqual({ time: '2026-12-02T10:00:00.000Z', level: 'error', event: 'reload-failed', error: 'invalid profile p.yaml:\\x0aline 2\\x07', kept: 'site-a' });
  });

  it('keeps numbers, arrays and objects as they are', () => {
    const parsed = JSON.parse(jsonLogLine('warn', 'state', { from: 'ready', to: 'not-ready', blocking: ['npu.idle'], summary: { pass: 1 } }, new Date(0)));
    expect(parsed).toMatchObject({ blocking: ['npu.idle'], summary: { pass: 1 } });
  });
});

describe('a log line a client can cause at will', () => {
  it('is written the first time, then at most once a period, with how many came since the last line', () => {
    const lines: Array<{ event: string; fields: LogFields }> = [];
    let now = 0;
    const log = throttledLog({ log: (_level, event, fields = {}) => lines.push({ event, fields }) }, 'warn', 'host-refused', 60_000, () => now);
    log({ host: 'a' });
    for (let i = 0; i < 100; i++) log({ host: 'b' });
    expect(lines).toEqual([{ event: 'host-refused', fields: { host: 'a', count: 1 } }]);
    now = 60_000;
    log({ host: 'c' });
    expect(lines[1]).toEqual({ event: 'host-refused', fields: { host: 'c', count: 101 } });
  });
});
