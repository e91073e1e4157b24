import { parseHccnKeyValues, type HccnKeyValues } from './hccn-diag.js';
import { forEachDataLine, nothingRecognized, shorten, SkippedLines, type Parsed } from './parsed.js';

/**
 * The typed reading of the answers the link-health checks judge: `-optical -g`, `-fec -g`,
 * `-speed -g` and `-stat -g`. The formats are those of the driver's hccn_tool source
 * (`tool.c`: tool_show_optical_info, tool_display_stat_info; `tool_ext.c`: tool_get_fec_info and
 * the speed print) and of the public captures in test/fixtures/ascend; older drivers print fewer
 * lines (no LoL flags, no SNR, the short `-stat -g` of two RoCE counters), docs print the readings
 * without a lane number. Never throw.
 */

// ---------------------------------------------------------------------------------------------
// -optical -g

export interface OpticalLane {
  lane: number;
  txPowerMw: number | null;
  rxPowerMw: number | null;
  txBiasMa: number | null;
  mediaSnrDb: number | null;
}

export interface OpticalThresholds {
  tempHighC: number | null;
  tempLowC: number | null;
  txPowerHighMw: number | null;
  txPowerLowMw: number | null;
  rxPowerHighMw: number | null;
  rxPowerLowMw: number | null;
}

/** The per-lane flag bytes; null when the driver does not print the line (LoL: builds without HCCN_TOOL_SHOW_EXT). */
export interface OpticalFlags {
  txLos: number | null;
  rxLos: number | null;
  txLol: number | null;
  rxLol: number | null;
}

/**
 * What `-optical -g` said: the module's dump (`info`), or one of the tool's one-line answers
 * instead of it (its error table in `cmd.c`): no module in the cage, the module's management
 * link unreachable, the module still initializing, the command not supported here.
 */
export type OpticalAnswerKind = 'info' | 'not-present' | 'unreachable' | 'initializing' | 'unsupported';

export interface HccnOptical {
  kind: OpticalAnswerKind;
  /** the one-line answer as printed, when kind is not info */
  message: string | null;
  /** the `present` line: true for "present", false for "not present", null when absent */
  present: boolean | null;
  /** degrees Celsius; null for "NA", "not supported", "get failed" or no line */
  temperatureC: number | null;
  /** the temperature line as printed, when it holds no number */
  temperatureText: string | null;
  vendor: string | null;
  partNumber: string | null;
  identifier: string | null;
  lanes: OpticalLane[];
  thresholds: OpticalThresholds;
  flags: OpticalFlags;
  /** the dump was shortened by its author ("...") */
  elided: boolean;
}

const ONE_LINE_ANSWERS: ReadonlyArray<{ pattern: RegExp; kind: Exclude<OpticalAnswerKind, 'info'> }> = [
  { pattern: /optical module is not present/i, kind: 'not-present' },
  { pattern: /control link unreachable/i, kind: 'unreachable' },
  { pattern: /optical module initializing/i, kind: 'initializing' },
  { pattern: /(does not support optical cmd|command unsupported on this optical module)/i, kind: 'unsupported' },
];

/** "1.0189 mW", "-2.31 dBm" as milliwatts; null for NA, "not supported" and anything else. */
export function powerMilliwatts(value: string | undefined): number | null {
  const match = value === undefined ? null : /^(-?\d+(?:\.\d+)?)\s*(mW|dBm)$/i.exec(value.trim());
  if (!match) return null;
  const number = Number(match[1]);
  if (!Number.isFinite(number)) return null;
  return match[2]!.toLowerCase() === 'dbm' ? 10 ** (number / 10) : number;
}

/** The number of "47 C", "7.9360 mA", "23.1211 dB" when its unit is the one expected. */
function numberWithUnit(value: string | undefined, unit: string): number | null {
  const match = value === undefined ? null : new RegExp(`^(-?\\d+(?:\\.\\d+)?)\\s*${unit}$`, 'i').exec(value.trim());
  if (!match) return null;
  const number = Number(match[1]);
  return Number.isFinite(number) ? number : null;
}

/** "0xff" as a number; null for anything else. */
function flagByte(value: string | undefined): number | null {
  const match = value === undefined ? null : /^0x([0-9a-f]{1,8})$/i.exec(value.trim());
  return match ? Number.parseInt(match[1]!, 16) : null;
}

