import { summarize } from '../core/verdict.js';
import type { Report } from '../report/schema.js';
import { formatDuration } from '../util/duration.js';
import { plural } from '../util/text.js';

/**
 * The run's budget reaches the check runner as an interruption (the runner stops there and
 * reports what finished), marked with this signal name, which no one sends to serve: serve
 * handles SIGALRM nowhere, and the report says "budget", never the marker.
 */
export const BUDGET_MARKER: NodeJS.Signals = 'SIGALRM';

/**
 * The partial report of a run cut at its budget: no verdict (the unfinished checks were not
 * assessed), each unfinished check saying so, and the error naming the budget. Not marked
 * `interrupted`: no signal stopped it.
 */
export function overBudgetReport(report: Report, budgetMs: number): Report {
  const unfinished = new Set(report.interrupted?.unfinished ?? []);
  const budget = formatBudget(budgetMs);
  const { interrupted: _interrupted, ...rest } = report;
  const message =
    unfinished.size > 0
      ? `the run exceeded its budget of ${budget}: ${unfinished.size} of ${plural(report.checks.length, 'check')} did not finish; no verdict`
      : `the run exceeded its budget of ${budget} after the checks, before the report was complete; no verdict`;
  const checks: Report['checks'] = report.checks.map((check) =>
      unfinished.has(check.id)
        ? {
            ...check,
            message: `did not finish within the run budget of ${budget}`,
            remediation: 'find the slow probe with qprep check --only ID (every probe is bounded by --timeout), or give qprep serve a longer --budget',
            action: 'reconfigure' as const,
            evidence: { budgetMs },
          }
        : check,
  );
  // the unfinished checks' action is now the budget's: the worst action is counted again
  return { ...rest, checks, summary: summarize(checks), error: { code: 'interrupted', message } };
}

/** "1.6s", "4m"; under a second as milliseconds. */
export function formatBudget(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000 && ms % 1000 !== 0) return `${(ms / 1000).toFixed(1)}s`;
  return formatDuration(ms);
}
