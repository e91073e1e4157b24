import { decodeText, integerOf, MAX_LINE_LENGTH, preview, splitLines, type TextInput } from './lines.js';

/**
 * `npu-smi info -m`: card and chip to logical id. The header names the columns
 * (`NPU ID  Chip ID  Chip Logic ID  Chip Name`; A3 adds `Chip Phy-ID`, the 950 has
 * `Slot ID` and no logic id); values are words separated by blanks, the chip name last
 * and possibly two words (`Ascend 910B4`). Copies with and without the leading TAB and with
 * trailing spaces all occur.
 */

export interface NpuMappingRow {
  npu: number;
  chip: number;
  /** null for the MCU row ("-") and on the 950, which prints no logic id */
  logicId: number | null;
  /** A3 and 950 only */
  phyId: number | null;
  slotId: number | null;
  /** `Ascend 910B4`, `Mcu`, `MiniD` */
  name: string;
  isMcu: boolean;
  line: number;
}

export type NpuMapping =
  | { kind: 'mapping'; columns: string[]; rows: NpuMappingRow[]; skippedRows: Array<{ line: number; text: string }> }
  | { kind: 'invalid'; line: number; text: string; reason: string };

const ID_COLUMNS = ['NPU ID', 'Slot ID', 'Chip ID', 'Chip Logic ID', 'Chip Phy-ID'] as const;
type IdColumn = (typeof ID_COLUMNS)[number];

/** The id columns named by a header line, in the order printed; undefined when it is not the header. */
function headerColumns(line: string): IdColumn[] | undefined {
  const text = line.replace(/\s+/g, ' ').trim();
  if (!/^NPU ID\b/i.test(text) || !/Chip Name\s*$/i.test(text)) return undefined;
  const found: Array<{ at: number; column: IdColumn }> = [];
  for (const column of ID_COLUMNS) {
    const at = text.toLowerCase().indexOf(column.toLowerCase());
    if (at >= 0) found.push({ at, column });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.column);
}

/** Parses `npu-smi info -m`. Never throws. */
export function parseNpuSmiMapping(input: TextInput): NpuMapping {
  const lines = splitLines(decodeText(input));
  let columns: IdColumn[] | undefined;
  const rows: NpuMappingRow[] = [];
  const skippedRows: Array<{ line: number; text: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    if (raw.length > MAX_LINE_LENGTH) return { kind: 'invalid', line: i + 1, text: preview(raw), reason: `line is ${raw.length} characters long` };
    if (!columns) {
      columns = headerColumns(raw);
      if (!columns) return { kind: 'invalid', line: i + 1, text: preview(raw.trim()), reason: 'expected the header "NPU ID ... Chip Name"' };
      continue;
    }
    const words = raw.trim().split(/\s+/);
    const ids = words.slice(0, columns.length);
    const name = words.slice(columns.length).join(' ');
    const value = (column: IdColumn): number | null => {
      const at = columns!.indexOf(column);
      const word = at >= 0 ? ids[at] : undefined;
      return integerOf(word);
    };
    const npu = value('NPU ID');
    const chip = value('Chip ID');
    const idsWellFormed = ids.length === columns.length && ids.every((w) => /^(\d{1,9}|-)$/.test(w));
    if (npu === null || chip === null || !idsWellFormed || name === '') {
      if (skippedRows.length < 20) skippedRows.push({ line: i + 1, text: preview(raw.trim()) });
      continue;
    }
    rows.push({
      npu,
      chip,
      logicId: value('Chip Logic ID'),
      phyId: value('Chip Phy-ID'),
      slotId: value('Slot ID'),
      name,
      isMcu: /^mcu$/i.test(name),
      line: i + 1,
    });
  }
  if (!columns) return { kind: 'invalid', line: 1, text: '', reason: 'the output is empty' };
  return { kind: 'mapping', columns: [...columns, 'Chip Name'], rows, skippedRows };
}
