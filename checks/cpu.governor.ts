import { error, fail, pass, skip } from '../src/core/outcome.js';
import type { Change } from '../src/core/change.js';
import { defineCheck, type CheckContext } from '../src/core/types.js';
import { readCpuList } from '../src/parsers/cpulist.js';
import { readValue } from '../src/probes/files.js';
import { formatRanges, plural } from '../src/util/text.js';

const CPU_ROOT = '/sys/devices/system/cpu';

export function governorPath(cpu: number): string {
  return `${CPU_ROOT}/cpu${cpu}/cpufreq/scaling_governor`;
}

/** The online CPUs, from the cpulist or else from the cpuN directories, or why neither can be read. */
async function onlineCpus(ctx: CheckContext): Promise<{ cpus: number[] } | { problem: string }> {
  const online = await readValue(ctx.host, `${CPU_ROOT}/online`);
  if (online.ok) {
    const parsed = readCpuList(online.value);
    if (parsed.ok) return { cpus: parsed.ids };
    // an impossible list is not a reason to guess the CPUs from elsewhere: the file lies
    if (parsed.kind === 'limit') return { problem: `${CPU_ROOT}/online is not a possible CPU list: ${parsed.reason} (the kernel's NR_CPUS)` };
  }
  const listing = await ctx.host.readDir(CPU_ROOT);
  if (!listing.ok) return { problem: online.ok ? `${CPU_ROOT}/online is not a cpulist` : online.reason };
  const cpus = listing.value
    .map((entry) => /^cpu(\d+)$/.exec(entry.name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  return { cpus };
}

export default defineCheck({
  id: 'cpu.governor',
  title: 'CPU frequency governor',
  category: 'tuning',
  level: 'recommended',
  why:
    'vLLM schedules NPU work from host threads; a power-saving governor (ondemand, powersave, schedutil) lets cores ' +
    'drop their clock between kernel launches, which adds latency jitter to every decode step and to the HCCL ' +
    'collectives. The vllm-ascend tuning guide sets "performance" on every CPU.',
  reads: [`${CPU_ROOT}/online`, `${CPU_ROOT}/cpuN/cpufreq/scaling_governor`, `${CPU_ROOT}/cpuN/cpufreq/scaling_available_governors`],
  fix: 'Write the governor to every CPU (qprep tune does it, journaled) or set the BIOS power profile to performance.',
  async run(ctx) {
    const want = ctx.profile.tuning.cpuGovernor;
    const listed = await onlineCpus(ctx);
    if ('problem' in listed) {
      return error(`cannot list CPUs: ${listed.problem}`, { remediation: `make ${CPU_ROOT} readable (mount /sys) and re-run` });
    }
    const { cpus } = listed;
    if (cpus.length === 0) return error(`no online CPU found in ${CPU_ROOT}`, { remediation: `check that ${CPU_ROOT} is the host's sysfs` });

    const governors = await Promise.all(cpus.map((cpu) => readValue(ctx.host, governorPath(cpu))));
    const byGovernor = new Map<string, number[]>();
    const unexposed: number[] = [];
    const unreadable: string[] = [];
    governors.forEach((read, i) => {
      const cpu = cpus[i]!;
      if (read.ok) byGovernor.set(read.value, [...(byGovernor.get(read.value) ?? []), cpu]);
      else if (read.code === 'ENOENT') unexposed.push(cpu);
      else unreadable.push(read.reason);
    });
    const evidence = {
      onlineCpus: formatRanges(cpus),
      governors: Object.fromEntries([...byGovernor].map(([g, list]) => [g, formatRanges(list)])),
      ...(unexposed.length ? { withoutCpufreq: formatRanges(unexposed) } : {}),
    };

    if (unreadable.length > 0) {
      return error(`cannot read the governor: ${unreadable[0]}`, {
        remediation: 'run qprep as a user that can read /sys/devices/system/cpu (root on hardened hosts)',
        evidence,
      });
    }
    if (byGovernor.size === 0) {
      return skip(`cpufreq is not exposed here (no ${CPU_ROOT}/cpu${cpus[0]}/cpufreq): the hypervisor or the container runtime controls CPU frequency`, {
        remediation: 'nothing to do here; on bare metal, load the cpufreq driver (acpi-cpufreq, intel_pstate, cppc_cpufreq) or set the BIOS power profile to performance',
        evidence,
      });
    }

    const wrong = [...byGovernor].filter(([governor]) => governor !== want);
    if (wrong.length === 0) {
      const note = unexposed.length ? ` (${plural(unexposed.length, 'CPU')} without cpufreq)` : '';
      return pass(`all ${plural(cpus.length - unexposed.length, 'online CPU')} use the ${want} governor${note}`, { evidence });
    }

    const wrongCpus = wrong.flatMap(([, list]) => list).sort((a, b) => a - b);
    const firstWrong = wrongCpus[0]!;
    const available = await readValue(ctx.host, `${CPU_ROOT}/cpu${firstWrong}/cpufreq/scaling_available_governors`);
    const offered = available.ok ? available.value.split(/\s+/).filter(Boolean) : undefined;
    const actual = wrong.map(([g, list]) => `${g} on cpu ${formatRanges(list)}`).join('; ');
    const message = `${wrongCpus.length} of ${plural(cpus.length - unexposed.length, 'CPU')} do not use the ${want} governor: ${actual}`;
    const container = await ctx.container();
    const where = container.inContainer ? 'on the host (not in the container): ' : '';
    if (offered && !offered.includes(want)) {
      return fail(`${message}; the cpufreq driver offers only ${offered.join(', ')}`, {
        expected: want,
        actual,
        remediation: `${where}set the BIOS/firmware power profile to maximum performance, or load a cpufreq driver that offers "${want}"`,
        evidence: { ...evidence, available: offered },
      });
    }
    return fail(message, {
      expected: want,
      actual,
      remediation: `${where}sudo qprep tune --only cpu.governor   (or: echo ${want} | sudo tee ${CPU_ROOT}/cpu*/cpufreq/scaling_governor)`,
      evidence,
    });
  },
  /** One write per online CPU whose governor differs; nothing when the driver does not offer the governor. */
  async plan(ctx): Promise<Change[]> {
    const want = ctx.profile.tuning.cpuGovernor;
    const listed = await onlineCpus(ctx);
    if ('problem' in listed) return [];
    const reads = await Promise.all(listed.cpus.map((cpu) => readValue(ctx.host, governorPath(cpu))));
    const wrong = listed.cpus.filter((_, i) => {
      const read = reads[i]!;
      return read.ok && read.value !== want;
    });
    if (wrong.length === 0) return [];
    const available = await readValue(ctx.host, `${CPU_ROOT}/cpu${wrong[0]}/cpufreq/scaling_available_governors`);
    if (available.ok && !available.value.split(/\s+/).includes(want)) return [];
    return wrong.map((cpu) => ({ kind: 'sysfs', path: governorPath(cpu), value: want }));
  },
});
