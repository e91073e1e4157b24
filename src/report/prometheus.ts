import { ACTIONS } from '../core/ids/actions.js';
import { STATUSES } from '../core/types.js';
import { escapeControls, wellFormed } from '../util/text.js';
import { linkHealthFamilies } from './link-metrics.js';
import type { Family } from './metric-family.js';
import type { ErrorReport, Report } from './schema.js';

/**
 * The report in the Prometheus text exposition format (version 0.0.4), for node_exporter's
 * textfile collector: `qprep check --format prometheus --output
 * /var/lib/node_exporter/textfile_collector/qprep.prom` from a timer, then alert on
 * `qprep_ready == 0` or on `time() - qprep_last_run_timestamp_seconds` growing.
 *
 * Every series is a gauge (each run replaces the file). Hostnames are not labels: the scrape
 * adds `instance`. Check statuses are one-hot, one series per status, so that a status change
 * is a value change and not a series that vanishes.
 */


/**
 * Label values: backslash, double quote and line feed are escaped; the text must be valid UTF-8.
 * A label may quote a file (a profile's name): its other control characters are shown as \xNN,
 * as the human report shows them, so that `curl /metrics` in a terminal cannot be driven by
 * them; the format reads the backslash of \xNN as an escaped backslash.
 */
export function escapeLabelValue(value: string): string {
  return escapeControls(wellFormed(value), { keepNewlines: true }).replace(/[\\"\n]/g, (char) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n' })[char]!);
}

/** HELP text: backslash and line feed are escaped. */
export function escapeHelp(text: string): string {
  return wellFormed(text).replace(/[\\\n]/g, (char) => ({ '\\': '\\\\', '\n': '\\n' })[char]!);
}

function sampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

export function render(families: readonly Family[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type ?? 'gauge'}`);
    for (const { labels, value } of family.samples) {
      const labelText = labels && Object.keys(labels).length > 0 ? `{${Object.entries(labels).map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}` : '';
      lines.push(`${family.name}${labelText} ${sampleValue(value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Seconds with millisecond precision, without float noise (0.1 + 0.2). */
export function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

const READY_HELP = '1 when the node is ready to serve (qprep check exited 0), 0 when it is not or could not be judged.';
const LAST_RUN_HELP = 'Unix time at which the last qprep check run finished.';

export function readyFamily(ready: boolean): Family {
  return { name: 'qprep_ready', help: READY_HELP, samples: [{ value: ready ? 1 : 0 }] };
}

export function infoFamily(version: string, labels: Record<string, string>): Family {
  return {
    name: 'qprep_info',
    help: 'Constant 1; the labels say which qprep wrote this file and with which profile.',
    samples: [{ labels: { version, ...labels }, value: 1 }],
  };
}

function runErrorFamily(code: string): Family {
  return {
    name: 'qprep_run_error',
    help: '1 when the last run produced no verdict (exit code 2); the label says why (see qprep check --format json).',
    samples: [{ labels: { code }, value: 1 }],
  };
}

/** What a report says, without the two families of the run itself (its duration and when it finished). */
export function reportFamilies(report: Report): Family[] {
  const blocking = new Set(report.blocking);
  return [
    infoFamily(report.tool.version, { profile: report.profile.name, source: report.source.kind, strict: String(report.strict) }),
    readyFamily(report.ready),
    {
      name: 'qprep_checks',
      help: 'Number of checks of the last run per status.',
      samples: STATUSES.map((status) => ({ labels: { status }, value: report.summary[status] })),
    },
    {
      name: 'qprep_check_status',
      help: 'Status of each check of the last run: 1 for its status, 0 for the other four.',
      samples: report.checks.flatMap((check) =>
        STATUSES.map((status) => ({
          labels: { id: check.id, category: check.category, level: check.level, status },
          value: check.status === status ? 1 : 0,
        })),
      ),
    },
    {
      name: 'qprep_check_blocking',
      help: '1 when the check makes the node not ready, 0 otherwise.',
      samples: report.checks.map((check) => ({
        labels: { id: check.id, category: check.category, level: check.level },
        value: blocking.has(check.id) ? 1 : 0,
      })),
    },
    {
      name: 'qprep_worst_action',
      help: 'The worst action any check of the last run asks for: 1 for it, 0 for the others (none, monitor, reconfigure, restart-workload, reset-npu, isolate-npu, replace-part, mildest first).',
      samples: ACTIONS.map((action) => ({ labels: { action }, value: (report.summary.worstAction ?? 'none') === action ? 1 : 0 })),
    },
    ...(report.error ? [runErrorFamily(report.error.code)] : []),
    ...linkHealthFamilies(report),
  ];
}

export function runDurationFamily(durationMs: number): Family {
  return { name: 'qprep_run_duration_seconds', help: 'Wall time of the last qprep check run.', samples: [{ value: seconds(durationMs) }] };
}

export function lastRunFamily(finishedMs: number): Family {
  return { name: 'qprep_last_run_timestamp_seconds', help: LAST_RUN_HELP, samples: [{ value: seconds(finishedMs) }] };
}

export function formatPrometheus(report: Report): string {
  const finishedMs = Date.parse(report.startedAt) + report.durationMs;
  return render([...reportFamilies(report), runDurationFamily(report.durationMs), lastRunFamily(finishedMs)]);
}

/** What an error document says: not ready, and why (the families of exit code 2). */
export function errorFamilies(report: ErrorReport): Family[] {
  return [infoFamily(report.tool.version, {}), readyFamily(false), runErrorFamily(report.error.code)];
}

/**
 * Exit code 2 (no verdict) in the same format: the file a textfile collector reads must not
 * keep saying "ready" from an earlier run when this run could not judge.
 */
export function formatPrometheusError(report: ErrorReport, now: Date): string {
  return render([...errorFamilies(report), lastRunFamily(now.getTime())]);
}
