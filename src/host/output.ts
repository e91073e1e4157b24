import * as fsp from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
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

/**
 * Replaces `file` atomically with a temporary file whose name starts with a dot, in the same
 * directory: node-feature-discovery reads every file of its features.d directory but the dot
 * files, so it never reads a half-written one (write-file-atomic's temporary name has no dot).
 * fsync'ed, renamed over the old file, the directory fsync'ed; a failure leaves the old file.
 */
export async function writeDotAtomic(file: string, content: string, mode = 0o644): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}`);
  try {
    const handle = await fsp.open(temporary, 'wx', mode);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temporary, file);
    const directory = await fsp.open(dir, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  } catch (error) {
    await fsp.rm(temporary, { force: true }).catch(() => undefined);
    const errno = (error as NodeJS.ErrnoException).code;
    const reason =
      errno === 'ENOENT'
        ? `directory ${dir} does not exist`
        : errno === 'EACCES' || errno === 'EPERM'
          ? `${dir} is not writable`
          : errno === 'EROFS'
            ? `${dir} is on a read-only file system`
            : errno === 'ENOSPC'
              ? `no space left on the device of ${dir}`
              : (error as Error).message;
    throw new QprepError('output', `cannot write ${file}: ${reason}`);
  }
}
