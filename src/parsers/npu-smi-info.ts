import { decimalOf, decodeText, integerOf, MAX_LINE_LENGTH, preview, splitLines, type TextInput } from './lines.js';

/**
 * `npu-smi info`: the main table, in every layout family seen in the wild (reference §1.1),
 * or the error the tool printed instead. Column widths differ between families (80 to 116
 * characters, sometimes with trailing spaces), so rows are split on `|` and cells on
 * whitespace; nothing here depends on a width.
 */

/**
 * How the device rows are laid out:
 * - `a2`: one chip row per NPU, header `Chip | Bus-Id | ... HBM-Usage(MB)` (910B, and the
 *   older 910A which fills the DDR column as well);
 * - `a3`: header `Chip  Phy-ID`, two dies per NPU, the second row carries the Phy-ID;
 * - `chip-device`: header `Chip    Device`, no HBM column, memory is DDR (310, 310P, 310B);
 * - `950`: `NPU ID | Name | Health` in separate cells (Ascend 950 documentation).
 */
export type NpuSmiLayout = 'a2' | 'a3' | 'chip-device' | '950';

export interface MemoryUsage {
  usedMB: number;
  totalMB: number;
}

/** One chip (die) as the table prints it: a row with the name and health, a row with the bus and memory. */
export interface NpuSmiChip {
  /** the NPU column: the card id that `npu-smi -i` takes */
  npu: number;
  /** the chip index on that card (A3 die 0/1, 300I Duo chip 0/1) */
  chip: number;
  name: string;
  /** A3 only: the Phy-ID column, the device id of hccn_tool -i and /dev/davinciN */
  phyId: number | null;
  /** 310-family only: the Device column */
  deviceColumn: number | null;
  /** as printed: OK, Warning, Alarm, Critical, UNKNOWN, or whatever else the tool said */
  health: string;
  /** null when printed as "-" (A3 die 1) or "NA" (310P) */
  powerW: number | null;
  temperatureC: number | null;
  /** Hugepages-Usage, in pages; absent from the oldest 310 layout */
  hugepages: { used: number; total: number } | null;
  /** as printed; may be "NA" or redacted ("xxxx:xx:xx.x"); null when the second row is missing */
  busId: string | null;
  aicorePercent: number | null;
  /** the Memory-Usage column: DDR */
  ddr: MemoryUsage | null;
  /** the HBM-Usage column, when the layout has one */
  hbm: MemoryUsage | null;
  /** 1-based line of the chip's first row */
  line: number;
  /** the second row (bus id, memory) was missing, e.g. elided by the author of a capture */
  partial: boolean;
}

export interface NpuSmiProcess {
  npu: number;
  /** null on layouts whose process table has no Chip column (950) */
  chip: number | null;
  pid: number;
  /** may be empty (the tool prints a blank cell) or truncated by the tool ("hlt_host_devmm_") */
  name: string;
  memoryMB: number | null;
  /** the `Process id in container` column of 26.x; null when absent or "NA" */
  containerPid: number | null;
  line: number;
}

export interface NpuSmiTable {
  kind: 'table';
  /** `npu-smi 21.0.4` */
  toolVersion: string | null;
  /** `Version: 21.0.4.B030`: the driver, which can differ from the tool */
  driverVersion: string | null;
  layout: NpuSmiLayout;
  columns: { hbm: boolean; hugepages: boolean; containerPid: boolean };
  chips: NpuSmiChip[];
  /** a process section was printed (older drivers and some layouts print none) */
  processSection: boolean;
  processes: NpuSmiProcess[];
  /** NPUs listed as "No running processes found in NPU n" */
  idleNpus: number[];
  /** `[WARNING]...` lines after the table, such as the incomplete driver installation warning */
  warnings: string[];
  /** other text around the table (e.g. `DrvMngGetConsoleLogLevel failed`, harmless on its own) */
  notes: string[];
  /** a row of `...` showed that the capture was cut by hand */
  elided: boolean;
  /**
   * the output begins mid-table: device rows without the banner and header, or a process table
   * alone. What it holds is read (the layout guessed from the rows), and it may lack devices.
   */
  truncated: boolean;
  /**
   * the output stops after a table row that has no closing border (the line of that row): a
   * capture cut after its first rows, or a tool stopped mid-table. Rows after it are missing, so
   * the NPUs it lists are a lower bound. Null when the table ends with its border.
   */
  cutAfterLine: number | null;
  /** table rows that were not understood, so a caller can say what was ignored */
  skippedRows: Array<{ line: number; text: string }>;
}

