import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { jsonFlag } from '../src/parsers/vllm-args.js';
import { en } from '../src/i18n/en/index.js';
import { lastFlag } from '../src/parsers/vllm-args.js';
import { fitPlan, isPlan, type FitPlan } from '../src/probes/fit.js';
import { at, launchView, noLaunchScript, placeholderIn, type LaunchView } from '../src/probes/launch.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { npuInventory } from '../src/probes/npu.js';
import { planEvidence, type FitEvidence } from '../src/probes/fit-evidence.js';
import { fitFindings, pythonFixed2, type Finding } from '../src/probes/fit-findings.js';
import { formatBytes } from '../src/util/size.js';
import { thousands } from '../src/util/text.js';

type Text = (typeof en)['checks']['model.fit'];

/** "557,696" */
function digits(n: number): string {
  return thousands(Math.floor(n));
}

/** The one-line plan: weights, KV budget, tokens, concurrency. */
function summary(t: Text, plan: FitPlan, evidence: FitEvidence): string {
  const capacity = plan.kv?.capacity;
  return t.summary({
    model: plan.model.argument.text,
    basis: plan.basis,
    weights: formatBytes(evidence.weightsBytesPerNpu),
    weightsEstimated: plan.weights.how === 'estimate',
    kv: formatBytes(Math.max(0, evidence.kvBudgetBytesPerNpu)),
    utilization: plan.settings.utilization,
    visible: formatBytes(evidence.hbmVisibleBytesPerNpu),
    device: plan.device.device,
    tokens: capacity ? digits(capacity.tokens) : null,
    concurrency: capacity ? pythonFixed2(capacity.concurrency) : null,
    maxModelLen: evidence.maxModelLen !== null ? digits(evidence.maxModelLen) : null,
  });
}

function lineOf(view: LaunchView, flag: string): number {
  return lastFlag(view.serve!.parsed, flag)?.line ?? view.serve!.line;
}

function verdict(ctx: CheckContext, view: LaunchView, plan: FitPlan, findings: Finding[], evidence: FitEvidence): Outcome {
  const t = ctx.text.checks['model.fit'];
  const english = en.checks['model.fit'];
  const record = evidence as unknown as Record<string, unknown>;
  record.findings = findings.map((f) => `${f.level}: ${f.text(english)}`);
  const line = summary(t, plan, evidence);
  if (findings.length === 0) return pass(line, { evidence: record });
  const failing = findings.filter((f) => f.level === 'fail');
  const ordered = [...failing, ...findings.filter((f) => f.level === 'warn')];
  const first = t.problems({ first: ordered[0]!.text(t), more: ordered.length - 1 });
  // vLLM would start: say with what; a refusal says its own figures
  const message =
    failing.length > 0
      ? first
      : t.warnWithPlan({ finding: first, weights: formatBytes(evidence.weightsBytesPerNpu), weightsEstimated: plan.weights.how === 'estimate', kv: formatBytes(Math.max(0, evidence.kvBudgetBytesPerNpu)) });
  const details = {
    expected: 'the weights, the activations and one request of max-model-len within the memory vLLM may use, as many requests at once as --max-num-seqs',
    actual: `${ordered.map((f) => f.text(english)).join('; ')} (${summary(english, plan, evidence)})`,
    remediation: [...new Set(ordered.map((f) => f.fix(t, { script: view.name, line: (flag: string) => lineOf(view, flag) })))].join('\n'),
    evidence: record,
    ...(ordered[0]!.action ? { action: ordered[0]!.action } : {}),
  };
  return failing.length > 0 ? fail(message, details) : warn(message, details);
}

// title, why, fix, reads and every message: src/i18n/*/checks/tuning.ts
export default defineCheck({
  id: 'model.fit',
  category: 'launch',
  order: 85,
  level: 'required',
  depth: 'quick',
  // the flags of the script; stopping what holds the memory is the free-memory finding's own
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['model.fit'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    const model = view.serve?.parsed.model;
    if (!model) return skip(t.noModel({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    const placeholder = model.known ? placeholderIn(model.text) : undefined;
    // "$MODEL_PATH" with the variable set nowhere is an empty argument: as unknown as a computed one
    const unset = model.text.trim() === '' && model.unset.length > 0;
    if (!model.known || placeholder !== undefined || unset) {
      return skip(t.unknownModel({ at: at(view, model.line), model: unset ? model.source : model.text }), { remediation: t.unknownModelFix({ script: view.name, line: model.line }) });
    }
    // the encoder instance of disaggregated encoding caches no KV (vLLM's examples run it at --gpu-memory-utilization 0.01)
    const ec = view.serve ? jsonFlag(view.serve.parsed, 'ec-transfer-config') : undefined;
    if (ec?.state === 'ok' && typeof ec.value === 'object' && ec.value !== null && (ec.value as Record<string, unknown>).ec_role === 'ec_producer') {
      return skip(t.encoderOnly({ at: at(view, ec.flag.line) }), { remediation: t.encoderOnlyFix, evidence: { script: view.input.file, ecRole: 'ec_producer' } });
    }
    const plan = await fitPlan(ctx, view);
    if (!isPlan(plan)) {
      if (plan.kind === 'no-npu') {
        const inventory = await npuInventory(ctx);
        if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, t.what);
      }
      if (plan.kind === 'caller-sizes') return skip(t.callerSizes({ script: view.name }), { remediation: t.callerSizesFix({ script: view.name }) });
      return error(t.noMemorySize, { remediation: t.noMemorySizeFix });
    }
    const evidence = planEvidence(plan, view.input.file);
    return verdict(ctx, view, plan, fitFindings(plan), evidence);
  },
});
