/**
 * The largest delay Node's timers keep: above 2^31 - 1 ms Node warns and fires the timer after
 * 1 ms, so a budget computed over a big plan would end at once. Every timer goes through this.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay a timer honours: at most MAX_TIMER_MS (about 24.8 days), never negative or NaN. */
export function clampTimerMs(ms: number): number {
  if (!Number.isFinite(ms)) return ms > 0 ? MAX_TIMER_MS : 0;
  return Math.min(Math.max(0, Math.round(ms)), MAX_TIMER_MS);
}

/** Settles with the promise's value, or with `onTimeout()` once `ms` have passed. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), clampTimerMs(ms));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
