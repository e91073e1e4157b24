import { error, fail, pass, skip } from '../src/core/outcome.js';
import { sysctlChange, type Change } from '../src/core/change.js';
import { defineCheck } from '../src/core/types.js';
import { readInteger } from '../src/probes/files.js';

const PATH = '/proc/sys/kernel/numa_balancing';

export default defineCheck({
  id: 'sysctl.numa-balancing',
  title: 'kernel.numa_balancing',
  category: 'tuning',
  level: 'recommended',
  why:
    'Automatic NUMA balancing unmaps pages to sample access patterns and migrates them between nodes in the ' +
    'background. On multi-socket Ascend servers, where vllm-ascend binds workers to the CPUs near their NPU, ' +
    'that only adds page faults and latency spikes; the tuning guide sets kernel.numa_balancing=0.',
  reads: [PATH],
  fix: 'sysctl -w kernel.numa_balancing=0 (qprep tune; --persist writes /etc/sysctl.d/90-qprep.conf).',
  async run(ctx) {
    const { target } = ctx.profile.tuning.numaBalancing;
    const read = await readInteger(ctx.host, PATH);
    if (!read.ok && read.code === 'ENOENT') {
      return skip(`${PATH} does not exist: this kernel has no automatic NUMA balancing (CONFIG_NUMA_BALANCING off)`, {
        remediation: 'nothing to do: there is no NUMA balancing to turn off',
        evidence: { path: PATH },
      });
    }
    if (!read.ok) return error(`cannot read kernel.numa_balancing: ${read.reason}`, { remediation: `make ${PATH} readable (mount /proc) and re-run` });
    const evidence = { path: PATH, value: read.value, target };
    if (read.value === target) return pass(`kernel.numa_balancing is ${read.value}`, { evidence });
    const container = await ctx.container();
    return fail(`kernel.numa_balancing is ${read.value}, expected ${target}`, {
      expected: String(target),
      actual: String(read.value),
      remediation: `${container.inContainer ? 'on the host (not in the container): ' : ''}sudo qprep tune --only sysctl.numa-balancing   (or: sudo sysctl -w kernel.numa_balancing=${target})`,
      evidence,
    });
  },
  async plan(ctx): Promise<Change[]> {
    return [sysctlChange('kernel.numa_balancing', ctx.profile.tuning.numaBalancing.target)];
  },
});
