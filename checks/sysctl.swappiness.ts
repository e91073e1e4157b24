import { error, fail, pass } from '../src/core/outcome.js';
import { sysctlChange, type Change } from '../src/core/change.js';
import { defineCheck } from '../src/core/types.js';
import { parseMeminfo } from '../src/parsers/meminfo.js';
import { readInteger } from '../src/probes/files.js';

const PATH = '/proc/sys/vm/swappiness';

export default defineCheck({
  id: 'sysctl.swappiness',
  title: 'vm.swappiness',
  category: 'tuning',
  level: 'recommended',
  why:
    'Swapping out pages of a serving process turns a millisecond decode step into a second-long stall. ' +
    'The vllm-ascend tuning guide sets vm.swappiness=0 (0 or 1 recommended) so the kernel reclaims page cache ' +
    'before it swaps anonymous memory.',
  reads: [PATH, '/proc/meminfo'],
  fix: 'sysctl -w vm.swappiness=0 (qprep tune; --persist writes /etc/sysctl.d/90-qprep.conf).',
  async run(ctx) {
    const { target, max } = ctx.profile.tuning.swappiness;
    const read = await readInteger(ctx.host, PATH);
    if (!read.ok) return error(`cannot read vm.swappiness: ${read.reason}`, { remediation: `make ${PATH} readable (mount /proc) and re-run` });
    const evidence: Record<string, unknown> = { path: PATH, value: read.value, max, target };
    if (read.value <= max) return pass(`vm.swappiness is ${read.value}`, { evidence });
    const meminfo = await ctx.host.readFile('/proc/meminfo');
    const swapTotal = meminfo.ok ? parseMeminfo(meminfo.value).get('SwapTotal') : undefined;
    if (swapTotal !== undefined) evidence.swapTotalBytes = swapTotal;
    const noSwap = swapTotal === 0 ? ' (no swap is configured now, so it matters once swap is added)' : '';
    const container = await ctx.container();
    return fail(`vm.swappiness is ${read.value}, expected at most ${max}${noSwap}`, {
      expected: `<= ${max}`,
      actual: String(read.value),
      remediation: `${container.inContainer ? 'on the host (not in the container): ' : ''}sudo qprep tune --only sysctl.swappiness   (or: sudo sysctl -w vm.swappiness=${target})`,
      evidence,
    });
  },
  async plan(ctx): Promise<Change[]> {
    return [sysctlChange('vm.swappiness', ctx.profile.tuning.swappiness.target)];
  },
});
