import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck, type CheckContext } from '../src/core/types.js';
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

export default defineCheck({
  id: 'host.disk',
  title: 'Free disk space for the weights',
  category: 'host',
  level: 'recommended',
  why:
    'Qwen3.5-397B-A17B is about 400 GB in w8a8 and 800 GB in BF16; a download or conversion that runs out of space ' +
    'half-way leaves a broken checkpoint. The guides download weights to /root/.cache (ideally a directory shared by ' +
    'all nodes); the profile names the directories and the space they need.',
  reads: ['statfs(<each host.disk path of the profile>)'],
  fix: 'Free space on that filesystem, or put the weights elsewhere and set host.disk in the profile.',
  async run(ctx) {
    const entries = ctx.profile.host.disk;
    if (entries.length === 0) return pass('no weight directory configured (host.disk is empty in the profile)');
    const findings = await Promise.all(entries.map(async (entry) => ({ entry, ...(await usageFor(ctx, entry.path)) })));
    const evidence = findings.map(({ entry, measured, usage }) => ({
      path: entry.path,
      measuredAt: measured,
      minFreeBytes: entry.minFree,
      ...(usage.ok ? { availableBytes: usage.value.availableBytes, totalBytes: usage.value.totalBytes } : { error: usage.message }),
    }));
    const broken = findings.find((f) => !f.usage.ok);
    if (broken && !broken.usage.ok) {
      return error(`cannot measure free space: ${describeProbeError(broken.measured, broken.usage)}`, {
        remediation: `make ${broken.measured} accessible and re-run`,
        evidence: { paths: evidence },
      });
    }
    const describe = (f: (typeof findings)[number]) => {
      const available = f.usage.ok ? f.usage.value.availableBytes : 0;
      const on = f.measured === f.entry.path ? '' : ` (not created yet; measured on ${f.measured})`;
      return `${f.entry.path}${on}: ${formatBytes(available)} free`;
    };
    const short = findings.filter((f) => f.usage.ok && f.usage.value.availableBytes < f.entry.minFree);
    if (short.length === 0) return pass(findings.map(describe).join('; '), { evidence: { paths: evidence } });
    const first = short[0]!;
    return fail(`${short.map((f) => `${describe(f)}, expected at least ${formatBytes(f.entry.minFree)}`).join('; ')}`, {
      expected: `>= ${formatBytes(first.entry.minFree)} free`,
      actual: first.usage.ok ? `${formatBytes(first.usage.value.availableBytes)} free` : 'unknown',
      remediation: `free space on the filesystem of ${first.measured} (du -xsh ${first.measured}/* | sort -h | tail), or point host.disk in the profile at the directory that will hold the weights`,
      evidence: { paths: evidence },
    });
  },
});