export type NpuSmiInfo =
  | NpuSmiTable
  /** `dcmi module initialize failed. ret is -8005` and its variants: key on the trailing code */
  | { kind: 'dcmi-error'; code: number; line: number; text: string }
  /** `npu-smi: error while loading shared libraries: libc_sec.so: cannot open shared object file` */
  | { kind: 'library-missing'; library: string; line: number; text: string }
  /** `There is no NPU card on this server.` */
  | { kind: 'no-npu'; line: number; text: string }
  /** not npu-smi output we understand: the first offending line and why */
  | { kind: 'invalid'; line: number; text: string; reason: string };

export const INCOMPLETE_DRIVER_WARNING = /driver package may not be completely installed/i;

const BUS_ID = /^(?:[0-9a-fx]{4}:)?[0-9a-fx]{2}:[0-9a-fx]{2}\.[0-9a-fx]$/i;
const BORDER = /^\+[-=+]*\+?$/;
const INTEGER = /^\d{1,9}$/;

function isBusIdCell(cell: string): boolean {
  return BUS_ID.test(cell) || cell === 'NA' || cell === '-';
}

/** Splits a table row into its cells; undefined when the line is not a row. */
function cellsOf(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('|')) return undefined;
  const parts = trimmed.split('|').map((cell) => cell.trim());
  // the text before the first bar and after the last one is not a cell
  parts.shift();
  if (trimmed.endsWith('|')) parts.pop();
  return parts;
}

/** Whitespace tokens of a cell, with "/" always its own token: "15516/ 65536" -> 15516 / 65536. */
function tokensOf(cell: string): string[] {
  return cell.replace(/\//g, ' / ').split(/\s+/).filter(Boolean);
}

/** Every "used / total" pair among the tokens, in order. */
function pairsOf(tokens: readonly string[]): MemoryUsage[] {
  const pairs: MemoryUsage[] = [];
  for (let i = 1; i + 1 < tokens.length; i++) {
    if (tokens[i] !== '/') continue;
    const used = decimalOf(tokens[i - 1]);
    const total = decimalOf(tokens[i + 1]);
    if (used !== null && total !== null) pairs.push({ usedMB: used, totalMB: total });
  }
  return pairs;
}

interface HeaderInfo {
  layout: NpuSmiLayout;
  hbm: boolean;
  hugepages: boolean;
}

function headerInfo(first: string[], second: string[] | undefined): HeaderInfo | undefined {
  const hugepages = first.some((c) => /Hugepages/i.test(c));
  const secondText = (second ?? []).join(' ');
  const hbm = /HBM-Usage/i.test(secondText);
  if (/^NPU\s+ID$/i.test(first[0] ?? '') && first.length >= 4) return { layout: '950', hbm, hugepages };
  const lead = (second?.[0] ?? '').split(/\s+/).filter(Boolean).map((w) => w.toLowerCase());
  if (lead[0] === 'chip' && lead[1] === 'phy-id') return { layout: 'a3', hbm, hugepages };
  if (lead[0] === 'chip' && lead[1] === 'device') return { layout: 'chip-device', hbm, hugepages };
  if (lead[0] === 'chip' && lead.length === 1) return { layout: 'a2', hbm, hugepages };
  return undefined;
}

interface ProcessColumns {
  npu: number;
  pid: number;
  name: number;
  memory: number;
  containerPid: number | null;
}

function processColumns(cells: readonly string[]): ProcessColumns | undefined {
  const find = (pattern: RegExp) => cells.findIndex((c) => pattern.test(c));
  const npu = find(/^NPU\b/i);
  const pid = find(/^Process id$/i);
  const name = find(/^Process name$/i);
  const memory = find(/^Process memory/i);
  const containerPid = find(/^Process id in container$/i);
  if (npu < 0 || pid < 0 || name < 0 || memory < 0) return undefined;
  return { npu, pid, name, memory, containerPid: containerPid < 0 ? null : containerPid };
}

function errorOutput(lines: readonly string[]): NpuSmiInfo {
  let dcmi: NpuSmiInfo | undefined;
  let firstText: { line: number; text: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trim() === '') continue;
    firstText ??= { line: i + 1, text };
    const library = /error while loading shared libraries:\s*([^\s:]+):\s*cannot open shared object file/i.exec(text);
    if (library) return { kind: 'library-missing', library: library[1]!, line: i + 1, text: text.trim() };
    const code = /\bret(?:urn)?\s+is\s+(-\d{1,6})\b/i.exec(text);
    if (code && !dcmi) dcmi = { kind: 'dcmi-error', code: Number(code[1]), line: i + 1, text: text.trim() };
    if (/There is no NPU card/i.test(text)) return { kind: 'no-npu', line: i + 1, text: text.trim() };
  }
  if (dcmi) return dcmi;
  if (!firstText) return { kind: 'invalid', line: 1, text: '', reason: 'the output is empty' };
  return {
    kind: 'invalid',
    line: firstText.line,
    text: preview(firstText.text),
    reason: 'no npu-smi table (no header row with "Health") and no error the tool is known to print',
  };
}

