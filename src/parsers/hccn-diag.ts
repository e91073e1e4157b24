import { forEachLine, isBlank, isElision, MAX_LINE_LENGTH, nothingRecognized, shorten, SkippedLines, type Parsed, forEachDataLine } from './parsed.js';
import type { LineNotes } from './hccn.js';

/**
 * The diagnostic sub-commands a support engineer reads when a link misbehaves (reference §3.10):
 * `-link_stat -g` (flapping), the key/value dumps `-stat -g`, `-optical -g`, `-fec -g`,
 * `-hw_stats -g`, `-status -g`, and the `-route -g` table. Never throw.
 */

export interface LinkStatEntry {
  device: number;
  currentTime: string | null;
  linkUpCount: number | null;
  /** absent in the documented `[device N]` variant */
  linkDownCount: number | null;
  /** newest first, as the tool prints them (it keeps the last 10) */
  changes: Array<{ time: string; event: 'UP' | 'DOWN' }>;
  /** `link change records : NA`: the tool says no change was recorded */
  noRecords: boolean;
}

export interface HccnLinkStat extends LineNotes {
  entries: LinkStatEntry[];
}

/** `-link_stat -g`: lines prefixed `[devid N]` (source) or `[device N]` (docs). */
export function parseHccnLinkStat(text: string): Parsed<HccnLinkStat> {
  const byDevice = new Map<number, LinkStatEntry>();
  const skipped = new SkippedLines();
  let elided = false;
  forEachLine(text, (line, number) => {
    if (isBlank(line)) return;
    if (isElision(line)) {
      elided = true;
      return;
    }
    const match = line.length > MAX_LINE_LENGTH ? null : /^\s*\[(?:devid|device)\s+(\d{1,4})\]\s*(.*?)\s*$/i.exec(line);
    if (!match) {
      skipped.add(line, number);
      return;
    }
    const device = Number(match[1]);
    let entry = byDevice.get(device);
    if (!entry) {
      entry = { device, currentTime: null, linkUpCount: null, linkDownCount: null, changes: [], noRecords: false };
      byDevice.set(device, entry);
    }
    const rest = match[2]!;
    const field = /^(current time|link up count|link down count|link change records)\s*:\s*(.*)$/i.exec(rest);
    if (field) {
      const name = field[1]!.toLowerCase();
      const value = field[2]!.trim();
      if (name === 'current time') entry.currentTime = shorten(value, 64);
      else if (name === 'link up count') entry.linkUpCount = /^\d+$/.test(value) ? Number(value) : null;
      else if (name === 'link down count') entry.linkDownCount = /^\d+$/.test(value) ? Number(value) : null;
      else if (name === 'link change records') entry.noRecords = /^na$/i.test(value);
      return;
    }
    const change = /^(.*?)\s+LINK\s+(UP|DOWN)$/i.exec(rest);
    if (change) {
      entry.changes.push({ time: shorten(change[1]!.trim(), 64), event: change[2]!.toUpperCase() as 'UP' | 'DOWN' });
      return;
    }
    skipped.add(line, number);
  });
  if (byDevice.size === 0 && skipped.count > 0) return nothingRecognized('hccn_tool -link_stat -g', skipped);
  return { ok: true, value: { entries: [...byDevice.values()], skipped: skipped.kept, skippedCount: skipped.count, elided } };
}

export interface HccnKeyValues extends LineNotes {
  /** a heading line such as `packet statistics:` or `optical info:` */
  title: string | null;
  /** the `[devid N]` prefix of `-hw_stats -g`, when present */
  device: number | null;
  /** key as printed (trimmed) -> value; a line without a colon continues the previous value */
  values: Record<string, string>;
}

/** `key : value` and `key:value` dumps: `-stat -g`, `-optical -g`, `-fec -g`, `-hw_stats -g`, `-status -g`. */
export function parseHccnKeyValues(text: string): Parsed<HccnKeyValues> {
  const values: Record<string, string> = {};
  const skipped = new SkippedLines();
  let title: string | null = null;
  let device: number | null = null;
  let elided = false;
  let last: string | undefined;
  let recognized = 0;
  forEachDataLine(text, skipped, () => {
    elided = true;
  }, (raw, number) => {
    let line = raw;
    const prefix = /^\s*\[(?:devid|device)\s+(\d{1,4})\]\s*/i.exec(line);
    if (prefix) {
      device ??= Number(prefix[1]);
      line = line.slice(prefix[0].length);
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      if (last !== undefined) {
        values[last] = `${values[last]} ${shorten(line.trim(), 200)}`.trim();
        recognized++;
      } else skipped.add(raw, number);
      return;
    }
    const key = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    recognized++;
    if (value === '' && title === null && recognized === 1) {
      title = shorten(key, 80);
      return;
    }
    values[shorten(key, 80)] = shorten(value, 200);
    last = shorten(key, 80);
  });
  if (recognized === 0 && skipped.count > 0) return nothingRecognized('hccn_tool key/value', skipped);
  return { ok: true, value: { title, device, values, skipped: skipped.kept, skippedCount: skipped.count, elided } };
}

export interface RouteEntry {
  destination: string;
  gateway: string;
  genmask: string;
  flags: string;
  iface: string;
}

export interface HccnRoute extends LineNotes {
  routes: RouteEntry[];
}

/** `-route -g`: `Routing table:`, a `route -n` header, then one row per route. */
export function parseHccnRoute(text: string): Parsed<HccnRoute> {
  const routes: RouteEntry[] = [];
  const skipped = new SkippedLines();
  let elided = false;
  let recognized = 0;
  forEachDataLine(text, skipped, () => {
    elided = true;
  }, (line, number) => {
    if (/^\s*routing table\s*:?\s*$/i.test(line) || /^\s*Destination\s+Gateway\s+Genmask/i.test(line)) {
      recognized++;
      return;
    }
    const fields = line.trim().split(/\s+/);
    if (fields.length === 8 && /^[A-Z!]+$/.test(fields[3]!) && /^\d+$/.test(fields[4]!)) {
      recognized++;
      routes.push({ destination: fields[0]!, gateway: fields[1]!, genmask: fields[2]!, flags: fields[3]!, iface: fields[7]! });
      return;
    }
    skipped.add(line, number);
  });
  if (recognized === 0 && skipped.count > 0) return nothingRecognized('hccn_tool -route -g', skipped);
  return { ok: true, value: { routes, skipped: skipped.kept, skippedCount: skipped.count, elided } };
}
