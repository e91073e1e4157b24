import { pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { ruleEvidence, type RuleJudgement } from '../src/knowledge/judge.js';
import { parseCpuList } from '../src/parsers/cpulist.js';
import { jsonFlag } from '../src/parsers/vllm-args.js';
import { launchView, noLaunchScript, rootOf, type LaunchView } from '../src/probes/launch.js';
import { launchRule, ruleNote } from '../src/probes/launch-rules.js';
import { npuInventory } from '../src/probes/npu.js';

/** Where vllm-ascend reads the CPUs it may bind (vllm_ascend/cpu_binding.py, ALLOWED_CPUS_PATH). */
const STATUS = '/proc/self/status';

type Text = Catalogue['checks']['launch.cpu-binding'];

interface Finding {
  text: (t: Text) => string;
  fix: (t: Text) => string;
}

/** What the two rules read, for the pass message and the evidence. */
interface Scan {
  ctx: CheckContext;
  view: LaunchView;
  found: Finding[];
  rules: Array<Record<string, unknown>>;
  arch: string;
  /** enable_cpu_binding as the script sets it */
  setting: boolean | null;
  cpuset: { cpus: number; npus: number; perNpu: number; minimum: number } | null;
  ompProcBind: string | null;
  /** the CPU rule does not hold for the installed release: its id, range start and the release */
  outside: { rule: string; from: string; installed: string } | null;
}

function words(ctx: CheckContext, t: Text): Catalogue['probes']['launch'] {
  return t === en.checks['launch.cpu-binding'] ? en.probes.launch : ctx.text.probes.launch;
}

/** enable_cpu_binding of --additional-config: true, false, or null when not given (the release's default). */
function bindingSetting(view: LaunchView): boolean | null {
  if (!view.serve) return null;
  const parsed = jsonFlag(view.serve.parsed, 'additional-config');
  const value = parsed.state === 'ok' && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, unknown>).enable_cpu_binding : undefined;
  return typeof value === 'boolean' ? value : null;
}

/** The CPUs this process may run on: the container's cpuset, as vllm-ascend reads it. */
async function allowedCpus(ctx: CheckContext): Promise<number[] | undefined> {
  const read = await ctx.host.readFile(STATUS);
  if (!read.ok) return undefined;
  const line = /^Cpus_allowed_list:\s*(\S+)/m.exec(read.value);
  return line ? parseCpuList(line[1]!) : undefined;
}

/**
 * Rule cpu-binding.min-cpus: vllm-ascend (from v0.18.0rc1 on by default on ARM) slices the cpuset
 * over every logical NPU of the node and needs 5 CPUs per NPU (2 for IRQs, main, ACL, release);
 * with fewer it logs "Insufficient CPUs for binding" and runs unbound.
 */
async function checkCpus(scan: Scan): Promise<void> {
  const { ctx, found } = scan;
  if (scan.arch !== 'aarch64' || scan.setting === false) return;
  const judged = await launchRule(ctx, 'cpu-binding.min-cpus');
  scan.rules.push(ruleEvidence(judged));
  // outside the releases whose guide states the minimum, the binding's needs are not known here
  if (!judged.verdict) {
    const installed = judged.basis.kind === 'unknown' ? judged.basis.release : judged.basis.installed;
    scan.outside = { rule: judged.rule.id, from: judged.rule.applies?.from ?? '', installed };
    return;
  }
  const cpus = await allowedCpus(ctx);
  const inventory = await npuInventory(ctx);
  const npus = inventory.ok ? inventory.devices.length : 0;
  if (!cpus || npus === 0) return;
  const minimum = Number(judged.rule.params?.minCpusPerNpu ?? 5);
  const perNpu = Math.floor(cpus.length / npus);
  scan.cpuset = { cpus: cpus.length, npus, perNpu, minimum };
  if (perNpu >= minimum) return;
  const need = npus * minimum;
  found.push({
    text: (t) => t.tooFewCpus({ cpus: cpus.length, npus, perNpu, minimum, rule: ruleNote(judged, words(ctx, t)) }),
    fix: (t) => t.tooFewCpusFix({ need }),
  });
}

/** Rule omp-proc-bind.false: OMP_PROC_BIND other than false lets libgomp pin the process to one CPU before the binding. */
async function checkOmpProcBind(scan: Scan): Promise<void> {
  const { ctx, view, found } = scan;
  const variable = view.env.get('OMP_PROC_BIND');
  if (!variable?.value.known) return;
  const value = variable.value.text.trim().replace(/^"(.*)"$/, '$1');
  scan.ompProcBind = value;
  if (value.toLowerCase() === 'false') return;
  const judged: RuleJudgement = await launchRule(ctx, 'omp-proc-bind.false');
  scan.rules.push(ruleEvidence(judged));
  if (!judged.verdict) return;
  const line = rootOf(variable).line;
  found.push({
    text: (t) => t.ompProcBind({ value, line, script: view.name, rule: ruleNote(judged, words(ctx, t)) }),
    fix: (t) => (line === null ? t.ompProcBindInheritedFix : t.ompProcBindFix({ script: view.name, line })),
  });
}

// title, why, fix, reads and every message: src/i18n/*/checks/launch.ts
export default defineCheck({
  id: 'launch.cpu-binding',
  category: 'launch',
  order: 67,
  level: 'recommended',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['launch.cpu-binding'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    if (!view.serve) return skip(t.noServer({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    const { arch } = await ctx.host.identity();
    const scan: Scan = { ctx, view, found: [], rules: [], arch, setting: bindingSetting(view), cpuset: null, ompProcBind: null, outside: null };
    await checkCpus(scan);
    await checkOmpProcBind(scan);
    const { found } = scan;
    const evidence = { script: view.input.file, arch, enableCpuBinding: scan.setting, cpuset: scan.cpuset, ompProcBind: scan.ompProcBind, rules: scan.rules };
    // ARM with the binding on, and neither the cpuset nor OMP_PROC_BIND read: nothing was judged
    const judgedNothing = arch === 'aarch64' && scan.setting !== false && scan.cpuset === null && scan.outside === null && scan.ompProcBind === null;
    if (found.length === 0 && judgedNothing) {
      return skip(t.notRead({ script: view.name, path: STATUS }), { remediation: t.notReadFix, evidence });
    }
    if (found.length === 0) {
      return pass(t.ready({ script: view.name, arch, perNpu: scan.cpuset?.perNpu ?? null, npus: scan.cpuset?.npus ?? null, disabled: scan.setting === false, omp: scan.ompProcBind, outside: scan.outside }), { evidence });
    }
    const english = en.checks['launch.cpu-binding'];
    return warn(found.map((f) => f.text(t)).join(t.separator), {
      expected: 'at least 5 CPUs of the cpuset per NPU, OMP_PROC_BIND=false or unset',
      actual: found.map((f) => f.text(english)).join('; '),
      remediation: found.map((f) => f.fix(t)).join('\n'),
      evidence,
    });
  },
});
