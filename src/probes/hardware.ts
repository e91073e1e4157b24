import type { HardwareFamily } from '../knowledge/hardware.js';
import type { NpuSmiTable } from '../parsers/npu-smi-info.js';

/**
 * The NPU as vllm-ascend's FAQ names it (knowledge/hardware.json), from npu-smi's table: the
 * layout first, as for the tuning family, then what tells the families of one layout apart.
 * The first-generation 910 prints the A2 layout with its DDR in use (a 910B of an A2 leaves the
 * DDR column at 0 / 0), and some print the name "910B" (the first-generation Ascend910B, soc
 * 104: vllm-project/vllm-ascend#6796), so the name alone never decides; the 310 and 310B print
 * the 310P layout and differ by name.
 */
export type NpuHardware = HardwareFamily | '310';

export interface HardwareIdentity {
  hardware: NpuHardware | null;
  /** the chip names npu-smi prints, for messages */
  names: string[];
  /** what decided it, in English (evidence) */
  by: string;
}

export function hardwareOfTable(table: NpuSmiTable): HardwareIdentity {
  const names = [...new Set(table.chips.map((c) => c.name))];
  switch (table.layout) {
    case 'a3':
      return { hardware: 'A3', names, by: 'the A3 layout (Chip Phy-ID)' };
    case '950':
      return { hardware: '950', names, by: 'the 950 layout (NPU ID | Name)' };
    case 'a2': {
      const ddr = table.chips.find((c) => (c.ddr?.totalMB ?? 0) > 0);
      return ddr
        ? { hardware: '910', names, by: `the A2 layout with ${ddr.ddr!.totalMB} MB of DDR in Memory-Usage: a first-generation Ascend 910` }
        : { hardware: 'A2', names, by: 'the A2 layout, no DDR in Memory-Usage' };
    }
    case 'chip-device':
      if (table.chips.length > 0 && table.chips.every((c) => /^310$/i.test(c.name))) return { hardware: '310', names, by: 'the 310 layout, chips named 310' };
      if (table.chips.length > 0 && table.chips.every((c) => /^310B/i.test(c.name))) return { hardware: '310B', names, by: 'the 310 layout, chips named 310B' };
      return { hardware: '310P', names, by: 'the 310 layout, chips named 310P' };
    default:
      return { hardware: null, names, by: `layout ${String(table.layout)}` };
  }
}
