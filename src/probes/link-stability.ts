import type { HealthLedger } from '../core/health-ledger.js';
import { linkHealthRow } from '../knowledge/hccn-link-health.js';
import type { LinkStatEntry } from '../parsers/hccn-diag.js';
import { asctimeWallClockMs } from '../parsers/hccn-link-health.js';

/**
 * The judgement of one port's `-link_stat -g` history: is the link down now, did it go down in
 * the last 24 hours (after it was brought up), only in the burst right after bring-up, or not
 * at all. In serve the port's link-down events are also kept from run to run (the tool shows the
 * last 10 changes only) and counted in the window of the device plugin's frequency rule for the
 * link-down fault code 81078603: 5 in 24 h take the NPU out of service, until 48 h pass without
 * one (knowledge/hccn-link-health.json).
 */

/**
 * How long after the first LINK UP of the history a down transition still belongs to bring-up.
 * The three public captures (mind-cluster's collection bundles, the HCCL troubleshooting guide)
 * all show one DOWN/UP pair 14 to 15 s after the first LINK UP, on every port at once: the port
 * renegotiating as the driver brings it up, while nothing runs over it yet. 60 s leaves room.
 */
export const BRING_UP_WINDOW_MS = 60_000;
/** The window a flap counts in: a down transition within it is recent. */
export const FLAP_WINDOW_MS = 24 * 3600_000;
/** The most records `-link_stat -g` keeps (LINK_STAT_MAX_IDX of the driver source): a history this long may be cut. */
export const LINK_STAT_MAX_RECORDS = 10;

export type LinkState = 'down-now' | 'escalated' | 'flapped' | 'bring-up-burst' | 'stable' | 'no-history';

export interface LinkVerdict {
  device: number;
  state: LinkState;
  /** the tool's `current time`, as printed */
  currentTime: string | null;
  linkUpCount: number | null;
  linkDownCount: number | null;
  /** the newest record, as printed */
  newest: { time: string; event: 'UP' | 'DOWN' } | null;
  /** down transitions the history shows within 24 h of the current time, bring-up aside */
  downsIn24h: number;
  /** serve: down transitions counted within 24 h across runs (the history's and those the counts show beyond it); the history's alone on a one-shot run */
  flaps24h: number;
  /** the times of the down transitions within 24 h, as printed, newest first */
  recentDowns: string[];
  /** the down transitions of the bring-up burst, as printed */
  bringUpDowns: string[];
  /** the newest down transition older than 24 h, as printed */
  olderDown: string | null;
  /** the history holds fewer changes than the counts say: the oldest are gone, bring-up cannot be told */
  truncated: boolean;
  /** serve: the frequency rule holds the port escalated until this wall-clock time (as the tool prints times) */
  escalatedUntil: string | null;
}

interface TimedChange {
  time: string;
  event: 'UP' | 'DOWN';
  atMs: number | null;
}

