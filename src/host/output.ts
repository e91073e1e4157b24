import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { QprepError } from '../errors.js';

/**
 * Writes one of qprep's outputs (report, snapshot) atomically: a temporary file in the same
 * directory, fsync, rename. A reader never sees half a report, and a failure leaves the old
 * file as it was.
 */
export async function writeOutputFile(file: string, content: string, mode = 0o644): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  try {
    const stat = await fsp.stat(dir);
    if (!stat.isDirectory()) throw new QprepError('output', `cannot write ${file}: ${dir} is not a directory`);
  } catch (error) {
    if (error instanceof QprepError) throw error;
    throw new QprepError('output', `cannot write ${file}: directory ${dir} does not exist`);
  }
  try {
    await writeFileAtomic(file, content, { mode, fsync: true });
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    const reason =
      errno === 'EACCES' || errno === 'EPERM'
        ? `${dir} is not writable`
        : errno === 'EISDIR'
          ? 'it is a directory'
          : errno === 'ENOSPC'
            ? `no space left on the device of ${dir} (ENOSPC); the old file, if any, is unchanged`
            : errno === 'EDQUOT'
              ? `disk quota exceeded on ${dir} (EDQUOT); the old file, if any, is unchanged`
              : errno === 'EROFS'
                ? `${dir} is on a read-only file system`
                : (error as Error).message;
    throw new QprepError('output', `cannot write ${file}: ${reason}`);
  }
}
