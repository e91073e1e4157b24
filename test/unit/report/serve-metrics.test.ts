import { execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { errorDocument } from '../../../src/report/error-document.js';
import { formatServeMetrics, type ServeMetrics } from '../../../src/report/serve-metrics.js';
import { mixedResults, reportOf } from '../../helpers/reports.js';
import { hasTool, PROMTOOL } from '../../helpers/tools.js';

const FINISHED = Date.parse('2026-12-02T10:00:01.500Z');
const RUNS = { ready: 3, 'not-ready': 2, 'no-verdict': 1 };

function metrics(overrides: Partial<ServeMetrics> = {}): ServeMetrics {
  return { last: { report: reportOf(mixedResults()), durationMs: 2345, finishedAtMs: FINISHED }, runs: RUNS, running: false, reloadFailed: false, ...overrides };
}

function familyNames(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
}

describe('/metrics of qprep serve', () => {
  it('the report families once, then the run measured by the agent and its counters', () => {
    const text = formatServeMetrics(metrics());
    expect(familyNames(text)).toEqual([
      'qprep_info gauge',
      'qprep_ready gauge',
      'qprep_checks gauge',
      'qprep_check_status gauge',
      'qprep_check_blocking gauge',
      'qprep_worst_action gauge',
      'qprep_run_duration_seconds gauge',
      'qprep_last_run_timestamp_seconds gauge',
      'qprep_runs_total counter',
      'qprep_run_in_progress gauge',
      'qprep_profile_reload_failed gauge',
    ]);
    expect(text).toContain('\nqprep_run_duration_seconds 2.345\n');
    expect(text).toContain('\nqprep_last_run_timestamp_seconds 1796205601.5\n');
    expect(text).toContain('\nqprep_runs_total{verdict="ready"} 3\nqprep_runs_total{verdict="not-ready"} 2\nqprep_runs_total{verdict="no-verdict"} 1\n');
  });

  it('a run without a verdict: not ready, the error code, still the duration and finish time', () => {
    const text = formatServeMetrics(metrics({ last: { report: errorDocument('invalid-cluster', 'bad', 'check'), durationMs: 12, finishedAtMs: FINISHED }, reloadFailed: true, running: true }));
    expect(text).toContain('\nqprep_ready 0\n');
    expect(text).toContain('\nqprep_run_error{code="invalid-cluster"} 1\n');
    expect(text).toContain('\nqprep_run_duration_seconds 0.012\n');
    expect(text).toContain('\nqprep_profile_reload_failed 1\n');
    expect(text).toContain('\nqprep_run_in_progress 1\n');
  });

  it('before the first run: not ready, no run series', () => {
    const { last: _last, ...rest } = metrics();
    const text = formatServeMetrics({ ...rest, runs: { ready: 0, 'not-ready': 0, 'no-verdict': 0 } });
    expect(familyNames(text)).toEqual(['qprep_info gauge', 'qprep_ready gauge', 'qprep_runs_total counter', 'qprep_run_in_progress gauge', 'qprep_profile_reload_failed gauge']);
    expect(text).toContain('\nqprep_ready 0\n');
  });

  it("the agent's own process under the standard names", () => {
    const text = formatServeMetrics(metrics({ process: { residentBytes: 84_000_000, heapUsedBytes: 14_500_000, cpuSeconds: 12.345, startTimeSeconds: 1796205000 } }));
    expect(familyNames(text).slice(-4)).toEqual(['process_resident_memory_bytes gauge', 'process_cpu_seconds_total counter', 'process_start_time_seconds gauge', 'nodejs_heap_size_used_bytes gauge']);
    expect(text).toContain('\nprocess_resident_memory_bytes 84000000\n');
    expect(text).toContain('\nprocess_cpu_seconds_total 12.345\n');
  });

  describe.skipIf(!hasTool(PROMTOOL, 'prometheus'))('read by promtool check metrics', () => {
    it('parses and lints without a remark in every state', () => {
      const { last: _last, ...none } = metrics();
      for (const input of [metrics({ process: { residentBytes: 1, heapUsedBytes: 1, cpuSeconds: 0.5, startTimeSeconds: 2 } }), metrics({ last: { report: errorDocument('interrupted', 'x', 'check'), durationMs: 1, finishedAtMs: FINISHED } }), none]) {
        const run = execaSync('promtool', ['check', 'metrics'], { input: formatServeMetrics(input), reject: false });
        expect(`${String(run.stdout)}${String(run.stderr)}`).toBe('');
        expect(run.exitCode).toBe(0);
      }
    });
  });
});
