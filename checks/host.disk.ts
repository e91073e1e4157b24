import { error, fail, pass } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { describeProbeError, type FsUsage, type Probe } from '../src/host/types.js';
import { formatBytes } from '../src/util/size.js';

/** statfs of the path, or of its nearest existing parent when the directory is not created yet. */
async function usageFor(ctx: CheckContext, path: string): Promise<{ measured: string; usage: Probe<FsUsage> }> {
  let current = path.replace(/\/+$/, '') || '/';
  for (;;) {
    const usage = await ctx.host.statfs(current);
    if (usage.ok || usage.code !== 'ENOENT' || current === '/') return { measured: current, usage };
    current = current.replace(/\/[^/]*$/, '') || '/';
  }
}

// title, why, fix and every message: src/i18n/*/checks/host.ts
export default defineCheck({
  id: 'host.disk',
  category: 'host',
  order: 40,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['host.disk'];
    const entries = ctx.profile.host.disk;
    if (entries.length === 0) return pass(t.noDirectory);
    const findings = await Promise.all(entries.map(async (entry) => ({ entry, ...(await usageFor(ctx, entry.path)) })));
    const evidence = findings.map(({ entry, measured, usage }) => ({
      path: entry.path,
      measuredAt: measured,
      minFreeBytes: entry.minFree,
      ...(usage.ok ? { availableBytes: usage.value.availableBytes, totalBytes: usage.value.totalBytes } : { error: usage.message }),
    }));
    const broken = findings.find((f) => !f.usage.ok);
    if (broken && !broken.usage.ok) {
      return error(t.cannotMeasure({ problem: describeProbeError(broken.measured, broken.usage, ctx.text.probes.file) }), {
        remediation: t.makeAccessible({ path: broken.measured }),
        evidence: { paths: evidence },
      });
    }
    const describe = (f: (typeof findings)[number]) => {
      const available = f.usage.ok ? f.usage.value.availableBytes : 0;
      return t.free({ path: f.entry.path, measuredOn: f.measured === f.entry.path ? null : f.measured, available: formatBytes(available) });
    };
    const short = findings.filter((f) => f.usage.ok && f.usage.value.availableBytes < f.entry.minFree);
    const separator = ctx.text.report.clauseSeparator;
    if (short.length === 0) return pass(findings.map(describe).join(separator), { evidence: { paths: evidence } });
    const first = short[0]!;
    return fail(short.map((f) => t.short({ free: describe(f), min: formatBytes(f.entry.minFree) })).join(separator), {
      expected: `>= ${formatBytes(first.entry.minFree)} free`,
      actual: first.usage.ok ? `${formatBytes(first.usage.value.availableBytes)} free` : 'unknown',
      remediation: t.freeSpace({ path: first.measured }),
      evidence: { paths: evidence },
    });
  },
});
