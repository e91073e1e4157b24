import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boardInfo, cardList, commonInfo, healthInfo, memoryInfo, parseNpuSmiKeyValue, spodInfo, usagesInfo } from '../../../src/parsers/npu-smi-kv.js';
import { parseNpuSmiMapping, type NpuMapping } from '../../../src/parsers/npu-smi-mapping.js';
import { ascendFixture } from '../../helpers/fixtures.js';

function mapping(text: string): Extract<NpuMapping, { kind: 'mapping' }> {
  const parsed = parseNpuSmiMapping(text);
  if (parsed.kind !== 'mapping') throw new Error(JSON.stringify(parsed));
  expect(parsed.skippedRows).toEqual([]);
  return parsed;
}

describe('npu-smi info -m', () => {
  it('8x 910B4 with Mcu rows and trailing spaces: logic ids 0-7, Mcu has none', () => {
    const m = mapping(ascendFixture('npu-smi-info-m-910b4x8-mcu-blog-atlas800ia2.txt'));
    expect(m.columns).toEqual(['NPU ID', 'Chip ID', 'Chip Logic ID', 'Chip Name']);
    expect(m.rows).toHaveLength(16);
    expect(m.rows.filter((r) => !r.isMcu).map((r) => [r.npu, r.chip, r.logicId, r.name])).toEqual(
      Array.from({ length: 8 }, (_, i) => [i, 0, i, 'Ascend 910B4']),
    );
    expect(m.rows.filter((r) => r.isMcu).map((r) => [r.npu, r.chip, r.logicId])).toEqual(Array.from({ length: 8 }, (_, i) => [i, 1, null]));
  });

  it('910A with the leading TAB (mind-cluster) and without it (doc copy) give the same rows', () => {
    const tab = mapping(ascendFixture('npu-smi-info-m-910a-mindcluster-fixture.txt'));
    const plain = mapping(ascendFixture('npu-smi-info-m-910a-24.1.RC2-gpustack-huaweidoc.txt'));
    const strip = (m: typeof tab) => m.rows.map(({ line: _line, ...rest }) => rest);
    expect(strip(tab)).toEqual(strip(plain));
    expect(tab.rows.map((r) => [r.npu, r.logicId, r.name])).toEqual(Array.from({ length: 8 }, (_, i) => [i, i, 'Ascend 910A']));
  });

  it('310 card: four MiniD chips and the Mcu', () => {
    const m = mapping(ascendFixture('npu-smi-info-m-310-mcu-21.0.4-gpustack-huaweidoc.txt'));
    expect(m.rows.map((r) => [r.npu, r.chip, r.logicId, r.name])).toEqual([
      [6, 0, 0, 'MiniD'], [6, 1, 1, 'MiniD'], [6, 2, 2, 'MiniD'], [6, 3, 3, 'MiniD'], [6, 4, null, 'Mcu'],
    ]);
  });

  it('A3 with the Chip Phy-ID column (documented format only: no public capture, lenient)', () => {
    const text = [
      '\tNPU ID                         Chip ID                        Chip Logic ID                  Chip Phy-ID                    Chip Name',
      '\t0                              0                              0                              0                              Ascend 910',
      '\t0                              1                              1                              1                              Ascend 910',
      '\t0                              2                              -                              -                              Mcu',
      '\t1                              0                              2                              2                              Ascend 910',
    ].join('\n');
    const m = mapping(text);
    expect(m.columns).toEqual(['NPU ID', 'Chip ID', 'Chip Logic ID', 'Chip Phy-ID', 'Chip Name']);
    expect(m.rows.map((r) => [r.npu, r.chip, r.logicId, r.phyId, r.isMcu])).toEqual([
      [0, 0, 0, 0, false], [0, 1, 1, 1, false], [0, 2, null, null, true], [1, 0, 2, 2, false],
    ]);
  });

  it('garbage and empty input are structured errors', () => {
    expect(parseNpuSmiMapping('')).toMatchObject({ kind: 'invalid', reason: 'the output is empty' });
    expect(parseNpuSmiMapping('dcmi module initialize failed. ret is -8005')).toMatchObject({ kind: 'invalid', line: 1 });
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 500 }), fc.uint8Array({ maxLength: 500 })), (input) => {
        const parsed = parseNpuSmiMapping(input);
        expect(['mapping', 'invalid']).toContain(parsed.kind);
        if (parsed.kind === 'invalid') expect(parsed.line).toBeGreaterThanOrEqual(1);
      }),
    );
    const header = ascendFixture('npu-smi-info-m-910a-mindcluster-fixture.txt').split('\n')[0];
    expect(parseNpuSmiMapping(`${header}\n${'7 '.repeat(6 * 1024 * 1024)}\n`)).toMatchObject({ kind: 'invalid', line: 2 });
  });
});

