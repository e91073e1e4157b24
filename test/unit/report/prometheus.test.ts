import { execaSync } from 'execa';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHelp, escapeLabelValue, formatPrometheus, formatPrometheusError } from '../../../src/report/prometheus.js';
import { mixedResults, reportOf, result } from '../../helpers/reports.js';
import { hasTool, PROMTOOL, PYTHON_PROMETHEUS_CLIENT } from '../../helpers/tools.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface MetricFamily {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

/**
 * Parses exposition text with the official Prometheus Python client's parser (Debian's
 * python3-prometheus-client), which returns unescaped label values and numeric values.
 */
function parseExposition(text: string): MetricFamily[] {
  const script = [
    'import json, sys',
    'from prometheus_client.parser import text_string_to_metric_families',
    'families = text_string_to_metric_families(sys.stdin.read())',
    'print(json.dumps([{"name": f.name, "type": f.type, "help": f.documentation,',
    '  "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]} for f in families]))',
  ].join('\n');
  return JSON.parse(String(execaSync('/usr/bin/python3', ['-c', script], { input: text }).stdout)) as MetricFamily[];
}

/** `promtool check metrics`: Prometheus' own parser and its linter (exit 1 unparsable, 3 lint problems). */
function promtool(text: string): { exitCode: number; output: string } {
  const run = execaSync('promtool', ['check', 'metrics'], { input: text, reject: false });
  return { exitCode: run.exitCode ?? -1, output: `${String(run.stdout)}${String(run.stderr)}` };
}

function family(families: MetricFamily[], name: string): MetricFamily {
  const found = families.find((f) => f.name === name);
  if (!found) throw new Error(`no metric family ${name} in ${families.map((f) => f.name).join(', ')}`);
  return found;
}

describe('Prometheus escaping (pure)', () => {
  it('escapes backslash, double quote and newline in label values; backslash and newline in HELP', () => {
    expect(escapeLabelValue('C:\\dir "x"\nnext')).toBe('C:\\\\dir \\"x\\"\\nnext');
    expect(escapeHelp('a \\ b "c"\nd')).toBe('a \\\\ b "c"\\nd');
  });

  it('shows the other control characters of a label value as \\xNN (a profile name from a file), which the format reads as text', () => {
    expect(escapeLabelValue('site\u001b[31m\u0007\u009b\u202e')).toBe('site\\\\x1b[31m\\\\x07\\\\x9b\\\\u202e');
  });

  it('replaces lone surrogates, which UTF-8 cannot encode', () => {
    expect(escapeLabelValue('a\uD800b 🚀')).toBe('a\uFFFDb 🚀');
  });

  it('never leaves a raw newline or an unescaped quote in a label value', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }), (value) => {
        const escaped = escapeLabelValue(value);
        expect(escaped).not.toContain('\n');
        expect(escaped).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        expect(escaped.replace(/\\[\\"n]/g, '')).not.toMatch(/["\\]/);
      }),
    );
  });
});

describe.skipIf(!hasTool(PROMTOOL, 'prometheus'))('--format prometheus read by promtool check metrics', () => {
  it('promtool rejects what it should (the parser is really parsing)', () => {
    expect(promtool('# TYPE a gauge\na{x="unterminated} 1\n').exitCode).toBe(1);
  });

  it('is parsed and passes the linter without a single remark, ready or not, strict or not', () => {
    for (const report of [reportOf(mixedResults()), reportOf(mixedResults(), { strict: true }), reportOf([result({ id: 'host.shm', status: 'pass' })])]) {
      const { exitCode, output } = promtool(formatPrometheus(report));
      expect(output).toBe('');
      expect(exitCode).toBe(0);
    }
  });

  it('the no-verdict document too', () => {
    const text = formatPrometheusError({ schemaVersion: 1, tool: { name: 'qprep', version: '0.1.0' }, ready: false, error: { code: 'invalid-profile', message: 'x' } }, new Date('2026-12-02T10:00:00Z'));
    expect(promtool(text)).toEqual({ exitCode: 0, output: '' });
  });
});

