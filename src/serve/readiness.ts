import { formatDuration } from '../util/duration.js';
import { plural } from '../util/text.js';
import type { FinishedRun } from './agent.js';
import { isStale, STALE_AFTER_INTERVALS } from './policy.js';

export interface Readiness {
  ready: boolean;
  /** the one line /readyz answers: what a load balancer's log or `kubectl describe pod` shows */
  line: string;
}

/**
 * The verdict of /readyz: ready only when the last report is ready and recent. A report older
 * than two intervals means runs stopped finishing (a wedged run, a suspended host): whatever
 * it said is no longer known to hold.
 */
export function readiness(last: FinishedRun | undefined, nowMs: number, intervalMs: number, reloadError?: string): Readiness {
  const verdict = verdictLine(last, nowMs, intervalMs);
  const note = reloadError ? `; profile reload failed, still using the previous profile: ${reloadError}` : '';
  return { ready: verdict.ready, line: `${verdict.line}${note}` };
}

function verdictLine(last: FinishedRun | undefined, nowMs: number, intervalMs: number): Readiness {
  if (!last) return { ready: false, line: 'not ready: the first run has not finished yet' };
  const ageMs = nowMs - last.finishedAtMs;
  const age = `${formatDuration(ageMs)} ago`;
  if (isStale(ageMs, intervalMs)) {
    return {
      ready: false,
      line: `not ready: the last report is stale: it finished ${age}, more than ${STALE_AFTER_INTERVALS} × the ${formatDuration(intervalMs)} interval`,
    };
  }
  const { report } = last;
  if (!('checks' in report) || report.error) return { ready: false, line: `no verdict: ${report.error?.message ?? 'the run produced no report'} (${age})` };
  const run = `run ${report.runId}, ${age}`;
  if (report.ready) {
    const warn = report.summary.warn > 0 ? `, ${plural(report.summary.warn, 'warning')}` : '';
    return { ready: true, line: `ready: ${plural(report.checks.length, 'check')}, none blocking${warn} (${run})` };
  }
  return { ready: false, line: `not ready: ${plural(report.blocking.length, 'blocking check')}: ${report.blocking.join(', ')} (${run})` };
}
