import { describe, expect, it } from 'vitest';
import { FORMATS, REPORT_FORMATS, SERVED_FORMATS, formatErrorReport, formatReport, isMachineFormat, missingSuffix } from '../../../src/report/formats.js';
import { renderRunDocuments } from '../../../src/serve/documents.js';
import { errorDocument } from '../../../src/report/error-document.js';
import { demoReport } from '../../helpers/node-reports.js';

describe('the output format registry', () => {
  it('derives the report formats (check --format) and the served ones (serve ?format=) from its entries', () => {
    expect(REPORT_FORMATS).toEqual(['human', 'json', 'junit', 'prometheus', 'npd']);
    // json first: the default of GET /report
    expect(SERVED_FORMATS).toEqual(['json', 'junit', 'prometheus', 'npd']);
    // sh is a format of qprep env, not of the report
    expect(Object.keys(FORMATS)).toContain('sh');
    expect(REPORT_FORMATS).not.toContain('sh' as never);
  });

  it('every machine format of the report has an error document, and no format a person reads has one', () => {
    const error = errorDocument('usage', 'bad', 'check');
    for (const name of REPORT_FORMATS) {
      const document = formatErrorReport(error, name, new Date(0));
      if (isMachineFormat(name)) expect(document, name).toContain('usage');
      else expect(document, name).toBeUndefined();
    }
  });

  it('writes the report with the formatter of its entry', () => {
    const report = demoReport('a2-broken');
    expect(JSON.parse(formatReport(report, 'json', { color: false }))).toEqual(report);
    expect(formatReport(report, 'junit', { color: false })).toMatch(/^<\?xml/);
    expect(formatReport(report, 'prometheus', { color: false })).toContain('\nqprep_ready 0\n');
    expect(formatReport(report, 'human', { color: false })).toMatch(/NOT READY/);
  });

  it('serve renders one document per served format, nothing else', () => {
    const documents = renderRunDocuments(demoReport('a2-healthy'), 100, 0);
    expect(Object.keys(documents.report)).toEqual([...SERVED_FORMATS]);
  });

  it('names the reader that will not see an --output file without its suffix', () => {
    expect(missingSuffix('prometheus', '/var/lib/node_exporter/qprep.txt')).toEqual({ suffix: '.prom', reader: "node_exporter's textfile collector" });
    expect(missingSuffix('prometheus', '/var/lib/node_exporter/qprep.prom')).toBeUndefined();
    // JSON and JUnit readers take any name
    expect(missingSuffix('json', 'report')).toBeUndefined();
    expect(missingSuffix('junit', 'report')).toBeUndefined();
  });
});
