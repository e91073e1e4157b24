import { spokenError } from '../i18n/spoken-error.js';
import { constants as fsConstants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { QprepError } from '../errors.js';

/**
 * The mode of an output that is a report of the host (its name, addresses, versions, NPUs,
 * what its tools printed): for the operator who ran qprep alone.
 */
export const HOST_REPORT_MODE = 0o600;

/** The temporary file is created, never opened if something is there, and never through a link. */
const CREATE_NEW = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW;

/**
 * Writes one of qprep's outputs (report, snapshot, verdict, node labels) atomically, and never
 * through a link:
 * - a symbolic link at `file` is refused, and left as it is with what it points to;
 * - the content goes to a new temporary file in the same directory, named with a dot and
 *   random (node-feature-discovery and node_exporter's textfile collector skip dot files, so
 *   neither reads half of it), created exclusively so that nothing planted under that name is
 *   opened, given `mode` whatever the umask, fsync'ed;
 * - it is renamed over `file`: a link that appeared there since the check is replaced, never
 *   followed, and the directory is fsync'ed.
 * A reader never sees half a document, and a failure leaves the old file as it was and no
 * temporary file. write-file-atomic, used before, resolved the link and wrote its target,
 * opened a predictable temporary name without O_EXCL and gave the new file the old one's owner.
 */
export async function writeOutputFile(file: string, content: string, mode: number = HOST_REPORT_MODE): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  await requireDirectory(file, dir);
  await refuseLink(file);
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    const handle = await fsp.open(temporary, CREATE_NEW, mode);
    try {
      await handle.writeFile(content);
      // the umask narrows open's mode: a .prom file node_exporter reads must stay readable
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temporary, file);
    await syncDirectory(dir);
  } catch (error) {
    await fsp.rm(temporary, { force: true }).catch(() => undefined);
    const reason = writeFailure(error, dir);
    throw spokenError('output', (t) => t.output.cannotWrite({ file, reason }));
  }
}

async function requireDirectory(file: string, dir: string): Promise<void> {
  try {
    const stat = await fsp.stat(dir);
    if (!stat.isDirectory()) throw spokenError('output', (t) => t.output.cannotWrite({ file, reason: t.output.notADirectory({ dir }) }));
  } catch (error) {
    if (error instanceof QprepError) throw error;
    throw spokenError('output', (t) => t.output.cannotWrite({ file, reason: t.output.noDirectory({ dir }) }));
  }
}

/** A link at the output's name: refused, naming where it points (in a sticky /tmp another user may have planted it). */
async function refuseLink(file: string): Promise<void> {
  let stat;
  try {
    stat = await fsp.lstat(file);
  } catch {
    // nothing there yet (or nothing lstat can see): the exclusive create and the rename decide
    return;
  }
  if (stat.isDirectory()) throw spokenError('output', (t) => t.output.cannotWrite({ file, reason: t.output.isDirectory }));
  if (!stat.isSymbolicLink()) return;
  const target = await fsp.readlink(file).catch(() => 'an unreadable target');
  throw spokenError('output', (t) => t.output.cannotWrite({ file, reason: t.output.isLink({ target }) }));
}

async function syncDirectory(dir: string): Promise<void> {
  const directory = await fsp.open(dir, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

function writeFailure(error: unknown, dir: string): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EACCES':
    case 'EPERM':
      return `${dir} is not writable`;
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOENT':
      return `directory ${dir} does not exist`;
    case 'ENOSPC':
      return `no space left on the device of ${dir} (ENOSPC); the old file, if any, is unchanged`;
    case 'EDQUOT':
      return `disk quota exceeded on ${dir} (EDQUOT); the old file, if any, is unchanged`;
    case 'EROFS':
      return `${dir} is on a read-only file system`;
    default:
      return (error as Error).message;
  }
}
