import type { Parsed } from './parsed.js';

/**
 * `fincore --json --bytes --output RES,SIZE,FILE FILE...` (util-linux): how many bytes of each
 * file the page cache holds. util-linux 2.38 prints the numbers as JSON numbers; older releases
 * print every cell as a string, which is read the same. A file fincore could not open is
 * missing from the document (it says so on stderr and exits 1), so the caller looks files up
 * by name. Never throws.
 */

export interface FincoreEntry {
  file: string;
  /** bytes resident in the page cache */
  residentBytes: number;
  sizeBytes: number;
}

export type FincoreDocument = Parsed<FincoreEntry[]>;

function count(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : undefined;
}

export function parseFincoreJson(text: string): FincoreDocument {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { ok: false, reason: text.trim() === '' ? 'fincore printed nothing' : 'fincore did not print JSON' };
  }
  const rows = typeof document === 'object' && document !== null ? (document as { fincore?: unknown }).fincore : undefined;
  if (!Array.isArray(rows)) return { ok: false, reason: 'fincore printed JSON without its "fincore" list' };
  const entries: FincoreEntry[] = [];
  for (const row of rows as unknown[]) {
    if (typeof row !== 'object' || row === null) continue;
    const { file, res, size } = row as { file?: unknown; res?: unknown; size?: unknown };
    const residentBytes = count(res);
    const sizeBytes = count(size);
    if (typeof file !== 'string' || residentBytes === undefined || sizeBytes === undefined) continue;
    entries.push({ file, residentBytes, sizeBytes });
  }
  return { ok: true, value: entries };
}
