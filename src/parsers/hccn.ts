import { isIP, isIPv4 } from '../util/ip.js';
import {
  failure,
  nothingRecognized,
  SkippedLines,
  type Parsed,
  type SkippedLine,
  forEachDataLine,
} from './parsed.js';

/**
 * Parsers of `hccn_tool -i <device> <op> -g` answers (reference §3). Each accepts the answer of
 * one device and the concatenated answers of the vendor docs' `for i in {0..7}` loops, so every
 * result is a list of entries in output order. Unknown lines are skipped and kept as evidence;
 * text with no recognisable line at all is a failure naming its first line. Never throws.
 */

/** What every hccn_tool parse result carries besides its entries. */
export interface LineNotes {
  /** lines that were not understood (the first few) */
  skipped: SkippedLine[];
  skippedCount: number;
  /** the text holds "..." lines: a published sample shortened by its author */
  elided: boolean;
}

type LineKind = 'data' | 'ignore' | 'unknown';

interface Scan {
  notes: LineNotes;
  dataLines: number;
  skipped: SkippedLines;
}

/**
 * Runs `classify` over each line. It returns 'data' for a line it used, 'ignore' for a line that
 * carries nothing, 'unknown' for a line it did not understand, or a failure to stop at once.
 */
function scan(text: string, classify: (line: string, number: number) => LineKind | { fail: string }): Scan | ReturnType<typeof failure> {
  const skipped = new SkippedLines();
  let elided = false;
  let dataLines = 0;
  let stop: ReturnType<typeof failure> | undefined;
  forEachDataLine(text, skipped, () => {
    elided = true;
  }, (line, number) => {
    const kind = classify(line, number);
    if (typeof kind === 'object') {
      stop = failure(kind.fail, number, line);
      return false;
    }
    if (kind === 'data') dataLines++;
    else if (kind === 'unknown') skipped.add(line, number);
  });
  if (stop) return stop;
  return { notes: { skipped: skipped.kept, skippedCount: skipped.count, elided }, dataLines, skipped };
}

function isFailure(value: Scan | ReturnType<typeof failure>): value is ReturnType<typeof failure> {
  return 'ok' in value;
}

/** The common ending: data was found, or the text was empty, or it is something else entirely. */
function finish<T>(result: Scan | ReturnType<typeof failure>, what: string, value: (notes: LineNotes) => T): Parsed<T> {
  if (isFailure(result)) return result;
  if (result.dataLines === 0 && result.skipped.count > 0) return nothingRecognized(what, result.skipped);
  return { ok: true, value: value(result.notes) };
}

// ---------------------------------------------------------------------------------------------
// -ip -g

export interface HccnIpEntry {
  address: string;
  netmask: string | null;
}

export interface HccnIp extends LineNotes {
  /** one per configured device; none when the device has no address */
  entries: HccnIpEntry[];
  /** the tool said that no address was preset (some versions print this instead of nothing) */
  notPreset: boolean;
}

/**
 * `hccn_tool -i N -ip -g`: `ipaddr:<ip>` and `netmask:<mask>`. An unconfigured device prints no
 * `ipaddr:` line (empty output, or a "no ip was preset" text): entries is then empty.
 */
export function parseHccnIp(text: string): Parsed<HccnIp> {
  const entries: HccnIpEntry[] = [];
  let notPreset = false;
  const result = scan(text, (line) => {
    const ip = /^\s*ipaddr\s*:\s*(.*?)\s*$/i.exec(line);
    if (ip) {
      if (!isIP(ip[1]!)) return { fail: `ipaddr is not an IP address: "${ip[1]}"` };
      entries.push({ address: ip[1]!, netmask: null });
      return 'data';
    }
    const mask = /^\s*netmask\s*:\s*(.*?)\s*$/i.exec(line);
    if (mask) {
      const current = entries[entries.length - 1];
      if (!current || current.netmask !== null) return { fail: 'netmask without an ipaddr line before it' };
      if (!isIPv4(mask[1]!)) return { fail: `netmask is not a dotted-quad mask: "${mask[1]}"` };
      current.netmask = mask[1]!;
      return 'data';
    }
    if (/no ip (was |is )?preset/i.test(line)) {
      notPreset = true;
      return 'data';
    }
    return 'unknown';
  });
  return finish(result, 'hccn_tool -ip -g', (notes) => ({ entries, notPreset, ...notes }));
}

// ---------------------------------------------------------------------------------------------
// -vnic -g (A3 and 950)

export interface HccnVnicEntry {
  /** "UP", "DOWN", or what the tool printed, upper-cased */
  linkStatus: string | null;
  address: string | null;
  netmask: string | null;
}

export interface HccnVnic extends LineNotes {
  entries: HccnVnicEntry[];
}

