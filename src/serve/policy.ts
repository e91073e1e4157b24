import { spokenError } from '../i18n/spoken-error.js';
import { formatDuration } from '../util/duration.js';
import { clampTimerMs } from '../util/timeout.js';

/**
 * When serve runs the checks. Each run starts one interval (± JITTER_FRACTION of it) after the
 * previous one started, so that the agents of a cluster started together by the same rollout
 * do not all start npu-smi and hccn_tool in the same second. A run is cut at its budget, 80 %
 * of the interval unless told: with the jitter, a report is then always replaced within
 * 1.1 + 0.8 = 1.9 intervals, inside the 2 intervals after which /readyz calls it stale.
 */
export const JITTER_FRACTION = 0.1;
export const DEFAULT_BUDGET_FRACTION = 0.8;
export const STALE_AFTER_INTERVALS = 2;

export interface Schedule {
  intervalMs: number;
  budgetMs: number;
}

/**
 * The schedule of --interval and --budget (parsed, each at least its minimum, by the command
 * line): the budget is 80 % of the interval unless given, and never longer than it.
 */
export function scheduleOf(intervalMs: number, budgetMs: number | undefined): Schedule {
  if (budgetMs === undefined) return { intervalMs, budgetMs: Math.round(intervalMs * DEFAULT_BUDGET_FRACTION) };
  if (budgetMs > intervalMs) {
    throw spokenError('usage', (t) => t.usage.budgetOverInterval({ budget: formatDuration(budgetMs), interval: formatDuration(intervalMs) }));
  }
  return { intervalMs, budgetMs };
}

/**
 * The delay before the next run: the interval ± the jitter, less what the last run took. The
 * longest --interval is the longest delay a timer holds: the jitter above it is cut there, or
 * the timer would fire at once.
 */
export function nextRunDelay(intervalMs: number, elapsedMs: number, random: () => number = Math.random): number {
  const jittered = intervalMs * (1 + JITTER_FRACTION * (2 * random() - 1));
  return clampTimerMs(jittered - elapsedMs);
}

export function isStale(ageMs: number, intervalMs: number): boolean {
  return ageMs > STALE_AFTER_INTERVALS * intervalMs;
}
