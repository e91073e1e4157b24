import type { CheckContext } from '../core/types.js';
import { parseOsRelease, type OsRelease } from '../parsers/os-release.js';

/** /etc/os-release of the examined tree (falls back to /usr/lib/os-release), read once per run. */
export function osRelease(ctx: CheckContext): Promise<OsRelease> {
  return ctx.shared('os-release', async () => {
    for (const path of ['/etc/os-release', '/usr/lib/os-release']) {
      const read = await ctx.host.readFile(path);
      if (read.ok) return parseOsRelease(read.value);
    }
    return parseOsRelease('');
  });
}
