/**
 * Lists of ids written as ranges, "0-3,8,10-11": the kernel's cpulist format
 * (/sys/devices/system/cpu/online, Cpus_allowed_list) and the device lists of
 * ASCEND_RT_VISIBLE_DEVICES. The text comes from files and variables other software controls,
 * so the work is bounded by `limit` whatever it holds: at most `limit` entries are looked at,
 * no id may reach `limit`, and the ids are collected in a bitmap of `limit` slots. A range
 * "0-4294967295" or a million entries is an impossible value, said so, never expanded.
 */

/** The kernel's largest NR_CPUS (CONFIG_NR_CPUS is at most 8192 on arm64 and x86_64). */
export const NR_CPUS = 8192;

export type IdRanges =
  | { ok: true; ids: number[] }
  /** syntax: not a list of ids; limit: a list, but of ids or entries no real host has */
  | { ok: false; kind: 'syntax' | 'limit'; reason: string };

/** No id list qprep reads needs more slots than this. */
const MAX_LIMIT = 1 << 20;

const ENTRY = /^\s*(\d{1,10})(?:-(\d{1,10}))?\s*$/;

/** Parses "0-3,8" into sorted, distinct ids below `limit`; never throws, never allocates past `limit`. */
export function parseIdRanges(text: string, wanted: number): IdRanges {
  // the limit is the caller's constant; a nonsensical one is clamped rather than thrown on
  const limit = Number.isInteger(wanted) ? Math.min(Math.max(wanted, 0), MAX_LIMIT) : 0;
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, ids: [] };
  const seen = new Uint8Array(limit);
  let count = 0;
  let entries = 0;
  let start = 0;
  while (start <= trimmed.length) {
    let end = trimmed.indexOf(',', start);
    if (end < 0) end = trimmed.length;
    if (++entries > limit) return { ok: false, kind: 'limit', reason: `more than ${limit} entries` };
    const match = ENTRY.exec(trimmed.slice(start, end));
    if (!match) return { ok: false, kind: 'syntax', reason: `"${trimmed.slice(start, Math.min(end, start + 40))}" is not an id or a range such as 4-7` };
    const low = Number(match[1]);
    const high = match[2] === undefined ? low : Number(match[2]);
    if (high < low) return { ok: false, kind: 'syntax', reason: `range ${low}-${high} ends before it starts` };
    if (high >= limit) return { ok: false, kind: 'limit', reason: `${high} is beyond the limit of ${limit} (ids 0-${limit - 1})` };
    for (let id = low; id <= high; id++) {
      if (seen[id] === 0) {
        seen[id] = 1;
        count++;
      }
    }
    start = end + 1;
  }
  const ids = new Array<number>(count);
  let at = 0;
  for (let id = 0; id < limit && at < count; id++) if (seen[id] === 1) ids[at++] = id;
  return { ok: true, ids };
}