/** `hccn_tool -i N -vnic -g`: `vnic link status: UP`, `vnic ipaddr: <ip>`, `vnic netmask: <mask>`. */
export function parseHccnVnic(text: string): Parsed<HccnVnic> {
  const entries: HccnVnicEntry[] = [];
  const current = (field: keyof HccnVnicEntry): HccnVnicEntry => {
    let entry = entries[entries.length - 1];
    if (!entry || entry[field] !== null) {
      entry = { linkStatus: null, address: null, netmask: null };
      entries.push(entry);
    }
    return entry;
  };
  const result = scan(text, (line) => {
    const match = /^\s*vnic\s+(link status|ipaddr|netmask)\s*:\s*(\S*)\s*$/i.exec(line);
    if (!match) return 'unknown';
    const key = match[1]!.toLowerCase();
    const value = match[2]!;
    if (key === 'link status') {
      current('linkStatus').linkStatus = value.toUpperCase();
    } else if (key === 'ipaddr') {
      if (!isIP(value)) return { fail: `vnic ipaddr is not an IP address: "${value}"` };
      current('address').address = value;
    } else {
      if (!isIPv4(value)) return { fail: `vnic netmask is not a dotted-quad mask: "${value}"` };
      current('netmask').netmask = value;
    }
    return 'data';
  });
  return finish(result, 'hccn_tool -vnic -g', (notes) => ({ entries, ...notes }));
}

// ---------------------------------------------------------------------------------------------
// -link -g

export interface HccnLinkEntry {
  /** upper-cased: "UP", "DOWN", or another word the tool printed */
  status: string;
  up: boolean;
  /** the `vnic link status` line of the vNIC (A3) */
  vnic: boolean;
}

export interface HccnLink extends LineNotes {
  entries: HccnLinkEntry[];
}

/** `hccn_tool -i N -link -g`: exactly `link status: UP` or `link status: DOWN` (and `vnic link status: ...`). */
export function parseHccnLink(text: string): Parsed<HccnLink> {
  const entries: HccnLinkEntry[] = [];
  const result = scan(text, (line) => {
    const match = /^\s*(vnic\s+)?link\s+status\s*:\s*(\S+)\s*$/i.exec(line);
    if (!match) return 'unknown';
    const status = match[2]!.toUpperCase();
    entries.push({ status, up: status === 'UP', vnic: match[1] !== undefined });
    return 'data';
  });
  return finish(result, 'hccn_tool -link -g', (notes) => ({ entries, ...notes }));
}

// ---------------------------------------------------------------------------------------------
// -net_health -g

/** The states of the tool's g_net_health_status table (reference §3.3), plus anything else. */
export type NetHealthState =
  | 'success'
  | 'socket-fail'
  | 'receive-timeout'
  | 'unreachable'
  | 'time-exceeded'
  | 'fault'
  | 'init'
  | 'thread-error'
  | 'detect-ip-set'
  | 'unknown'
  | 'other';

export interface HccnNetHealthEntry {
  state: NetHealthState;
  /** the words the tool printed */
  text: string;
}

export interface HccnNetHealth extends LineNotes {
  entries: HccnNetHealthEntry[];
}

const NET_HEALTH_STATES: Record<string, NetHealthState> = {
  success: 'success',
  'socket fail': 'socket-fail',
  'socket failed': 'socket-fail',
  'receive timeout': 'receive-timeout',
  unreachable: 'unreachable',
  'time exceeded': 'time-exceeded',
  fault: 'fault',
  init: 'init',
  'thread error': 'thread-error',
  'detect ip set': 'detect-ip-set',
  unknown: 'unknown',
};

export function netHealthState(text: string): NetHealthState {
  return NET_HEALTH_STATES[text.trim().toLowerCase().replace(/\s+/g, ' ')] ?? 'other';
}

/**
 * Healthy means Success. `Init` (probing not started: no netdetect address) is accepted only
 * when asked, as Ascend's own exporter does.
 */
export function isNetHealthy(state: NetHealthState, options: { acceptInit?: boolean } = {}): boolean {
  return state === 'success' || (options.acceptInit === true && state === 'init');
}

/** `hccn_tool -i N -net_health -g`: `net health status: <state>`, matched case-insensitively. */
export function parseHccnNetHealth(text: string): Parsed<HccnNetHealth> {
  const entries: HccnNetHealthEntry[] = [];
  const result = scan(text, (line) => {
    const match = /^\s*net\s+health\s+status\s*:\s*(.*?)\s*$/i.exec(line);
    if (!match) return 'unknown';
    entries.push({ state: netHealthState(match[1]!), text: match[1]! });
    return 'data';
  });
  return finish(result, 'hccn_tool -net_health -g', (notes) => ({ entries, ...notes }));
}

// ---------------------------------------------------------------------------------------------
// -netdetect -g

