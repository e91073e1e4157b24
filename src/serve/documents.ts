import { formatErrorReport, formatReport, SERVED_FORMATS, type ServedFormat } from '../report/formats.js';
import type { AnyReport } from '../report/schema.js';
import { formatRunMetrics } from '../report/serve-metrics.js';

/** What the HTTP side serves of one finished run, rendered when the run finishes. */
export interface RunDocuments {
  /** GET /report in each format */
  report: Readonly<Record<ServedFormat, string>>;
  /** the run's part of GET /metrics; the agent's counters and its process follow it */
  metrics: string;
}

/**
 * Every document of a run, rendered once at its end: a probe or a scraper then costs a lookup,
 * and the first run has gone through every formatter the agent will ever use.
 */
export function renderRunDocuments(report: AnyReport, durationMs: number, finishedAtMs: number): RunDocuments {
  const render = (format: ServedFormat) =>
    'checks' in report ? formatReport(report, format, { color: false }) : (formatErrorReport(report, format, new Date(finishedAtMs)) ?? `${JSON.stringify(report, null, 2)}\n`);
  return {
    report: Object.fromEntries(SERVED_FORMATS.map((format) => [format, render(format)])) as Record<ServedFormat, string>,
    metrics: formatRunMetrics({ report, durationMs, finishedAtMs }),
  };
}