/** Where the table's head is: the two header rows, or the row before an excerpt's first row. */
interface TableHead {
  header: HeaderInfo;
  /** the first header row (0 for an excerpt) */
  headerIndex: number;
  /** the second header row: the device rows start after it */
  secondIndex: number;
  /** rows pasted without the table's head */
  truncated: boolean;
}

/** The table's head, or what the output is instead (an error the tool printed, an unknown layout). */
function tableHead(lines: readonly string[]): TableHead | NpuSmiInfo {
  const headerIndex = lines.findIndex((line) => (cellsOf(line) ?? []).some((c) => /^Health$/i.test(c)));
  if (headerIndex < 0) {
    const excerpt = excerptStart(lines);
    if (!excerpt) return errorOutput(lines);
    // rows pasted without the table's head: read them from the row before the first one
    return { header: excerpt.header, headerIndex: 0, secondIndex: excerpt.index - 1, truncated: true };
  }
  const firstHeader = cellsOf(lines[headerIndex]!)!;
  let secondIndex = headerIndex + 1;
  while (secondIndex < lines.length && cellsOf(lines[secondIndex]!) === undefined && lines[secondIndex]!.trim() === '') secondIndex++;
  const secondHeader = cellsOf(lines[secondIndex] ?? '');
  const header = headerInfo(firstHeader, secondHeader);
  if (!header) {
    const at = secondHeader ? secondIndex : headerIndex;
    return { kind: 'invalid', line: at + 1, text: preview(lines[at]!), reason: 'unknown table layout: the second header row starts with neither "Chip", "Chip Phy-ID" nor "Chip Device"' };
  }
  return { header, headerIndex, secondIndex, truncated: false };
}

function emptyTable(head: TableHead): NpuSmiTable {
  return {
    kind: 'table',
    toolVersion: null,
    driverVersion: null,
    layout: head.header.layout,
    columns: { hbm: head.header.hbm, hugepages: head.header.hugepages, containerPid: false },
    chips: [],
    processSection: false,
    processes: [],
    idleNpus: [],
    warnings: [],
    notes: [],
    elided: false,
    truncated: head.truncated,
    cutAfterLine: null,
    skippedRows: [],
  };
}

