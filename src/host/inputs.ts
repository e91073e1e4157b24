import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { QprepError, type ErrorCode } from '../errors.js';
import { en } from '../i18n/en/index.js';
import { spokenError, type ErrorText } from '../i18n/spoken-error.js';

type InputWords = ErrorText['inputs'];
/** What an input is, as the error messages name it (each a word of the catalogue). */
export type InputName = keyof typeof en.errors.inputs.names;

/**
 * The largest input document qprep reads: snapshots and the reports of a whole cluster on one
 * standard input. The cap is enforced while reading, so a file that grows (or lies about its
 * size) is cut off there too.
 */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * The largest snapshot qprep replays. Reading one holds its text and its parsed document, then
 * the document and its validated copy: up to about 4 times the file for one of many small
 * records (docs/robustness.md, `node bench/run.mjs --only input-memory`), so a snapshot at the
 * cap is read within the 192 MB heap the install recipes give Node. The demo snapshots are
 * 85 to 235 KB.
 */
export const MAX_SNAPSHOT_BYTES = 32 * 1024 * 1024;

/** Profiles and cluster files are written by hand: a few KiB. */
export const MAX_SETTINGS_BYTES = 16 * 1024 * 1024;

/** "64 MiB": the cap as the error lines say it. */
export function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * What a path given as an input is, without following it further than stat does and without
 * opening it (a FIFO with no writer would block an open for reading).
 */
export function kindOfStat(stat: Stats): string {
  if (stat.isFile()) return 'regular file';
  if (stat.isDirectory()) return 'directory';
  if (stat.isFIFO()) return 'FIFO';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  if (stat.isSocket()) return 'socket';
  return 'special file';
}

/**
 * Says why an input over its cap is refused, in a catalogue's words: `bytes` is its size when
 * known (a regular file), undefined when it was cut off while reading (a pipe, a file that grew).
 */
export type OverCap = (bytes: number | undefined, t: InputWords) => string;

/** The reason of an input over a cap the reader names: "2000000 bytes, over the 1048576 bytes (1 MiB) qprep reads of a launch script". */
export function namedCap(maxBytes: number, of: InputName): OverCap {
  return (bytes, t) => t.overCap({ bytes: bytes ?? null, max: maxBytes, size: describeBytes(maxBytes), of: t.names[of] });
}

/** The reason of an input over its cap when the reader names none: "larger than 16 MiB". */
const largerThan =
  (maxBytes: number): OverCap =>
  (_bytes, t) =>
    t.largerThan({ size: describeBytes(maxBytes) });

/**
 * Reads one of qprep's own input files (profile, cluster, snapshot, report, launch script).
 * These are the operator's documents, not host state, so they are read directly and never
 * recorded. Only a regular file is read: it is opened without blocking (a FIFO with no writer
 * would hang the gate), checked again after opening, and read up to `maxBytes`.
 */
export async function readInputFile(path: string, what: InputName, code: ErrorCode, maxBytes = MAX_INPUT_BYTES, overCap?: OverCap): Promise<string> {
  return readInputFileSync(path, what, code, maxBytes, overCap);
}

/**
 * The synchronous read behind readInputFile: `qprep aggregate` of 1,000 reports spends far
 * less in one synchronous read per file than in the thread-pool round trips of asynchronous ones.
 */
export function readInputFileSync(path: string, what: InputName, code: ErrorCode, maxBytes = MAX_INPUT_BYTES, overCap?: OverCap): string {
  return readInputBytesSync(path, what, code, maxBytes, overCap).toString('utf8');
}

export function readInputBytesSync(path: string, what: InputName, code: ErrorCode, maxBytes = MAX_INPUT_BYTES, overCap?: OverCap): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOCTTY);
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const kind = kindOfStat(stat);
      throw spokenError(code, (t) => t.inputs.cannotRead({ what: t.inputs.names[what], path, reason: t.inputs.notRegularFile({ kind: t.pathKinds[kind] ?? kind }) }));
    }
    const reason = overCap ?? largerThan(maxBytes);
    return readCapped(fd, stat.size, maxBytes, (bytes) => spokenError(code, (t) => t.inputs.cannotRead({ what: t.inputs.names[what], path, reason: reason(bytes, t.inputs) })));
  } catch (error) {
    throw inputError(error, path, what, code);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads an open file to its end, never more than `maxBytes`: one byte over is the error. A file
 * whose size is known is read into one buffer of that size (and one byte more, to see it did not
 * grow), so the bytes are held once, not in chunks and then again joined.
 */
function readCapped(fd: number, sizeHint: number, maxBytes: number, tooLarge: (bytes: number | undefined) => QprepError): Buffer {
  if (sizeHint > maxBytes) throw tooLarge(sizeHint);
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(sizeHint + 1, 64 * 1024), maxBytes + 1));
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      // grew past its size, or a size the file did not tell (/proc): room doubles, up to the cap
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(larger, 0, 0, total);
      buffer = larger;
    }
    const read = readSync(fd, buffer, total, buffer.length - total, null);
    if (read === 0) break;
    total += read;
    if (total > maxBytes) throw tooLarge(undefined);
  }
  // a copy only when most of the buffer is unused: a subarray would keep all of it alive
  return total * 2 >= buffer.length ? buffer.subarray(0, total) : Buffer.from(buffer.subarray(0, total));
}

