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

/**
 * The error codes of a run without a verdict that say the agent is set up wrong (a cluster
 * file or a launch script that became unreadable, a selection that judges nothing): a rollout
 * that brought them must stop at the first pod. A budget cut or an interruption is the node's.
 */
const CONFIGURATION_ERRORS: ReadonlySet<string> = new Set(['usage', 'invalid-profile', 'invalid-cluster', 'invalid-input', 'nothing-assessed']);

/**
 * GET /agentz, the pod's readiness: the agent does its job (its runs finish in time, and what it
 * publishes, the feature file and the node's annotations, was written), whatever the node's
 * verdict. A node that is not ready is a normal state in a fleet and travels by label and
 * condition; it must not hold a rollout of the agent.
 */
export function agentHealth(last: FinishedRun | undefined, nowMs: number, intervalMs: number, publishError?: string, text: Catalogue = en): Readiness {
  const t = text.commands.serve;
  if (!last) return { ready: false, line: t.agent.firstRunPending };
  const ageMs = nowMs - last.finishedAtMs;
  const age = t.ago({ age: formatDuration(ageMs) });
  if (isStale(ageMs, intervalMs)) return { ready: false, line: t.agent.stale({ age, intervals: STALE_AFTER_INTERVALS, interval: formatDuration(intervalMs) }) };
  const error = last.report.error;
  if (last.verdict === 'no-verdict' && error && CONFIGURATION_ERRORS.has(error.code)) return { ready: false, line: t.agent.misconfigured({ code: error.code, problem: error.message }) };
  if (publishError !== undefined) return { ready: false, line: t.agent.publishFailed({ problem: publishError }) };
  return { ready: true, line: t.agent.works({ verdict: last.verdict, age }) };
}
