import { describe, expect, it } from 'vitest';
import { parseNpuSmiEcc } from '../../../src/parsers/npu-smi-ecc.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';

const ZERO = {
  singleBitErrors: 0,
  doubleBitErrors: 0,
  singleBitTotal: 0,
  doubleBitTotal: 0,
  singleBitIsolatedPages: 0,
  doubleBitIsolatedPages: 0,
};

describe('npu-smi info -t ecc', () => {
  it('910A (mind-cluster doc): card header, one chip with DDR and HBM counters closed by its Chip ID', () => {
    const ecc = parseNpuSmiEcc(ascendFixture('npu-smi-info-t-ecc-910a-23.0.5-mindcluster-doc.txt'));
    expect(ecc).toEqual({
      npu: 1,
      chipCount: 1,
      chips: [
        {
          chip: 0,
          line: 4,
          ddr: { ...ZERO, singleBitPendingPages: null, doubleBitPendingPages: null },
          hbm: { ...ZERO, singleBitPendingPages: null, doubleBitPendingPages: null },
        },
      ],
      messages: [],
    });
  });

  it('950 (driver doc, NPU_SMI_V2): no Chip Count or Chip ID, HBM only, with the pages pending isolation', () => {
    const ecc = parseNpuSmiEcc(ascendFixture('npu-smi-info-t-ecc-950doc-driver-repo.txt'));
    expect(ecc.npu).toBe(0);
    expect(ecc.chipCount).toBeNull();
    expect(ecc.chips).toEqual([{ chip: 0, line: 2, ddr: null, hbm: { ...ZERO, singleBitPendingPages: 0, doubleBitPendingPages: 0 } }]);
  });

  it('derived: uncorrectable HBM errors with retired pages, and a page pending isolation', () => {
    const retired = parseNpuSmiEcc(syntheticFixture('npu-smi-info-t-ecc-hbm-uncorrectable-retired-derived.txt'));
    expect(retired.npu).toBe(5);
    expect(retired.chips[0]!.hbm).toMatchObject({ singleBitErrors: 12, doubleBitErrors: 3, doubleBitTotal: 3, doubleBitIsolatedPages: 2 });
    const pending = parseNpuSmiEcc(syntheticFixture('npu-smi-info-t-ecc-hbm-pending-isolation-950-derived.txt'));
    expect(pending.chips[0]!.hbm).toMatchObject({ doubleBitErrors: 1, doubleBitPendingPages: 1, doubleBitIsolatedPages: 0 });
  });

  it('derived two-chip card: one entry per Chip ID', () => {
    const ecc = parseNpuSmiEcc(syntheticFixture('npu-smi-info-t-ecc-two-chips-derived.txt'));
    expect(ecc.chipCount).toBe(2);
    expect(ecc.chips.map((c) => c.chip)).toEqual([0, 1]);
  });

  it('the 310 names its DDR counters bare, Chip ID first (npucli source format)', () => {
    const text = '\tNPU ID                                   : 6\n\tChip Count                               : 1\n\n\tChip ID                                  : 0\n\tSingle-bit Error Count                   : 4\n\tDouble-bit Error Count                   : 0\n\n';
    const ecc = parseNpuSmiEcc(text);
    expect(ecc.chips).toEqual([{ chip: 0, line: 5, hbm: null, ddr: expect.objectContaining({ singleBitErrors: 4, doubleBitErrors: 0, doubleBitIsolatedPages: null }) }]);
  });

  it('a counter that is not a number is null, never a guess; lines without a key are kept; CR/LF line ends', () => {
    const text = '\tNPU ID                                   : 0\r\n\tHBM Double Bit Error Count               : NA\r\n\tHBM Single Bit Error Count               : 7\r\nFailed to query npu chip: 1 info.\r\n';
    const ecc = parseNpuSmiEcc(text);
    expect(ecc.chips[0]!.hbm).toMatchObject({ doubleBitErrors: null, singleBitErrors: 7 });
    expect(ecc.messages).toEqual([{ line: 4, text: 'Failed to query npu chip: 1 info.' }]);
  });

  it('an answer without counters has no chips (an error message, an empty output)', () => {
    expect(parseNpuSmiEcc('Command or option is not found.\n').chips).toEqual([]);
    expect(parseNpuSmiEcc('').chips).toEqual([]);
  });
});
