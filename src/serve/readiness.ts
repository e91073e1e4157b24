import { en, type Catalogue } from '../i18n/en/index.js';
import { formatDuration } from '../util/duration.js';
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
export function readiness(last: FinishedRun | undefined, nowMs: number, intervalMs: number, reloadError?: string, text: Catalogue = en): Readiness {
  const t = text.commands.serve;
  const verdict = verdictLine(t, last, nowMs, intervalMs);
  const note = reloadError ? t.reloadFailed({ error: reloadError }) : '';
  return { ready: verdict.ready, line: `${verdict.line}${note}` };
}

function verdictLine(t: Catalogue['commands']['serve'], last: FinishedRun | undefined, nowMs: number, intervalMs: number): Readiness {
  if (!last) return { ready: false, line: t.firstRunPending };
  const ageMs = nowMs - last.finishedAtMs;
  const age = t.ago({ age: formatDuration(ageMs) });
  if (isStale(ageMs, intervalMs)) {
    return { ready: false, line: t.stale({ age, intervals: STALE_AFTER_INTERVALS, interval: formatDuration(intervalMs) }) };
  }
  const { report } = last;
  if (!('checks' in report) || report.error) return { ready: false, line: t.noVerdict({ problem: report.error?.message ?? t.noReport, age }) };
  const run = t.run({ runId: report.runId, age });
  if (report.ready) return { ready: true, line: t.ready({ checks: report.checks.length, warnings: report.summary.warn, run }) };
  return { ready: false, line: t.notReady({ count: report.blocking.length, blocking: report.blocking.join(', '), run }) };
}
