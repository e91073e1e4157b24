import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { packageFamily } from '../src/parsers/os-release.js';
import { findJemalloc, jemallocCandidates, LIBRARY } from '../src/probes/jemalloc.js';
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
  title: 'jemalloc for LD_PRELOAD',
  category: 'tuning',
  level: 'recommended',
  why:
    'The deployment guides preload jemalloc (export LD_PRELOAD=/usr/lib/$(uname -i)-linux-gnu/libjemalloc.so.2) to cut ' +
    'allocator lock contention and fragmentation in the many-threaded vLLM workers. The path differs by architecture ' +
    'and distribution (openEuler: /usr/lib64), and a wrong entry in LD_PRELOAD makes ld.so print "cannot be preloaded" ' +
    'and run without it.',
  reads: [...jemallocCandidates('<arch>'), 'ldconfig -p', 'LD_PRELOAD'],
  fix: 'Install jemalloc with the distribution package manager and preload the path qprep prints (qprep env prints the export line).',
  async run(ctx) {
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
      packageFamily(os) === 'deb' ? 'sudo apt install libjemalloc2' : packageFamily(os) === 'rpm' ? 'sudo yum install jemalloc' : `install jemalloc (${LIBRARY})`;

    if (brokenPreload.length > 0) {
      const fix = found.path ? `export LD_PRELOAD=${found.path}` : install;
      return fail(`LD_PRELOAD names ${summarizeList(brokenPreload)}, which does not exist on this ${arch} host; ld.so will skip it`, {
        expected: found.path ?? `${LIBRARY} for ${arch}`,
        actual: brokenPreload.join(':'),
        remediation: `${fix}   (qprep env prints the right line for this host)`,
        evidence,
      });
    }
    if (!found.path && found.problem) {
      return error(`cannot tell whether ${LIBRARY} is installed: ${found.problem}`, {
        remediation: 'check that ldconfig works on this host (ldconfig -p), then re-run',
        evidence,
      });
    }
    if (!found.path) {
      return fail(`${LIBRARY} is not installed for ${arch} (searched ${summarizeList(found.searched, 3)})`, {
        expected: LIBRARY,
        actual: 'not found',
        // the path the distribution's package installs, so that the second line pastes as it is
        remediation: `${install}\nexport LD_PRELOAD=${packagedPath(packageFamily(os), arch)}:$LD_PRELOAD   # in the launch script (qprep env prints it)`,
        evidence,
      });
    }
    const preloaded = preload.includes(found.path);
    return pass(`${LIBRARY} found at ${found.path}${preloaded ? ', preloaded' : `; preload it with export LD_PRELOAD=${found.path}:$LD_PRELOAD`}`, { evidence });
  },
});