/** Why the system refused a read, in a catalogue's words; the system's own message otherwise. */
function systemReason(error: unknown, t: InputWords, missing: 'noSuchFile' | 'noSuchFileOrDirectory' = 'noSuchFile'): string {
  const errno = (error as NodeJS.ErrnoException).code;
  if (errno === 'ENOENT') return t[missing];
  if (errno === 'EACCES') return t.permissionDenied;
  if (errno === 'EISDIR') return t.isDirectory;
  if (errno === 'EAGAIN') return t.wouldWait;
  return (error as Error).message;
}

function inputError(error: unknown, path: string, what: InputName, code: ErrorCode): QprepError {
  if (error instanceof QprepError) return error;
  return spokenError(code, (t) => t.inputs.cannotRead({ what: t.inputs.names[what], path, reason: systemReason(error, t.inputs) }));
}

/** What an operand of `qprep aggregate` names: a file, a directory, or nothing readable. */
export async function inputKind(path: string, code: ErrorCode): Promise<'file' | 'directory'> {
  try {
    return (await fsp.stat(path)).isDirectory() ? 'directory' : 'file';
  } catch (error) {
    throw spokenError(code, (t) => t.inputs.cannotReadPath({ path, reason: systemReason(error, t.inputs, 'noSuchFileOrDirectory') }));
  }
}

/**
 * The *.json files under a directory, subdirectories included (Ansible's fetch puts each
 * host's files under a directory named after it), in a stable order; dot entries are skipped.
 */
export async function listJsonFiles(dir: string, code: ErrorCode): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string): Promise<void> => {
    let entries;
    try {
      entries = await fsp.readdir(current, { withFileTypes: true });
    } catch (error) {
      const errno = (error as NodeJS.ErrnoException).code;
      throw spokenError(code, (t) => t.inputs.cannotList({ path: current, reason: errno === 'EACCES' ? t.inputs.permissionDenied : (error as Error).message }));
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = `${current.replace(/\/+$/, '')}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.json')) found.push(path);
    }
  };
  await walk(dir);
  return found;
}

/** All of standard input as text (a launch script piped in), up to `maxBytes`. */
export async function readStandardInput(code: ErrorCode, maxBytes = MAX_INPUT_BYTES, overCap?: OverCap, what: InputName = 'standard input'): Promise<string> {
  return (await readStandardInputBytes(code, maxBytes, overCap, what)).toString('utf8');
}

/**
 * All of standard input (reports piped in or redirected from a file). A regular file is read
 * with the same cap as any input; a pipe as it comes, up to the same limit. A device or a
 * directory on standard input is refused: /dev/zero would never end.
 */
export async function readStandardInputBytes(code: ErrorCode, maxBytes = MAX_INPUT_BYTES, overCap?: OverCap, what: InputName = 'standard input'): Promise<Buffer> {
  const reason = overCap ?? largerThan(maxBytes);
  const tooLarge = (bytes?: number) => spokenError(code, (t) => t.inputs.cannotReadStream({ what: t.inputs.names[what], reason: reason(bytes, t.inputs) }));
  let stat: Stats | undefined;
  try {
    stat = fstatSync(0);
  } catch {
    // no standard input to examine: the stream below says what it can
  }
  if (stat?.isFile()) return readCapped(0, stat.size, maxBytes, tooLarge);
  if (stat && !stat.isFIFO() && !stat.isSocket()) {
    const kind = kindOfStat(stat);
    throw spokenError(code, (t) => t.inputs.cannotReadStream({ what: t.inputs.names[what], reason: t.inputs.notFileOrPipe({ kind: t.pathKinds[kind] ?? kind }) }));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) {
      process.stdin.destroy();
      throw tooLarge();
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The stat of a path the operator named (links followed), or undefined when nothing is there. */
export function statInputPath(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT' || errno === 'ENOTDIR') return undefined;
    throw spokenError('usage', (t) => t.inputs.cannotExamine({ path, reason: errno === 'EACCES' ? t.inputs.permissionDenied : (error as Error).message }));
  }
}
