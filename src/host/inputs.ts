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
    const stat = await fsp.stat(path);
    if (stat.isDirectory()) throw new QprepError(code, `cannot read ${what} ${path}: it is a directory`);
    if (stat.size > MAX_INPUT_BYTES) throw new QprepError(code, `cannot read ${what} ${path}: larger than ${MAX_INPUT_BYTES} bytes`);
    return await fsp.readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof QprepError) throw error;
    const errno = (error as NodeJS.ErrnoException).code;
    const reason = errno === 'ENOENT' ? 'no such file' : errno === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new QprepError(code, `cannot read ${what} ${path}: ${reason}`);
  }
}

export async function fileExists(path: string): Promise<boolean> {
  try {
    await fsp.access(path);
    return true;
  } catch {
    return false;
  }
}

/** Reads one of qprep's input documents from standard input ("-" in place of a file name). */
export async function readInputStdin(what: string, code: ErrorCode): Promise<string> {
  if (process.stdin.isTTY) throw new QprepError(code, `cannot read ${what} from standard input: it is a terminal (pipe the file in, or give its path)`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) throw new QprepError(code, `cannot read ${what} from standard input: larger than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
