import { error, fail, pass } from '../src/core/outcome.js';
import { sysctlChange, type Change } from '../src/core/change.js';
import { defineCheck } from '../src/core/define-check.js';
import { parseMeminfo } from '../src/parsers/meminfo.js';
import { readInteger } from '../src/probes/files.js';

const PATH = '/proc/sys/vm/swappiness';

export default defineCheck({
  id: 'sysctl.swappiness',
  category: 'tuning',
  order: 20,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  // title, why, fix and every message: src/i18n/*/checks/tuning.ts
  async run(ctx) {
    const t = ctx.text.checks['sysctl.swappiness'];
    const { target, max } = ctx.profile.tuning.swappiness;
    const read = await readInteger(ctx.host, PATH, ctx.text.probes);
    if (!read.ok) return error(t.cannotRead({ reason: read.reason }), { remediation: t.mountProc({ path: PATH }) });
    const evidence: Record<string, unknown> = { path: PATH, value: read.value, max, target };
    if (read.value <= max) return pass(t.right({ value: read.value }), { evidence });
    const meminfo = await ctx.host.readFile('/proc/meminfo');
    const swapTotal = meminfo.ok ? parseMeminfo(meminfo.value).get('SwapTotal') : undefined;
    if (swapTotal !== undefined) evidence.swapTotalBytes = swapTotal;
    const { inContainer } = await ctx.container();
    return fail(t.wrong({ value: read.value, max, noSwap: swapTotal === 0 }), {
      expected: `<= ${max}`,
      actual: String(read.value),
      remediation: t.tune({ inContainer, target }),
      evidence,
    });
  },
  async plan(ctx): Promise<Change[]> {
    return [sysctlChange('vm.swappiness', ctx.profile.tuning.swappiness.target)];
  },
});
