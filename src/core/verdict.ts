import { worstAction, type Action } from './ids/actions.js';
import type { CheckResult, Status } from './types.js';

/** The results counted by status, and the worst action any of them asks for (`none` when none does). */
export type Summary = Record<Status, number> & { worstAction: Action };

export function summarize(results: readonly CheckResult[]): Summary {
  const summary: Summary = { pass: 0, warn: 0, fail: 0, skip: 0, error: 0, worstAction: worstAction(results.map((r) => r.action)) };
  for (const result of results) summary[result.status]++;
  return summary;
}

/**
 * The checks that make the node not ready. A required check that fails or errors blocks:
 * "could not assess" is not "ready". Under --strict every unwaived warn and every error blocks
 * too; a waived result never does, the waiver being the operator's explicit decision.
 */
export function blockingResults(results: readonly CheckResult[], strict: boolean): CheckResult[] {
  return results.filter((r) => {
    if (r.level === 'required' && (r.status === 'fail' || r.status === 'error')) return true;
    if (strict && !r.waived && (r.status === 'warn' || r.status === 'fail' || r.status === 'error')) return true;
    return false;
  });
}

/** 0 ready, 1 not ready. Exit code 2 (no verdict) never comes from results. */
export function exitCodeFor(ready: boolean): 0 | 1 {
  return ready ? 0 : 1;
}
