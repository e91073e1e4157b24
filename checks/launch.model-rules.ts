import { fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { familiesOf } from '../src/knowledge/judge.js';
import type { RuleRow } from '../src/knowledge/rules.js';
import { booleanFlag, jsonFlag, lastFlag, type ServeArgs } from '../src/parsers/vllm-args.js';
import { at, launchView, noLaunchScript, type LaunchView } from '../src/probes/launch.js';
import { jsonKeyLine } from '../src/probes/launch-layout.js';
import { resolveModel, type ResolvedModel } from '../src/probes/model-resolve.js';
import { npuInventory } from '../src/probes/npu.js';
import { rulesHere, type RuleHere, type RulesHere } from '../src/probes/rules.js';
import { installedStack, type InstalledStack } from '../src/probes/stack.js';
import { comparePep440 } from '../src/util/pep440.js';
import { summarizeList } from '../src/util/text.js';

/**
 * The rules the tutorials state for a model or an NPU (knowledge/rules.json), each judged for the
 * installed vllm-ascend: GLM-5's MTP and expert parallelism and the transformers it needs,
 * Qwen3.5's prefix-caching mode, the 310P's float16 and npugraph_ex, and TorchAir's model list,
 * which grew release by release until TorchAir was removed. A finding names its rule; its
 * evidence carries the rule's id and source.
 */

type Text = (typeof en.checks)['launch.model-rules'];
type Json = Record<string, unknown>;

interface Finding {
  rule: RuleHere;
  level: 'fail' | 'warn';
  text: (t: Text, text: Catalogue) => string;
  fix: (t: Text) => string;
}

interface Scope {
  ctx: CheckContext;
  view: LaunchView;
  args: ServeArgs;
  model: ResolvedModel | undefined;
  families: string[];
  modelTypes: string[];
  /** npu-smi's family, else the profile's */
  npuFamily: string;
  here: RulesHere;
  stack: InstalledStack;
  findings: Finding[];
  /** rules that apply to this launch but could not be judged, and why (English, evidence) */
  notJudged: Array<{ rule: string; reason: string }>;
  /** rules this launch breaks on some release but not at the newest, taken with no version found */
  assumed: Array<{ rule: string; applies: { from: string; to: string } | null }>;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function json(args: ServeArgs, name: string): Json | undefined {
  const parsed = jsonFlag(args, name);
  return parsed.state === 'ok' && isObject(parsed.value) ? parsed.value : undefined;
}

/** Does the rule's appliesTo name this model (by family or model_type)? */
function forModel(rule: RuleRow, scope: Scope): boolean {
  const families = Array.isArray(rule.appliesTo.families) ? (rule.appliesTo.families as string[]) : [];
  const types = Array.isArray(rule.appliesTo.modelTypes) ? (rule.appliesTo.modelTypes as string[]) : [];
  return families.some((f) => scope.families.includes(f)) || types.some((m) => scope.modelTypes.includes(m));
}

function add(scope: Scope, rule: RuleHere, text: Finding['text'], fix: Finding['fix']): void {
  if (rule.level) scope.findings.push({ rule, level: rule.level, text, fix });
  // silent only because no version was found and the newest release was assumed: said in the pass and the evidence
  else if (rule.judgement.assumption === 'newest') scope.assumed.push({ rule: rule.judgement.rule.id, applies: rule.judgement.rule.applies });
}

/** GLM-5 with MTP: enforce_eager inside --speculative-config (or the whole server eager). */
function glm5Mtp(scope: Scope): void {
  const rule = scope.here.judge('glm5.mtp-enforce-eager');
  if (!forModel(rule.judgement.rule, scope)) return;
  const spec = json(scope.args, 'speculative-config');
  if (!spec || !/mtp/i.test(String(spec.method ?? '')) || spec.enforce_eager === true || booleanFlag(scope.args, 'enforce-eager') === true) return;
  const flag = lastFlag(scope.args, 'speculative-config')!;
  const line = jsonKeyLine(flag, ['method']);
  const method = String(spec.method);
  const fixed = JSON.stringify({ ...spec, enforce_eager: true });
  add(
    scope,
    rule,
    (t, text) => t.glm5Mtp({ at: at(scope.view, line), method, tag: rule.tag(text) }),
    (t) => t.glm5MtpFix({ script: scope.view.name, line: flag.line, value: fixed }),
  );
}

function glm5ExpertParallel(scope: Scope): void {
  const rule = scope.here.judge('glm5.expert-parallel');
  if (!forModel(rule.judgement.rule, scope) || booleanFlag(scope.args, 'enable-expert-parallel') === true) return;
  const line = scope.view.serve!.line;
  add(
    scope,
    rule,
    (t, text) => t.glm5ExpertParallel({ script: scope.view.name, tag: rule.tag(text) }),
    (t) => t.glm5ExpertParallelFix({ script: scope.view.name, line }),
  );
}

/** GLM-5's model_type glm_moe_dsa is known to transformers from the version the tutorial names. */
function glm5Transformers(scope: Scope): void {
  const rule = scope.here.judge('glm5.transformers');
  if (!forModel(rule.judgement.rule, scope) || rule.level === null) return;
  const minimum = String(rule.judgement.rule.params?.minimum ?? '');
  const installed = scope.stack.packages.transformers;
  if (!installed) {
    scope.notJudged.push({ rule: rule.judgement.rule.id, reason: `no transformers distribution found for ${scope.stack.python.path ?? 'the launch script\'s Python'}` });
    return;
  }
  if ((comparePep440(installed.version, minimum) ?? 0) >= 0) return;
  const python = scope.stack.python.path ?? 'python3';
  add(
    scope,
    rule,
    (t, text) => t.glm5Transformers({ version: installed.version, path: installed.path, minimum, tag: rule.tag(text) }),
    (t) => t.glm5TransformersFix({ python, minimum }),
  );
}

/** Qwen3.5 / Qwen3.6 with --enable-prefix-caching: --mamba-cache-mode align, in the releases whose tutorials say so. */
function qwen35PrefixCaching(scope: Scope): void {
  const rule = scope.here.judge('qwen35.prefix-caching-align');
  if (!forModel(rule.judgement.rule, scope) || booleanFlag(scope.args, 'enable-prefix-caching') !== true) return;
  if (lastFlag(scope.args, 'mamba-cache-mode')?.value?.text === 'align') return;
  const line = lastFlag(scope.args, 'enable-prefix-caching')!.line;
  add(
    scope,
    rule,
    (t, text) => t.qwen35PrefixCaching({ at: at(scope.view, line), tag: rule.tag(text) }),
    (t) => t.qwen35PrefixCachingFix({ script: scope.view.name, line }),
  );
}

function isQwen35(scope: Scope): boolean {
  return scope.modelTypes.some((m) => /^qwen3_5/.test(m)) || scope.families.some((f) => f === 'Qwen3.5' || f === 'Qwen3.6');
}

/** The 310P runs float16 only (and the hybrid Qwen3.5 keeps its SSM state in float16 too). */
function float16On310p(scope: Scope): void {
  const rule = scope.here.judge('310p.dtype-float16');
  const line = scope.view.serve!.line;
  const dtype = lastFlag(scope.args, 'dtype');
  if (!dtype?.value || dtype.value.text !== 'float16') {
    const given = dtype?.value ? dtype.value.text : null;
    add(
      scope,
      rule,
      (t, text) => t.fp16Only({ dtype: given, tag: rule.tag(text) }),
      (t) => t.fp16Fix({ script: scope.view.name, line: dtype?.line ?? line }),
    );
  }
  const ssm = lastFlag(scope.args, 'mamba-ssm-cache-dtype');
  if (isQwen35(scope) && rule.level !== null && (!ssm?.value || ssm.value.text !== 'float16')) {
    const given = ssm?.value ? ssm.value.text : null;
    // the tutorial's "must" is --dtype; the SSM state dtype is its example's setting: a warning
    scope.findings.push({
      rule,
      level: 'warn',
      text: (t, text) => t.ssmFp16({ dtype: given, tag: rule.tag(text) }),
      fix: (t) => t.ssmFp16Fix({ script: scope.view.name, line: ssm?.line ?? line }),
    });
  }
}

/**
 * Whether the server captures FULL graphs, where npugraph_ex runs: not with --enforce-eager, nor
 * with cudagraph_mode PIECEWISE or NONE (graph_mode.md: "PIECEWISE: Npugraph_ex is disabled").
 */
function fullGraph(args: ServeArgs): boolean {
  if (booleanFlag(args, 'enforce-eager') === true) return false;
  const mode = json(args, 'compilation-config')?.cudagraph_mode;
  return !(typeof mode === 'string' && /^(PIECEWISE|NONE)$/i.test(mode));
}

/**
 * npugraph_ex on the 310P: off by hand until v0.23.0, where vllm-ascend turns it off itself
 * (310p.npugraph-ex-guard). The switch moved: v0.15.0rc1 read npugraph_ex_config.enable, v0.16.0rc1
 * on ascend_compilation_config.enable_npugraph_ex (vllm_ascend/ascend_config.py at those tags).
 */
function npugraphOn310p(scope: Scope): void {
  const guard = scope.here.judge('310p.npugraph-ex-guard');
  const rule = scope.here.judge('310p.npugraph-ex');
  if (guard.judgement.inForce && scope.here.basis.kind !== 'unknown') return;
  if (!fullGraph(scope.args)) return;
  const additional = json(scope.args, 'additional-config') ?? {};
  const v015 = scope.here.basis.release === 'v0.15.0rc1';
  const section = additional[v015 ? 'npugraph_ex_config' : 'ascend_compilation_config'];
  const value = isObject(section) ? section[v015 ? 'enable' : 'enable_npugraph_ex'] : undefined;
  if (value === false) return;
  const key = v015 ? 'npugraph_ex_config.enable' : 'ascend_compilation_config.enable_npugraph_ex';
  const flag = lastFlag(scope.args, 'additional-config');
  const merged = JSON.stringify(v015 ? { ...additional, npugraph_ex_config: { ...(isObject(section) ? section : {}), enable: false } } : { ...additional, ascend_compilation_config: { ...(isObject(section) ? section : {}), enable_npugraph_ex: false } });
  const line = flag?.line ?? scope.view.serve!.line;
  add(
    scope,
    rule,
    (t, text) => t.npugraph({ key, given: flag !== undefined, tag: rule.tag(text) }),
    (t) => t.npugraphFix({ script: scope.view.name, line, value: merged }),
  );
}

/** The model types of TorchAir's list as the release states it: `TORCHAIR_MODEL_LIST = [...]`, or "only works with deepseek model". */
export function torchairModelTypes(rule: RuleRow, release: string | null): string[] {
  const statements = release === null ? rule.statedIn : rule.statedIn.filter((s) => s.refs.includes(release));
  const types = new Set<string>();
  for (const statement of statements) {
    const list = /TORCHAIR_MODEL_LIST\s*=\s*\[([^\]]*)\]/.exec(statement.quote);
    if (list) for (const m of list[1]!.matchAll(/"([^"]+)"/g)) types.add(m[1]!);
    const only = /only works with (\w+) model/.exec(statement.quote);
    if (only) types.add(only[1]!);
  }
  return [...types];
}

function torchairEnabled(scope: Scope): { line: number } | undefined {
  const torchair = json(scope.args, 'additional-config')?.torchair_graph_config;
  if (!isObject(torchair) || torchair.enabled !== true) return undefined;
  return { line: jsonKeyLine(lastFlag(scope.args, 'additional-config')!, ['torchair_graph_config', 'enabled']) };
}

/** TorchAir (v0.9.0rc1 to v0.11.0): the model types of the release's list, never with --enforce-eager; from v0.12.0rc1 it is gone. */
function torchair(scope: Scope): void {
  const enabled = torchairEnabled(scope);
  if (!enabled) return;
  const { line } = enabled;
  const list = scope.here.judge('torchair.model-list');
  const removed = scope.here.judge('torchair.removed');
  const where = at(scope.view, line);
  add(scope, removed, (t, text) => t.torchairRemoved({ at: where, tag: removed.tag(text) }), (t) => t.torchairRemovedFix({ script: scope.view.name, line }));
  if (list.level === null) return;
  if (booleanFlag(scope.args, 'enforce-eager') === true) {
    add(scope, list, (t, text) => t.torchairEager({ at: where, tag: list.tag(text) }), (t) => t.torchairEagerFix({ script: scope.view.name, line }));
  }
  // the list of the release judged; with no version known, every list a release stated
  const types = torchairModelTypes(list.judgement.rule, scope.here.basis.kind === 'unknown' ? null : scope.here.basis.release);
  const configType = scope.model?.identity.modelType ?? null;
  const guessed = configType === null && scope.model ? scope.model.identity.name.toLowerCase().replace(/-/g, '_') : null;
  const type = configType?.toLowerCase() ?? guessed;
  if (type === null || types.length === 0 || types.some((supported) => type.includes(supported))) return;
  const named = scope.model?.identity.name ?? '';
  scope.findings.push({
    rule: list,
    // a model type guessed from the name is a warning
    level: configType !== null ? list.level : 'warn',
    text: (t, text) => t.torchairUnsupported({ at: where, what: configType !== null ? t.torchairModelType({ modelType: configType }) : t.torchairModelName({ model: named }), types: types.join(', '), tag: list.tag(text) }),
    fix: (t) => t.torchairUnsupportedFix({ script: scope.view.name, line }),
  });
}

/** The findings in order of gravity; a pass names the rules that applied and held. */
function verdict(scope: Scope, applied: string[]): Outcome {
  const t = scope.ctx.text.checks['launch.model-rules'];
  const english = en.checks['launch.model-rules'];
  const ordered = [...scope.findings.filter((f) => f.level === 'fail'), ...scope.findings.filter((f) => f.level === 'warn')];
  const evidence: Record<string, unknown> = {
    script: scope.view.input.file,
    families: scope.families,
    modelType: scope.model?.identity.modelType ?? null,
    npuFamily: scope.npuFamily,
    installed: scope.here.installed,
    judgedAs: scope.here.basis.release,
    findings: ordered.map((f) => ({ level: f.level, ...f.rule.evidence, text: f.text(english, en) })),
    notJudged: scope.notJudged,
    assumed: scope.assumed,
  };
  if (ordered.length === 0) {
    const rules = applied.length > 0 ? summarizeList(applied, 6, scope.ctx.text.report.list) : null;
    const assumed = scope.assumed.map((a) => t.assumedRule({ rule: a.rule, range: a.applies ? scope.ctx.text.probes.rules.range(a.applies) : scope.ctx.text.probes.rules.everyRelease }));
    return pass(
      t.held({
        rules,
        release: scope.here.installed ?? scope.here.basis.release,
        notJudged: scope.notJudged.map((n) => n.rule).join(', ') || null,
        assumed: assumed.length > 0 ? summarizeList(assumed, 3, scope.ctx.text.report.list) : null,
      }),
      { evidence },
    );
  }
  const details = {
    expected: 'a launch that keeps the rules of the tutorials for its model, NPU and vllm-ascend release',
    actual: summarizeList(ordered.map((f) => f.text(english, en)), 2),
    remediation: [...new Set(ordered.map((f) => f.fix(t)))].join('\n'),
    evidence,
    ...(ordered.length > 1 ? { details: ordered.map((f) => f.text(t, scope.ctx.text)) } : {}),
  };
  const message = t.andMore({ first: ordered[0]!.text(t, scope.ctx.text), more: ordered.length - 1 });
  return ordered[0]!.level === 'fail' ? fail(message, details) : warn(message, details);
}

async function scopeOf(ctx: CheckContext, view: LaunchView): Promise<Scope> {
  const model = await resolveModel(ctx, view);
  const found = model ? familiesOf({ modelType: model.identity.modelType, architectures: model.identity.architectures, name: model.identity.id ?? model.identity.name }) : { families: [] };
  const inventory = await npuInventory(ctx);
  const npuFamily = inventory.ok && inventory.family !== 'unknown' ? inventory.family : ctx.profile.npu.family;
  const modelTypes = model?.identity.modelType ? [model.identity.modelType.toLowerCase()] : found.families.flatMap((f) => f.modelTypes);
  return {
    ctx,
    view,
    args: view.serve!.parsed,
    model,
    families: found.families.map((f) => f.family),
    modelTypes,
    npuFamily,
    here: await rulesHere(ctx),
    stack: await installedStack(ctx),
    findings: [],
    notJudged: [],
    assumed: [],
  };
}

// title, why, reads, fix and every message: src/i18n/*/checks/knowledge.ts
export default defineCheck({
  id: 'launch.model-rules',
  category: 'launch',
  order: 75,
  depth: 'quick',
  level: 'required',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['launch.model-rules'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    if (!view.serve) return skip(t.noServer({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    const scope = await scopeOf(ctx, view);
    const applied: string[] = [];
    const judge = (id: string, fn: (s: Scope) => void) => {
      const before = scope.findings.length;
      fn(scope);
      if (scope.findings.length === before && scope.here.judge(id).level !== null) applied.push(id);
    };
    if (scope.families.includes('GLM-5') || scope.modelTypes.includes('glm_moe_dsa')) {
      judge('glm5.mtp-enforce-eager', glm5Mtp);
      judge('glm5.expert-parallel', glm5ExpertParallel);
      judge('glm5.transformers', glm5Transformers);
    }
    if (isQwen35(scope)) judge('qwen35.prefix-caching-align', qwen35PrefixCaching);
    if (scope.npuFamily === '310p') {
      judge('310p.dtype-float16', float16On310p);
      judge('310p.npugraph-ex', npugraphOn310p);
    }
    if (torchairEnabled(scope)) judge('torchair.model-list', torchair);
    return verdict(scope, applied);
  },
});
