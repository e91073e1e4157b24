import { decimalOf, decodeText, integerOf, MAX_LINE_LENGTH, preview, splitLines, type TextInput } from './lines.js';

/**
 * The `npu-smi info -t <type>` outputs (board, health, usages, common, memory, spod-info, ...)
 * and `npu-smi info -l` share one format: `\t%-30s : %s` per line, blocks separated by a
 * blank line. Copies in docs replace the TAB by spaces or drop it, so keys are split on the
 * first colon, whatever the indentation.
 */

export interface KeyValueEntry {
  key: string;
  /** the value, with the values of its continuation lines appended after a space */
  value: string;
  line: number;
  /**
   * The value of this line, then of each line that continues it (a blank key): `-t health`
   * prints the information of its second and further error codes so, each after a blank line.
   */
  parts: string[];
}

export interface KeyValueOutput {
  /** entries grouped by blank lines, in order */
  blocks: KeyValueEntry[][];
  /** lines without a key, such as "This device does not support querying spod-info." */
  messages: Array<{ line: number; text: string }>;
}

/** Parses the generic `npu-smi info -t` format. Never throws. */
export function parseNpuSmiKeyValue(input: TextInput): KeyValueOutput {
  const out: KeyValueOutput = { blocks: [], messages: [] };
  let block: KeyValueEntry[] = [];
  /** the entry a blank-key line continues: the last one read, across a blank line */
  let last: KeyValueEntry | undefined;
  const continued = new Set<KeyValueEntry>();
  const lines = splitLines(decodeText(input));
  lines.forEach((raw, index) => {
    const line = index + 1;
    const text = raw.trim();
    if (text === '') {
      if (block.length > 0) out.blocks.push(block);
      block = [];
      return;
    }
    if (raw.length > MAX_LINE_LENGTH) {
      out.messages.push({ line, text: preview(text) });
      return;
    }
    const colon = text.indexOf(':');
    if (colon < 0) {
      out.messages.push({ line, text });
      return;
    }
    const key = text.slice(0, colon).trim();
    const value = text.slice(colon + 1).trim();
    // a blank key continues the previous value, also after the blank line `-t health` prints
    // before the information of each further error code
    if (key === '' && last !== undefined) {
      last.parts.push(value);
      continued.add(last);
      return;
    }
    last = { key, value, line, parts: [value] };
    block.push(last);
  });
  if (block.length > 0) out.blocks.push(block);
  // joined once at the end: a flood of continuation lines costs linear time
  for (const entry of continued) entry.value = entry.parts.filter(Boolean).join(' ');
  return out;
}

/** The value of a key in a block, compared without case; the first occurrence wins. */
export function valueOf(block: readonly KeyValueEntry[], key: string): string | undefined {
  const wanted = key.toLowerCase();
  return block.find((e) => e.key.toLowerCase() === wanted)?.value;
}

function allEntries(output: KeyValueOutput): KeyValueEntry[] {
  return output.blocks.flat();
}

function naToNull(value: string | undefined): string | null {
  return value === undefined || value === '' || value.toUpperCase() === 'NA' ? null : value;
}

/** `npu-smi info -t health -i N [-c C]`; 950 writes `Health` where the others write `Health Status`. */
export interface NpuHealthInfo {
  status: string | null;
  /** hex codes such as 80E01801; empty when NA */
  errorCodes: string[];
  /** all of it on one line, as printed */
  errorInformation: string | null;
  /** one text per line of `Error Information` (the first, then each continuation): one per error code when the driver has words for each */
  errorInformationLines: string[];
}

export function healthInfo(output: KeyValueOutput): NpuHealthInfo {
  const entries = allEntries(output);
  const status = valueOf(entries, 'Health Status') ?? valueOf(entries, 'Health') ?? null;
  const codes = naToNull(valueOf(entries, 'Error Code'));
  const wanted = 'error information';
  const information = entries.find((e) => e.key.toLowerCase() === wanted);
  const text = naToNull(information?.value);
  return {
    status,
    errorCodes: codes ? codes.split(/[\s,]+/).filter((c) => /^[0-9a-f]{1,16}$/i.test(c)) : [],
    errorInformation: text,
    errorInformationLines: text === null ? [] : (information?.parts ?? []).filter(Boolean),
  };
}

/** `npu-smi info -t board -i N [-c C]`. */
export interface NpuBoardInfo {
  npu: number | null;
  chip: number | null;
  /** the driver version */
  softwareVersion: string | null;
  firmwareVersion: string | null;
  /** OK, NOK or UNKNOWN: the driver's own verdict on the firmware */
  compatibility: string | null;
  busId: string | null;
  productName: string | null;
  serialNumber: string | null;
  chipName: string | null;
  pciDeviceId: string | null;
}

export function boardInfo(output: KeyValueOutput): NpuBoardInfo {
  const entries = allEntries(output);
  const get = (key: string) => naToNull(valueOf(entries, key));
  return {
    npu: integerOf(valueOf(entries, 'NPU ID')),
    chip: integerOf(valueOf(entries, 'Chip ID')),
    softwareVersion: get('Software Version'),
    firmwareVersion: get('Firmware Version'),
    compatibility: get('Compatibility'),
    busId: get('PCIe Bus Info'),
    productName: get('Product Name'),
    serialNumber: get('Serial Number'),
    chipName: get('Chip Name'),
    pciDeviceId: get('PCI Device ID'),
  };
}