export interface HccnNetdetectEntry {
  /** null when the tool printed the key with no address */
  address: string | null;
}

export interface HccnNetdetect extends LineNotes {
  entries: HccnNetdetectEntry[];
}

/** `hccn_tool -i N -netdetect -g`: `netdetect address: <ip>` (docs) or `netdetect addr: <ip>` (current source). */
export function parseHccnNetdetect(text: string): Parsed<HccnNetdetect> {
  const entries: HccnNetdetectEntry[] = [];
  const result = scan(text, (line) => {
    const match = /^\s*netdetect\s+addr(?:ess)?\s*:\s*(\S*)\s*$/i.exec(line);
    if (!match) return 'unknown';
    const value = match[1]!;
    if (value !== '' && !isIP(value)) return { fail: `netdetect address is not an IP address: "${value}"` };
    entries.push({ address: value === '' ? null : value });
    return 'data';
  });
  return finish(result, 'hccn_tool -netdetect -g', (notes) => ({ entries, ...notes }));
}

// ---------------------------------------------------------------------------------------------
// -gateway -g

export interface HccnGatewayEntry {
  gateway: string | null;
  /** the device-side interface, "eth3" */
  iface: string | null;
}

export interface HccnGateway extends LineNotes {
  entries: HccnGatewayEntry[];
}

/** `hccn_tool -i N -gateway -g`: `default gateway:<ip>, Iface:eth<n>`. */
export function parseHccnGateway(text: string): Parsed<HccnGateway> {
  const entries: HccnGatewayEntry[] = [];
  const result = scan(text, (line) => {
    const match = /^\s*default\s+gateway\s*:\s*([^,\s]*)\s*(?:,\s*Iface\s*:\s*(\S*)\s*)?$/i.exec(line);
    if (!match) return 'unknown';
    const gateway = match[1]!;
    if (gateway !== '' && !isIP(gateway)) return { fail: `default gateway is not an IP address: "${gateway}"` };
    entries.push({ gateway: gateway === '' ? null : gateway, iface: match[2] ? match[2] : null });
    return 'data';
  });
  return finish(result, 'hccn_tool -gateway -g', (notes) => ({ entries, ...notes }));
}

// ---------------------------------------------------------------------------------------------
// -tls -g

export interface HccnTlsEntry {
  /** the dev_id the line names; null when the line has none */
  device: number | null;
  /** 0 disabled, 1 enabled */
  switch: number;
  /** 0 non-preset, 1 preset */
  preconfigured: number | null;
  alarmThresholdDays: number | null;
}

export interface HccnTls extends LineNotes {
  entries: HccnTlsEntry[];
}

/**
 * `hccn_tool -i N -tls -g`: `dev_id:<n>, tls switch[<0|1>](...), tls preconfigured[<0|1>](...),
 * tls alarm time threshold[<n>]days`, then certificate lines (skipped).
 */
export function parseHccnTls(text: string): Parsed<HccnTls> {
  const entries: HccnTlsEntry[] = [];
  const result = scan(text, (line) => {
    const sw = /tls\s+switch\s*\[\s*(\d{1,3})\s*\]/i.exec(line);
    if (!sw) return 'unknown';
    const device = /dev_id\s*:\s*(\d{1,4})/i.exec(line);
    const preset = /tls\s+preconfigured\s*\[\s*(\d{1,3})\s*\]/i.exec(line);
    const threshold = /alarm\s+time\s+threshold\s*\[\s*(\d{1,6})\s*\]/i.exec(line);
    entries.push({
      device: device ? Number(device[1]) : null,
      switch: Number(sw[1]),
      preconfigured: preset ? Number(preset[1]) : null,
      alarmThresholdDays: threshold ? Number(threshold[1]) : null,
    });
    return 'data';
  });
  return finish(result, 'hccn_tool -tls -g', (notes) => ({ entries, ...notes }));
}

// ---------------------------------------------------------------------------------------------
// Answers every sub-command can give

/** `hccn_tool is busy, please try again`: another hccn_tool holds the device (reference §6.20). */
export function isHccnBusy(text: string): boolean {
  return /hccn_tool\s+is\s+busy/i.test(text.length > 65536 ? text.slice(0, 65536) : text);
}

export interface HccnSetAnswer extends LineNotes {
  /** how many `Cmd executed successfully!` lines (one per device in a loop) */
  succeeded: number;
}

/** The answer of a set operation (`-tls -s enable 0`): `Cmd executed successfully!` per device. */
export function parseHccnSetAnswer(text: string): Parsed<HccnSetAnswer> {
  let succeeded = 0;
  const result = scan(text, (line) => {
    if (!/^\s*cmd executed successfully!?\s*$/i.test(line)) return 'unknown';
    succeeded++;
    return 'data';
  });
  return finish(result, 'hccn_tool set', (notes) => ({ succeeded, ...notes }));
}
