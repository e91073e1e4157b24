import type { CheckContext } from '../core/types.js';
import { ldFlagsMatchArch, parseLdconfigCache } from '../parsers/ldconfig.js';
import { commandProblem } from './commands.js';

export const LIBRARY = 'libjemalloc.so.2';

/** Where distributions put libjemalloc.so.2: Debian/Ubuntu multiarch, openEuler's lib64, source builds. */
export function jemallocCandidates(arch: string): string[] {
  const triplet = `${arch}-linux-gnu`;
  return [
    `/usr/lib/${triplet}/${LIBRARY}`,
    `/lib/${triplet}/${LIBRARY}`,
    `/usr/lib64/${LIBRARY}`,
    `/lib64/${LIBRARY}`,
    `/usr/local/lib/${LIBRARY}`,
    `/usr/local/lib64/${LIBRARY}`,
    `/usr/lib/${LIBRARY}`,
  ];
}

export interface JemallocLocation {
  path: string | null;
  searched: string[];
  /** how it was found: a well-known path or the ldconfig cache */
  via?: 'path' | 'ldconfig';
  /** set when the ldconfig cache could not be read: the search is incomplete */
  problem?: string;
}

/** Finds libjemalloc.so.2 for this machine's architecture; shared with `qprep env`. */
export function findJemalloc(ctx: CheckContext): Promise<JemallocLocation> {
  return ctx.shared('jemalloc', async () => {
    const { arch } = await ctx.host.identity();
    const candidates = jemallocCandidates(arch);
    const stats = await Promise.all(candidates.map((path) => ctx.host.stat(path)));
    const hit = candidates.find((_, i) => {
      const stat = stats[i]!;
      return stat.ok && stat.value.kind === 'file';
    });
    if (hit) return { path: hit, searched: candidates, via: 'path' as const };
    const ldconfig = await ctx.host.which('ldconfig', ['/sbin', '/usr/sbin']);
    const searched = [...candidates, 'ldconfig cache'];
    if (!ldconfig.path) return { path: null, searched };
    const argv = ctx.host.root === '/' ? [ldconfig.path, '-p'] : [ldconfig.path, '-r', ctx.host.root, '-p'];
    const result = await ctx.host.run(argv);
    const problem = commandProblem(result, ctx.timeoutMs);
    if (problem) return { path: null, searched, problem };
    const entry = parseLdconfigCache(result.stdout).find((e) => e.soname === LIBRARY && ldFlagsMatchArch(e.flags, arch));
    return entry ? { path: entry.path, searched, via: 'ldconfig' as const } : { path: null, searched };
  });
}

