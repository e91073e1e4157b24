import { error, fail, pass, skip } from '../src/core/outcome.js';
import type { Change } from '../src/core/change.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { readCpuList } from '../src/parsers/cpulist.js';
import { readValue } from '../src/probes/files.js';
import { formatRanges } from '../src/util/text.js';

const CPU_ROOT = '/sys/devices/system/cpu';

export function governorPath(cpu: number): string {
  return `${CPU_ROOT}/cpu${cpu}/cpufreq/scaling_governor`;
}

/** The online CPUs, from the cpulist or else from the cpuN directories, or why neither can be read. */
async function onlineCpus(ctx: CheckContext): Promise<{ cpus: number[] } | { problem: string }> {
  const t = ctx.text.checks['cpu.governor'];
  const online = await readValue(ctx.host, `${CPU_ROOT}/online`, ctx.text.probes);
  if (online.ok) {
    const parsed = readCpuList(online.value);
    if (parsed.ok) return { cpus: parsed.ids };
    // an impossible list is not a reason to guess the CPUs from elsewhere: the file lies
    if (parsed.kind === 'limit') return { problem: t.notPossibleList({ path: `${CPU_ROOT}/online`, reason: parsed.reason }) };
  }
  const listing = await ctx.host.readDir(CPU_ROOT);
  if (!listing.ok) return { problem: online.ok ? t.notCpulist({ path: `${CPU_ROOT}/online` }) : online.reason };
  const cpus = listing.value
    .map((entry) => /^cpu(\d+)$/.exec(entry.name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  return { cpus };
}

export default defineCheck({
  id: 'cpu.governor',
  category: 'tuning',
  order: 10,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  // title, why, fix and every message: src/i18n/*/checks/tuning.ts
  async run(ctx) {
    const t = ctx.text.checks['cpu.governor'];
    const want = ctx.profile.tuning.cpuGovernor;
    const listed = await onlineCpus(ctx);
    if ('problem' in listed) {
      return error(t.cannotList({ problem: listed.problem }), { remediation: t.mountSys({ root: CPU_ROOT }) });
    }
    const { cpus } = listed;
    if (cpus.length === 0) return error(t.noOnlineCpu({ root: CPU_ROOT }), { remediation: t.checkSysfs({ root: CPU_ROOT }) });

    const governors = await Promise.all(cpus.map((cpu) => readValue(ctx.host, governorPath(cpu), ctx.text.probes)));
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
      return error(t.cannotRead({ reason: unreadable[0]! }), {
        remediation: t.readAsRoot,
        evidence,
      });
    }
    if (byGovernor.size === 0) {
      return skip(t.noCpufreq({ root: CPU_ROOT, cpu: cpus[0]! }), {
        remediation: t.noCpufreqFix,
        evidence,
      });
    }

    const wrong = [...byGovernor].filter(([governor]) => governor !== want);
    if (wrong.length === 0) {
      return pass(t.allRight({ cpus: cpus.length - unexposed.length, governor: want, withoutCpufreq: unexposed.length }), { evidence });
    }

    const wrongCpus = wrong.flatMap(([, list]) => list).sort((a, b) => a - b);
    const firstWrong = wrongCpus[0]!;
    const available = await readValue(ctx.host, `${CPU_ROOT}/cpu${firstWrong}/cpufreq/scaling_available_governors`);
    const offered = available.ok ? available.value.split(/\s+/).filter(Boolean) : undefined;
    // actual is for programs: never translated; the message says the same in the run's language
    const actual = wrong.map(([g, list]) => `${g} on cpu ${formatRanges(list)}`).join('; ');
    const described = wrong.map(([g, list]) => t.onCpus({ governor: g, cpus: formatRanges(list) })).join(t.onCpusSeparator);
    const counts = { wrong: wrongCpus.length, cpus: cpus.length - unexposed.length, governor: want, actual: described };
    const { inContainer } = await ctx.container();
    if (offered && !offered.includes(want)) {
      return fail(t.wrongNotOffered({ ...counts, offered: offered.join(ctx.text.report.list.separator) }), {
        expected: want,
        actual,
        remediation: t.biosProfile({ inContainer, governor: want }),
        evidence: { ...evidence, available: offered },
      });
    }
    return fail(t.wrong(counts), {
      expected: want,
      actual,
      remediation: t.tune({ inContainer, governor: want, root: CPU_ROOT }),
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
