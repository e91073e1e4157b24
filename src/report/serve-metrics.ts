import { VERSION } from '../version.js';
import { errorFamilies, infoFamily, lastRunFamily, readyFamily, render, reportFamilies, runDurationFamily } from './prometheus.js';
import type { Family } from './metric-family.js';
import type { AnyReport } from './schema.js';

/**
 * GET /metrics of `qprep serve`: the last report in the format of `qprep check --format
 * prometheus`, with the agent's own series. The run's duration and finish time are the agent's
 * measurements, so that a run that produced no verdict (an unreadable cluster file, a run over
 * its budget) still has them. Before the first run finishes the node is not judged: qprep_ready 0.
 */

export type RunVerdict = 'ready' | 'not-ready' | 'no-verdict';
export const RUN_VERDICTS: readonly RunVerdict[] = ['ready', 'not-ready', 'no-verdict'];

export interface ServeMetrics {
  last?: { report: AnyReport; durationMs: number; finishedAtMs: number };
  /** finished runs since the agent started, by verdict */
  runs: Readonly<Record<RunVerdict, number>>;
  running: boolean;
  /** the last SIGHUP could not load the profile: the previous one is still used */
  reloadFailed: boolean;
  /** the agent process itself, under the names every Prometheus client library uses */
  process?: { residentBytes: number; heapUsedBytes: number; cpuSeconds: number; startTimeSeconds: number };
}

export function formatServeMetrics(metrics: ServeMetrics): string {
  return formatRunMetrics(metrics.last) + formatAgentMetrics(metrics);
}

/** The part of /metrics that only the last run decides: rendered once when the run finishes. */
export function formatRunMetrics(last: ServeMetrics['last']): string {
  const families: Family[] = [];
  if (!last) families.push(infoFamily(VERSION, {}), readyFamily(false));
  else if ('checks' in last.report) families.push(...reportFamilies(last.report));
  else families.push(...errorFamilies(last.report));
  if (last) families.push(runDurationFamily(last.durationMs), lastRunFamily(last.finishedAtMs));
  return render(families);
}

/** The part of /metrics that changes between runs: the agent's counters and its process. */
export function formatAgentMetrics(metrics: Omit<ServeMetrics, 'last'>): string {
  const families: Family[] = [
    {
      name: 'qprep_runs_total',
      help: 'Runs of the checks that qprep serve finished since it started, by verdict (ready, not-ready, no-verdict).',
      type: 'counter',
      samples: RUN_VERDICTS.map((verdict) => ({ labels: { verdict }, value: metrics.runs[verdict] })),
    },
    { name: 'qprep_run_in_progress', help: '1 while a run of the checks is going on.', samples: [{ value: metrics.running ? 1 : 0 }] },
    {
      name: 'qprep_profile_reload_failed',
      help: '1 when the profile could not be re-read at the last SIGHUP: the previous profile is still in use.',
      samples: [{ value: metrics.reloadFailed ? 1 : 0 }],
    },
  ];
  if (metrics.process) {
    const { residentBytes, heapUsedBytes, cpuSeconds, startTimeSeconds } = metrics.process;
    families.push(
      { name: 'process_resident_memory_bytes', help: 'Resident memory size in bytes.', samples: [{ value: residentBytes }] },
      { name: 'process_cpu_seconds_total', help: 'Total user and system CPU time spent in seconds.', type: 'counter', samples: [{ value: cpuSeconds }] },
      { name: 'process_start_time_seconds', help: 'Start time of the process since unix epoch in seconds.', samples: [{ value: startTimeSeconds }] },
      { name: 'nodejs_heap_size_used_bytes', help: 'Process heap size used from Node.js in bytes.', samples: [{ value: heapUsedBytes }] },
    );
  }
  return render(families);
}

export function verdictOf(report: AnyReport): RunVerdict {
  if ('checks' in report && !report.error) return report.ready ? 'ready' : 'not-ready';
  return 'no-verdict';
}
