import { error, fail, pass, skip } from '../src/core/outcome.js';
import { sysctlChange, type Change } from '../src/core/change.js';
import { defineCheck } from '../src/core/define-check.js';
import { readInteger } from '../src/probes/files.js';

const PATH = '/proc/sys/kernel/numa_balancing';

export default defineCheck({
  id: 'sysctl.numa-balancing',
  category: 'tuning',
  order: 30,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  // title, why, fix and every message: src/i18n/*/checks/tuning.ts
  async run(ctx) {
    const t = ctx.text.checks['sysctl.numa-balancing'];
    const { target } = ctx.profile.tuning.numaBalancing;
    const read = await readInteger(ctx.host, PATH, ctx.text.probes);
    if (!read.ok && read.code === 'ENOENT') {
      return skip(t.absent({ path: PATH }), {
        remediation: t.nothingToTurnOff,
        evidence: { path: PATH },
      });
    }
    if (!read.ok) return error(t.cannotRead({ reason: read.reason }), { remediation: t.mountProc({ path: PATH }) });
    const evidence = { path: PATH, value: read.value, target };
    if (read.value === target) return pass(t.right({ value: read.value }), { evidence });
    const { inContainer } = await ctx.container();
    return fail(t.wrong({ value: read.value, target }), {
      expected: String(target),
      actual: String(read.value),
      remediation: t.tune({ inContainer, target }),
      evidence,
    });
  },
  async plan(ctx): Promise<Change[]> {
    return [sysctlChange('kernel.numa_balancing', ctx.profile.tuning.numaBalancing.target)];
  },
});
