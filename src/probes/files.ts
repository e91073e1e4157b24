import { describeProbeError, type Host, type ProbeErrorCode } from '../host/types.js';
import { en, type Catalogue } from '../i18n/en/index.js';

/** The words a failed read is said in: a check passes ctx.text.probes; English otherwise. */
type ReadWords = Catalogue['probes'];

export type ValueRead<T> =
  | { ok: true; value: T; path: string }
  | { ok: false; path: string; code: ProbeErrorCode | 'EPARSE'; reason: string };

/** Reads a one-value kernel file (/proc/sys, /sys) and trims it. */
export async function readValue(host: Host, path: string, words: ReadWords = en.probes): Promise<ValueRead<string>> {
  const read = await host.readFile(path);
  if (!read.ok) return { ok: false, path, code: read.code, reason: describeProbeError(path, read, words.file) };
  return { ok: true, value: read.value.trim(), path };
}

/** Reads a kernel file holding one integer. */
export async function readInteger(host: Host, path: string, words: ReadWords = en.probes): Promise<ValueRead<number>> {
  const read = await readValue(host, path, words);
  if (!read.ok) return read;
  if (!/^-?\d+$/.test(read.value)) {
    return { ok: false, path, code: 'EPARSE', reason: words.value.notInteger({ path, got: read.value.slice(0, 40) }) };
  }
  return { ok: true, value: Number(read.value), path };
}

export function isMissing(probe: { ok: boolean; code?: string }): boolean {
  return !probe.ok && probe.code === 'ENOENT';
}
