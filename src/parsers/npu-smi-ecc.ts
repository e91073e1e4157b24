import { integerOf, type TextInput } from './lines.js';
import { parseNpuSmiKeyValue, valueOf, type KeyValueEntry } from './npu-smi-kv.js';

/**
 * `npu-smi info -t ecc -i <card>`: the ECC counters of each chip of a card, in the generic
 * `npu-smi info -t` format (`\t%-40s : %u` a line). The npucli source prints the card's `NPU ID`
 * and `Chip Count`, a blank line, then per chip its counters followed by its `Chip ID` and a
 * blank line; a 910A also has DDR counters, 910B, A3 and 950 drivers add the pages pending
 * isolation (`Next-Isolated`); the 950's tool (`NPU_SMI_V2`) prints no Chip Count or Chip ID; the
 * 310 and 310B print `Single-bit Error Count` / `Double-bit Error Count` for their DDR.
 */

/** The counters of one memory of a chip; null where the driver prints no such line. */
export interface EccCounters {
  /** correctable errors since the driver loaded (or the counters were cleared) */
  singleBitErrors: number | null;
  /** uncorrectable errors since the driver loaded */
  doubleBitErrors: number | null;
  /** over the memory's life */
  singleBitTotal: number | null;
  doubleBitTotal: number | null;
  /** pages taken out of use (isolated, "retired") */
  singleBitIsolatedPages: number | null;
  doubleBitIsolatedPages: number | null;
  /** pages to be isolated at the next NPU reset or reboot */
  singleBitPendingPages: number | null;
  doubleBitPendingPages: number | null;
}

export interface NpuEccChip {
  /** `Chip ID`, or the chip's place on the card where the tool prints none */
  chip: number;
  hbm: EccCounters | null;
  ddr: EccCounters | null;
  /** the line of the chip's first counter */
  line: number;
}

export interface NpuEccInfo {
  npu: number | null;
  chipCount: number | null;
  chips: NpuEccChip[];
  /** lines without a key: "Failed to query npu chip: 0 info.", "This device does not support ..." */
  messages: Array<{ line: number; text: string }>;
}

const FIELDS: ReadonlyArray<[keyof EccCounters, string]> = [
  ['singleBitErrors', 'Single Bit Error Count'],
  ['doubleBitErrors', 'Double Bit Error Count'],
  ['singleBitTotal', 'Single Bit Aggregate Total Err Cnt'],
  ['doubleBitTotal', 'Double Bit Aggregate Total Err Cnt'],
  ['singleBitIsolatedPages', 'Single Bit Isolated Pages Count'],
  ['doubleBitIsolatedPages', 'Double Bit Isolated Pages Count'],
  ['singleBitPendingPages', 'Single Bit Next-Isolated Pages Count'],
  ['doubleBitPendingPages', 'Double Bit Next-Isolated Pages Count'],
];

/** The 310 and 310B name their DDR counters without the memory's name. */
const BARE_DDR: ReadonlyArray<[keyof EccCounters, string]> = [
  ['singleBitErrors', 'Single-bit Error Count'],
  ['doubleBitErrors', 'Double-bit Error Count'],
];

/** A counter as printed (`%u`, at most 4294967295); anything else (NA, garbage) is null, never a guess. */
function count(value: string | undefined): number | null {
  return integerOf(value?.trim());
}

function countersOf(block: readonly KeyValueEntry[], memory: 'HBM' | 'DDR'): EccCounters | null {
  const counters = Object.fromEntries(FIELDS.map(([field, key]) => [field, count(valueOf(block, `${memory} ${key}`))])) as unknown as EccCounters;
  if (memory === 'DDR') {
    for (const [field, key] of BARE_DDR) if (counters[field] === null) counters[field] = count(valueOf(block, key));
  }
  return Object.values(counters).some((v) => v !== null) ? counters : null;
}

function isCounterKey(key: string): boolean {
  const lower = key.toLowerCase();
  return [...FIELDS, ...BARE_DDR].some(([, name]) => lower.endsWith(name.toLowerCase()));
}

/** Parses `npu-smi info -t ecc -i <card>` (also with `-c <chip>`). Never throws. */
export function parseNpuSmiEcc(input: TextInput): NpuEccInfo {
  const output = parseNpuSmiKeyValue(input);
  const entries = output.blocks.flat();
  const chips: NpuEccChip[] = [];
  for (const block of output.blocks) {
    const first = block.find((e) => isCounterKey(e.key));
    if (!first) continue;
    // a chip's `Chip ID` closes its block (the 310 prints it first: the same block either way)
    const chipId = integerOf(valueOf(block, 'Chip ID'));
    chips.push({ chip: chipId ?? chips.length, hbm: countersOf(block, 'HBM'), ddr: countersOf(block, 'DDR'), line: first.line });
  }
  // "Failed to query npu chip: 1 info." has a colon: a message all the same
  const failures = entries.filter((e) => /^failed to query/i.test(e.key)).map((e) => ({ line: e.line, text: `${e.key}: ${e.value}` }));
  return {
    npu: integerOf(valueOf(entries, 'NPU ID')),
    chipCount: integerOf(valueOf(entries, 'Chip Count')),
    chips,
    messages: [...output.messages, ...failures].sort((a, b) => a.line - b.line),
  };
}
