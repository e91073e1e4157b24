import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck, type CheckContext } from '../src/core/types.js';
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

export default defineCheck({
  id: 'host.memory',
  title: 'Available host memory',
  category: 'host',
  level: 'recommended',
  why:
    'Weights are read through host memory while they are loaded onto the NPUs, and the engine, tokenizer and CPU ' +
    'workers live there too. A host (or a container memory limit) with too little available memory is killed by ' +
    'the OOM killer half-way through a 30-minute load.',
  reads: [MEMINFO, '/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes'],
  fix: 'Stop what holds the memory, or raise the container memory limit (docker run --memory), or lower the profile threshold.',
  async run(ctx) {
    const min = ctx.profile.host.memoryMinAvailable;
    const read = await ctx.host.readFile(MEMINFO);
    if (!read.ok) return error(`cannot read ${describeProbeError(MEMINFO, read)}`, { remediation: `make ${MEMINFO} readable (mount /proc) and re-run` });
    const fields = parseMeminfo(read.value);
    const total = fields.get('MemTotal');
    const available = fields.get('MemAvailable') ?? (fields.has('MemFree') ? fields.get('MemFree')! + (fields.get('Cached') ?? 0) : undefined);
    if (total === undefined || available === undefined) {
      return error(`${MEMINFO} has no MemTotal/MemAvailable lines`, { remediation: `check that ${MEMINFO} is the kernel's file`, evidence: { firstLine: read.value.split('\n')[0] } });
    }
    const evidence: Record<string, unknown> = { totalBytes: total, availableBytes: available, minAvailableBytes: min };
    let usable = available;
    let where = `${formatBytes(available)} available of ${formatBytes(total)}`;
    const container = await ctx.container();
    if (container.inContainer) {
      const limit = await containerLimit(ctx);
      if (limit) {
        const headroom = Math.max(0, limit.limitBytes - limit.usageBytes);
        evidence.cgroup = limit;
        if (headroom < usable) {
          usable = headroom;
          where = `${formatBytes(headroom)} left under the container limit of ${formatBytes(limit.limitBytes)} (host: ${formatBytes(available)} available)`;
        }
      }
    }
    if (usable >= min) return pass(where, { evidence });
    return fail(`${where}, expected at least ${formatBytes(min)} available`, {
      expected: `>= ${formatBytes(min)}`,
      actual: formatBytes(usable),
      remediation: container.inContainer
        ? 'free memory on the host or re-create the container with a larger --memory limit'
        : 'stop the processes holding memory (ps aux --sort=-rss | head), or lower host.memoryMinAvailable in the profile',
      evidence,
    });
  },
});
