/**
 * What `qprep serve` remembers from run to run for the checks that judge a trend: the last
 * reading of a port's error counters (growth between runs) and the events of a finding with
 * their times (link-down events within 24 h), as the device plugin's fault-frequency rules
 * count a fault code's occurrences within a time window and escalate its handling. A one-shot
 * `qprep check` has none: it judges what it reads in its own run.
 *
 * Each finding keeps one time base of its own choosing (a link's events are in the wall-clock
 * time of `-link_stat -g`, counter growth in the run's clock), and every query of it uses the
 * same base. Kept in memory for as long as serve runs; bounded by the windows it is asked about.
 */

export interface CounterReading {
  /** when it was read, in the run's clock (milliseconds) */
  atMs: number;
  values: Readonly<Record<string, number>>;
}

interface FindingEvents {
  /** event id -> when it happened */
  times: Map<string, number>;
  /** the escalation holds until this time, when set */
  escalatedUntil?: number;
}

/** More events than this per finding are not kept: the oldest go first. */
const MAX_EVENTS = 1000;

export class HealthLedger {
  private readonly readings = new Map<string, CounterReading>();
  private readonly findings = new Map<string, FindingEvents>();

  /** The reading an earlier run kept under `key`, if any; `reading` is kept in its place. */
  exchangeReading(key: string, reading: CounterReading): CounterReading | undefined {
    const previous = this.readings.get(key);
    this.readings.set(key, reading);
    return previous;
  }

  /**
   * Adds events of a finding (an event already known by its id keeps its first time) and forgets
   * those older than `keepMs` before `nowMs`.
   */
  record(finding: string, events: Iterable<{ id: string; atMs: number }>, nowMs: number, keepMs: number): void {
    const entry = this.entry(finding);
    for (const event of events) if (!entry.times.has(event.id)) entry.times.set(event.id, event.atMs);
    for (const [id, at] of entry.times) if (at < nowMs - keepMs) entry.times.delete(id);
    while (entry.times.size > MAX_EVENTS) entry.times.delete(entry.times.keys().next().value!);
  }

  /** The events of a finding within `windowMs` before `nowMs` (and not after it). */
  countWithin(finding: string, windowMs: number, nowMs: number): number {
    const entry = this.findings.get(finding);
    if (!entry) return 0;
    let count = 0;
    for (const at of entry.times.values()) if (at >= nowMs - windowMs && at <= nowMs) count++;
    return count;
  }

  /** The latest event of a finding, if it has any. */
  latest(finding: string): number | undefined {
    const entry = this.findings.get(finding);
    if (!entry || entry.times.size === 0) return undefined;
    return Math.max(...entry.times.values());
  }

  /** The escalation of a finding holds until `untilMs` (a later escalation extends it). */
  escalate(finding: string, untilMs: number): void {
    const entry = this.entry(finding);
    entry.escalatedUntil = Math.max(entry.escalatedUntil ?? untilMs, untilMs);
  }

  /** Until when the escalation of a finding holds, if it still does at `nowMs`. */
  escalatedUntil(finding: string, nowMs: number): number | undefined {
    const until = this.findings.get(finding)?.escalatedUntil;
    return until !== undefined && until > nowMs ? until : undefined;
  }

  private entry(finding: string): FindingEvents {
    let entry = this.findings.get(finding);
    if (!entry) {
      entry = { times: new Map() };
      this.findings.set(finding, entry);
    }
    return entry;
  }
}
