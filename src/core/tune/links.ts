import type { Host } from '../../host/types.js';

/**
 * A file tune or rollback writes or journals must be the file itself. Through a symlink there
 * (/etc/sysctl.d/90-qprep.conf -> /etc/shadow) qprep would copy the target into its journal
 * and later write it back, or replace the file someone pointed it at. The path is refused with
 * a message naming it; nothing is read or written through it. Undefined when it is no link.
 */
export async function symlinkRefusal(host: Host, path: string): Promise<string | undefined> {
  const stat = await host.lstat(path);
  if (!stat.ok || stat.value.kind !== 'symlink') return undefined;
  const target = await host.readLink(path);
  return `${path} is a symbolic link${target.ok ? ` to ${target.value}` : ''}: qprep does not read, journal or write a file it manages through a link; remove the link (or replace it with a regular file) and re-run`;
}
