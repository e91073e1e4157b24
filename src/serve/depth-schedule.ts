import { catalogue } from '../../checks/index.js';
import { DEPTHS, runsAt, type Depth } from '../core/ids/depths.js';
import { depthOf } from '../core/select.js';
import { blockingResults, summarize } from '../core/verdict.js';
import type { AnyReport, Report } from '../report/schema.js';

/**
 * `qprep serve --depth D --deep-every T`: every run at depth D, and a deep run at start and then
 * whenever T has passed since the last one that finished, the way DCGM runs its longer levels
 * less often. A run between two deep ones carries the deep checks' last results, each marked
 * with when it was observed (`observedAt`), and judges with them: a port found flapping at the
 * deep run keeps the node's verdict, and its series in /metrics, until the next deep run says
 * otherwise. A stale green is worse than none, and so is a red that vanishes on the next run.
 */
export class DepthSchedule {
  private lastDeepAtMs: number | undefined;
  /** the results of the checks deeper than the base depth, from the last deep run that finished */
  private carried: Report['checks'] = [];

  constructor(
    private readonly base: Depth,
    private readonly deepEveryMs: number | undefined,
  ) {}

  /** The depth of a run that starts at `nowMs`. */
  depthFor(nowMs: number): Depth {
    if (this.deepEveryMs === undefined || DEPTHS.indexOf(this.base) >= DEPTHS.indexOf('deep')) return this.base;
    if (this.lastDeepAtMs === undefined || nowMs - this.lastDeepAtMs >= this.deepEveryMs) return 'deep';
    return this.base;
  }

  /**
   * What a finished run publishes: a deep run's report as it is (its deeper results kept for the
   * runs to come); a run at the base depth with the deeper results of the last deep run in it.
   */
  afterRun(report: AnyReport, depth: Depth, startedAtMs: number): AnyReport {
    if (!('checks' in report)) return report;
    if (depth === 'deep' && depth !== this.base) {
      // a deep run cut short by its budget carries nothing it did not finish
      if (report.error) return report;
      this.lastDeepAtMs = startedAtMs;
      const observedAt = report.startedAt;
      this.carried = report.checks.filter((c) => this.deeperThanBase(c.id)).map((c) => ({ ...c, observedAt }));
      return report;
    }
    return this.withCarried(report);
  }

  private deeperThanBase(id: string): boolean {
    const check = catalogue.find((c) => c.id === id);
    return check !== undefined && !runsAt(this.base, depthOf(check));
  }

  private withCarried(report: Report): Report {
    const missing = this.carried.filter((c) => !report.checks.some((r) => r.id === c.id));
    if (missing.length === 0) return report;
    const order = (id: string) => catalogue.findIndex((c) => c.id === id);
    const checks = [...report.checks, ...missing].sort((a, b) => order(a.id) - order(b.id));
    const blocking = blockingResults(checks, report.strict);
    return { ...report, checks, summary: summarize(checks), blocking: blocking.map((r) => r.id), ready: blocking.length === 0 && report.ready };
  }
}
