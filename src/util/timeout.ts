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

/*
 * Deadlines count the time the event loop was free to serve the work they bound, not the time
 * it was held by something else. While the loop is held (a synchronous call, a long garbage
 * collection, the process stopped or starved of CPU), nothing a probe waits for can be
 * delivered: a file read done in the thread pool, a command's exit, a check's next step all
 * queue. When the loop is free again, the timers run first, before that queued I/O: a deadline
 * on the wall clock would then cut work that had in fact answered, and a trivial sysctl read
 * would report "no answer within 10000 ms" because something else held the loop for 12 s.
 *
 * So while a deadline is pending, a heartbeat timer watches the loop: a beat that comes more
 * than STALL_MS late means the loop was held, and that time is not counted by any deadline. A
 * deadline that falls due is checked against this clock and re-armed for what is left, which
 * also gives the queued I/O its turn first.
 */

/** How often the heartbeat looks at the loop while a deadline is pending. */
const HEARTBEAT_MS = 50;
/** Lateness of a beat beyond this is a stall; below it, ordinary timer jitter, counted as time spent. */
const STALL_MS = 100;

/** The loop's stalls seen so far, in ms: subtracted from the wall clock by loopNow(). */
let stalledMs = 0;
/** When the loop was last seen running (a beat, or a deadline looking at the clock). */
let lastSeen = 0;
let heartbeat: NodeJS.Timeout | undefined;
/** Deadlines pending: the heartbeat runs while there is one. */
let pendingDeadlines = 0;

/** Counts the time since the loop was last seen as a stall when it is longer than a late beat. */
function observe(now: number): void {
  const gap = now - lastSeen;
  if (gap > HEARTBEAT_MS + STALL_MS) stalledMs += gap - HEARTBEAT_MS;
  lastSeen = now;
}

/** The clock deadlines count on: milliseconds, the loop's stalls left out. */
function loopNow(): number {
  const now = performance.now();
  if (pendingDeadlines > 0) observe(now);
  return now - stalledMs;
}

function watchLoop(): void {
  if (pendingDeadlines++ > 0) return;
  // the heartbeat was off: the time since it last ran was no stall
  lastSeen = performance.now();
  heartbeat = setInterval(() => observe(performance.now()), HEARTBEAT_MS);
  heartbeat.unref();
}

function unwatchLoop(): void {
  if (--pendingDeadlines > 0) return;
  clearInterval(heartbeat);
  heartbeat = undefined;
}

/** A pending deadline; `cancel()` is safe to call at any time, also after it fired. */
export interface Deadline {
  cancel(): void;
}

/**
 * Calls `onExpire` once `ms` of loop time (loopNow) have passed, unless cancelled before. The
 * timer keeps the process alive, as setTimeout's does.
 */
export function startDeadline(ms: number, onExpire: () => void): Deadline {
  const budget = clampTimerMs(ms);
  let timer: NodeJS.Timeout | undefined;
  let over = false;
  watchLoop();
  const started = loopNow();
  const end = () => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    unwatchLoop();
  };
  const arm = (delay: number) => {
    timer = setTimeout(() => {
      const left = budget - (loopNow() - started);
      // a stall ended just now: re-armed, the I/O it held back is delivered before the deadline looks again
      if (left >= 1) return arm(left);
      end();
      onExpire();
    }, clampTimerMs(delay));
  };
  arm(budget);
  return { cancel: end };
}

/** Settles with the promise's value, or with `onTimeout()` once `ms` of loop time have passed (startDeadline). */
export async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let deadline: Deadline | undefined;
  const timeout = new Promise<T>((resolve) => {
    deadline = startDeadline(ms, () => resolve(onTimeout()));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    deadline?.cancel();
  }
}
