import { error, fail, pass } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { describeProbeError } from '../src/host/types.js';
import { parseMeminfo } from '../src/parsers/meminfo.js';
import { formatBytes } from '../src/util/size.js';

const MEMINFO = '/proc/meminfo';
/** cgroup v1 prints this (page-rounded LONG_MAX) for "no limit" */
const V1_UNLIMITED = 2 ** 62;

interface CgroupLimit {
  limitBytes: number;
  usageBytes: number;
  source: string;
}

/** The memory limit of the container qprep examines, if the runtime set one (cgroup v2, then v1). */
async function containerLimit(ctx: CheckContext): Promise<CgroupLimit | undefined> {
  const layouts = [
    { limit: '/sys/fs/cgroup/memory.max', usage: '/sys/fs/cgroup/memory.current' },
    { limit: '/sys/fs/cgroup/memory/memory.limit_in_bytes', usage: '/sys/fs/cgroup/memory/memory.usage_in_bytes' },
  ];
  for (const layout of layouts) {
    const limit = await ctx.host.readFile(layout.limit);
    if (!limit.ok) continue;
    const text = limit.value.trim();
    if (text === 'max' || !/^\d+$/.test(text) || Number(text) >= V1_UNLIMITED) return undefined;
    const usage = await ctx.host.readFile(layout.usage);
    const usageBytes = usage.ok && /^\d+$/.test(usage.value.trim()) ? Number(usage.value.trim()) : 0;
    return { limitBytes: Number(text), usageBytes, source: layout.limit };
  }
  return undefined;
}

// title, why, fix and every message: src/i18n/*/checks/host.ts
export default defineCheck({
  id: 'host.memory',
  category: 'host',
  order: 30,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['host.memory'];
    const min = ctx.profile.host.memoryMinAvailable;
    const read = await ctx.host.readFile(MEMINFO);
    if (!read.ok) return error(t.cannotRead({ problem: describeProbeError(MEMINFO, read, ctx.text.probes.file) }), { remediation: t.mountProc({ path: MEMINFO }) });
    const fields = parseMeminfo(read.value);
    const total = fields.get('MemTotal');
    const available = fields.get('MemAvailable') ?? (fields.has('MemFree') ? fields.get('MemFree')! + (fields.get('Cached') ?? 0) : undefined);
    if (total === undefined || available === undefined) {
      return error(t.noFields({ path: MEMINFO }), { remediation: t.kernelFile({ path: MEMINFO }), evidence: { firstLine: read.value.split('\n')[0] } });
    }
    const evidence: Record<string, unknown> = { totalBytes: total, availableBytes: available, minAvailableBytes: min };
    let usable = available;
    let where = t.available({ available: formatBytes(available), total: formatBytes(total) });
    const container = await ctx.container();
    if (container.inContainer) {
      const limit = await containerLimit(ctx);
      if (limit) {
        const headroom = Math.max(0, limit.limitBytes - limit.usageBytes);
        evidence.cgroup = limit;
        if (headroom < usable) {
          usable = headroom;
          where = t.underLimit({ headroom: formatBytes(headroom), limit: formatBytes(limit.limitBytes), available: formatBytes(available) });
        }
      }
    }
    if (usable >= min) return pass(where, { evidence });
    return fail(t.tooLittle({ where, min: formatBytes(min) }), {
      expected: `>= ${formatBytes(min)}`,
      actual: formatBytes(usable),
      remediation: container.inContainer ? t.largerLimit : t.stopHolders,
      evidence,
    });
  },
});
