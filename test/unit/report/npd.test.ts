import { describe, expect, it } from 'vitest';
import { errorDocument } from '../../../src/report/error-document.js';
import { formatReport } from '../../../src/report/formats.js';
import { formatNpd, formatNpdError, NPD_MESSAGE_BYTES } from '../../../src/report/npd.js';
import { cutUtf8 } from '../../../src/util/text.js';
import { demoReport } from '../../helpers/node-reports.js';

/** What node-problem-detector makes of a plugin's stdout (pkg/custompluginmonitor/plugin/plugin.go): trimmed, then cut at max_output_length bytes. */
function npdMessage(stdout: string, maxOutputLength: number): string {
  return Buffer.from(stdout.trim()).subarray(0, maxOutputLength).toString('utf8');
}

describe('--format npd: one line for node-problem-detector', () => {
  it('ready, not ready and no verdict, each one line within the limit, the verdict first', () => {
    const ready = formatNpd(demoReport('a2-healthy'));
    expect(ready).toMatch(/^READY: \d+ checks, none blocking(, \d+ warnings?)?\n$/);
    const broken = formatNpd(demoReport('a2-broken'));
    expect(broken).toMatch(/^NOT READY: npu\.driver-files: .*; npu\.health: /);
    for (const line of [ready, broken]) {
      expect(line.split('\n')).toHaveLength(2);
      expect(Buffer.byteLength(line.trimEnd())).toBeLessThanOrEqual(NPD_MESSAGE_BYTES);
      expect(npdMessage(line, NPD_MESSAGE_BYTES)).toBe(line.trimEnd());
    }
    // NPD's default 80 bytes still keep the verdict and the first failing check
    expect(npdMessage(broken, 80)).toMatch(/^NOT READY: npu\.driver-files: /);
    expect(formatNpdError(errorDocument('usage', '--launch /etc/qprep/launch.sh: no such file', 'check'))).toBe('NO VERDICT (usage): --launch /etc/qprep/launch.sh: no such file\n');
  });

  it('is a format of the registry: qprep check --format npd', () => {
    expect(formatReport(demoReport('a2-broken'), 'npd', { color: false })).toBe(formatNpd(demoReport('a2-broken')));
  });

  it('in Chinese, cut between characters, never inside one', () => {
    const report = structuredClone(demoReport('a2-broken'));
    report.lang = 'zh';
    for (const check of report.checks) if (report.blocking.includes(check.id)) check.message = '驱动文件不完整，'.repeat(40);
    const line = formatNpd(report).trimEnd();
    expect(line.startsWith('未就绪')).toBe(true);
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(NPD_MESSAGE_BYTES);
    expect(line.endsWith('…')).toBe(true);
    expect(Buffer.from(line).toString('utf8')).not.toContain('\uFFFD');
  });

  it('a multi-line message or control characters stay on one line', () => {
    const report = structuredClone(demoReport('a2-broken'));
    report.checks.find((c) => c.id === 'npu.driver-files')!.message = 'first\nsecond\x1b[31m';
    const line = formatNpd(report);
    expect(line.split('\n')).toHaveLength(2);
    expect(line).not.toContain('\x1b');
  });

  it('cutUtf8 keeps short text and cuts long text at a character boundary with an ellipsis', () => {
    expect(cutUtf8('abc', 3)).toBe('abc');
    expect(cutUtf8('abcdef', 5)).toBe('ab…');
    expect(cutUtf8('就绪就绪', 7)).toBe('就…');
  });
});
