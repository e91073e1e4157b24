import { fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { integerFlag, lastFlag, type ServeArgs } from '../src/parsers/vllm-args.js';
import { at, launchView, noLaunchScript, type LaunchView } from '../src/probes/launch.js';
import { resolveModel, type ResolvedModel } from '../src/probes/model-resolve.js';
import { npuInventory } from '../src/probes/npu.js';
import { rulesHere, type RuleHere, type RulesHere } from '../src/probes/rules.js';
import { summarizeList } from '../src/util/text.js';

/**
 * The quantization rules of knowledge/quantization.json for the weights the launch script
 * serves: msModelSlim W8A8 / W8A8_DYNAMIC with float16 on A2/A3 (w8a8.fp16-a2a3), W8A8SC tied to
 * the TP size it was compressed for (w8a8sc.tp). The quantization type is the description's
 * model_quant_type (msModelSlim's quant_model_description.json, as vllm-ascend's
 * examples/save_sharded_state_310.py reads and writes it).
 */

type Text = (typeof en.checks)['model.quantization'];

interface Finding {
  rule: RuleHere;
  level: 'fail' | 'warn';
  text: (t: Text, text: Catalogue) => string;
  fix: (t: Text) => string;
}

interface Weights {
  /** model_quant_type, or null when the description has none; 'W8A8' by name when the weights are not here */
  type: string | null;
  /** the description file, or null for a type read from the name */
  file: string | null;
  /** TP ranks of vLLM's sharded_state files (model-rank-N-part-M.safetensors) */
  ranks: number | null;
}

/** weights whose description names their quantization */
type Typed = Weights & { type: string };

const W8A8_TYPES = new Set(['W8A8', 'W8A8_DYNAMIC']);

async function weightsOf(ctx: CheckContext, model: ResolvedModel): Promise<Weights | null> {
  const files = model.files;
  if (!files) return /(^|[-_./])w8a8(?!s)/i.test(model.identity.name) ? { type: 'W8A8', file: null, ranks: null } : null;
  const description = files.quantDescriptions[0];
  if (!description || !model.directory) return null;
  const read = await ctx.host.readFile(`${model.directory}/${description}`);
  let type: string | null = null;
  if (read.ok) {
    try {
      const parsed = JSON.parse(read.value) as { model_quant_type?: unknown };
      type = typeof parsed.model_quant_type === 'string' ? parsed.model_quant_type.toUpperCase() : null;
    } catch {
      type = null;
    }
  }
  const ranks = new Set(files.shards.map((s) => /^model-rank-(\d+)-part-\d+\.safetensors$/.exec(s.name)?.[1]).filter((r): r is string => r !== undefined));
  return { type, file: `${model.directory}/${description}`, ranks: ranks.size > 0 ? ranks.size : null };
}

/** The dtype vLLM will run: --dtype, else ("auto") config.json's torch_dtype (dtype in newer transformers). */
function dtypeOf(view: LaunchView, args: ServeArgs, model: ResolvedModel): { dtype: string; words: (t: Text) => string; line: number } | null {
  const flag = lastFlag(args, 'dtype');
  const given = flag?.value?.known ? flag.value.text.trim().toLowerCase() : undefined;
  if (given && given !== 'auto') return { dtype: given === 'half' ? 'float16' : given, words: (t) => t.dtypeFlag({ dtype: given, at: at(view, flag!.line) }), line: flag!.line };
  const configured = model.config?.torch_dtype ?? model.config?.dtype;
  if (typeof configured === 'string') return { dtype: configured.toLowerCase(), words: (t) => t.dtypeConfig({ dtype: String(configured) }), line: flag?.line ?? view.serve!.line };
  return null;
}

function weightsWords(weights: Typed, model: ResolvedModel): (t: Text) => string {
  return (t) => (weights.file ? t.quantType({ type: weights.type, file: weights.file }) : t.quantTypeByName({ model: model.identity.id ?? model.identity.name }));
}

function fp16OnA2A3(here: RulesHere, view: LaunchView, args: ServeArgs, model: ResolvedModel, weights: Typed, npuFamily: string, findings: Finding[]): void {
  if (!W8A8_TYPES.has(weights.type) || (npuFamily !== 'a2' && npuFamily !== 'a3')) return;
  const dtype = dtypeOf(view, args, model);
  if (dtype?.dtype !== 'float16') return;
  const rule = here.judge('w8a8.fp16-a2a3');
  // weights known only by their name make a warning at most
  const level = weights.file ? rule.level : rule.level && 'warn';
  if (!level) return;
  const hardware = npuFamily.toUpperCase();
  const ssm = lastFlag(args, 'mamba-ssm-cache-dtype')?.value?.text === 'float16';
  findings.push({
    rule,
    level,
    text: (t, text) => t.fp16({ weights: weightsWords(weights, model)(t), dtype: dtype.words(t), hardware, tag: rule.tag(text) }),
    fix: (t) => t.fp16Fix({ script: view.name, line: dtype.line, ssm }),
  });
}

function w8a8scTp(here: RulesHere, view: LaunchView, args: ServeArgs, model: ResolvedModel, weights: Typed, npuFamily: string, findings: Finding[]): void {
  if (weights.type !== 'W8A8SC' || npuFamily !== '310p' || weights.ranks === null) return;
  const tp = integerFlag(args, 'tensor-parallel-size', 1);
  const size = tp.state === 'ok' ? tp.value : tp.state === 'absent' ? 1 : null;
  if (size === null || size === weights.ranks) return;
  const rule = here.judge('w8a8sc.tp');
  if (!rule.level) return;
  const line = tp.state === 'ok' ? tp.flag.line : view.serve!.line;
  const ranks = weights.ranks;
  findings.push({
    rule,
    level: rule.level,
    text: (t, text) => t.w8a8scTp({ weights: weightsWords(weights, model)(t), ranks, tp: size, at: at(view, line), tag: rule.tag(text) }),
    fix: (t) => t.w8a8scTpFix({ script: view.name, line, ranks }),
  });
}

function verdict(ctx: CheckContext, here: RulesHere, weights: Typed, model: ResolvedModel, findings: Finding[], evidence: Record<string, unknown>): Outcome {
  const t = ctx.text.checks['model.quantization'];
  const english = en.checks['model.quantization'];
  const ordered = [...findings.filter((f) => f.level === 'fail'), ...findings.filter((f) => f.level === 'warn')];
  evidence.findings = ordered.map((f) => ({ level: f.level, ...f.rule.evidence, text: f.text(english, en) }));
  if (ordered.length === 0) return pass(t.fits({ weights: weightsWords(weights, model)(t), release: here.installed ?? here.basis.release }), { evidence });
  const details = {
    expected: 'quantized weights served with the dtype, NPU and TP size they run with',
    actual: summarizeList(ordered.map((f) => f.text(english, en)), 2),
    remediation: [...new Set(ordered.map((f) => f.fix(t)))].join('\n'),
    evidence,
  };
  const message = t.andMore({ first: ordered[0]!.text(t, ctx.text), more: ordered.length - 1 });
  return ordered[0]!.level === 'fail' ? fail(message, details) : warn(message, details);
}

// title, why, reads, fix and every message: src/i18n/*/checks/knowledge.ts
export default defineCheck({
  id: 'model.quantization',
  category: 'launch',
  order: 84,
  depth: 'quick',
  level: 'required',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['model.quantization'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    if (!view.serve) return skip(t.noServer({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    const model = await resolveModel(ctx, view);
    if (!model) return skip(t.noServer({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    const name = model.identity.id ?? model.identity.name;
    const weights = await weightsOf(ctx, model);
    if (!weights) {
      return model.files ? pass(t.notQuantized({ model: name }), { evidence: { model: name } }) : skip(t.noWeights({ model: name }), { remediation: t.noWeightsFix, evidence: { model: name } });
    }
    if (!weights.type) return pass(t.noQuantType({ file: weights.file ?? '' }), { evidence: { model: name, description: weights.file } });
    const inventory = await npuInventory(ctx);
    const npuFamily = inventory.ok && inventory.family !== 'unknown' ? inventory.family : ctx.profile.npu.family;
    const here = await rulesHere(ctx);
    const args = view.serve.parsed;
    const findings: Finding[] = [];
    const typed: Typed = { ...weights, type: weights.type };
    fp16OnA2A3(here, view, args, model, typed, npuFamily, findings);
    w8a8scTp(here, view, args, model, typed, npuFamily, findings);
    const evidence: Record<string, unknown> = { model: name, quantType: weights.type, description: weights.file, ranks: weights.ranks, npuFamily, installed: here.installed, judgedAs: here.basis.release };
    return verdict(ctx, here, typed, model, findings, evidence);
  },
});
