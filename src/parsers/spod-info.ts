import { forEachLine, isBlank, MAX_LINE_LENGTH, nothingRecognized, shorten, SkippedLines, type Parsed } from './parsed.js';

/** One die's super pod identity (A3): `npu-smi info -t spod-info -i <card> -c <chip>`. */
export interface SpodInfoEntry {
  /** the NPU's unique id inside the super pod (rank table super_device_id) */
  sdid: number | null;
  superPodSize: number | null;
  superPodId: number | null;
  /** identical for every NPU of one server */
  serverIndex: number | null;
  /** 950 only */
  chassisId: number | null;
  superPodType: string | null;
  /** every key as printed, for evidence */
  fields: Record<string, string>;
}

export type SpodInfo =
  | { supported: true; entries: SpodInfoEntry[] }
  /** 950 and non-A3 devices: "This device does not support querying spod-info." */
  | { supported: false; message: string };

const FIELD_NAMES: Record<string, keyof Omit<SpodInfoEntry, 'fields' | 'superPodType'>> = {
  sdid: 'sdid',
  'super pod size': 'superPodSize',
  'super pod id': 'superPodId',
  'server index': 'serverIndex',
  'chassis id': 'chassisId',
};

function emptyEntry(): SpodInfoEntry {
  return { sdid: null, superPodSize: null, superPodId: null, serverIndex: null, chassisId: null, superPodType: null, fields: {} };
}

/**
 * Key/value lines `SDID : 167772160`, `Super Pod Size : 384`, `Super Pod ID : 0`,
 * `Server Index : 40` (TAB-indented and space-padded in captures), also the doc's collapsed
 * one-line form `SDID : 16777216 / Super Pod Size : 384 / ...`. A key seen again starts the next
 * die's entry (a loop over devices). Never throws.
 */
export function parseSpodInfo(text: string): Parsed<SpodInfo> {
  const entries: SpodInfoEntry[] = [];
  const skipped = new SkippedLines();
  let unsupported: string | undefined;
  let current: SpodInfoEntry | undefined;
  let recognized = 0;
  forEachLine(text, (line, number) => {
    if (isBlank(line)) return;
    if (line.length > MAX_LINE_LENGTH) {
      skipped.add(line, number);
      return;
    }
    if (/does not support/i.test(line) && /spod/i.test(line)) {
      unsupported ??= shorten(line.trim());
      recognized++;
      return;
    }
    const parts = line.split(/\s\/\s/);
    let used = false;
    for (const part of parts) {
      const match = /^\s*([A-Za-z][A-Za-z ]{0,40}?)\s*:\s*(\S.*?)?\s*$/.exec(part);
      if (!match) continue;
      const key = match[1]!.toLowerCase().replace(/\s+/g, ' ');
      const value = match[2] ?? '';
      const field = FIELD_NAMES[key];
      if (!field && key !== 'super pod type') continue;
      used = true;
      if (!current || current.fields[match[1]!.trim()] !== undefined) {
        current = emptyEntry();
        entries.push(current);
      }
      current.fields[match[1]!.trim()] = shorten(value, 64);
      if (field) current[field] = /^\d{1,12}$/.test(value) ? Number(value) : null;
      else current.superPodType = shorten(value, 64);
    }
    if (used) recognized++;
    else skipped.add(line, number);
  });
  if (recognized === 0 && skipped.count > 0) return nothingRecognized('npu-smi info -t spod-info', skipped);
  if (unsupported !== undefined && entries.length === 0) return { ok: true, value: { supported: false, message: unsupported } };
  return { ok: true, value: { supported: true, entries } };
}