describe('npu-smi info -t (the key : value format)', () => {
  it('board, card level (TAB-indented) and a 910B2C board with product and serial', () => {
    expect(boardInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-board-910a-mindcluster-fixture.txt')))).toEqual({
      npu: 0,
      chip: null,
      softwareVersion: '23.0.5',
      firmwareVersion: '7.1.0.7.220',
      compatibility: 'OK',
      busId: '0000:61:00.0',
      productName: null,
      serialNumber: null,
      chipName: null,
      pciDeviceId: '0xD801',
    });
    expect(boardInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-board-910b2c-25.5.2-nodeexporter-cmdb-test.txt')))).toMatchObject({
      softwareVersion: '25.5.2',
      firmwareVersion: '7.8.0.7.220',
      productName: 'IT21HMDB02-B2',
      serialNumber: '102415083974',
      busId: '0000:66:00.0',
    });
    expect(boardInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-board-chip-910a-mindcluster-fixture.txt')))).toMatchObject({ chip: 0, chipName: '910A', firmwareVersion: '7.1.0.7.220' });
  });

  it('health: OK, the 950 spelling, and Warning with an error code (synthetic fixture of the source format)', () => {
    expect(healthInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-health-chip-mindcluster-fixture.txt')))).toEqual({ status: 'OK', errorCodes: [], errorInformation: null, errorInformationLines: [] });
    expect(healthInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-health-950doc-driver-repo.txt')))).toEqual({ status: 'OK', errorCodes: [], errorInformation: null, errorInformationLines: [] });
    expect(healthInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-health-warning-errorcode-testfixture.txt')))).toEqual({
      status: 'Warning',
      errorCodes: ['80E01801'],
      errorInformation: 'node type=SOC, sensor type=Temperature',
      errorInformationLines: ['node type=SOC, sensor type=Temperature'],
    });
  });

  it('health: an Alarm with three codes and one line of information per code, each after a blank line (mind-cluster test fixture)', () => {
    expect(healthInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-health-alarm-3codes-mindcluster-fixture.txt')))).toEqual({
      status: 'Alarm',
      errorCodes: ['A4025021', '8C03A000', '8C084E00'],
      errorInformation:
        'ascend_monitor adda heart beat lost error node type=process-manager, sensor type=General Software, event state=The process start failed or exit abnormally node type=adda, sensor type=Heartbeat Sensor, event state=Heartbeat Lost.',
      errorInformationLines: [
        'ascend_monitor adda heart beat lost error',
        'node type=process-manager, sensor type=General Software, event state=The process start failed or exit abnormally',
        'node type=adda, sensor type=Heartbeat Sensor, event state=Heartbeat Lost.',
      ],
    });
  });

  it('health: extra error codes on continuation lines with a blank key (source format, lenient)', () => {
    const text = '\tHealth Status                  : Alarm\n\tError Code                     : 80E01801\n\t                               : 80CB8009\n\tError Information              : node type=SOC\n';
    expect(healthInfo(parseNpuSmiKeyValue(text))).toMatchObject({ status: 'Alarm', errorCodes: ['80E01801', '80CB8009'] });
  });

  it('usages on 910B (HBM) and 910A (DDR and HBM)', () => {
    expect(usagesInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-usages-910b1-arthurchiao.txt')))).toEqual({
      npu: 0,
      ddrCapacityMB: 0,
      ddrUsagePercent: 0,
      hbmCapacityMB: 65536,
      hbmUsagePercent: 4,
      aicoreUsagePercent: 0,
    });
    expect(usagesInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-usages-910a-mindcluster-fixture.txt')))).toMatchObject({ ddrCapacityMB: 13553, ddrUsagePercent: 6, hbmCapacityMB: 31129 });
  });

  it('common: a block per chip and the mcu', () => {
    expect(commonInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-common-910b1-arthurchiao.txt')))).toEqual([
      { chipId: 0, chipName: null, hbmUsagePercent: 4, aicoreUsagePercent: 0, temperatureC: 46, powerW: 93.4 },
      { chipId: null, chipName: 'mcu', hbmUsagePercent: null, aicoreUsagePercent: null, temperatureC: 38, powerW: null },
    ]);
  });

  it('memory (950 doc)', () => {
    expect(memoryInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-memory-950doc-driver-repo.txt')))).toEqual({
      ddrCapacityMB: 0,
      hbmCapacityMB: 131072,
      hbmClockMHz: 3200,
      hbmTemperatureC: 63,
      hbmManufacturerId: '0x5A',
    });
  });

  it('spod-info of both A3 dies, and the 950 "does not support" message', () => {
    expect(spodInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-spod-info-a3-dev0-mindcluster-vllm-log.txt')))).toEqual({ supported: true, sdid: 167772160, superPodSize: 384, superPodId: 0, serverIndex: 40 });
    expect(spodInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-spod-info-a3-dev1-mindcluster-vllm-log.txt')))).toMatchObject({ sdid: 167837697, serverIndex: 40 });
    expect(spodInfo(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-t-spod-info-950-unsupported-doc-driver-repo.txt')))).toEqual({
      supported: false,
      message: 'This device does not support querying spod-info.',
    });
  });

  it('-l: the card list (910B4 x8) and the 950 doc variant', () => {
    const list = cardList(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-l-910b4x8-blog-atlas800ia2.txt')));
    expect(list.totalCount).toBe(8);
    expect(list.cards.map((c) => [c.npu, c.chipCount])).toEqual(Array.from({ length: 8 }, (_, i) => [i, 1]));
    expect(cardList(parseNpuSmiKeyValue(ascendFixture('npu-smi-info-l-950doc-driver-repo.txt')))).toEqual({
      totalCount: 1,
      cards: [{ npu: 0, chipCount: null, productName: 'A5 PCIe Card', serialNumber: 'IT23HMDA0502FAA' }],
    });
  });

  it('never throws: arbitrary text, bytes and a 10 MB line', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 1000 }), fc.uint8Array({ maxLength: 1000 })), (input) => {
        const out = parseNpuSmiKeyValue(input);
        expect(Array.isArray(out.blocks)).toBe(true);
        healthInfo(out);
        boardInfo(out);
        spodInfo(out);
      }),
    );
    const huge = parseNpuSmiKeyValue(`Health Status : ${'x'.repeat(10 * 1024 * 1024)}\n`);
    expect(huge.blocks).toEqual([]);
    expect(huge.messages[0]!.line).toBe(1);
  });
});
