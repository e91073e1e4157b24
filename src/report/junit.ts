import type { CheckResult } from '../core/types.js';
import type { ErrorReport, Report } from './schema.js';
import { visibleStrings } from './visible.js';

/**
 * The report as JUnit XML, for CI servers (Jenkins, GitLab, Azure DevOps) that gate on test
 * results. One testcase per check: classname is the category, name is the check id.
 *
 * A testcase fails or errors exactly when its check blocks readiness (the ids in
 * `report.blocking`), so the CI server's red/green is qprep's ready/not ready: a required
 * check's `fail` is a <failure>, its `error` ("could not assess") an <error>, and under
 * --strict a blocking warning is a <failure type="warn">. Warnings that do not block, waived
 * failures and errors of recommended checks pass, with what was found in <system-out>.
 * Skipped checks are <skipped> with the reason. Valid against the JUnit schema of Jenkins'
 * xUnit plugin (junit-10.xsd), which is the strictest of the common readers.
 */

/**
 * Characters XML 1.0 cannot carry at all, not even as references: C0 controls other than
 * tab, newline and carriage return, U+FFFE/U+FFFF and lone surrogates. They are written as
 * `#xNN`, as pytest's JUnit writer does, so that what the host printed stays readable.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function replaceNonXmlChars(text: string): string {
  return text.replace(NOT_XML_CHAR, (char) => `#x${char.codePointAt(0)!.toString(16).toUpperCase().padStart(2, '0')}`);
}

/** Element content: `]]>` cannot appear either, hence `>` escaped too; CR would be read back as LF. */
export function escapeXmlText(text: string): string {
  return replaceNonXmlChars(text).replace(/[&<>\r]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' })[char]!);
}

/** Attribute values: quotes escaped, and tab/newline/CR as references so that the reader keeps them. */
export function escapeXmlAttribute(text: string): string {
  return replaceNonXmlChars(text).replace(
    /[&<>"'\t\n\r]/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[char]!,
  );
}

function attributes(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}

/** Seconds with millisecond precision, in the form the schema's SUREFIRE_TIME accepts (no exponent). */
function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function property(name: string, value: string): string {
  return `      <property${attributes({ name, value })}/>`;
}

/** Everything the report says about one check, one fact per line. */
function details(result: CheckResult, blocking: boolean): string {
  const lines = [`${result.status} (${result.level}${blocking ? ', blocks readiness' : ''}): ${result.message}`];
  if (result.expected !== undefined) lines.push(`expected: ${result.expected}`);
  if (result.actual !== undefined) lines.push(`actual: ${result.actual}`);
  if (result.status !== 'pass' && result.details) lines.push(...result.details.map((d) => `  ${d}`));
  if (result.waived) lines.push(`waived: ${result.waived.reason}${result.waived.expires ? ` (until ${result.waived.expires})` : ''}`);
  if (result.status !== 'pass' && result.action !== undefined && result.action !== 'none') lines.push(`action: ${result.action}`);
  if (result.status !== 'pass' && result.remediation) lines.push(`fix: ${result.remediation}`);
  return lines.join('\n');
}

function testcase(result: CheckResult, blocking: boolean): string[] {
  const open = `    <testcase${attributes({ classname: result.category, name: result.id, time: seconds(result.durationMs) })}>`;
  const body = details(result, blocking);
  const inner: string[] = [];
  if (result.status === 'skip') {
    inner.push(`      <skipped${attributes({ message: result.message })}/>`);
  } else if (blocking) {
    const element = result.status === 'error' ? 'error' : 'failure';
    inner.push(`      <${element}${attributes({ message: result.message, type: result.status })}>${escapeXmlText(body)}</${element}>`);
  }
  inner.push(`      <system-out>${escapeXmlText(body)}</system-out>`);
  return [open, ...inner, '    </testcase>'];
}

function document(suiteAttributes: Record<string, string | number | undefined>, totals: { tests: number; failures: number; errors: number; time: string }, body: string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'qprep', tests: totals.tests, failures: totals.failures, errors: totals.errors, time: totals.time })}>`,
    `  <testsuite${attributes(suiteAttributes)}>`,
    ...body,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function formatJunit(input: Report): string {
  // CI pages and the terminals that tail their logs get the host's controls shown, never raw
  const report = visibleStrings(input);
  const blocking = new Set(report.blocking);
  const results = report.checks;
  const failures = results.filter((r) => blocking.has(r.id) && r.status !== 'error' && r.status !== 'skip').length;
  const errors = results.filter((r) => blocking.has(r.id) && r.status === 'error').length;
  const skipped = results.filter((r) => r.status === 'skip').length;
  const time = seconds(report.durationMs);
  const source = report.source.kind === 'snapshot' && report.source.snapshot ? `snapshot ${report.source.snapshot.file}` : `live host, root ${report.source.root}`;
  const properties = [
    '    <properties>',
    property('qprep.version', report.tool.version),
    property('host', report.host.hostname),
    property('host.os', report.host.os),
    property('host.kernel', report.host.kernel),
    property('host.arch', report.host.arch),
    property('host.container', report.host.inContainer ? (report.host.containerRuntime ?? 'yes') : 'no'),
    property('profile', report.profile.name),
    property('profile.source', report.profile.source),
    property('verdict', report.interrupted ? 'no verdict' : report.ready ? 'ready' : 'not ready'),
    ...(report.error ? [property('error.code', report.error.code), property('error.message', report.error.message)] : []),
    property('ready', String(report.ready)),
    property('strict', String(report.strict)),
    property('blocking', report.blocking.join(',')),
    property('source', source),
    property('run.id', report.runId),
    '    </properties>',
  ];
  const cases = results.flatMap((result) => testcase(result, blocking.has(result.id)));
  return document(
    {
      name: `qprep check ${report.host.hostname}`,
      tests: results.length,
      failures,
      errors,
      skipped,
      time,
      timestamp: report.startedAt,
      hostname: report.host.hostname,
    },
    { tests: results.length, failures, errors, time },
    [...properties, ...cases],
  );
}

/** Exit code 2 (no verdict) as JUnit: one errored testcase that says why, so that the CI job shows it. */
export function formatJunitError(input: ErrorReport): string {
  const report = visibleStrings(input);
  const { code, message } = report.error;
  return document(
    { name: 'qprep check', tests: 1, failures: 0, errors: 1, skipped: 0, time: seconds(0) },
    { tests: 1, failures: 0, errors: 1, time: seconds(0) },
    [
      '    <properties>',
      property('qprep.version', report.tool.version),
      property('verdict', 'no verdict'),
      property('ready', 'false'),
      property('error.code', code),
      '    </properties>',
      `    <testcase${attributes({ classname: 'qprep', name: 'verdict', time: seconds(0) })}>`,
      `      <error${attributes({ message, type: code })}>${escapeXmlText(`no verdict (${code}): ${message}`)}</error>`,
      '    </testcase>',
    ],
  );
}