/** The lines above the header: the tool and driver versions, and any note printed before the table. */
function readPreamble(table: NpuSmiTable, lines: readonly string[], head: TableHead): void {
  for (let i = 0; i < (head.truncated ? 0 : head.headerIndex); i++) {
    const line = lines[i]!;
    const cells = cellsOf(line);
    if (cells) {
      const joined = cells.join(' ');
      table.toolVersion ??= /npu-smi\s+(\S+)/i.exec(joined)?.[1] ?? null;
      table.driverVersion ??= /Version:\s*(\S+)/i.exec(joined)?.[1] ?? null;
    } else if (line.trim() !== '' && !BORDER.test(line.trim())) {
      table.notes.push(line.trim());
    }
  }
}

/** A chip's first row, waiting for its second (bus id, AI core, memory). */
type PendingChip = Omit<NpuSmiChip, 'busId' | 'aicorePercent' | 'ddr' | 'hbm' | 'phyId' | 'deviceColumn' | 'chip' | 'partial'>;

/** Reads the rows under the header, one line at a time: device rows in pairs, the process section, then notes. */
class TableRows {
  private pending: PendingChip | undefined;
  private section: 'devices' | 'processes' | 'after' = 'devices';
  private processCols: ProcessColumns | undefined;

  constructor(
    private readonly table: NpuSmiTable,
    private readonly header: HeaderInfo,
  ) {}

  /** the line of the last table row not yet closed by a border */
  private openRow: number | null = null;

  read(raw: string, lineNo: number): void {
    const table = this.table;
    const trimmed = raw.trim();
    if (trimmed === '') return;
    if (BORDER.test(trimmed)) {
      this.openRow = null;
      return;
    }
    if (trimmed.startsWith('|')) this.openRow = lineNo;
    if (/^\.{3,}$/.test(trimmed)) {
      table.elided = true;
      return;
    }
    const cells = cellsOf(raw);
    if (!cells) {
      this.section = 'after';
      if (/^\[WARNING\]/i.test(trimmed) || INCOMPLETE_DRIVER_WARNING.test(trimmed)) table.warnings.push(trimmed);
      else table.notes.push(preview(trimmed, 200));
      return;
    }
    if (cells.some((c) => /^Process id$/i.test(c))) {
      this.flushPending();
      this.section = 'processes';
      table.processSection = true;
      this.processCols = processColumns(cells);
      table.columns.containerPid = this.processCols?.containerPid !== null && this.processCols !== undefined;
      return;
    }
    if (this.section === 'processes') this.processRow(cells, raw, lineNo);
    else if (this.section === 'after') this.skip(lineNo, raw);
    else this.deviceRow(cells, raw, lineNo);
  }

  /** After the last line: a first row whose second never came is kept as a partial chip. */
  finish(): void {
    this.flushPending();
    this.table.cutAfterLine = this.openRow;
  }

  private flushPending(): void {
    if (!this.pending) return;
    this.table.chips.push({ ...this.pending, chip: 0, phyId: null, deviceColumn: null, busId: null, aicorePercent: null, ddr: null, hbm: null, partial: true });
    this.pending = undefined;
  }

  private skip(line: number, text: string): void {
    if (this.table.skippedRows.length < 20) this.table.skippedRows.push({ line, text: preview(text) });
  }

  private processRow(cells: string[], raw: string, lineNo: number): void {
    const idle = /^No running processes found in NPU\s+(\d{1,9})/i.exec(cells[0] ?? '');
    if (idle) {
      this.table.idleNpus.push(Number(idle[1]));
      return;
    }
    const process = this.processCols && parseProcessRow(cells, this.processCols, lineNo);
    if (process) this.table.processes.push(process);
    else this.skip(lineNo, raw);
  }

  private deviceRow(cells: string[], raw: string, lineNo: number): void {
    const is950 = this.header.layout === '950';
    const busCell = is950 ? cells[2] : cells[1];
    const isSecondRow = is950 ? (cells[0] ?? '') === '' : /^\d{1,9}(?:\s+\d{1,9})?$/.test(cells[0] ?? '');
    if (busCell !== undefined && isBusIdCell(busCell) && isSecondRow) {
      this.secondRow(cells, busCell, raw, lineNo);
      return;
    }
    const first = is950 ? parseFirstRow950(cells) : parseFirstRow(cells, this.header.layout === 'chip-device');
    if (first) {
      this.flushPending();
      this.pending = { ...first, line: lineNo };
      return;
    }
    this.skip(lineNo, raw);
  }