/** The values of a dump, found by the key's name whatever its spacing and case. */
function valueReader(values: Record<string, string>): (name: string) => string | undefined {
  const byName = new Map(Object.entries(values).map(([key, value]) => [key.replace(/\s+/g, ' ').trim().toLowerCase(), value]));
  return (name) => byName.get(name.toLowerCase());
}

/** The lanes of `Tx Power0..3`, `Rx Power0..3`, `Tx Bias0..3`, `Media SNR Lane0..3`; a reading without a number is lane 0. */
function lanesOf(values: Record<string, string>): OpticalLane[] {
  const lanes = new Map<number, OpticalLane>();
  const laneOf = (index: number): OpticalLane => {
    let lane = lanes.get(index);
    if (!lane) {
      lane = { lane: index, txPowerMw: null, rxPowerMw: null, txBiasMa: null, mediaSnrDb: null };
      lanes.set(index, lane);
    }
    return lane;
  };
  for (const [rawKey, value] of Object.entries(values)) {
    const key = rawKey.replace(/\s+/g, ' ').trim();
    const reading = /^(tx power|rx power|tx bias|media snr lane)\s?(\d{0,2})$/i.exec(key);
    if (!reading) continue;
    const index = reading[2] === '' ? 0 : Number(reading[2]);
    const what = reading[1]!.toLowerCase();
    const lane = laneOf(index);
    if (what === 'tx power') lane.txPowerMw = powerMilliwatts(value);
    else if (what === 'rx power') lane.rxPowerMw = powerMilliwatts(value);
    else if (what === 'tx bias') lane.txBiasMa = numberWithUnit(value, 'mA');
    else lane.mediaSnrDb = numberWithUnit(value, 'dB');
  }
  return [...lanes.values()].sort((a, b) => a.lane - b.lane);
}

function presentOf(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  const text = value.trim().toLowerCase();
  if (text === 'present') return true;
  if (text === 'not present') return false;
  return null;
}

function opticalFromValues(kv: HccnKeyValues): HccnOptical {
  const get = valueReader(kv.values);
  const temperature = get('temperature');
  const temperatureC = numberWithUnit(temperature, 'C');
  const text = (name: string) => {
    const value = get(name)?.trim();
    return value ? shorten(value, 80) : null;
  };
  return {
    kind: 'info',
    message: null,
    present: presentOf(get('present')),
    temperatureC,
    temperatureText: temperatureC === null && temperature !== undefined ? shorten(temperature.trim(), 40) : null,
    vendor: text('vendor name'),
    partNumber: text('vendor part number'),
    identifier: text('xsfp identifier'),
    lanes: lanesOf(kv.values),
    thresholds: {
      tempHighC: numberWithUnit(get('temp high thres'), 'C'),
      tempLowC: numberWithUnit(get('temp low thres'), 'C'),
      txPowerHighMw: powerMilliwatts(get('txpower high thres')),
      txPowerLowMw: powerMilliwatts(get('txpower low thres')),
      rxPowerHighMw: powerMilliwatts(get('rxpower high thres')),
      rxPowerLowMw: powerMilliwatts(get('rxpower low thres')),
    },
    flags: { txLos: flagByte(get('tx los flag')), rxLos: flagByte(get('rx los flag')), txLol: flagByte(get('tx lol flag')), rxLol: flagByte(get('rx lol flag')) },
    elided: kv.elided,
  };
}

function oneLineAnswer(text: string): { kind: Exclude<OpticalAnswerKind, 'info'>; message: string } | undefined {
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.length > 200) continue;
    const known = ONE_LINE_ANSWERS.find((a) => a.pattern.test(trimmed));
    if (known) return { kind: known.kind, message: shorten(trimmed, 120) };
  }
  return undefined;
}

const EMPTY_OPTICAL: Omit<HccnOptical, 'kind' | 'message'> = {
  present: null,
  temperatureC: null,
  temperatureText: null,
  vendor: null,
  partNumber: null,
  identifier: null,
  lanes: [],
  thresholds: { tempHighC: null, tempLowC: null, txPowerHighMw: null, txPowerLowMw: null, rxPowerHighMw: null, rxPowerLowMw: null },
  flags: { txLos: null, rxLos: null, txLol: null, rxLol: null },
  elided: false,
};

