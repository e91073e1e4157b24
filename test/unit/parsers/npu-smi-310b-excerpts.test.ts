import { describe, expect, it } from 'vitest';
import checkCount from '../../../checks/npu.count.js';
import checkIdle from '../../../checks/npu.idle.js';
import checkSmi from '../../../checks/npu.smi.js';
import { familyOf, parseNpuSmiInfo, type NpuSmiTable } from '../../../src/parsers/npu-smi-info.js';
import { devicesOf } from '../../../src/probes/npu.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { npuHost } from '../../helpers/npu-host.js';
import { runOn } from '../../helpers/run-check.js';

function table(text: string): NpuSmiTable {
  const parsed = parseNpuSmiInfo(text);
  if (parsed.kind !== 'table') throw new Error(`expected a table, got ${JSON.stringify(parsed)}`);
  expect(parsed.skippedRows).toEqual([]);
  return parsed;
}

const B1 = 'npu-smi-info-310b1-23.0.rc3-ascend-yolo-readme.txt';
const B4_EXCERPT = 'npu-smi-info-310b4-alarm-device-rows-excerpt-unidentified.txt';
const PROCESS_EXCERPT = 'npu-smi-info-910a-process-table-excerpt-codontransformer-readme.txt';

describe('npu-smi info of a 310B board (Atlas 200I DK A2 / OrangePi AIpro)', () => {
  it('is the chip-device layout, family unknown (not a vllm-ascend target), never 310p', () => {
    const t = table(ascendFixture(B1));
    expect(t.layout).toBe('chip-device');
    expect(t.truncated).toBe(false);
    expect(t.chips).toHaveLength(1);
    expect(t.chips[0]).toMatchObject({ name: '310B1', health: 'OK', busId: 'NA', ddr: { usedMB: 3841, totalMB: 11577 }, hbm: null });
    expect(familyOf(t)).toBe('unknown');
  });

  it("its on-board memory (the board OS's own DDR) is not an NPU in use; the count reads 1 NPU device", async () => {
    const host = npuHost({ info: ascendFixture(B1), devices: [0] });
    const idle = await runOn(checkIdle, host);
    expect(idle.outcome.status).toBe('pass');
    expect(idle.outcome.message).toBe('1 NPU device free: this driver prints no process table, 3841-3841 MB in use (idle baseline)');
    const count = await runOn(checkCount, npuHost({ info: ascendFixture(B1), devices: [0] }));
    expect(count.outcome.message).toBe('1 NPU device, family unknown');
  });
});

describe('npu-smi excerpts that begin mid-table', () => {
  it('device rows without the banner and header: read, flagged truncated', () => {
    const t = table(ascendFixture(B4_EXCERPT));
    expect(t.truncated).toBe(true);
    expect(t.layout).toBe('chip-device');
    expect(t.chips).toHaveLength(1);
    expect(t.chips[0]).toMatchObject({ npu: 0, chip: 0, name: '310B4', health: 'Alarm', temperatureC: 64, ddr: { usedMB: 6680, totalMB: 15609 }, line: 1 });
    expect(familyOf(t)).toBe('unknown');
    expect(devicesOf(t).map((d) => d.device)).toEqual([0]);
  });

  it('a process table alone: its process read, no device, flagged truncated', () => {
    const t = table(ascendFixture(PROCESS_EXCERPT));
    expect(t.truncated).toBe(true);
    expect(t.chips).toEqual([]);
    expect(t.processSection).toBe(true);
    expect(t.processes).toEqual([{ npu: 0, chip: 0, pid: 48988, name: 'python', memoryMB: 13330, containerPid: null, line: 4 }]);
  });

  it('npu.smi says the output is an excerpt, not "an error the tool is not known to print"', async () => {
    const rows = await runOn(checkSmi, npuHost({ info: ascendFixture(B4_EXCERPT), devices: [0] }));
    expect(rows.outcome.status).toBe('warn');
    expect(rows.outcome.message).toBe(
      "npu-smi's output begins mid-table (device rows without the banner and header): it is read for what it holds, 1 NPU device (family unknown) and 0 processes, and may be cut",
    );
    const processes = await runOn(checkSmi, npuHost({ info: ascendFixture(PROCESS_EXCERPT), devices: [0] }));
    expect(processes.outcome.status).toBe('warn');
    expect(processes.outcome.message).toBe(
      "npu-smi's output begins mid-table (a process table without the banner and header): it is read for what it holds, 0 NPU devices and 1 process, and may be cut",
    );
    expect(processes.outcome.message).not.toMatch(/not known to print/);
  });

  it('a whole table is not truncated', () => {
    expect(table(ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt')).truncated).toBe(false);
  });
});