/** "Tue Aug  1 14:43:40 2022" for a wall-clock time (the tool's asctime form). */
export function wallClockText(ms: number): string {
  const date = new Date(ms);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][date.getUTCDay()]!;
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][date.getUTCMonth()]!;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day} ${month} ${String(date.getUTCDate()).padStart(2, ' ')} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} ${date.getUTCFullYear()}`;
}

function isTruncated(entry: LinkStatEntry): boolean {
  if (entry.changes.length >= LINK_STAT_MAX_RECORDS) return true;
  const ups = entry.changes.filter((c) => c.event === 'UP').length;
  const downs = entry.changes.length - ups;
  if (entry.linkUpCount !== null && entry.linkUpCount > ups) return true;
  return entry.linkDownCount !== null && entry.linkDownCount > downs;
}

/** The down transitions of the bring-up burst: within BRING_UP_WINDOW_MS of the oldest record, when that is the history's first LINK UP. */
function bringUpDowns(changes: readonly TimedChange[], truncated: boolean): Set<TimedChange> {
  const oldest = changes.at(-1);
  if (truncated || !oldest || oldest.event !== 'UP' || oldest.atMs === null) return new Set();
  const end = oldest.atMs + BRING_UP_WINDOW_MS;
  return new Set(changes.filter((c) => c.event === 'DOWN' && c.atMs !== null && c.atMs <= end));
}

export interface LinkJudgeInput {
  device: number;
  entry: LinkStatEntry;
  /** the wall clock to judge against when the tool printed no current time (the run's clock as local time) */
  fallbackNowMs: number;
  history?: HealthLedger;
}

/** serve: the port's down events kept across runs, and the escalation of the frequency rule. */
function windowOf(input: LinkJudgeInput, recent: readonly TimedChange[], nowMs: number): { flaps24h: number; escalatedUntilMs: number | null } {
  const rule = linkHealthRow('link-flap-frequency');
  const times = rule.value ?? 5;
  const windowMs = (rule.windowSeconds ?? 86400) * 1000;
  const releaseMs = (rule.releaseSeconds ?? 172800) * 1000;
  const { history, device, entry } = input;
  if (!history) {
    const escalated = recent.length >= times;
    return { flaps24h: recent.length, escalatedUntilMs: escalated ? Math.max(...recent.map((c) => c.atMs!)) + releaseMs : null };
  }
  const finding = `link-down:dev${device}`;
  const events = recent.map((c) => ({ id: `record:${c.time}`, atMs: c.atMs! }));
  // the tool keeps 10 changes: a down count that grew by more than the new records shows downs the history lost
  const previous = entry.linkDownCount === null ? undefined : history.exchangeReading(`link-down-count:dev${device}`, { atMs: nowMs, values: { down: entry.linkDownCount } });
  const grown = previous?.values.down !== undefined && entry.linkDownCount !== null ? entry.linkDownCount - previous.values.down : 0;
  const seenNew = recent.filter((c) => c.atMs !== null && c.atMs > (previous?.atMs ?? Infinity)).length;
  for (let k = 0; k < grown - seenNew; k++) events.push({ id: `count:${entry.linkDownCount}:${k}`, atMs: nowMs });
  history.record(finding, events, nowMs, windowMs + releaseMs);
  const flaps24h = history.countWithin(finding, windowMs, nowMs);
  if (flaps24h >= times) history.escalate(finding, (history.latest(finding) ?? nowMs) + releaseMs);
  return { flaps24h, escalatedUntilMs: history.escalatedUntil(finding, nowMs) ?? null };
}

function stateOf(newest: TimedChange | undefined, escalated: boolean, recent: number, burst: number): LinkState {
  if (!newest) return 'no-history';
  if (newest.event === 'DOWN') return 'down-now';
  if (escalated) return 'escalated';
  if (recent > 0) return 'flapped';
  return burst > 0 ? 'bring-up-burst' : 'stable';
}

export function judgeLink(input: LinkJudgeInput): LinkVerdict {
  const { entry } = input;
  const changes: TimedChange[] = entry.changes.map((c) => ({ ...c, atMs: asctimeWallClockMs(c.time) }));
  const nowMs = (entry.currentTime === null ? null : asctimeWallClockMs(entry.currentTime)) ?? input.fallbackNowMs;
  const truncated = isTruncated(entry);
  const burst = bringUpDowns(changes, truncated);
  const downs = changes.filter((c) => c.event === 'DOWN' && !burst.has(c));
  // a time the parser cannot read counts as recent: a flap is not hidden by its format
  const recent = downs.filter((c) => c.atMs === null || (c.atMs <= nowMs + 60_000 && c.atMs >= nowMs - FLAP_WINDOW_MS));
  const older = downs.find((c) => !recent.includes(c));
  const { flaps24h, escalatedUntilMs } = windowOf(input, recent.filter((c) => c.atMs !== null), nowMs);
  const newest = changes[0];
  return {
    device: input.device,
    state: stateOf(newest, escalatedUntilMs !== null, Math.max(recent.length, flaps24h), burst.size),
    currentTime: entry.currentTime,
    linkUpCount: entry.linkUpCount,
    linkDownCount: entry.linkDownCount,
    newest: newest ? { time: newest.time, event: newest.event } : null,
    downsIn24h: recent.length,
    flaps24h: Math.max(flaps24h, recent.length),
    recentDowns: recent.map((c) => c.time),
    bringUpDowns: [...burst].map((c) => c.time),
    olderDown: older?.time ?? null,
    truncated,
    escalatedUntil: escalatedUntilMs === null ? null : wallClockText(escalatedUntilMs),
  };
}
