import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFaultCodes, extractFaultCodeSources, formatExtract, LEVELS, type FaultCodeExtract } from '../../../scripts/fault-codes-lib.mjs';
import { ACTIONS } from '../../../src/core/ids/actions.js';
import { HBM_ECC_RULES, hbmEccFindings, hbmEccTable } from '../../../src/knowledge/hbm-ecc.js';
import { FAULT_LEVELS, faultCodeOf, faultCodesTable, faultTableSource, normalizeFaultCode, worstFault } from '../../../src/knowledge/fault-codes.js';
import { REPO } from '../../helpers/cli.js';

/**
 * knowledge/fault-codes.json (scripts/refresh-fault-codes.mjs): the committed extract of
 * Ascend/mind-cluster in, the committed table out, byte for byte; and what the table says of the
 * codes qprep meets. The extract stage against a real git checkout: test/integration/refresh-fault-codes.test.ts.
 */

const read = (path: string) => readFileSync(join(REPO, 'knowledge', path), 'utf8');
const extract = JSON.parse(read('sources/mind-cluster-fault-codes.json')) as FaultCodeExtract;

describe('scripts/refresh-fault-codes.mjs build', () => {
  it('reproduces knowledge/fault-codes.json from the committed extract', () => {
    expect(buildFaultCodes(extract)).toBe(read('fault-codes.json'));
  });

  it('the extract is what the extract stage writes from the same texts (its own lines, reassembled)', () => {
    const levelsText = extract.levels.lines.map(([, text]) => text).join('\n');
    // a knowledge graph holding exactly the extracted lines, each entry closed as the real file closes it
    const meaningsText = [
      '{',
      '    "knowledge-repository": {',
      ...extract.meanings.entries.flatMap((e, i) => [
        `        ${JSON.stringify(e.key)}: {`,
        '            "attribute": {',
        ...Object.values(e.fields).map(([, text], j, all) => (j === all.length - 1 ? text.replace(/,\s*$/, '') : text.endsWith(',') ? text : `${text},`)),
        '            }',
        `        }${i === extract.meanings.entries.length - 1 ? '' : ','}`,
      ]),
      '    }',
      '}',
    ].join('\n');
    const again = extractFaultCodeSources({ levelsText, meaningsText, commit: extract.commit, date: extract.date });
    expect(again.levels).toEqual(extract.levels);
    expect(again.meanings.entries.map((e) => [e.code, Object.keys(e.fields)])).toEqual(extract.meanings.entries.map((e) => [e.code, Object.keys(e.fields)]));
    // the same rows; only the lines of the graph differ, the reassembled file being shorter
    const withoutGraphLines = (text: string) => JSON.parse(text).rows.map((row: { meaningSource?: { line?: number } }) => ({ ...row, meaningSource: row.meaningSource && { ...row.meaningSource, line: 0 } }));
    expect(withoutGraphLines(buildFaultCodes(again))).toEqual(withoutGraphLines(read('fault-codes.json')));
    expect(formatExtract(extract)).toBe(read('sources/mind-cluster-fault-codes.json'));
  });

  it('the device plugin lists 804 codes, two of them twice: 802 rows, each at its worst level', () => {
    const listed = extract.levels.lines
      .map(([, text]) => text)
      .join('\n')
      .match(/"[0-9A-Fa-f]{4,}"/g)!;
    expect(listed).toHaveLength(804);
    const rows = faultCodesTable.rows();
    expect(rows).toHaveLength(802);
    expect(new Set(rows.map((r) => r.code)).size).toBe(802);
    // listed under RestartBusiness and SeparateNPU: the plugin tests SeparateNPU first
    expect(faultCodeOf('A2301001')).toMatchObject({ level: 'SeparateNPU', alsoIn: ['RestartBusiness'], action: 'isolate-npu' });
    for (const row of rows) {
      expect(row.source.ref).toBe(extract.commit);
      expect(row.source.quote).toContain(row.code);
    }
  });

  it('the action of a level never gets milder as the level gets worse: the worst code gives the worst action', () => {
    expect(LEVELS.map((l) => l.level)).toEqual([...FAULT_LEVELS]);
    const order = LEVELS.map((l) => ACTIONS.indexOf(l.action as (typeof ACTIONS)[number]));
    expect(order.every((a) => a >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const row of faultCodesTable.rows()) expect(row.action).toBe(LEVELS.find((l) => l.level === row.level)!.action);
  });
});

describe('the fault codes qprep looks up', () => {
  it('takes a code as npu-smi prints it, as the docs and the device plugin write it', () => {
    for (const form of ['80E18005', '0x80E18005', '0x80e18005', '80e18005', ' 80E18005 ', '0X80E18005']) expect(faultCodeOf(form)?.code, form).toBe('80E18005');
    expect(normalizeFaultCode('00AB')).toBe('AB');
    expect(normalizeFaultCode('0')).toBe('0');
    expect(normalizeFaultCode('80E1800Z')).toBeUndefined();
    expect(normalizeFaultCode('')).toBeUndefined();
    expect(faultCodeOf('80E18005')).toMatchObject({ level: 'RestartNPU', action: 'reset-npu', meaning: { en: 'HBMC parity error', zh: 'HBMC Parity错误' } });
    // a code the table does not list
    expect(faultCodeOf('80E01234')).toBeUndefined();
  });

  it('judges an alarm of several codes by its worst: mind-cluster\'s three-code Alarm is RestartNPU', () => {
    const worst = worstFault(['A4025021', '8C03A000', '8C084E00']);
    expect(worst).toMatchObject({ code: '8C03A000', row: { level: 'RestartNPU', action: 'reset-npu' } });
    expect(faultCodeOf('A4025021')!.level).toBe('NotHandleFault');
    expect(faultCodeOf('8C084E00')!.level).toBe('FreeRestartNPU');
    expect(worstFault(['80E01234'])).toBeUndefined();
    expect(worstFault([])).toBeUndefined();
  });

  it('names its source: the repository, the commit and both files', () => {
    expect(faultTableSource()).toEqual({
      repo: 'Ascend/mind-cluster',
      ref: extract.commit,
      paths: ['component/ascend-device-plugin/build/faultCode.json', 'component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json'],
    });
  });
});

describe('knowledge/hbm-ecc.json', () => {
  it('validates; each threshold that has a fault code is the one the code names, at the level the device plugin gives it', () => {
    const rows = hbmEccTable.rows();
    expect(rows.map((r) => r.id)).toEqual([...HBM_ECC_RULES]);
    for (const row of rows.filter((r) => r.code !== undefined)) {
      const fault = faultCodeOf(row.code!)!;
      expect(fault.meaning!.en, row.id).toContain(String(row.atLeast));
      expect(row.source.quote, row.id).toContain(String(row.atLeast));
    }
    expect(faultCodeOf('80E18402')!.level).toBe('SeparateNPU');
    expect(rows.find((r) => r.id === 'isolation-full')!.action).toBe('replace-part');
  });

  it('a chip reaches every rule whose counter is at its threshold, most severe first; a counter not printed reaches none', () => {
    const counters = { singleBitErrors: 0, doubleBitErrors: 2, singleBitTotal: 0, doubleBitTotal: 2, singleBitIsolatedPages: 0, doubleBitIsolatedPages: 64, singleBitPendingPages: null, doubleBitPendingPages: null };
    expect(hbmEccFindings(counters).map((r) => r.id)).toEqual(['isolation-full', 'uncorrectable', 'isolation-high']);
    expect(hbmEccFindings({ ...counters, doubleBitErrors: null, doubleBitIsolatedPages: 15 })).toEqual([]);
  });
});
