import { randomUUID } from 'node:crypto';
import { describeFailure, errorDocument } from '../report/error-document.js';
import { verdictOf, type RunVerdict } from '../report/serve-metrics.js';
import type { AnyReport } from '../report/schema.js';
import { renderRunDocuments, type RunDocuments } from './documents.js';
import type { LogLevel, Logger } from './log.js';
import { nextRunDelay } from './policy.js';

/** What started a run: the start of the agent, the schedule, POST /run, or SIGHUP. */
export type RunTrigger = 'start' | 'schedule' | 'http' | 'reload';

export interface FinishedRun {
  /** a new value for every run, also for an error document (which carries no runId): the ETag */
  key: string;
  report: AnyReport;
  verdict: RunVerdict;
  trigger: RunTrigger;
  startedAtMs: number;
  finishedAtMs: number;
  durationMs: number;
  /** what GET /report and GET /metrics serve of this run */
  documents: RunDocuments;
}

export interface AgentOptions {
  intervalMs: number;
  /** one run of the checks; a throw becomes the error document of a run without a verdict */
  execute: () => Promise<AnyReport>;
  /**
   * After every run: write what the agent publishes of it (the feature file, the node's
   * annotations). A throw is the run's publish error: /agentz says it until a run publishes.
   */
  publish?: (report: AnyReport, finishedAtMs: number) => Promise<void>;
  logger: Logger;
  /** the language of a failed run's error document (the run's reports are in it already); English when not given */
  lang?: string;
  random?: () => number;
  now?: () => number;
}

/** What the HTTP side reads from the agent, and the one thing it may ask of it. */
export interface AgentView {
  readonly last: FinishedRun | undefined;
  readonly running: boolean;
  readonly runs: Readonly<Record<RunVerdict, number>>;
  readonly reloadError: string | undefined;
  /** why the last run's verdict could not be published (feature file, annotations); undefined when it was */
  readonly publishError: string | undefined;
  /** starts a run now; false when one is already going on */
  trigger(trigger: RunTrigger): boolean;
}

const LEVEL: Record<RunVerdict, LogLevel> = { ready: 'info', 'not-ready': 'warn', 'no-verdict': 'error' };

/**
 * The resident part of `qprep serve`: runs the checks at start and then on the schedule, one
 * run at a time, and keeps the last report. A run asked for while one is going on (POST /run)
 * is refused; one asked for by SIGHUP waits for the current run to end and follows it.
 */
export class Agent implements AgentView {
  private lastRun: FinishedRun | undefined;
  private current: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private queued: RunTrigger | undefined;
  private readonly counts: Record<RunVerdict, number> = { ready: 0, 'not-ready': 0, 'no-verdict': 0 };
  reloadError: string | undefined;
  publishError: string | undefined;

  constructor(private readonly options: AgentOptions) {}

  get last(): FinishedRun | undefined {
    return this.lastRun;
  }
  get running(): boolean {
    return this.current !== undefined;
  }
  get runs(): Readonly<Record<RunVerdict, number>> {
    return this.counts;
  }

  start(): void {
    this.trigger('start');
  }

  trigger(trigger: RunTrigger): boolean {
    if (this.stopped || this.current) return false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const started = this.now();
    this.current = this.runOnce(trigger, started).finally(() => {
      this.current = undefined;
      this.afterRun(started);
    });
    return true;
  }

  /** A run now, or right after the current one. */
  requestRun(trigger: RunTrigger): void {
    if (!this.trigger(trigger)) this.queued = trigger;
  }

  /** No more runs; a run going on is the caller's to end (its probes are killed with their groups). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private afterRun(startedMs: number): void {
    if (this.stopped) return;
    const queued = this.queued;
    this.queued = undefined;
    if (queued && this.trigger(queued)) return;
    const delay = nextRunDelay(this.options.intervalMs, this.now() - startedMs, this.options.random);
    this.timer = setTimeout(() => this.trigger('schedule'), delay);
  }

  private async runOnce(trigger: RunTrigger, startedAtMs: number): Promise<void> {
    const startedMono = performance.now();
    let report: AnyReport;
    try {
      report = await this.options.execute();
    } catch (error) {
      // a run of serve is a run of check: its error document says ready: false
      const { code, message, hint } = describeFailure(error, this.options.lang);
      report = errorDocument(code, message, 'check', hint);
    }
    if (this.stopped) return;
    const durationMs = Math.round(performance.now() - startedMono);
    const finishedAtMs = startedAtMs + durationMs;
    let documents: RunDocuments;
    try {
      documents = renderRunDocuments(report, durationMs, finishedAtMs);
    } catch (error) {
      // a report no formatter can render must not end the agent: the run has no verdict then
      const { code, message, hint } = describeFailure(error);
      report = errorDocument(code, message, 'check', hint);
      documents = renderRunDocuments(report, durationMs, finishedAtMs);
    }
    const verdict = verdictOf(report);
    const previous = this.lastRun;
    const run: FinishedRun = {
      key: 'runId' in report ? report.runId : randomUUID(),
      report,
      verdict,
      trigger,
      startedAtMs,
      finishedAtMs,
      durationMs,
      documents,
    };
    this.lastRun = run;
    this.counts[verdict]++;
    // the run line comes once the run is published: what reads the log finds the labels written
    await this.publish(run);
    this.logRun(run);
    if (previous?.verdict !== verdict) this.logStateChange(previous?.verdict ?? 'unknown', run);
  }

  /** The verdict out to the scheduler: a failure is logged and kept for /agentz, never the end of the agent. */
  private async publish(run: FinishedRun): Promise<void> {
    if (!this.options.publish) return;
    try {
      await this.options.publish(run.report, run.finishedAtMs);
      if (this.publishError !== undefined) this.options.logger.log('info', 'publish-recovered', { runId: 'runId' in run.report ? run.report.runId : undefined });
      this.publishError = undefined;
    } catch (error) {
      const { message } = describeFailure(error);
      this.publishError = message;
      this.options.logger.log('error', 'publish-failed', { runId: 'runId' in run.report ? run.report.runId : undefined, error: message });
    }
  }

  private logRun(run: FinishedRun): void {
    const { report } = run;
    const full = 'checks' in report ? report : undefined;
    this.options.logger.log(LEVEL[run.verdict], 'run', {
      trigger: run.trigger,
      verdict: run.verdict,
      runId: full?.runId,
      durationMs: run.durationMs,
      summary: full?.summary,
      blocking: full?.blocking,
      error: report.error,
    });
  }

  /** ready -> not-ready names the checks: what an on-call engineer reads first. */
  private logStateChange(from: RunVerdict | 'unknown', run: FinishedRun): void {
    const { report } = run;
    this.options.logger.log(LEVEL[run.verdict], 'state', {
      from,
      to: run.verdict,
      blocking: 'checks' in report ? report.blocking : undefined,
      error: run.verdict === 'no-verdict' ? report.error?.message : undefined,
    });
  }
}
