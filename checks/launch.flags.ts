import { fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { integerFlag, JSON_FLAGS, jsonFlag, lastFlag, type ServeArgs } from '../src/parsers/vllm-args.js';
import { at, describeCallerValues, describeInvocation, flagReason, flagReasonAt, launchView, noLaunchScript, parallelism, type LaunchView } from '../src/probes/launch.js';
import { jsonKeyLine } from '../src/probes/launch-layout.js';
import { flagRuleProblems, flagRuleProblems310p } from '../src/probes/launch-flag-rules.js';
import { npuInventory } from '../src/probes/npu.js';
import { REDACTED } from '../src/util/redact.js';
import { isSecret } from '../src/util/secrets.js';
import { configNumber, resolveModel, type ResolvedModel } from '../src/probes/model-resolve.js';
import { modelHeadsOf } from '../src/data/model-heads.js';
import { summarizeList } from '../src/util/text.js';

type Text = Catalogue['checks']['launch.flags'];

interface Problem {
  level: 'fail' | 'warn';
  /** the finding in a catalogue's language: the run's for the message, English for `actual` and the evidence */
  text: (t: Text) => string;
  fix: (t: Text) => string;
  /** the rule of knowledge/rules.json the finding comes from (ruleEvidence) */
  rule?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The NPU family the server will run on: npu-smi's, or the profile's when npu-smi cannot tell. */
async function family(ctx: CheckContext): Promise<string> {
  const inventory = await npuInventory(ctx);
  if (inventory.ok && inventory.family !== 'unknown') return inventory.family;
  return ctx.profile.npu.family;
}

function captureSizes(compilation: unknown): number[] | undefined {
  if (!isObject(compilation)) return undefined;
  const sizes = compilation.cudagraph_capture_sizes;
  return Array.isArray(sizes) && sizes.every((n) => typeof n === 'number') ? sizes : undefined;
}

function checkJson(ctx: CheckContext, view: LaunchView, args: ServeArgs, problems: Problem[]): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const names = new Set(args.flags.filter((f) => JSON_FLAGS.has(f.name) || /^\s*[{[]/.test(f.value?.text ?? '')).map((f) => f.name));
  for (const name of names) {
    const parsed = jsonFlag(args, name);
    if (parsed.state === 'ok') values.set(name, parsed.value);
    else if (parsed.state === 'invalid') {
      const unknown = parsed.flag.value !== null && !parsed.flag.value.known;
      const { flag } = parsed;
      const where = { script: view.name, line: flag.line, flag: flag.written };
      problems.push({
        level: unknown ? 'warn' : 'fail',
        text: (t) => t.reason({ reason: flagReason(parsed, t === en.checks['launch.flags'] ? en.probes.launch : ctx.text.probes.launch) }),
        fix: (t) => (unknown ? t.jsonComputedFix(where) : t.jsonInvalidFix(where)),
      });
    }
  }
  return values;
}

/** kv_connector_extra_config.prefill/decode must describe the P and D instances as they are launched. */
function checkKvSizes(ctx: CheckContext, view: LaunchView, args: ServeArgs, kv: unknown, problems: Problem[]): void {
  const wanted = ctx.profile.deployment.role;
  const flag = lastFlag(args, 'kv-transfer-config');
  if (wanted !== 'any' && !flag) {
    const kvRole = wanted === 'prefill' ? 'kv_producer' : 'kv_consumer';
    const line = view.serve!.line;
    problems.push({
      level: 'fail',
      text: (t) => t.noKvConfig({ profile: ctx.profile.name, role: wanted, script: view.name }),
      fix: (t) => t.noKvConfigFix({ script: view.name, line, kvRole, guideScript: `run_${wanted === 'prefill' ? 'p' : 'd0'}.sh` }),
    });
  }
  if (!isObject(kv)) return;
  const role = kv.kv_role;
  const actualRole = role === 'kv_producer' ? 'prefill' : role === 'kv_consumer' ? 'decode' : undefined;
  if (wanted !== 'any' && flag && actualRole !== wanted) {
    const line = jsonKeyLine(flag, ['kv_role']);
    const kvRole = typeof role === 'string' ? role : null;
    problems.push({
      level: 'fail',
      text: (t) => t.wrongRole({ profile: ctx.profile.name, role: wanted, at: at(view, line), kvRole, other: wanted === 'prefill' ? 'decode' : 'prefill' }),
      fix: (t) => t.wrongRoleFix({ role: wanted, kvRole: wanted === 'prefill' ? 'kv_producer' : 'kv_consumer' }),
    });
  }
  const extra = kv.kv_connector_extra_config;
  if (!isObject(extra) || (role !== 'kv_producer' && role !== 'kv_consumer')) return;
  const side = role === 'kv_producer' ? 'prefill' : 'decode';
  const sizes = extra[side];
  if (!isObject(sizes)) return;
  const layout = parallelism(args);
  for (const [key, actual, flagName] of [
    ['dp_size', layout.dp, '--data-parallel-size'],
    ['tp_size', layout.tp, '--tensor-parallel-size'],
  ] as const) {
    const declared = sizes[key];
    if (declared === undefined) continue;
    if (Number(declared) !== actual) {
      const line = flag ? jsonKeyLine(flag, ['kv_connector_extra_config', side, key]) : view.serve!.line;
      problems.push({
        level: 'fail',
        text: (t) => t.sizeMismatch({ side, key, declared: String(declared), flag: flagName, actual, kvRole: role, at: at(view, line) }),
        fix: (t) => t.sizeMismatchFix({ script: view.name, line, key, actual, side, flag: flagName }),
      });
    }
  }
}

/**
 * What one node can tell about its place among the nodes of its instance: it serves ranks
 * start .. start + local - 1 of --data-parallel-size. The nodes' ranks together are judged by
 * qprep aggregate.
 */
function checkRanks(view: LaunchView, args: ServeArgs, problems: Problem[]): void {
  const layout = parallelism(args);
  if (layout.problems.length > 0) return;
  const line = (name: string) => lastFlag(args, name)?.line ?? view.serve!.line;
  const { dp, dpLocal, startRank } = layout;
  if (dpLocal > dp) {
    const localLine = line('data-parallel-size-local');
    problems.push({
      level: 'fail',
      text: (t) => t.localAbove({ local: dpLocal, at: at(view, localLine), dp }),
      fix: (t) => t.localAboveFix({ script: view.name, line: localLine, dp }),
    });
    return;
  }
  if (dpLocal === 0) return;
  if (startRank + dpLocal > dp) {
    const last = startRank + dpLocal - 1;
    const startLine = line('data-parallel-start-rank');
    problems.push({
      level: 'fail',
      text: (t) => t.pastLast({ start: startRank, last, dp, at: at(view, startLine) }),
      fix: (t) => t.pastLastFix({ script: view.name, line: startLine, start: Math.max(0, dp - dpLocal) }),
    });
    return;
  }
  if (startRank % dpLocal !== 0) {
    const below = startRank - (startRank % dpLocal);
    const startLine = line('data-parallel-start-rank');
    problems.push({
      level: 'warn',
      text: (t) => t.startNotMultiple({ start: startRank, at: at(view, startLine), local: dpLocal }),
      fix: (t) => t.startNotMultipleFix({ script: view.name, line: startLine, below, above: below + dpLocal }),
    });
  }
}

/** The guide's sizing rule: --max-num-seqs x --data-parallel-size >= the requests served at once. */
function checkConcurrency(ctx: CheckContext, view: LaunchView, args: ServeArgs, problems: Problem[]): void {
  const expected = ctx.profile.deployment.expectedConcurrency;
  if (expected <= 0) return;
  const layout = parallelism(args);
  const flag = lastFlag(args, 'max-num-seqs');
  const seqs = integerFlag(args, 'max-num-seqs', 1);
  const needed = Math.ceil(expected / layout.dp);
  if (seqs.state === 'invalid') return;
  if (seqs.state === 'absent') {
    const line = view.serve!.line;
    problems.push({
      level: 'warn',
      text: (t) => t.noMaxSeqs({ script: view.name, profile: ctx.profile.name, expected, dp: layout.dp, needed }),
      fix: (t) => t.noMaxSeqsFix({ script: view.name, line, needed, dp: layout.dp, expected }),
    });
    return;
  }
  const capacity = seqs.value * layout.dp;
  if (capacity < expected) {
    const value = seqs.value;
    const { line, written } = flag!;
    problems.push({
      level: 'warn',
      text: (t) => t.lowCapacity({ seqs: value, dp: layout.dp, capacity, expected, profile: ctx.profile.name }),
      fix: (t) => t.lowCapacityFix({ script: view.name, line, flag: written, needed, dp: layout.dp, expected }),
    });
  }
}

/**
 * vLLM splits the attention heads over TP (ModelConfig.verify_with_parallel_config: "Total number
 * of attention heads must be divisible by tensor parallel size"), and the KV heads too, or
 * replicates them when TP is a multiple of them.
 */
function checkHeads(view: LaunchView, args: ServeArgs, model: ResolvedModel | undefined, problems: Problem[]): void {
  const layout = parallelism(args);
  if (layout.unknowns.length > 0 || layout.problems.length > 0 || layout.tp <= 1) return;
  if (!model?.argument.known) return;
  const named = model.argument.text;
  const fromConfig = configNumber(model.config, 'num_attention_heads');
  // without config.json, the model it resolves to (a hub id, a cache path's ORG/NAME), never the revision hash
  const row = fromConfig === undefined ? modelHeadsOf(model.identity.name) : undefined;
  const heads = fromConfig ?? row?.heads;
  if (heads === undefined) return;
  const kvHeads = fromConfig !== undefined ? (configNumber(model.config, 'num_key_value_heads') ?? heads) : row!.kvHeads;
  const tableId = row?.id ?? '';
  const source = (t: Text) => (fromConfig !== undefined ? t.weightsConfig : t.tableConfig({ id: tableId }));
  const tp = layout.tp;
  const flag = lastFlag(args, 'tensor-parallel-size')!;
  const divisors = (n: number) => [...Array(n).keys()].map((i) => i + 1).filter((d) => n % d === 0 && (d >= kvHeads ? d % kvHeads === 0 : kvHeads % d === 0));
  const fits = divisors(heads);
  const below = fits.filter((d) => d < tp).pop();
  const suggestion = (t: Text) => (below ? `${flag.written} ${below}` : t.divisorOf({ flag: flag.written, heads }));
  const fix = (t: Text) => t.headsFix({ script: view.name, line: flag.line, suggestion: suggestion(t), fits: fits.join(', ') });
  const where = at(view, flag.line);
  if (heads % tp !== 0) {
    problems.push({ level: 'fail', text: (t) => t.headsNotDivided({ flag: flag.written, tp, at: where, heads, model: named, source: source(t) }), fix });
  } else if (tp >= kvHeads ? tp % kvHeads !== 0 : kvHeads % tp !== 0) {
    problems.push({ level: 'fail', text: (t) => t.kvHeadsNotFit({ flag: flag.written, tp, at: where, kvHeads, model: named, source: source(t) }), fix });
  }
}

/**
 * Weights quantized by msModelSlim (they carry quant_model_description.json) run only with
 * --quantization ascend (quantization.md: "specifying the --quantization ascend parameter";
 * LLM-Compressor weights need no flag). A W8A8/W4A8 name without the local files is a hint only.
 */
function checkQuantization(view: LaunchView, args: ServeArgs, resolved: ResolvedModel | undefined, problems: Problem[]): void {
  const quantization = lastFlag(args, 'quantization');
  if (quantization?.value && !quantization.value.known) return;
  if (quantization?.value?.text === 'ascend') return;
  const model = args.model?.known ? args.model.text : undefined;
  if (!model || !resolved) return;
  const weights = resolved.files;
  const described = weights?.quantDescriptions ?? [];
  const line = quantization?.line ?? view.serve!.line;
  if (described.length > 0) {
    const given = quantization?.value ? quantization.value.text : null;
    const description = described[0]!;
    problems.push({
      level: 'fail',
      text: (t) => t.msModelSlim({ model, description, quantization: given }),
      fix: (t) => t.quantizationFix({ script: view.name, line }),
    });
  } else if (!weights && /(^|[-_./])w(8a8|4a8)/i.test(resolved.identity.name) && !quantization) {
    problems.push({
      level: 'warn',
      text: (t) => t.looksQuantized({ model }),
      fix: (t) => t.looksQuantizedFix({ script: view.name, line }),
    });
  }
}

/** The arguments as vllm's parser reads them: every flag with its value, one model, whole-number sizes; sizes a caller fills in are named. */
function checkArguments(ctx: CheckContext, view: LaunchView, args: ServeArgs, evidence: Record<string, unknown>, problems: Problem[]): void {
  const serve = view.serve!;
  const english = en.checks['launch.flags'];
  for (const flag of args.missingValues) {
    const { written, line } = flag;
    problems.push({ level: 'fail', text: (tt) => tt.missingValue({ flag: written, at: at(view, line) }), fix: (tt) => tt.missingValueFix({ script: view.name, line, flag: written }) });
  }
  if (!args.model) problems.push({ level: 'fail', text: (tt) => tt.noModel({ form: serve.form, at: at(view, serve.line) }), fix: (tt) => tt.noModelFix({ script: view.name, line: serve.line }) });
  for (const extra of args.extraPositionals) {
    const { text, line } = extra;
    problems.push({ level: 'fail', text: (tt) => tt.extraPositional({ text, at: at(view, line) }), fix: (tt) => tt.extraPositionalFix({ script: view.name, line }) });
  }
  const layout = parallelism(args);
  const launchText = (tt: Text) => (tt === english ? en.probes.launch : ctx.text.probes.launch);
  for (const invalid of layout.invalid) {
    problems.push({ level: 'fail', text: (tt) => tt.reason({ reason: flagReasonAt(invalid, launchText(tt)) }), fix: (tt) => tt.wholeNumberFix({ script: view.name }) });
  }
  const template = layout.unknowns.filter((u) => u.positional);
  if (template.length > 0) {
    evidence.fromCaller = template.map((u) => ({ flag: u.flag, source: u.source, line: u.line }));
    const values = describeCallerValues(template);
    const used = view.arguments?.used;
    const positional = template.some((u) => u.positional);
    problems.push({
      level: 'warn',
      text: (tt) =>
        used
          ? tt.fromInvocation({ values, invocation: describeInvocation(used), count: template.length })
          : tt.fromTemplate({ values, script: view.name, positional }),
      fix: (tt) => tt.fromCallerFix({ script: view.name }),
    });
  }
}

/** The same flag twice with different values: the last one wins, silently. */
function checkGivenTwice(view: LaunchView, args: ServeArgs, problems: Problem[]): void {
  const seen = new Map<string, string>();
  for (const flag of args.flags) {
    const value = flag.negated ? 'false' : (flag.value?.text ?? 'true');
    const before = seen.get(flag.name);
    if (before !== undefined && before !== value) {
      // a secret's value is never quoted, not even its first characters
      const shown = (text: string) => (isSecret({ name: flag.name, value: text }) ? REDACTED : text.slice(0, 30));
      const { name, line } = flag;
      const twice = { flag: name, before: shown(before), after: shown(value), line };
      problems.push({ level: 'warn', text: (tt) => tt.givenTwice(twice), fix: (tt) => tt.givenTwiceFix({ script: view.name, flag: name }) });
    }
    seen.set(flag.name, value);
  }
}

/** With MTP, every graph capture size is a multiple of num_speculative_tokens + 1. */
function checkMtpCaptureSizes(view: LaunchView, args: ServeArgs, json: Map<string, unknown>, problems: Problem[]): void {
  const speculative = json.get('speculative-config');
  const sizes = captureSizes(json.get('compilation-config'));
  if (!isObject(speculative) || !/mtp/i.test(String(speculative.method ?? '')) || typeof speculative.num_speculative_tokens !== 'number' || !sizes) return;
  const step = speculative.num_speculative_tokens + 1;
  const odd = sizes.filter((n) => n % step !== 0);
  if (odd.length === 0) return;
  const tokens = speculative.num_speculative_tokens;
  const line = lastFlag(args, 'compilation-config')!.line;
  const rounded = [...new Set(sizes.map((n) => Math.max(step, Math.round(n / step) * step)))].join(', ');
  problems.push({
    level: 'warn',
    text: (tt) => tt.mtpSizes({ tokens, step, odd }),
    fix: (tt) => tt.mtpSizesFix({ script: view.name, line, sizes: rounded }),
  });
}

/**
 * What the report lists of the problems: a script of thousands of stray words has as many, and
 * the report stays small and readable; the evidence counts them all.
 */
const LISTED_PROBLEMS = 50;
const LISTED_FIXES = 10;

/** The fixes of the problems, each once, the first LISTED_FIXES of them and how many more there are. */
function remediationOf(ctx: CheckContext, ordered: readonly Problem[]): string {
  const t = ctx.text.checks['launch.flags'];
  const fixes = [...new Set(ordered.map((p) => p.fix(t)))];
  if (fixes.length <= LISTED_FIXES) return fixes.join('\n');
  return [...fixes.slice(0, LISTED_FIXES), t.moreFixes({ count: fixes.length - LISTED_FIXES, listed: LISTED_PROBLEMS })].join('\n');
}

/** The fails first, then the warnings; a pass names the JSON flags that were read. */
function verdict(ctx: CheckContext, form: string, args: ServeArgs, json: Map<string, unknown>, evidence: Record<string, unknown>, problems: Problem[]): Outcome {
  const t = ctx.text.checks['launch.flags'];
  const english = en.checks['launch.flags'];
  // for programs: English whatever the run's language
  evidence.problems = problems.slice(0, LISTED_PROBLEMS).map((p) => `${p.level}: ${p.text(english)}`);
  if (problems.length > LISTED_PROBLEMS) evidence.problemCount = problems.length;
  const rules = problems.flatMap((p) => (p.rule ? [p.rule] : []));
  if (rules.length > 0) evidence.rules = rules;
  if (problems.length === 0) {
    const jsonNames = [...json.keys()];
    const valid = jsonNames.length > 0 ? summarizeList(jsonNames.map((n) => `--${n}`), 4, ctx.text.report.list) : null;
    return pass(t.allRead({ count: args.flags.length, form, json: valid }), { evidence });
  }
  const failing = problems.filter((p) => p.level === 'fail');
  const ordered = [...failing, ...problems.filter((p) => p.level === 'warn')];
  const message = t.andMore({ first: ordered[0]!.text(t), more: ordered.length - 1 });
  const details = {
    expected: 'flags vllm accepts, consistent with each other and this NPU',
    // for programs: English whatever the run's language
    actual: summarizeList(ordered.map((p) => p.text(english)), 2),
    remediation: remediationOf(ctx, ordered),
    evidence,
  };
  return failing.length > 0 ? fail(message, details) : warn(message, details);
}

// title, why, fix, reads and every message: src/i18n/*/checks/launch.ts
export default defineCheck({
  id: 'launch.flags',
  category: 'launch',
  order: 70,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['launch.flags'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    const serve = view.serve;
    if (!serve) return skip(t.noServer({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    const args = serve.parsed;
    const problems: Problem[] = [];
    const evidence: Record<string, unknown> = { script: view.input.file, line: serve.line };
    checkArguments(ctx, view, args, evidence, problems);
    const json = checkJson(ctx, view, args, problems);
    // kv_connector_extra_config, ranks and concurrency are judged against sizes; an unknown size judges nothing
    if (parallelism(args).unknowns.length === 0) {
      checkKvSizes(ctx, view, args, json.get('kv-transfer-config'), problems);
      checkRanks(view, args, problems);
      checkConcurrency(ctx, view, args, problems);
    }
    const model = await resolveModel(ctx, view);
    checkGivenTwice(view, args, problems);
    checkMtpCaptureSizes(view, args, json, problems);
    const npuFamily = await family(ctx);
    evidence.family = npuFamily;
    if (npuFamily === '310p') problems.push(...(await flagRuleProblems310p(ctx, view, args)));
    problems.push(...(await flagRuleProblems(ctx, view, args)));
    checkHeads(view, args, model, problems);
    checkQuantization(view, args, model, problems);
    return verdict(ctx, serve.form, args, json, evidence, problems);
  },
});
