import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/core/types.js';
import { formatReport } from '../../../src/report/formats.js';
import { DepthSchedule } from '../../../src/serve/depth-schedule.js';
import { reportOf, result } from '../../helpers/reports.js';

const HOUR = 3600_000;
const standard = () => reportOf([result({ id: 'hccn.link', status: 'pass' }), result({ id: 'hccn.fec', status: 'pass' })]);
const deep = (flap: CheckResult['status']) =>
  reportOf([result({ id: 'hccn.link', status: 'pass' }), result({ id: 'hccn.link-stability', status: flap }), result({ id: 'hccn.fec', status: 'pass' }), result({ id: 'hccn.optics', status: 'pass' })]);

describe('serve --depth standard --deep-every 1h', () => {
  it('runs deep at start, then at the base depth until the hour has passed since the last deep run', () => {
    const schedule = new DepthSchedule('standard', HOUR);
    expect(schedule.depthFor(0)).toBe('deep');
    schedule.afterRun(deep('pass'), 'deep', 0);
    expect(schedule.depthFor(5 * 60_000)).toBe('standard');
    expect(schedule.depthFor(HOUR)).toBe('deep');
    expect(new DepthSchedule('standard', undefined).depthFor(0)).toBe('standard');
  });

  it('carries the deep results into the runs between, marked with when they were observed, and judges with them', () => {
    const schedule = new DepthSchedule('standard', HOUR);
    const first = deep('fail');
    schedule.afterRun(first, 'deep', 0);
    const between = schedule.afterRun(standard(), 'standard', 5 * 60_000);
    if (!('checks' in between)) throw new Error('a report');
    expect(between.checks.map((c) => c.id)).toEqual(['hccn.link', 'hccn.link-stability', 'hccn.optics', 'hccn.fec']);
    expect(between.checks.find((c) => c.id === 'hccn.link-stability')).toMatchObject({ status: 'fail', observedAt: first.startedAt });
    expect(between.checks.find((c) => c.id === 'hccn.link')!.observedAt).toBeUndefined();
    expect(between).toMatchObject({ ready: false, blocking: ['hccn.link-stability'], summary: { pass: 3, fail: 1 } });
    expect(formatReport(between, 'human', { color: false })).toContain(`(observed by the last deep run, ${first.startedAt})`);
  });

  it('carries nothing from a deep run cut short, and runs deep again next', () => {
    const schedule = new DepthSchedule('standard', HOUR);
    schedule.afterRun({ ...deep('fail'), error: { code: 'interrupted', message: 'the run exceeded its budget' } }, 'deep', 0);
    expect(schedule.depthFor(60_000)).toBe('deep');
    const next = schedule.afterRun(standard(), 'standard', 60_000);
    expect('checks' in next && next.checks.map((c) => c.id)).toEqual(['hccn.link', 'hccn.fec']);
  });
});
