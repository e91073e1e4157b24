import { formatHuman, type HumanOptions } from './human.js';
import { formatJunit, formatJunitError } from './junit.js';
import { formatNpd, formatNpdError } from './npd.js';
import { formatPrometheus, formatPrometheusError } from './prometheus.js';
import type { ErrorReport, Report } from './schema.js';

/** One output format: what it is for, how it travels, and how the readiness report is written in it. */
export interface OutputFormat {
  /**
   * A program reads it (CI, Ansible, node_exporter): it is the only thing on standard output,
   * and on exit code 2 its error document takes the report's place. A person reads the others.
   */
  machine: boolean;
  /** its Content-Type over HTTP (`qprep serve`) */
  mediaType: string;
  /** the suffix of a file in this format (`-o qprep.prom`) */
  suffix: string;
  /** the reader that takes only files with that suffix: an --output without it gets a note */
  suffixRequiredBy?: string;
  /** the readiness report in this format (`qprep check`, `qprep serve`); undefined: not a report format */
  report?: (report: Report, options: HumanOptions) => string;
  /** the error document of exit code 2 (no verdict); undefined: stderr alone says why */
  error?: (report: ErrorReport, now: Date) => string;
  /**
   * the mode of an --output file in this format, when it is not 0600: a report of the host is
   * for the operator who ran qprep alone, unless its reader runs as another user
   */
  fileMode?: number;
}

const json = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

/**
 * Every output format of qprep, by the name `--format` takes. The `--format` choices of every
 * command, the formats and content types `qprep serve` answers with, the error documents and
 * the suffix notes are all read from here: adding a format is an entry here, its formatter
 * module and its test.
 */
export const FORMATS = {
  human: { machine: false, mediaType: 'text/plain; charset=utf-8', suffix: '.txt', report: formatHuman },
  json: { machine: true, mediaType: 'application/json', suffix: '.json', report: json, error: json },
  junit: { machine: true, mediaType: 'application/xml; charset=utf-8', suffix: '.xml', report: formatJunit, error: formatJunitError },
  prometheus: {
    machine: true,
    // the text exposition format 0.0.4, which Prometheus asks for and expects back
    mediaType: 'text/plain; version=0.0.4; charset=utf-8',
    suffix: '.prom',
    suffixRequiredBy: "node_exporter's textfile collector",
    report: formatPrometheus,
    error: formatPrometheusError,
    // node_exporter runs as a user of its own, and serves the file to whoever scrapes /metrics
    fileMode: 0o644,
  },
  /** node-problem-detector's custom plugin protocol: one line, the condition's message (see npd.ts) */
  npd: { machine: true, mediaType: 'text/plain; charset=utf-8', suffix: '.txt', report: formatNpd, error: formatNpdError },
  /** `qprep env`'s lines to source; its own document, not a report */
  sh: { machine: false, mediaType: 'text/x-shellscript; charset=utf-8', suffix: '.sh' },
} as const satisfies Record<string, OutputFormat>;

export type FormatName = keyof typeof FORMATS;
type Entry<F extends FormatName> = (typeof FORMATS)[F];

/** The formats the readiness report is written in: the --format choices of `qprep check`. */
export type ReportFormat = { [F in FormatName]: Entry<F> extends { report: unknown } ? F : never }[FormatName];
/** The report formats a program reads: what `qprep serve` answers GET /report?format= with. */
export type ServedFormat = { [F in ReportFormat]: Entry<F>['machine'] extends true ? F : never }[ReportFormat];

const NAMES = Object.keys(FORMATS) as FormatName[];

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(FORMATS, name);
}

export function formatOf(name: FormatName): OutputFormat {
  return FORMATS[name];
}

/** `human`, `json`, `junit`, `prometheus`: in the registry's order. */
export const REPORT_FORMATS = NAMES.filter((name): name is ReportFormat => formatOf(name).report !== undefined);
/** `json` first (the default of GET /report), then the others. */
export const SERVED_FORMATS = REPORT_FORMATS.filter((name): name is ServedFormat => formatOf(name).machine);

/** The mode of an --output file written in `format` (0600 for a report of the host, see fileMode). */
export function outputFileMode(format: string): number {
  return (isFormatName(format) ? formatOf(format).fileMode : undefined) ?? 0o600;
}

export function isMachineFormat(name: string): boolean {
  return isFormatName(name) && formatOf(name).machine;
}

export function formatReport(report: Report, format: string, options: HumanOptions): string {
  const formatter = isFormatName(format) ? formatOf(format).report : undefined;
  return (formatter ?? formatHuman)(report, options);
}

/**
 * The document of exit code 2 (no verdict) in a machine format, so that what reads stdout or
 * the --output file learns why; undefined for the formats a person reads (stderr says it).
 */
export function formatErrorReport(report: ErrorReport, format: string, now: Date): string | undefined {
  return isFormatName(format) ? formatOf(format).error?.(report, now) : undefined;
}

/**
 * The reader that will not see an --output file of this format under that name (node_exporter
 * reads only `*.prom`), with the suffix it needs; undefined when the name is fine.
 */
export function missingSuffix(format: string, output: string): { suffix: string; reader: string } | undefined {
  if (!isFormatName(format)) return undefined;
  const { suffix, suffixRequiredBy } = formatOf(format);
  return suffixRequiredBy !== undefined && !output.endsWith(suffix) ? { suffix, reader: suffixRequiredBy } : undefined;
}
