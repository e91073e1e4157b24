import { execaSync } from 'execa';
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { escapeXmlAttribute, escapeXmlText, formatJunit, formatJunitError } from '../../../src/report/junit.js';
import { mixedResults, reportOf, result } from '../../helpers/reports.js';
import { hasTool, XMLLINT } from '../../helpers/tools.js';

const XSD = fileURLToPath(new URL('../../fixtures/junit/jenkins-xunit-junit-10.xsd', import.meta.url));

/** xmllint --schema: the same libxml2 validator CI servers' XML tooling is built on. */
function validate(xml: string): { valid: boolean; output: string } {
  const run = execaSync('xmllint', ['--noout', '--schema', XSD, '-'], { input: xml, reject: false });
  return { valid: run.exitCode === 0, output: String(run.stderr) };
}

/** Reads the document back with a real XML parser (libxml2's XPath); xmllint ends its answer with one newline. */
function xpath(xml: string, expression: string): string {
  return String(execaSync('xmllint', ['--xpath', expression, '-'], { input: xml, stripFinalNewline: false }).stdout).replace(/\n$/, '');
}

describe('JUnit escaping (pure)', () => {
  it('escapes markup in text and attributes, and keeps newlines in attributes as references', () => {
    expect(escapeXmlText('a < b && c > d ]]> e')).toBe('a &lt; b &amp;&amp; c &gt; d ]]&gt; e');
    expect(escapeXmlAttribute(`say "hi" & 'bye'\n\tnext`)).toBe('say &quot;hi&quot; &amp; &apos;bye&apos;&#10;&#9;next');
    expect(escapeXmlText('crlf\r\n')).toBe('crlf&#13;\n');
  });

  it('writes characters XML cannot carry as #xNN, the way pytest does, and keeps the rest of Unicode', () => {
    expect(escapeXmlText('\x1b[31mred\x1b[0m \x00 \x7f')).toBe('#x1B[31mred#x1B[0m #x00 \x7f');
    expect(escapeXmlAttribute('lone \uD800 surrogate, \uFFFE, but 昇腾 and 🚀 stay')).toBe('lone #xD800 surrogate, #xFFFE, but 昇腾 and 🚀 stay');
  });

  it('never lets anything that is not an XML character or raw markup through, whatever the input', () => {
    const anyUtf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 64 });
    const forbidden = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
    fc.assert(
      fc.property(anyUtf16, (text) => {
        for (const escaped of [escapeXmlText(text), escapeXmlAttribute(text)]) {
          expect(forbidden.test(escaped)).toBe(false);
          expect(escaped).not.toMatch(/[<>]|&(?!(amp|lt|gt|quot|apos|#\d+);)/);
        }
        expect(escapeXmlAttribute(text)).not.toMatch(/["\n\t\r]/);
      }),
    );
  });
});

describe.skipIf(!hasTool(XMLLINT, 'libxml2-utils'))('--format junit against the JUnit schema of Jenkins xUnit (xmllint)', () => {
  it('the schema rejects what it should (the validator is really validating)', () => {
    expect(validate('<?xml version="1.0"?><testsuites><testsuite name="x"/></testsuites>').valid).toBe(false);
    expect(validate('<?xml version="1.0"?><testsuites><testsuite name="x" tests="0" failures="0" errors="0"/></testsuites>').valid).toBe(true);
  });

  it('one testcase per check: classname the category, name the id, failures and errors only for what blocks readiness', () => {
    const report = reportOf(mixedResults());
    const xml = formatJunit(report);
    const { valid, output } = validate(xml);
    expect(valid, output).toBe(true);

    expect(xpath(xml, 'count(//testcase)')).toBe(String(report.checks.length));
    expect(xpath(xml, 'string(//testcase[@name="host.shm"]/@classname)')).toBe('host');
    expect(xpath(xml, 'string(//testcase[@name="cpu.governor"]/@classname)')).toBe('tuning');
    expect(xpath(xml, 'string(//testcase[@name="host.shm"]/@time)')).toBe('0.012');
    // the required fail and the required error block; nothing else is red
    expect(report.blocking).toEqual(['host.shm', 'host.disk']);
    expect(xpath(xml, 'count(//failure)')).toBe('1');
    expect(xpath(xml, 'count(//error)')).toBe('1');
    expect(xpath(xml, 'string(//testsuite/@failures)')).toBe('1');
    expect(xpath(xml, 'string(//testsuite/@errors)')).toBe('1');
    expect(xpath(xml, 'string(//testsuite/@skipped)')).toBe('1');
    expect(xpath(xml, 'string(//testsuites/@tests)')).toBe(String(report.checks.length));
  });

  it('failures and errors carry the message as attribute and the message, expected, actual and fix as text', () => {
    const xml = formatJunit(reportOf(mixedResults()));
    expect(xpath(xml, 'string(//testcase[@name="host.shm"]/failure/@message)')).toBe('/dev/shm is 64 MiB, expected at least 1 GiB');
    expect(xpath(xml, 'string(//testcase[@name="host.shm"]/failure/@type)')).toBe('fail');
    expect(xpath(xml, 'string(//testcase[@name="host.shm"]/failure)')).toBe(
      'fail (required, blocks readiness): /dev/shm is 64 MiB, expected at least 1 GiB\nfix: docker run --shm-size=16g ...',
    );
    expect(xpath(xml, 'string(//testcase[@name="host.disk"]/error/@type)')).toBe('error');
    expect(xpath(xml, 'string(//testcase[@name="host.disk"]/error)')).toContain('fix: fix host.disk');
  });

  it('warnings, waivers and errors of recommended checks pass, visible in system-out; skipped checks say why', () => {
    const xml = formatJunit(reportOf(mixedResults()));
    for (const id of ['sysctl.swappiness', 'net.proxy', 'mem.jemalloc', 'sysctl.numa-balancing']) {
      expect(xpath(xml, `count(//testcase[@name="${id}"]/*[self::failure or self::error or self::skipped])`), id).toBe('0');
    }
    expect(xpath(xml, 'string(//testcase[@name="sysctl.swappiness"]/system-out)')).toBe(
      'warn (recommended): vm.swappiness is 60, expected at most 1\nexpected: <= 1\nactual: 60\nfix: sudo sysctl -w vm.swappiness=0',
    );
    expect(xpath(xml, 'string(//testcase[@name="net.proxy"]/system-out)')).toContain('waived: unset by the launch wrapper (OPS-1234) (until 2027-03-31)');
    expect(xpath(xml, 'string(//testcase[@name="mem.jemalloc"]/system-out)')).toMatch(/^error \(recommended\): /);
    expect(xpath(xml, 'string(//testcase[@name="cpu.governor"]/skipped/@message)')).toBe('cpufreq is not exposed here');
  });

  it('under --strict a warning blocks, so it is a failure of type warn; a waived one still passes', () => {
    const report = reportOf(mixedResults(), { strict: true });
    const xml = formatJunit(report);
    expect(validate(xml).valid).toBe(true);
    expect(xpath(xml, 'string(//testcase[@name="sysctl.swappiness"]/failure/@type)')).toBe('warn');
    expect(xpath(xml, 'count(//testcase[@name="net.proxy"]/failure)')).toBe('0');
    expect(xpath(xml, 'string(//testsuite/@failures)')).toBe('2');
    expect(xpath(xml, 'string(//testsuite/@errors)')).toBe('2');
  });

  it('the suite carries host, profile and verdict as properties', () => {
    const ready = formatJunit(reportOf([result({ id: 'host.shm', status: 'pass' })]));
    const property = (xml: string, name: string) => xpath(xml, `string(//testsuite/properties/property[@name="${name}"]/@value)`);
    expect(property(ready, 'host')).toBe('node1');
    expect(property(ready, 'profile')).toBe('default');
    expect(property(ready, 'verdict')).toBe('ready');
    expect(xpath(ready, 'string(//testsuite/@hostname)')).toBe('node1');
    expect(xpath(ready, 'string(//testsuite/@timestamp)')).toBe('2026-12-02T10:00:00.000Z');
    const notReady = formatJunit(reportOf(mixedResults()));
    expect(property(notReady, 'verdict')).toBe('not ready');
    expect(property(notReady, 'blocking')).toBe('host.shm,host.disk');
  });

  it('every field survives escaping: markup, quotes, newlines, control characters, lone surrogates, CJK', () => {
    const nasty = 'a <b> & "c" \'d\' ]]> \x1b[1m\x00 \uDC00 昇腾 🚀\nsecond line\r\n';
    const report = reportOf([result({ id: 'host.shm', status: 'fail', message: nasty, expected: nasty, actual: nasty, remediation: nasty })], { hostname: nasty });
    report.profile.name = nasty;
    const xml = formatJunit(report);
    const { valid, output } = validate(xml);
    expect(valid, output).toBe(true);
    // control characters shown as \xNN as in the human report; line breaks too, but in the fix, whose lines are qprep's
    const readable = 'a <b> & "c" \'d\' ]]> \\x1b[1m\\x00 #xDC00 昇腾 🚀\\x0asecond line\\x0d\\x0a';
    const fix = 'a <b> & "c" \'d\' ]]> \\x1b[1m\\x00 #xDC00 昇腾 🚀\nsecond line\\x0d\n';
    expect(xpath(xml, 'string(//failure/@message)')).toBe(readable);
    expect(xpath(xml, 'string(//testsuite/properties/property[@name="profile"]/@value)')).toBe(readable);
    expect(xpath(xml, 'string(//testsuite/@hostname)')).toBe(readable);
    expect(xpath(xml, 'string(//failure)')).toContain(`expected: ${readable}\nactual: ${readable}\nfix: ${fix}`);
  });

  it('any strings in any field still make a valid document', () => {
    const anyUtf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 });
    fc.assert(
      fc.property(anyUtf16, anyUtf16, anyUtf16, (id, message, remediation) => {
        const xml = formatJunit(reportOf([result({ id, status: 'fail', message, remediation }), result({ id: 'x', status: 'skip', message })]));
        const { valid, output } = validate(xml);
        expect(valid, output).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('no verdict (exit 2) is one errored testcase that says why', () => {
    const xml = formatJunitError({ schemaVersion: 1, tool: { name: 'qprep', version: '0.1.0' }, ready: false, error: { code: 'invalid-profile', message: 'invalid profile p.yaml: host.shmMin: expected a size' } });
    expect(validate(xml).valid).toBe(true);
    expect(xpath(xml, 'string(//testcase/error/@type)')).toBe('invalid-profile');
    expect(xpath(xml, 'string(//testcase/error/@message)')).toBe('invalid profile p.yaml: host.shmMin: expected a size');
    expect(xpath(xml, 'string(//testsuite/properties/property[@name="verdict"]/@value)')).toBe('no verdict');
  });
});
