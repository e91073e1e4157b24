import { fstatSync, readFileSync, statSync, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { QprepError, type ErrorCode } from '../core/errors.js';

/** Input documents bigger than this are not profiles, clusters or snapshots. */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * Reads one of qprep's own input files (profile, cluster, snapshot, report). These are the
 * operator's documents, not host state, so they are read directly and never recorded.
 */
export async function readInputFile(path: string, what: string, code: ErrorCode): Promise<string> {
  try {
    refuseUnreadable(await fsp.stat(path), path, what, code);
    return await fsp.readFile(path, 'utf8');
  } catch (error) {
    throw inputError(error, path, what, code);
  }
}

/**
 * readInputFile without the event loop, for a command that reads many inputs and does nothing
 * else meanwhile: `qprep aggregate` of 1,000 reports spends far less in one synchronous read
 * per file than in the five thread-pool round trips of an asynchronous one.
 */
export function readInputFileSync(path: string, what: string, code: ErrorCode): string {
  try {
    refuseUnreadable(statSync(path), path, what, code);
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw inputError(error, path, what, code);
  }
}

function refuseUnreadable(stat: Stats, path: string, what: string, code: ErrorCode): void {
  if (stat.isDirectory()) throw new QprepError(code, `cannot read ${what} ${path}: it is a directory`);
  if (stat.size > MAX_INPUT_BYTES) throw new QprepError(code, `cannot read ${what} ${path}: larger than ${MAX_INPUT_BYTES} bytes`);
}

function inputError(error: unknown, path: string, what: string, code: ErrorCode): QprepError {
  if (error instanceof QprepError) return error;
  const errno = (error as NodeJS.ErrnoException).code;
  const reason = errno === 'ENOENT' ? 'no such file' : errno === 'EACCES' ? 'permission denied' : (error as Error).message;
  return new QprepError(code, `cannot read ${what} ${path}: ${reason}`);
}

export async function fileExists(path: string): Promise<boolean> {
  try {
    await fsp.access(path);
    return true;
  } catch {
    return false;
  }
}

/** What an operand of `qprep aggregate` names: a file, a directory, or nothing readable. */
export async function inputKind(path: string, code: ErrorCode): Promise<'file' | 'directory'> {
  try {
    return (await fsp.stat(path)).isDirectory() ? 'directory' : 'file';
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    const reason = errno === 'ENOENT' ? 'no such file or directory' : errno === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new QprepError(code, `cannot read ${path}: ${reason}`);
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
      throw new QprepError(code, `cannot list ${current}: ${errno === 'EACCES' ? 'permission denied' : (error as Error).message}`);
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

/** All of standard input as text (a launch script piped in). */
export async function readStandardInput(code: ErrorCode): Promise<string> {
  return (await readStandardInputBytes(code)).toString('utf8');
}

/**
 * All of standard input (reports piped in or redirected from a file). A regular file is read in
 * one call; a pipe as it comes, up to the same limit.
 */
export async function readStandardInputBytes(code: ErrorCode): Promise<Buffer> {
  const tooLarge = () => new QprepError(code, `cannot read standard input: larger than ${MAX_INPUT_BYTES} bytes`);
  let stat: Stats | undefined;
  try {
    stat = fstatSync(0);
  } catch {
    // no standard input to examine: the stream below says what it can
  }
  if (stat?.isFile()) {
    if (stat.size > MAX_INPUT_BYTES) throw tooLarge();
    return readFileSync(0);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) throw tooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