/** `hccn_tool -i N -optical -g`: the module's dump, or the one line the tool printed instead. */
export function parseHccnOptical(text: string): Parsed<HccnOptical> {
  const dump = parseHccnKeyValues(text);
  const isDump = dump.ok && (dump.value.title?.toLowerCase() === 'optical info' || /present|temperature|power/i.test(Object.keys(dump.value.values).join(' ')));
  if (dump.ok && isDump) return { ok: true, value: opticalFromValues(dump.value) };
  const answer = oneLineAnswer(text);
  if (answer) return { ok: true, value: { ...EMPTY_OPTICAL, kind: answer.kind, message: answer.message } };
  if (!dump.ok) return dump;
  return { ok: false, reason: 'not hccn_tool -optical -g output: no "present", "temperature" or power line' };
}

// ---------------------------------------------------------------------------------------------
// -fec -g, -speed -g

export type FecMode = 'rs' | 'no' | 'auto';

/** `fec mode: rs FEC mode` (or `no`, `auto`), or the A3's `This device does not support switching fec mode.` */
export type HccnFec = { supported: true; mode: FecMode; line: string } | { supported: false; line: string };

export function parseHccnFec(text: string): Parsed<HccnFec> {
  const skipped = new SkippedLines();
  let found: HccnFec | undefined;
  forEachDataLine(text, skipped, () => undefined, (line, number) => {
    const mode = /^\s*fec mode\s*:\s*(rs|no|auto)\s+fec mode\s*$/i.exec(line);
    if (mode) {
      found = { supported: true, mode: mode[1]!.toLowerCase() as FecMode, line: shorten(line.trim(), 80) };
      return false;
    }
    if (/does not support switching fec mode/i.test(line)) {
      found = { supported: false, line: shorten(line.trim(), 80) };
      return false;
    }
    skipped.add(line, number);
    return undefined;
  });
  return found ? { ok: true, value: found } : nothingRecognized('hccn_tool -fec -g', skipped);
}

/** `Speed: 200000 Mb/s` as megabits per second, or null for `Speed: Unknown!` (a port whose link is down). */
export function parseHccnSpeed(text: string): Parsed<{ mbps: number | null }> {
  const skipped = new SkippedLines();
  let found: { mbps: number | null } | undefined;
  forEachDataLine(text, skipped, () => undefined, (line, number) => {
    const speed = /^\s*speed\s*:\s*(?:(\d{1,9})\s*mb\/s|(unknown!?))\s*$/i.exec(line);
    if (speed) {
      found = { mbps: speed[1] === undefined ? null : Number(speed[1]) };
      return false;
    }
    skipped.add(line, number);
    return undefined;
  });
  return found ? { ok: true, value: found } : nothingRecognized('hccn_tool -speed -g', skipped);
}

// ---------------------------------------------------------------------------------------------
// -stat -g

export interface HccnStat {
  /** counter name as printed -> its value; a line whose value is not a whole number is left out */
  counters: Record<string, number>;
  /** the author shortened the list ("...") */
  elided: boolean;
}

/** `packet statistics:` then `name:value` lines (the short form of older drivers has two of them). */
export function parseHccnStat(text: string): Parsed<HccnStat> {
  const dump = parseHccnKeyValues(text);
  if (!dump.ok) return dump;
  const counters: Record<string, number> = {};
  for (const [key, value] of Object.entries(dump.value.values)) {
    if (!/^[a-z][a-z0-9_]*$/i.test(key) || !/^\d{1,20}$/.test(value)) continue;
    counters[key] = Number(value);
  }
  if (Object.keys(counters).length === 0) return { ok: false, reason: 'not hccn_tool -stat -g output: no name:number line' };
  return { ok: true, value: { counters, elided: dump.value.elided } };
}

// ---------------------------------------------------------------------------------------------
// -link_stat -g times

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A time as `-link_stat -g` prints it (asctime of the host's local time: "Tue Aug  1 14:43:40
 * 2022") as milliseconds of the same wall-clock reading in UTC: two such times subtract to
 * their true distance (a daylight-saving change between them aside), whatever the host's zone.
 * Null when it is not such a time.
 */
export function asctimeWallClockMs(text: string): number | null {
  const match = /^\s*(?:[a-z]{3}\s+)?([a-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})\s*$/i.exec(text);
  if (!match) return null;
  const month = MONTHS.indexOf(match[1]!.toLowerCase());
  if (month < 0) return null;
  const [day, hour, minute, second, year] = [match[2], match[3], match[4], match[5], match[6]].map(Number) as [number, number, number, number, number];
  if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  return Date.UTC(year, month, day, hour, minute, second);
}