  /** A chip's second row (chip, bus id, AI core, memory) completes the pending first one. */
  private secondRow(cells: string[], busCell: string, raw: string, lineNo: number): void {
    const header = this.header;
    const is950 = header.layout === '950';
    const chipCell = tokensOf(is950 ? '' : (cells[0] ?? ''));
    const chip = is950 ? 0 : integerOf(chipCell[0]);
    if (!this.pending || chip === null) {
      this.skip(lineNo, raw);
      return;
    }
    const metrics = tokensOf(is950 ? (cells[3] ?? '') : (cells[2] ?? ''));
    const pairs = pairsOf(metrics);
    let ddr: MemoryUsage | null = pairs[0] ?? null;
    let hbm: MemoryUsage | null = null;
    if (header.hbm) {
      if (pairs.length >= 2) hbm = pairs[pairs.length - 1]!;
      else if (pairs.length === 1) {
        hbm = pairs[0]!;
        ddr = null;
      }
    }
    const second = integerOf(chipCell[1]);
    this.table.chips.push({
      ...this.pending,
      chip,
      phyId: header.layout === 'a3' ? second : null,
      deviceColumn: header.layout === 'chip-device' ? second : null,
      busId: busCell,
      aicorePercent: decimalOf(metrics[0]),
      ddr,
      hbm,
      partial: false,
    });
    this.pending = undefined;
  }
}

/** Parses the output of `npu-smi info`. Never throws; garbage gives `invalid` with the first offending line. */
export function parseNpuSmiInfo(input: TextInput): NpuSmiInfo {
  const lines = splitLines(decodeText(input));
  const tooLong = lines.findIndex((line) => line.length > MAX_LINE_LENGTH);
  if (tooLong >= 0) {
    return { kind: 'invalid', line: tooLong + 1, text: preview(lines[tooLong]!), reason: `line is ${lines[tooLong]!.length} characters long; npu-smi lines are under 200` };
  }
  const head = tableHead(lines);
  if ('kind' in head) return head;
  const table = emptyTable(head);
  readPreamble(table, lines, head);
  const rows = new TableRows(table, head.header);
  for (let i = head.secondIndex + 1; i < lines.length; i++) rows.read(lines[i]!, i + 1);
  rows.finish();
  return table;
}

/**
 * Where an excerpt without the table's head starts, and the layout its rows show: the first
 * device row (`| 0  310B4 | Alarm | ... |`, then `| 0  0 | NA | ... |`) or the process header.
 * Two numbers in the second row are Chip and Device (310 family, by name) or Chip and Phy-ID
 * (A3); one is the A2 Chip column.
 */
function excerptStart(lines: readonly string[]): { index: number; header: HeaderInfo } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const cells = cellsOf(lines[i]!);
    if (!cells) continue;
    if (cells.some((c) => /^Process id$/i.test(c))) return { index: i, header: { layout: 'a2', hbm: true, hugepages: false } };
    const first = parseFirstRow(cells, true);
    const next = cellsOf(lines[i + 1] ?? '');
    if (!first || !next || !isBusIdCell(next[1] ?? '')) continue;
    const ids = tokensOf(next[0] ?? '');
    if (!ids.every((t) => INTEGER.test(t)) || ids.length === 0 || ids.length > 2) continue;
    const hugepages = pairsOf(tokensOf(cells[2] ?? '')).length > 0;
    if (ids.length === 1) return { index: i, header: { layout: 'a2', hbm: true, hugepages } };
    if (/^310/i.test(first.name)) return { index: i, header: { layout: 'chip-device', hbm: false, hugepages } };
    return { index: i, header: { layout: 'a3', hbm: true, hugepages } };
  }
  return undefined;
}

type FirstRow = Pick<NpuSmiChip, 'npu' | 'name' | 'health' | 'powerW' | 'temperatureC' | 'hugepages'>;