/** `npu-smi info -t usages -i N` (and the memory part of `-t memory`). */
export interface NpuUsagesInfo {
  npu: number | null;
  ddrCapacityMB: number | null;
  ddrUsagePercent: number | null;
  hbmCapacityMB: number | null;
  hbmUsagePercent: number | null;
  aicoreUsagePercent: number | null;
}

export function usagesInfo(output: KeyValueOutput): NpuUsagesInfo {
  const entries = allEntries(output);
  return {
    npu: integerOf(valueOf(entries, 'NPU ID')),
    ddrCapacityMB: decimalOf(valueOf(entries, 'DDR Capacity(MB)')),
    ddrUsagePercent: decimalOf(valueOf(entries, 'DDR Usage Rate(%)')),
    hbmCapacityMB: decimalOf(valueOf(entries, 'HBM Capacity(MB)')),
    hbmUsagePercent: decimalOf(valueOf(entries, 'HBM Usage Rate(%)')),
    aicoreUsagePercent: decimalOf(valueOf(entries, 'Aicore Usage Rate(%)')),
  };
}

/** `npu-smi info -t common -i N`: one block per chip, the MCU last. */
export interface NpuCommonChip {
  chipId: number | null;
  chipName: string | null;
  hbmUsagePercent: number | null;
  aicoreUsagePercent: number | null;
  temperatureC: number | null;
  powerW: number | null;
}

export function commonInfo(output: KeyValueOutput): NpuCommonChip[] {
  return output.blocks
    .filter((block) => valueOf(block, 'Chip ID') !== undefined || valueOf(block, 'Chip Name') !== undefined)
    .map((block) => ({
      chipId: integerOf(valueOf(block, 'Chip ID')),
      chipName: naToNull(valueOf(block, 'Chip Name')),
      hbmUsagePercent: decimalOf(valueOf(block, 'HBM Usage Rate(%)')),
      aicoreUsagePercent: decimalOf(valueOf(block, 'Aicore Usage Rate(%)')),
      temperatureC: decimalOf(valueOf(block, 'Temperature(C)')),
      powerW: decimalOf(valueOf(block, 'NPU Real-time Power(W)')),
    }));
}

/** `npu-smi info -t memory -i N`. */
export interface NpuMemoryInfo {
  ddrCapacityMB: number | null;
  hbmCapacityMB: number | null;
  hbmClockMHz: number | null;
  hbmTemperatureC: number | null;
  hbmManufacturerId: string | null;
}

export function memoryInfo(output: KeyValueOutput): NpuMemoryInfo {
  const entries = allEntries(output);
  return {
    ddrCapacityMB: decimalOf(valueOf(entries, 'DDR Capacity(MB)')),
    hbmCapacityMB: decimalOf(valueOf(entries, 'HBM Capacity(MB)')),
    hbmClockMHz: decimalOf(valueOf(entries, 'HBM Clock Speed(MHz)')),
    hbmTemperatureC: decimalOf(valueOf(entries, 'HBM Temperature(C)')),
    hbmManufacturerId: naToNull(valueOf(entries, 'HBM Manufacturer ID')),
  };
}

/** `npu-smi info -t spod-info -i <card> -c <die>` (A3 super pod); the 950 says it does not support it. */
export type SpodInfo =
  | { supported: true; sdid: number | null; superPodSize: number | null; superPodId: number | null; serverIndex: number | null }
  | { supported: false; message: string };

export function spodInfo(output: KeyValueOutput): SpodInfo {
  const unsupported = output.messages.find((m) => /does not support/i.test(m.text));
  const entries = allEntries(output);
  if (unsupported && entries.length === 0) return { supported: false, message: unsupported.text };
  return {
    supported: true,
    sdid: integerOf(valueOf(entries, 'SDID')),
    superPodSize: integerOf(valueOf(entries, 'Super Pod Size')),
    superPodId: integerOf(valueOf(entries, 'Super Pod ID')),
    serverIndex: integerOf(valueOf(entries, 'Server Index')),
  };
}

/** `npu-smi info -l`: the card list. 310 and 310B say `Card Count` where the others say `Total Count`. */
export interface NpuCardList {
  totalCount: number | null;
  cards: Array<{ npu: number; chipCount: number | null; productName: string | null; serialNumber: string | null }>;
}

export function cardList(output: KeyValueOutput): NpuCardList {
  const entries = allEntries(output);
  const cards: NpuCardList['cards'] = [];
  for (const block of output.blocks) {
    const npu = integerOf(valueOf(block, 'NPU ID'));
    if (npu === null) continue;
    cards.push({
      npu,
      chipCount: integerOf(valueOf(block, 'Chip Count')),
      productName: naToNull(valueOf(block, 'Product Name')),
      serialNumber: naToNull(valueOf(block, 'Serial Number')),
    });
  }
  return { totalCount: integerOf(valueOf(entries, 'Total Count') ?? valueOf(entries, 'Card Count')), cards };
}
