import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { packageFamily } from '../src/parsers/os-release.js';
import { findJemalloc, LIBRARY } from '../src/probes/jemalloc.js';
import { osRelease } from '../src/probes/os.js';
import { summarizeList } from '../src/util/text.js';

/** Where libjemalloc2 (Debian, Ubuntu) or jemalloc (openEuler, RHEL) puts the library. */
function packagedPath(family: ReturnType<typeof packageFamily>, arch: string): string {
  if (family === 'deb') return `/usr/lib/${arch}-linux-gnu/${LIBRARY}`;
  if (family === 'rpm') return `/usr/lib64/${LIBRARY}`;
  return '<path>';
}

export default defineCheck({
  id: 'mem.jemalloc',
  category: 'tuning',
  order: 50,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  // title, why, fix and every message: src/i18n/*/checks/tuning.ts
  async run(ctx) {
    const t = ctx.text.checks['mem.jemalloc'];
    const list = ctx.text.report.list;
    const { arch } = await ctx.host.identity();
    const preload = (ctx.host.env().LD_PRELOAD ?? '').split(/[:\s]+/).filter(Boolean);
    const preloadStats = await Promise.all(preload.map((entry) => (entry.startsWith('/') ? ctx.host.stat(entry) : Promise.resolve(undefined))));
    const brokenPreload = preload.filter((_entry, i) => {
      const stat = preloadStats[i];
      return stat !== undefined && !stat.ok;
    });
    const found = await findJemalloc(ctx);
    const evidence: Record<string, unknown> = { arch, found: found.path, searched: found.searched, ldPreload: preload };
    const os = await osRelease(ctx);
    const install =
      packageFamily(os) === 'deb' ? 'sudo apt install libjemalloc2' : packageFamily(os) === 'rpm' ? 'sudo yum install jemalloc' : t.installAny({ library: LIBRARY });

    if (brokenPreload.length > 0) {
      const fix = found.path ? `export LD_PRELOAD=${found.path}` : install;
      return fail(t.brokenPreload({ entries: summarizeList(brokenPreload, 4, list), arch }), {
        expected: found.path ?? `${LIBRARY} for ${arch}`,
        actual: brokenPreload.join(':'),
        remediation: t.brokenPreloadFix({ fix }),
        evidence,
      });
    }
    if (!found.path && found.problem) {
      return error(t.cannotTell({ library: LIBRARY, problem: found.problem }), {
        remediation: t.checkLdconfig,
        evidence,
      });
    }
    if (!found.path) {
      return fail(t.notInstalled({ library: LIBRARY, arch, searched: summarizeList(found.searched, 3, list) }), {
        expected: LIBRARY,
        actual: 'not found',
        // the path the distribution's package installs, so that the second line pastes as it is
        remediation: t.installAndPreload({ install, path: packagedPath(packageFamily(os), arch) }),
        evidence,
      });
    }
    const preloaded = preload.includes(found.path);
    return pass(t.found({ library: LIBRARY, path: found.path, preloaded }), { evidence });
  },
});
