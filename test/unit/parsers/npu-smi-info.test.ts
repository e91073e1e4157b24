import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { familyOf, parseNpuSmiInfo, type NpuSmiInfo, type NpuSmiTable } from '../../../src/parsers/npu-smi-info.js';
import { devicesOf } from '../../../src/probes/npu.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';

function table(text: string): NpuSmiTable {
  const parsed = parseNpuSmiInfo(text);
  if (parsed.kind !== 'table') throw new Error(`expected a table, got ${JSON.stringify(parsed)}`);
  expect(parsed.skippedRows).toEqual([]);
  return parsed;
}

describe('npu-smi info: A2 (910B) up to 25.x', () => {
  it('8x 910B3, 25.3.rc1: devices, bus ids, HBM, power, idle NPUs', () => {
    const t = table(ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt'));
    expect(t).toMatchObject({ layout: 'a2', toolVersion: '25.3.rc1', driverVersion: '25.3.rc1', columns: { hbm: true, hugepages: true, containerPid: false } });
    expect(familyOf(t)).toBe('a2');
    expect(t.chips).toHaveLength(8);
    expect(t.chips.map((c) => c.npu)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(t.chips.map((c) => c.busId)).toEqual(['0000:C1:00.0', '0000:C2:00.0', '0000:81:00.0', '0000:82:00.0', '0000:01:00.0', '0000:02:00.0', '0000:41:00.0', '0000:42:00.0']);
    expect(t.chips[0]).toMatchObject({ name: '910B3', health: 'OK', powerW: 98.2, temperatureC: 37, hugepages: { used: 0, total: 0 }, aicorePercent: 0, ddr: { usedMB: 0, totalMB: 0 }, hbm: { usedMB: 3440, totalMB: 65536 }, chip: 0, phyId: null });
    expect(t.chips[7]).toMatchObject({ powerW: 98.5, hbm: { usedMB: 3439, totalMB: 65536 } });
    expect(t.processSection).toBe(true);
    expect(t.processes).toEqual([]);
    expect(t.idleNpus).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(t.warnings).toEqual([]);
    const devices = devicesOf(t);
    expect(devices.map((d) => [d.device, d.visibleIndex])).toEqual([[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]]);
    expect(devices[3]!.memory).toEqual({ kind: 'hbm', usedMB: 3439, totalMB: 65536 });
  });

  it('910B1, 23.0.rc2, with rows elided by the author ("...")', () => {
    const t = table(ascendFixture('npu-smi-info-910b1-23.0.rc2-elided-arthurchiao.txt'));
    expect(t.elided).toBe(true);
    expect(t.chips.map((c) => c.npu)).toEqual([0, 1, 7]);
    expect(t.chips.map((c) => c.hbm)).toEqual([{ usedMB: 4175, totalMB: 65536 }, { usedMB: 4175, totalMB: 65536 }, { usedMB: 4174, totalMB: 65536 }]);
    expect(t.processSection).toBe(false);
    expect(familyOf(t)).toBe('a2');
  });

  it('910B4, 25.0.rc1.1, single NPU with a redacted bus id and AICore busy', () => {
    const t = table(ascendFixture('npu-smi-info-910b4-25.0.rc1.1-single-redacted-mindie-notes.txt'));
    expect(t.chips).toHaveLength(1);
    expect(t.chips[0]).toMatchObject({ name: '910B4', busId: 'xxxx:xx:xx.x', aicorePercent: 5, powerW: 105.5, hbm: { usedMB: 6154, totalMB: 65536 } });
  });
});

describe('npu-smi info: A3 (two dies per NPU, Chip Phy-ID)', () => {
  it('8 cards x 2 dies, 25.2.1: Phy-ID is the device id; die 1 power "-"', () => {
    const t = table(ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'));
    expect(t.layout).toBe('a3');
    expect(familyOf(t)).toBe('a3');
    expect(t.chips).toHaveLength(16);
    expect(t.chips.map((c) => [c.npu, c.chip, c.phyId])).toEqual(Array.from({ length: 16 }, (_, i) => [Math.floor(i / 2), i % 2, i]));
    expect(t.chips.every((c) => c.name === 'Ascend910')).toBe(true);
    expect(t.chips[0]).toMatchObject({ powerW: 162.2, busId: '0000:9D:00.0', hbm: { usedMB: 3112, totalMB: 65536 } });
    expect(t.chips[1]).toMatchObject({ powerW: null, temperatureC: 37, busId: '0000:9F:00.0', hbm: { usedMB: 2887, totalMB: 65536 } });
    expect(t.chips[15]).toMatchObject({ npu: 7, chip: 1, phyId: 15, busId: '0000:83:00.0', hbm: { usedMB: 2880, totalMB: 65536 } });
    expect(t.idleNpus).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(devicesOf(t).map((d) => d.device)).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });

  it('26.0.rc2 wide layout (116 columns), excerpt with card 0', () => {
    const t = table(ascendFixture('npu-smi-info-a3-26.0.rc2-wide-header-vllm-ascend-12980-excerpt.txt'));
    expect(t).toMatchObject({ layout: 'a3', toolVersion: '26.0.rc2', driverVersion: '26.0.rc2' });
    expect(t.chips.map((c) => [c.npu, c.chip, c.phyId, c.powerW, c.hbm?.usedMB])).toEqual([
      [0, 0, 0, 162.6, 3419],
      [0, 1, 1, null, 2874],
    ]);
    // the issue pasted the header and card 0: its last row has no closing border, the cards after it are missing
    expect(t.truncated).toBe(false);
    expect(t.cutAfterLine).toBe(11);
  });

  it('a whole table ends with its border: not cut; the same table stopped after a row is', () => {
    const whole = ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt');
    expect(table(whole).cutAfterLine).toBeNull();
    const lines = whole.split('\n');
    expect(table(lines.slice(0, 11).join('\n')).cutAfterLine).toBe(11);
    // a process section that stops after its "No running processes" row is cut too (a 300I Pro capture)
    expect(table(ascendFixture('npu-smi-info-310p3-single-proc-table-23.0.0-unidentified.txt')).cutAfterLine).toBe(13);
  });
});

describe('npu-smi info: 26.x wide layout with "Process id in container"', () => {
  it('8x 910B3, 26.1.0: one process on NPU 0, container pid NA', () => {
    const t = table(ascendFixture('npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt'));
    expect(t.layout).toBe('a2');
    expect(t.columns.containerPid).toBe(true);
    expect(t.chips).toHaveLength(8);
    expect(t.chips[0]!.hbm).toEqual({ usedMB: 8676, totalMB: 65536 });
    expect(t.processes).toEqual([{ npu: 0, chip: 0, pid: 485946, name: 'pytest', memoryMB: 5175, containerPid: null, line: 34 }]);
    expect(t.idleNpus).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const devices = devicesOf(t);
    expect(devices[0]!.processes).toEqual([{ pid: 485946, name: 'pytest', memoryMB: 5175, containerPid: null }]);
    expect(devices[1]!.processes).toEqual([]);
  });
});

describe('npu-smi info: 310 family', () => {
  it('4x Atlas 300I Duo (310P3), 25.5.1: two chips per card, NPU ids 1,2,4,5, Device 0-7, DDR, power NA', () => {
    const t = table(ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'));
    expect(t).toMatchObject({ layout: 'chip-device', columns: { hbm: false, hugepages: true } });
    expect(familyOf(t)).toBe('310p');
    expect(t.chips.map((c) => [c.npu, c.chip, c.deviceColumn])).toEqual([
      [1, 0, 0], [1, 1, 1], [2, 0, 2], [2, 1, 3], [4, 0, 4], [4, 1, 5], [5, 0, 6], [5, 1, 7],
    ]);
    expect(t.chips.every((c) => c.powerW === null && c.hbm === null)).toBe(true);
    expect(t.chips.map((c) => c.ddr)).toEqual([
      { usedMB: 1448, totalMB: 44278 }, { usedMB: 1511, totalMB: 43693 }, { usedMB: 1384, totalMB: 44278 }, { usedMB: 1572, totalMB: 43693 },
      { usedMB: 1863, totalMB: 44278 }, { usedMB: 1105, totalMB: 43693 }, { usedMB: 1694, totalMB: 44278 }, { usedMB: 1269, totalMB: 43693 },
    ]);
    expect(t.chips[0]!.busId).toBe(t.chips[1]!.busId);
    expect(t.processSection).toBe(false);
    const devices = devicesOf(t);
    expect(devices.map((d) => d.device)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(devices[0]!.memory).toEqual({ kind: 'ddr', usedMB: 1448, totalMB: 44278 });
  });

  it('310P3 (300I Pro style), 23.0.0: NPU 24 with its process header and "No running processes found in NPU 24"', () => {
    const t = table(ascendFixture('npu-smi-info-310p3-single-proc-table-23.0.0-unidentified.txt'));
    expect(t.chips).toEqual([expect.objectContaining({ npu: 24, chip: 0, deviceColumn: 0, name: '310P3', ddr: { usedMB: 1832, totalMB: 21527 }, busId: '0000:04:00.0' })]);
    expect(t.processSection).toBe(true);
    expect(t.idleNpus).toEqual([24]);
    expect(familyOf(t)).toBe('310p');
  });

  it('Ascend 310, 21.0.4: the tool says 21.0.4, the driver 21.0.4.B030; Device 3-6 on NPU 6; not a vllm-ascend family', () => {
    const t = table(ascendFixture('npu-smi-info-310-21.0.4-old-gpustack-huaweidoc.txt'));
    expect(t).toMatchObject({ toolVersion: '21.0.4', driverVersion: '21.0.4.B030', layout: 'chip-device' });
    expect(t.chips.map((c) => [c.npu, c.chip, c.deviceColumn, c.hugepages?.total])).toEqual([
      [6, 0, 3, 970], [6, 1, 4, 970], [6, 2, 5, 970], [6, 3, 6, 970],
    ]);
    expect(familyOf(t)).toBe('unknown');
  });

  it('Ascend 310, 20.2.0, the oldest layout: no Hugepages column, NPU 215', () => {
    const t = table(ascendFixture('npu-smi-info-310-20.2.0-oldest-gpustack-huaweidoc.txt'));
    expect(t.columns.hugepages).toBe(false);
    expect(t.chips.map((c) => [c.npu, c.chip, c.deviceColumn, c.hugepages, c.busId])).toEqual([
      [215, 0, 0, null, '0000:DA:00.0'], [215, 1, 1, null, '0000:DC:00.0'], [215, 2, 2, null, '0000:DD:00.0'], [215, 3, 3, null, '0000:DB:00.0'],
    ]);
    expect(t.chips[0]!.ddr).toEqual({ usedMB: 2703, totalMB: 8192 });
  });
});

describe('npu-smi info: 910A (DDR and HBM both populated)', () => {
  it('22.0.3.1: no process section, DDR and HBM read separately; not an A2 (910B) family', () => {
    const t = table(ascendFixture('npu-smi-info-910a-22.0.3.1-old-gpustack-huaweidoc.txt'));
    expect(t.chips).toHaveLength(8);
    expect(t.chips[0]).toMatchObject({ name: '910A', ddr: { usedMB: 1867, totalMB: 15077 }, hbm: { usedMB: 0, totalMB: 32768 }, hugepages: { used: 15, total: 15 } });
    expect(t.processSection).toBe(false);
    expect(familyOf(t)).toBe('unknown');
  });

  it('24.1.RC2: two NPUs in Warning, four truncated-name processes per NPU', () => {
    const t = table(ascendFixture('npu-smi-info-910a-warning-proc-24.1.RC2-gpustack-huaweidoc.txt'));
    expect(t.chips.filter((c) => c.health !== 'OK').map((c) => [c.npu, c.health])).toEqual([[3, 'Warning'], [7, 'Warning']]);
    expect(t.chips.every((c) => c.name === 'xxx')).toBe(true);
    expect(t.processes).toHaveLength(32);
    expect(t.processes.filter((p) => p.npu === 0).map((p) => p.pid)).toEqual([37656, 37664, 37640, 37648]);
    expect(new Set(t.processes.map((p) => p.name))).toEqual(new Set(['hlt_host_devmm_']));
    expect(t.processes.every((p) => p.memoryMB === 686 && p.chip === 0)).toBe(true);
    expect(devicesOf(t)[7]!.processes.map((p) => p.pid)).toEqual([37671, 37647, 37655, 37663]);
  });
});

describe('npu-smi info: the 950 template (documentation only)', () => {
  it('parses as its own layout with placeholders; family unknown (not a vllm-ascend target yet)', () => {
    const t = table(ascendFixture('npu-smi-info-950-template-doc-driver-repo.txt'));
    expect(t).toMatchObject({ layout: '950', toolVersion: 'x.x.x', driverVersion: 'x.x.x' });
    expect(t.chips).toEqual([expect.objectContaining({ npu: 0, name: 'xxx', health: 'OK', powerW: 204.4, busId: '0000:91:00.0', hbm: { usedMB: 4439, totalMB: 86016 } })]);
    expect(t.idleNpus).toEqual([0]);
    expect(familyOf(t)).toBe('unknown');
  });
});

describe('npu-smi info: errors and warnings instead of (or after) the table', () => {
  it('DCMI -8005: keyed on the trailing code', () => {
    expect(parseNpuSmiInfo(ascendFixture('npu-smi-error-dcmi-8005-vllm-ascend-2698.txt'))).toEqual({
      kind: 'dcmi-error',
      code: -8005,
      line: 2,
      text: 'dcmi module initialize failed. ret is -8005',
    });
  });

  it('DCMI -8020 in the wording the source prints (derived)', () => {
    expect(parseNpuSmiInfo(syntheticFixture('npu-smi-error-dcmi-8020-derived.txt'))).toMatchObject({ kind: 'dcmi-error', code: -8020 });
  });

  it('a shared library the loader cannot find (HAMi #615 line)', () => {
    expect(parseNpuSmiInfo(syntheticFixture('npu-smi-error-libc-sec-missing-hami-615.txt'))).toMatchObject({ kind: 'library-missing', library: 'libc_sec.so', line: 1 });
  });

  it('"There is no NPU card on this server." (the source\'s message)', () => {
    expect(parseNpuSmiInfo('There is no NPU card on this server.\n')).toMatchObject({ kind: 'no-npu', line: 1 });
  });

  it('the trailing incomplete-driver warning and a held NPU (derived from the 26.1.0 capture)', () => {
    const t = table(syntheticFixture('npu-smi-info-910b3-26.1.0-npu5-warning-incomplete-driver-derived.txt'));
    expect(t.warnings).toEqual(['[WARNING]The driver package may not be completely installed, which may cause function abnormal. Please reinstall it.']);
    expect(t.chips[5]!.health).toBe('Warning');
    expect(t.processes.map((p) => p.pid)).toEqual([485946]);
  });

  it('a harmless "DrvMngGetConsoleLogLevel failed" line before a table is a note, not an error', () => {
    const t = table(`DrvMngGetConsoleLogLevel failed. (ret=4)\n${ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt')}`);
    expect(t.notes).toEqual(['DrvMngGetConsoleLogLevel failed. (ret=4)']);
    expect(t.chips).toHaveLength(8);
  });
});

describe('npu-smi info: variants the reference warns about', () => {
  it('"used/ total" written without a space when used has 5 digits, and CRLF line ends', () => {
    const text = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt').replace('3440 / 65536', '59833/ 65536').replace(/\n/g, '\r\n');
    const t = table(text);
    expect(t.chips[0]!.hbm).toEqual({ usedMB: 59833, totalMB: 65536 });
  });

  it('an empty process name (a blank cell) and several processes on one NPU', () => {
    const base = ascendFixture('npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt');
    const row = '| 0       0                 | 485946        | pytest             | 5175                  | NA                      |';
    const text = base.replace(row, `${row}\n| 0       0                 | 12345         |                    | 2048                  | 77                      |`);
    const t = table(text);
    expect(t.processes.map((p) => [p.pid, p.name, p.memoryMB, p.containerPid])).toEqual([
      [485946, 'pytest', 5175, null],
      [12345, '', 2048, 77],
    ]);
  });

  it('stray "| 0  0 | OK |" sub-rows some captures show are ignored, not counted as chips', () => {
    const base = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
    const first = '| 0     910B3               | OK            | 98.2        37                0    / 0             |';
    const text = base.replace(first, `${first}\n| 0     0                   | OK            | 0           0    / 0                               |`);
    const parsed = parseNpuSmiInfo(text) as NpuSmiTable;
    expect(parsed.chips).toHaveLength(8);
    expect(parsed.chips[0]!.busId).toBe('0000:C1:00.0');
  });
});

describe('npu-smi info: bad input never throws', () => {
  const kinds = new Set<NpuSmiInfo['kind']>(['table', 'dcmi-error', 'library-missing', 'no-npu', 'invalid']);

  it('empty output', () => {
    expect(parseNpuSmiInfo('')).toEqual({ kind: 'invalid', line: 1, text: '', reason: 'the output is empty' });
  });

  it('garbage names its first offending line', () => {
    expect(parseNpuSmiInfo('\n\nCommand or option is not found.\nUsage: ...\n')).toMatchObject({ kind: 'invalid', line: 3, text: 'Command or option is not found.' });
  });

  it('a table truncated after its header is a table with no chip', () => {
    const lines = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt').split('\n').slice(0, 6).join('\n');
    const parsed = parseNpuSmiInfo(lines);
    expect(parsed).toMatchObject({ kind: 'table', chips: [] });
  });

  it('a table cut in the middle of a chip keeps the complete chips and marks the last one partial', () => {
    const lines = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt').split('\n').slice(0, 10).join('\n');
    const parsed = parseNpuSmiInfo(lines) as NpuSmiTable;
    expect(parsed.chips.map((c) => [c.npu, c.partial])).toEqual([[0, false], [1, true]]);
  });

  it('an unknown second header row is named', () => {
    const text = '| NPU   Name | Health | Power(W) |\n| Widget | Bus-Id | X |\n';
    expect(parseNpuSmiInfo(text)).toMatchObject({ kind: 'invalid', line: 2, text: '| Widget | Bus-Id | X |' });
  });

  it('10 MB on one line and 10 MB of short lines', () => {
    const long = `${'|'.repeat(10)}${'1/'.repeat(5 * 1024 * 1024)}`;
    expect(parseNpuSmiInfo(long)).toMatchObject({ kind: 'invalid', line: 1 });
    const many = `${ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt')}${'| 9 9 | OK | 1 / 2 |\n'.repeat(450_000)}`;
    const parsed = parseNpuSmiInfo(many) as NpuSmiTable;
    expect(parsed.kind).toBe('table');
    expect(parsed.chips).toHaveLength(8);
    expect(parsed.skippedRows).toHaveLength(20);
  });

  it('arbitrary text: one of the known kinds; "invalid" names a real line of the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (text) => {
        const parsed = parseNpuSmiInfo(text);
        expect(kinds.has(parsed.kind)).toBe(true);
        if (parsed.kind === 'invalid') {
          const lines = text.split(/\r\n|\r|\n/);
          expect(parsed.line).toBeGreaterThanOrEqual(1);
          expect(parsed.line).toBeLessThanOrEqual(lines.length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('arbitrary table-like rows around a real header never throw', () => {
    const header = ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt').split('\n').slice(0, 6).join('\n');
    const cell = fc.stringMatching(/^[ 0-9A-Za-z./:-]{0,20}$/);
    const row = fc.array(cell, { minLength: 1, maxLength: 6 }).map((cells) => `| ${cells.join(' | ')} |`);
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        const parsed = parseNpuSmiInfo(`${header}\n${rows.join('\n')}`);
        expect(parsed.kind).toBe('table');
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary bytes, including invalid UTF-8', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4000 }), (bytes) => {
        expect(kinds.has(parseNpuSmiInfo(bytes).kind)).toBe(true);
      }),
      { numRuns: 300 },
    );
    const latin1 = Buffer.concat([Buffer.from(ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt')), Buffer.from([0xff, 0xfe, 0x80, 0x0a])]);
    expect(parseNpuSmiInfo(latin1)).toMatchObject({ kind: 'table' });
  });
});