describe.skipIf(!hasTool(PYTHON_PROMETHEUS_CLIENT, 'python3-prometheus-client'))('--format prometheus parsed back by the Prometheus Python client', () => {
  const report = reportOf(mixedResults());
  const families = parseExposition(formatPrometheus(report));

  it('every family is a gauge with HELP text', () => {
    expect(families.map((f) => f.name)).toEqual([
      'qprep_info',
      'qprep_ready',
      'qprep_checks',
      'qprep_check_status',
      'qprep_check_blocking',
      'qprep_worst_action',
      'qprep_run_duration_seconds',
      'qprep_last_run_timestamp_seconds',
    ]);
    for (const f of families) {
      expect(f.type, f.name).toBe('gauge');
      expect(f.help.length, f.name).toBeGreaterThan(10);
    }
  });

  it('qprep_check_status is one-hot: per check, 1 for its status and 0 for the four others', () => {
    const status = family(families, 'qprep_check_status');
    expect(status.samples).toHaveLength(report.checks.length * 5);
    for (const check of report.checks) {
      const mine = status.samples.filter((s) => s.labels.id === check.id);
      expect(mine.map((s) => s.labels.status).sort()).toEqual(['error', 'fail', 'pass', 'skip', 'warn']);
      expect(mine.filter((s) => s.value === 1).map((s) => s.labels.status)).toEqual([check.status]);
      for (const sample of mine) expect(sample.labels).toMatchObject({ category: check.category, level: check.level });
    }
  });

  it('ready, per-status counts, blocking checks, run time and finish time match the report', () => {
    expect(family(families, 'qprep_ready').samples).toEqual([{ name: 'qprep_ready', labels: {}, value: 0 }]);
    const counts = Object.fromEntries(family(families, 'qprep_checks').samples.map((s) => [s.labels.status, s.value]));
    const { worstAction, ...counted } = report.summary;
    expect(counts).toEqual(counted);
    const worst = family(families, 'qprep_worst_action').samples.filter((s) => s.value === 1).map((s) => s.labels.action);
    expect(worst).toEqual([worstAction]);
    const blocking = family(families, 'qprep_check_blocking').samples.filter((s) => s.value === 1).map((s) => s.labels.id);
    expect(blocking).toEqual(report.blocking);
    expect(family(families, 'qprep_run_duration_seconds').samples[0]!.value).toBe(1.234);
    expect(family(families, 'qprep_last_run_timestamp_seconds').samples[0]!.value).toBe(Date.parse('2026-12-02T10:00:00.000Z') / 1000 + 1.234);
    expect(family(families, 'qprep_info').samples[0]!.labels).toEqual({ version: '0.1.0', profile: 'default', source: 'live', strict: 'false' });
  });

  it('label values come back exactly as they went in (quotes, backslashes, newlines, Unicode)', () => {
    const values = fc.sample(fc.string({ unit: 'grapheme', maxLength: 30 }), { numRuns: 150, seed: 42 });
    const nasty = ['say "hi"', 'C:\\path\\', 'two\nlines', '\\n literally', '昇腾 🚀', '{a="b"}', '', ' ', ...values];
    const ids = [...new Set(nasty)];
    const text = formatPrometheus(reportOf(ids.map((id) => result({ id, status: 'warn', level: 'recommended' }))));
    const parsed = family(parseExposition(text), 'qprep_check_blocking').samples.map((s) => s.labels.id);
    expect(parsed).toEqual(ids);
  });

  it('the no-verdict document: ready 0, the error code, the time of the run', () => {
    const text = formatPrometheusError({ schemaVersion: 1, tool: { name: 'qprep', version: '0.1.0' }, ready: false, error: { code: 'invalid-snapshot', message: 'x' } }, new Date('2026-12-02T10:00:00.5Z'));
    const parsed = parseExposition(text);
    expect(family(parsed, 'qprep_ready').samples[0]!.value).toBe(0);
    expect(family(parsed, 'qprep_run_error').samples).toEqual([{ name: 'qprep_run_error', labels: { code: 'invalid-snapshot' }, value: 1 }]);
    expect(family(parsed, 'qprep_last_run_timestamp_seconds').samples[0]!.value).toBe(Date.parse('2026-12-02T10:00:00.5Z') / 1000);
  });
});
