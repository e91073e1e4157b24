import { fail, pass, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { booleanFlag } from '../src/parsers/vllm-args.js';
import { findJemalloc, LIBRARY } from '../src/probes/jemalloc.js';
import { fitPlan, isPlan } from '../src/probes/fit.js';
import { describeVariable, launchView, noLaunchScript, parallelism, rootOf, type LaunchView, type Parallelism } from '../src/probes/launch.js';
import { launchRule, ruleNote } from '../src/probes/launch-rules.js';
import { npuInventory } from '../src/probes/npu.js';
import { ruleEvidence } from '../src/knowledge/judge.js';
import type { ShellVariable } from '../src/parsers/launch-script.js';
import { summarizeList } from '../src/util/text.js';

/** Variables the runtime reads from the environment: set without export, they never reach vllm. */
const RUNTIME_VARIABLE = /^(HCCL_|ASCEND_|VLLM_|GLOO_|TP_SOCKET_IFNAME$|LD_PRELOAD$|LD_LIBRARY_PATH$|PYTORCH_NPU_|TASK_QUEUE_ENABLE$|OMP_|RAY_|CPU_AFFINITY_CONF$|MOONCAKE_)/;
const ARCH_TRIPLETS: Record<string, string> = { x86_64: 'x86_64-linux-gnu', aarch64: 'aarch64-linux-gnu' };
/** HCCL's own default, in MB (CANN environment-variable reference). */
const DEFAULT_HCCL_BUFFSIZE = 200;

const NOSET = 'RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES';
/** `echo performance | tee /sys/...`, `echo 0 > /proc/sys/...`, `sysctl -w`, `cpupower frequency-set` */
const HOST_MODIFYING = /\btee\b[^|;&]*\s\/(sys|proc\/sys)\/|>{1,2}\s*\/(sys|proc\/sys)\/|\bsysctl\s+(-w\b|-p\b|[\w.]+=)|\bcpupower\s+\S*-set\b/;

function hostModifyingLines(text: string): Array<{ line: number; text: string }> {
  const found: Array<{ line: number; text: string }> = [];
  text.split('\n').forEach((raw, index) => {
    const code = raw.replace(/(^|\s)#.*$/, '');
    if (HOST_MODIFYING.test(code)) found.push({ line: index + 1, text: raw.trim() });
  });
  return found;
}

type Text = Catalogue['checks']['launch.env'];

interface Problem {
  level: 'fail' | 'warn';
  /** the finding in a catalogue's language: the run's for the message, English for `actual` and the evidence */
  text: (t: Text) => string;
  fix: (t: Text) => string;
}

function where(t: Text, view: LaunchView, variable: ShellVariable): string {
  const root = rootOf(variable);
  return root.line === null ? t.inEnvironment : t.atLine({ script: view.name, line: root.line });
}

/** What the rules read and what they find, for one run. */
interface Scan {
  ctx: CheckContext;
  view: LaunchView;
  arch: string;
  problems: Problem[];
  /** what was judged good, for the pass message */
  checked: string[];
  evidence: Record<string, unknown>;
  /** "HCCL_BUFFSIZE (run.sh:3)" in the given catalogue's language */
  variableOf: (tt: Text, variable: ShellVariable) => string;
}

/** LD_PRELOAD: every library exists on this host, is built for its architecture, and is written literally. */
async function checkPreload(scan: Scan): Promise<void> {
  const { ctx, view, arch, problems, checked, evidence } = scan;
  const preload = view.env.get('LD_PRELOAD');
  if (!preload) return;
  // $(uname -i) holds a blank: keep what was not evaluated in one piece while splitting
  const marked = preload.value.dynamic.reduce((text, part, i) => text.split(part).join(`\u0000${i}\u0000`), preload.value.text);
  const entries = marked.split(/[:\s]+/).filter(Boolean);
  const restore = (entry: string) => entry.replace(/\u0000(\d+)\u0000/g, (_, i: string) => preload.value.dynamic[Number(i)] ?? '');
  evidence.ldPreload = entries.map(restore);
  const jemalloc = await findJemalloc(ctx);
  const replacement = (entry: string) => (/jemalloc/.test(entry) && jemalloc.path ? jemalloc.path : undefined);
  for (const marker of entries) {
    const entry = restore(marker);
    if (marker.includes('\u0000')) {
      const better = replacement(entry);
      problems.push({ level: 'warn', text: (tt) => tt.preloadComputed({ entry }), fix: (tt) => tt.preloadComputedFix({ where: where(tt, view, preload), path: better ?? null }) });
      continue;
    }
    if (!entry.startsWith('/')) continue;
    const foreign = Object.entries(ARCH_TRIPLETS).find(([a, triplet]) => a !== arch && entry.includes(`/${triplet}/`));
    const better = replacement(entry);
    const fix = (tt: Text) => tt.preloadFix({ where: where(tt, view, preload), path: better ?? null, file: entry.replace(/^.*\//, ''), library: LIBRARY, arch });
    if (foreign) {
      const other = foreign[0];
      problems.push({ level: 'warn', text: (tt) => tt.preloadForeign({ entry, foreign: other, arch }), fix });
      continue;
    }
    const stat = await ctx.host.stat(entry);
    if (!stat.ok && stat.code === 'ENOTCAPTURED') {
      problems.push({ level: 'warn', text: (tt) => tt.preloadNotCaptured({ entry }), fix: (tt) => tt.recordAgain({ script: view.input.file }) });
      continue;
    }
    if (!stat.ok) {
      problems.push({ level: 'warn', text: (tt) => tt.preloadMissing({ entry }), fix });
      continue;
    }
    checked.push(`LD_PRELOAD ${entry}`);
  }
}

/** MB to ask for: the need rounded up to 64 MB, at least CANN's 200. */
function buffsizeFor(neededMB: number): number {
  return Math.max(DEFAULT_HCCL_BUFFSIZE, Math.ceil(neededMB / 64) * 64);
}

/**
 * HCCL_BUFFSIZE against what MC2 dispatch needs for this model and plan (src/probes/hccl-mc2.ts:
 * CANN's MoeDistributeDispatchV2 tiling computes it). On Atlas A3 the tiling refuses a smaller
 * buffer ("HCCL_BUFFSIZE is too SMALL ... NEEDED_HCCL_BUFFSIZE(...) = N MB"): a fail. The A2 path
 * of the same operator has no such check and fails later, inside the operator ("The DDR address
 * of the MTE instruction is out of range", vllm-ascend #2674): a warning. Without the model's
 * shape the need is not known and only a missing variable is said.
 */
async function checkBuffsize(scan: Scan, expertParallel: boolean): Promise<void> {
  const { ctx, view, problems, variableOf } = scan;
  const buffsize = view.env.get('HCCL_BUFFSIZE');
  const text = buffsize?.value.text.trim();
  if (buffsize) scan.evidence.hcclBuffsize = text;
  if (buffsize && !buffsize.value.known) {
    problems.push({ level: 'warn', text: (tt) => tt.computed({ variable: variableOf(tt, buffsize) }), fix: (tt) => tt.buffsizeLiteral({ where: where(tt, view, buffsize) }) });
    return;
  }
  if (buffsize && (!/^\d+$/.test(text!) || Number(text) < 1)) {
    problems.push({ level: 'fail', text: (tt) => tt.buffsizeBad({ variable: variableOf(tt, buffsize), value: text! }), fix: (tt) => tt.exportAt({ where: where(tt, view, buffsize), line: `export HCCL_BUFFSIZE=${expertParallel ? 1024 : DEFAULT_HCCL_BUFFSIZE}` }) });
    return;
  }
  const plan = view.serve && expertParallel ? await fitPlan(ctx, view) : undefined;
  const mc2 = plan && isPlan(plan) && plan.family !== '310p' ? plan.mc2 : null;
  const value = buffsize ? Number(text) : DEFAULT_HCCL_BUFFSIZE;
  if (mc2) {
    scan.evidence.hcclNeededMB = mc2.neededMB;
    if (mc2.neededMB > value) {
      const a3 = plan && isPlan(plan) && plan.family === 'a3';
      const p = { value, needed: mc2.neededMB, maxBs: mc2.maxBs, ep: mc2.epWorldSize, local: mc2.localExperts, set: buffsize !== undefined };
      const line = `export HCCL_BUFFSIZE=${buffsizeFor(mc2.neededMB)}`;
      problems.push({
        level: a3 ? 'fail' : 'warn',
        text: (tt) => (a3 ? tt.buffsizeRefused(p) : tt.buffsizeBelowNeed(p)),
        fix: (tt) => (buffsize ? tt.exportAt({ where: where(tt, view, buffsize), line }) : tt.buffsizeNeedFix({ script: view.name, line })),
      });
      return;
    }
    scan.checked.push(`HCCL_BUFFSIZE ${value} (MC2 needs ${mc2.neededMB} MB)`);
    return;
  }
  if (!buffsize) {
    if (expertParallel) problems.push({ level: 'warn', text: (tt) => tt.buffsizeMissing, fix: (tt) => tt.buffsizeMissingFix({ script: view.name }) });
    return;
  }
  scan.checked.push(`HCCL_BUFFSIZE ${text}`);
}

/** The Ray backend needs the runtime to leave ASCEND_RT_VISIBLE_DEVICES alone. */
function checkRayBackend(scan: Scan, layout: Parallelism | undefined): void {
  if (layout?.backend !== 'ray') return;
  const { view } = scan;
  const noset = view.env.get(NOSET);
  if (!noset || noset.value.text.trim() !== '1') {
    scan.problems.push({ level: 'fail', text: (tt) => tt.rayNoset({ value: noset ? noset.value.text : null }), fix: (tt) => tt.rayNosetFix({ script: view.name }) });
  } else scan.checked.push('RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1');
}

/** `ray start` on an NPU node: the Ray tutorial exports the variable before it, whatever the backend flag says. */
function checkRayStart(scan: Scan, layout: Parallelism | undefined): void {
  const { ctx, view } = scan;
  const rayStarts = view.script.commands.filter((c) => c.fields[0]?.text.replace(/^.*\//, '') === 'ray' && c.fields[1]?.text === 'start');
  if (rayStarts.length === 0 || layout?.backend === 'ray') return;
  const first = rayStarts[0]!;
  const set = view.script.assignments.some((a) => a.name === NOSET && a.line < first.line && a.value.known && a.value.text.trim() === '1' && (a.exported || a.commandPrefix))
    || ctx.host.env()[NOSET]?.trim() === '1';
  if (!set) {
    scan.problems.push({ level: 'fail', text: (tt) => tt.rayStart({ line: first.line, name: NOSET }), fix: (tt) => tt.rayStartFix({ script: view.name, line: first.line, name: NOSET }) });
  } else scan.checked.push(`${NOSET}=1 before ray start`);
}

/**
 * Lines that change the host need privileges a container does not have: a note, not a
 * problem (in a privileged container, or on the host, they work).
 */
function hostModifyingNote(scan: Scan): string | undefined {
  const t = scan.ctx.text.checks['launch.env'];
  const hostLines = hostModifyingLines(scan.view.input.text);
  if (hostLines.length === 0) return undefined;
  scan.evidence.hostModifying = hostLines;
  return t.hostLines({ lines: hostLines.map((l) => l.line), first: hostLines[0]!.text.slice(0, 50) });
}

/** HCCL_CONNECT_TIMEOUT: whole seconds in [120, 7200]. */
function checkConnectTimeout(scan: Scan): void {
  const { view, problems, variableOf } = scan;
  const connect = view.env.get('HCCL_CONNECT_TIMEOUT');
  if (!connect?.value.known) return;
  const text = connect.value.text.trim();
  if (!/^\d+$/.test(text)) problems.push({ level: 'fail', text: (tt) => tt.connectBad({ variable: variableOf(tt, connect), value: text }), fix: (tt) => tt.exportAt({ where: where(tt, view, connect), line: 'export HCCL_CONNECT_TIMEOUT=1200' }) });
  else if (Number(text) < 120 || Number(text) > 7200) {
    const bounded = Math.min(7200, Math.max(120, Number(text)));
    problems.push({ level: 'warn', text: (tt) => tt.connectRange({ variable: variableOf(tt, connect), value: text }), fix: (tt) => tt.exportAt({ where: where(tt, view, connect), line: `export HCCL_CONNECT_TIMEOUT=${bounded}` }) });
  } else scan.checked.push(`HCCL_CONNECT_TIMEOUT ${text}`);
}

/** A runtime variable assigned and never exported never reaches vllm. */
function checkExported(scan: Scan): void {
  const { view } = scan;
  const notExported = [...view.script.variables.values()].filter((v) => v.line !== null && !v.exported && RUNTIME_VARIABLE.test(v.name) && !view.env.has(v.name));
  for (const variable of notExported) {
    const line = variable.line ?? 0;
    scan.problems.push({ level: 'warn', text: (tt) => tt.notExported({ name: variable.name, line }), fix: (tt) => tt.notExportedFix({ script: view.name, line, name: variable.name }) });
  }
  scan.evidence.notExported = notExported.map((v) => v.name);
}

/**
 * Rule hccl.op-expansion-aiv-310p: the Atlas 300I Duo supports HCCL_OP_EXPANSION_MODE AI_CPU and
 * HOST only (CANN's environment-variable reference); HCCL uses its default for another value.
 */
async function checkExpansionMode(scan: Scan): Promise<void> {
  const { ctx, view } = scan;
  const variable = view.env.get('HCCL_OP_EXPANSION_MODE');
  if (!variable?.value.known || variable.value.text.trim().replace(/^"|"$/g, '').toUpperCase() !== 'AIV') return;
  const inventory = await npuInventory(ctx);
  const family = inventory.ok && inventory.family !== 'unknown' ? inventory.family : ctx.profile.npu.family;
  if (family !== '310p') return;
  const judged = await launchRule(ctx, 'hccl.op-expansion-aiv-310p');
  if (!judged.verdict || judged.verdict === 'info') return;
  const line = rootOf(variable).line;
  scan.problems.push({
    level: judged.verdict,
    text: (tt) => tt.aivOn310p({ variable: scan.variableOf(tt, variable), rule: ruleNote(judged, tt === en.checks['launch.env'] ? en.probes.launch : ctx.text.probes.launch) }),
    fix: (tt) => (line === null ? tt.aivOn310pInheritedFix : tt.aivOn310pFix({ script: view.name, line })),
  });
  scan.evidence.rules = [...((scan.evidence.rules as unknown[] | undefined) ?? []), ruleEvidence(judged)];
}

/** The fails first, then the warnings; the host-modifying note rides along with either verdict. */
function verdict(scan: Scan, hostNote: string | undefined): Outcome {
  const { ctx, view, problems, checked, evidence } = scan;
  const t = ctx.text.checks['launch.env'];
  const english = en.checks['launch.env'];
  evidence.problems = problems.map((p) => `${p.level}: ${p.text(english)}`);
  if (problems.length === 0) {
    const judged = checked.length > 0 ? t.judged({ script: view.name, checked: summarizeList(checked, 4, ctx.text.report.list) }) : t.nothing({ script: view.name });
    return pass(hostNote ? t.withNote({ judged, note: hostNote }) : judged, { evidence });
  }
  const failing = problems.filter((p) => p.level === 'fail');
  const ordered = [...failing, ...problems.filter((p) => p.level === 'warn')];
  const details = {
    expected: 'every preloaded library present, HCCL_BUFFSIZE with expert parallelism, runtime variables exported',
    // for programs: English whatever the run's language
    actual: summarizeList(ordered.map((p) => p.text(english)), 2),
    remediation: [...new Set(ordered.map((p) => p.fix(t))), ...(hostNote ? [t.noteLine({ note: hostNote })] : [])].join('\n'),
    evidence,
  };
  const message = t.andMore({ first: ordered[0]!.text(t), more: ordered.length - 1 });
  return failing.length > 0 ? fail(message, details) : warn(message, details);
}

// title, why, fix and every message: src/i18n/*/checks/launch.ts (reads stays here: it names the library this build looks for)
export default defineCheck({
  id: 'launch.env',
  category: 'launch',
  order: 60,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const english = en.checks['launch.env'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    const variableOf = (tt: Text, variable: ShellVariable) => describeVariable(view, variable, tt === english ? en.probes.launch : ctx.text.probes.launch);
    const { arch } = await ctx.host.identity();
    const scan: Scan = { ctx, view, arch, problems: [], checked: [], evidence: { script: view.input.file, arch }, variableOf };
    await checkPreload(scan);
    const serve = view.serve;
    const expertParallel = serve ? booleanFlag(serve.parsed, 'enable-expert-parallel') === true : false;
    const layout = serve ? parallelism(serve.parsed) : undefined;
    await checkBuffsize(scan, expertParallel);
    checkRayBackend(scan, layout);
    checkRayStart(scan, layout);
    const hostNote = hostModifyingNote(scan);
    checkConnectTimeout(scan);
    await checkExpansionMode(scan);
    checkExported(scan);
    return verdict(scan, hostNote);
  },
});
