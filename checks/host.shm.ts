import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { describeProbeError } from '../src/host/types.js';
import { formatBytes } from '../src/util/size.js';

const SHM = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;

// title, why, fix and every message: src/i18n/*/checks/host.ts
export default defineCheck({
  id: 'host.shm',
  category: 'host',
  order: 20,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['host.shm'];
    const min = ctx.profile.host.shmMin;
    const usage = await ctx.host.statfs(SHM);
    const container = await ctx.container();
    const grow = container.inContainer
      ? t.recreate({ size: Math.max(16, Math.ceil(min / 1024 ** 3)) })
      : `sudo mount -o remount,size=${Math.max(16, Math.ceil(min / 1024 ** 3))}G ${SHM}`;
    if (!usage.ok) {
      if (usage.code === 'ENOENT') {
        return fail(t.missing({ path: SHM }), {
          expected: `tmpfs of at least ${formatBytes(min)}`,
          actual: 'missing',
          remediation: container.inContainer ? t.startWithShm : `sudo mount -t tmpfs -o size=16G tmpfs ${SHM}`,
        });
      }
      return error(t.cannotStat({ problem: describeProbeError(SHM, usage, ctx.text.probes.file) }), { remediation: t.makeAccessible({ path: SHM }) });
    }
    const { totalBytes, availableBytes, type } = usage.value;
    const evidence = { path: SHM, totalBytes, availableBytes, minBytes: min, tmpfs: type === TMPFS_MAGIC };
    if (totalBytes < min) {
      return fail(t.tooSmall({ path: SHM, total: formatBytes(totalBytes), min: formatBytes(min) }), {
        expected: `>= ${formatBytes(min)}`,
        actual: formatBytes(totalBytes),
        remediation: grow,
        evidence,
      });
    }
    if (availableBytes < min) {
      return fail(t.tooFull({ path: SHM, available: formatBytes(availableBytes), total: formatBytes(totalBytes), min: formatBytes(min) }), {
        expected: `>= ${formatBytes(min)} free`,
        actual: `${formatBytes(availableBytes)} free`,
        remediation: t.removeStale({ path: SHM, grow }),
        evidence,
      });
    }
    return pass(t.passed({ path: SHM, total: formatBytes(totalBytes), available: formatBytes(availableBytes) }), { evidence });
  },
});