function metricsOfFirstRow(cell: string): Pick<NpuSmiChip, 'powerW' | 'temperatureC' | 'hugepages'> {
  const tokens = tokensOf(cell);
  const pages = pairsOf(tokens)[0];
  return { powerW: decimalOf(tokens[0]), temperatureC: decimalOf(tokens[1]), hugepages: pages ? { used: pages.usedMB, total: pages.totalMB } : null };
}

/**
 * `| 0     910B3 | OK | 98.2  37  0 / 0 |`. Outside the 310 layout (whose Ascend 310 chips are
 * named "310") a row whose "name" is a number is one of the stray `| 0  0 | OK |` sub-rows some
 * captures show, not a chip.
 */
function parseFirstRow(cells: readonly string[], numericNames: boolean): FirstRow | undefined {
  const [idAndName, health, metrics] = cells;
  if (idAndName === undefined || health === undefined || health === '' || isBusIdCell(health)) return undefined;
  const match = /^(\d{1,9})\s+(.+)$/.exec(idAndName);
  if (!match || (!numericNames && INTEGER.test(match[2]!.trim()))) return undefined;
  return { npu: Number(match[1]), name: match[2]!.trim(), health, ...metricsOfFirstRow(metrics ?? '') };
}

/** `| 0 | xxx | OK | 204.4  56  0 / 0 |` */
function parseFirstRow950(cells: readonly string[]): FirstRow | undefined {
  const [id, name, health, metrics] = cells;
  const npu = integerOf(id);
  if (npu === null || name === undefined || !health || isBusIdCell(health)) return undefined;
  return { npu, name, health, ...metricsOfFirstRow(metrics ?? '') };
}

function parseProcessRow(cells: readonly string[], cols: ProcessColumns, line: number): NpuSmiProcess | undefined {
  const ids = tokensOf(cells[cols.npu] ?? '');
  const npu = integerOf(ids[0]);
  const pid = integerOf(cells[cols.pid]);
  if (npu === null || pid === null) return undefined;
  return {
    npu,
    chip: integerOf(ids[1]),
    pid,
    name: (cells[cols.name] ?? '').trim(),
    memoryMB: decimalOf(cells[cols.memory]),
    containerPid: cols.containerPid === null ? null : integerOf(cells[cols.containerPid]),
    line,
  };
}

export type NpuFamily = 'a2' | 'a3' | '310p' | 'unknown';

/**
 * The product family, from the table's layout rather than the chip name (a `910B3` is an A2
 * chip, whatever its name suggests). The 910A-class boards share the A2 layout but fill the
 * DDR column, which 910B leaves at `0 / 0`; Ascend 310 cards and 310B boards (not 310P) share
 * the 310P layout and are told apart by their name, the one place a name is used. Neither they
 * nor the 950 are vllm-ascend targets: `unknown`.
 */
export function familyOf(table: NpuSmiTable): NpuFamily {
  switch (table.layout) {
    case 'a3':
      return 'a3';
    case 'a2':
      return table.chips.some((c) => (c.ddr?.totalMB ?? 0) > 0) ? 'unknown' : 'a2';
    case 'chip-device':
      // Ascend 310 cards and the 310B of the Atlas 200I DK A2 / OrangePi AIpro boards share the 310P layout
      return table.chips.length > 0 && table.chips.every((c) => /^310$|^310B/i.test(c.name)) ? 'unknown' : '310p';
    default:
      return 'unknown';
  }
}

/**
 * The physical device id of a chip: what /dev/davinciN, `hccn_tool -i` and the runtime
 * count. A3: the Phy-ID (card × 2 + die on a standard box); 310 family: the Device column;
 * A2 and 950: the NPU id (one chip per card).
 */
export function deviceIdOf(chip: NpuSmiChip, chipsPerCard: number): number {
  if (chip.phyId !== null) return chip.phyId;
  if (chip.deviceColumn !== null) return chip.deviceColumn;
  return chipsPerCard > 1 ? chip.npu * chipsPerCard + chip.chip : chip.npu;
}
