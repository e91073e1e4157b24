import { formatHuman, type HumanOptions } from './human.js';
import { formatJunit, formatJunitError } from './junit.js';
import { formatPrometheus, formatPrometheusError } from './prometheus.js';
import type { ErrorReport, Report } from './schema.js';

/** The --format values of `qprep check`; every one but human is a machine format. */
export const REPORT_FORMATS = ['human', 'json', 'junit', 'prometheus'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function formatReport(report: Report, format: string, options: HumanOptions): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'junit':
      return formatJunit(report);
    case 'prometheus':
      return formatPrometheus(report);
    default:
      return formatHuman(report, options);
  }
}

/**
 * The document of exit code 2 (no verdict) in a machine format, so that what reads stdout or
 * the --output file learns why; undefined for the human format (stderr says it).
 */
export function formatErrorReport(report: ErrorReport, format: string, now: Date): string | undefined {
  switch (format) {
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'junit':
      return formatJunitError(report);
    case 'prometheus':
      return formatPrometheusError(report, now);
    default:
      return undefined;
  }
}
