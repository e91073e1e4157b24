import { forEachLine, isBlank, isElision, MAX_LINE_LENGTH, nothingRecognized, shorten, SkippedLines, type Parsed } from './parsed.js';
import type { LineNotes } from './hccn.js';

/** The settings of one device in /etc/hccn.conf: `address`, `netmask`, `netdetect`, `gateway`, ... */
export interface HccnConfDevice {
  device: number;
  settings: Record<string, string>;
  /** 1-based line of each setting, for messages that point into the file */
  lines: Record<string, number>;
}

export interface HccnConf extends LineNotes {
  /** sorted by device id */
  devices: HccnConfDevice[];
  /** keys without a `_<device>` suffix */
  global: Record<string, string>;
  /** a key given twice: the later value wins, as the driver reads the file */
  duplicates: Array<{ key: string; line: number; previousLine: number }>;
}

const KEY_VALUE = /^\s*([A-Za-z][A-Za-z0-9_]{0,80})\s*=\s*(.*?)\s*$/;
const DEVICE_KEY = /^([A-Za-z][A-Za-z0-9_]*?)_(\d{1,4})$/;

/**
 * /etc/hccn.conf (reference §3.11): `<name>_<device>=<value>` per line, in any order, e.g.
 * `address_0=29.1.137.205`, `netmask_0=255.255.0.0`, `xsfp_reset_max_times_3=...`. `#` comments
 * and the `...` of published samples are skipped. Never throws.
 */
export function parseHccnConf(text: string): Parsed<HccnConf> {
  const devices = new Map<number, HccnConfDevice>();
  const global: Record<string, string> = {};
  const globalLines: Record<string, number> = {};
  const duplicates: HccnConf['duplicates'] = [];
  const skipped = new SkippedLines();
  let elided = false;
  let recognized = 0;
  forEachLine(text, (line, number) => {
    if (isBlank(line) || /^\s*#/.test(line)) return;
    if (isElision(line)) {
      elided = true;
      return;
    }
    const match = line.length > MAX_LINE_LENGTH ? null : KEY_VALUE.exec(line);
    if (!match) {
      skipped.add(line, number);
      return;
    }
    recognized++;
    const key = match[1]!;
    const value = shorten(match[2]!, 256);
    const perDevice = DEVICE_KEY.exec(key);
    if (!perDevice) {
      if (globalLines[key] !== undefined) duplicates.push({ key, line: number, previousLine: globalLines[key] });
      global[key] = value;
      globalLines[key] = number;
      return;
    }
    const id = Number(perDevice[2]);
    const name = perDevice[1]!;
    let device = devices.get(id);
    if (!device) {
      device = { device: id, settings: {}, lines: {} };
      devices.set(id, device);
    }
    const previous = device.lines[name];
    if (previous !== undefined) duplicates.push({ key, line: number, previousLine: previous });
    device.settings[name] = value;
    device.lines[name] = number;
  });
  if (recognized === 0 && skipped.count > 0) return nothingRecognized('/etc/hccn.conf', skipped);
  return {
    ok: true,
    value: {
      devices: [...devices.values()].sort((a, b) => a.device - b.device),
      global,
      duplicates,
      skipped: skipped.kept,
      skippedCount: skipped.count,
      elided,
    },
  };
}
