import { fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck, type CheckContext, type Outcome } from '../src/core/types.js';
import { booleanFlag, integerFlag, JSON_FLAGS, jsonFlag, lastFlag, type ServeArgs } from '../src/parsers/vllm-args.js';
import { at, callerOf, describeCallerValues, describeInvocation, LAUNCH_REMEDIATION, launchView, NO_LAUNCH_SCRIPT, parallelism, type LaunchView } from '../src/probes/launch.js';
import { jsonKeyLine } from '../src/probes/launch-layout.js';
import { npuInventory } from '../src/probes/npu.js';
import { isSecretName, REDACTED } from '../src/util/redact.js';
import { inspectModel, locateModel, type ModelFiles } from '../src/probes/model.js';
import { modelHeadsOf } from '../src/data/model-heads.js';
import { summarizeList } from '../src/util/text.js';

interface Problem {
  level: 'fail' | 'warn';
  text: string;
  fix: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Qwen3.5 is a hybrid (Gated DeltaNet + attention) model: Mamba-style state in the KV cache. */
function isQwen35(model: string | undefined): boolean {
  return model !== undefined && /qwen3[._-]?5/i.test(model);
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
  return Array.isArray(sizes) && sizes.every((n) => typeof n === 'number') ? (sizes as number[]) : undefined;
}

function checkJson(view: LaunchView, args: ServeArgs, problems: Problem[]): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const names = new Set(args.flags.filter((f) => JSON_FLAGS.has(f.name) || /^\s*[{[]/.test(f.value?.text ?? '')).map((f) => f.name));
  for (const name of names) {
    const parsed = jsonFlag(args, name);
    if (parsed.state === 'ok') values.set(name, parsed.value);
    else if (parsed.state === 'invalid') {
      const unknown = parsed.flag.value !== null && !parsed.flag.value.known;
      problems.push({
        level: unknown ? 'warn' : 'fail',
        text: parsed.reason,
        fix: unknown
          ? `${view.name} line ${parsed.flag.line}: write ${parsed.flag.written} as literal JSON in single quotes`
          : `${view.name} line ${parsed.flag.line}: ${parsed.flag.written} '{...}'   # valid JSON in single quotes; check it with: python3 -m json.tool`,
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
    problems.push({
      level: 'fail',
      text: `profile ${ctx.profile.name} is a ${wanted} node of a disaggregated deployment, but ${view.name} has no --kv-transfer-config: it starts a plain server`,
      fix: `${view.name} line ${view.serve!.line}: --kv-transfer-config '{"kv_connector": "MooncakeLayerwiseConnector", "kv_role": "${wanted === 'prefill' ? 'kv_producer' : 'kv_consumer'}", ...}'   # as the guide's run_${wanted === 'prefill' ? 'p' : 'd0'}.sh; or use a profile without deployment.role`,
    });
  }
  if (!isObject(kv)) return;
  const role = kv.kv_role;
  const actualRole = role === 'kv_producer' ? 'prefill' : role === 'kv_consumer' ? 'decode' : undefined;
  if (wanted !== 'any' && flag && actualRole !== wanted) {
    const line = jsonKeyLine(flag, ['kv_role']);
    problems.push({
      level: 'fail',
      text: `profile ${ctx.profile.name} is a ${wanted} node, but ${at(view, line)} sets kv_role ${typeof role === 'string' ? role : 'to nothing'}: the ${wanted === 'prefill' ? 'decode' : 'prefill'} script, or the wrong profile?`,
      fix: `run the ${wanted} script here (kv_role "${wanted === 'prefill' ? 'kv_producer' : 'kv_consumer'}"), or check this node with the profile of its role`,
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
        text: `--kv-transfer-config says ${side}.${key} ${String(declared)} but this ${side} instance runs ${flagName} ${actual} (${role}, ${at(view, line)})`,
        fix: `${view.name} line ${line}: "${key}": ${actual}   # in the ${side} block, on every node of the deployment; or change ${flagName}`,
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
    problems.push({
      level: 'fail',
      text: `--data-parallel-size-local ${dpLocal} (${at(view, line('data-parallel-size-local'))}) is more than --data-parallel-size ${dp}: a node cannot serve more ranks than the instance has`,
      fix: `${view.name} line ${line('data-parallel-size-local')}: --data-parallel-size-local ${dp}   # or raise --data-parallel-size to the ranks of every node together`,
    });
    return;
  }
  if (dpLocal === 0) return;
  if (startRank + dpLocal > dp) {
    const last = startRank + dpLocal - 1;
    problems.push({
      level: 'fail',
      text: `this node would serve ranks ${startRank}-${last}, past the last rank ${dp - 1} of --data-parallel-size ${dp} (--data-parallel-start-rank ${startRank} at ${at(view, line('data-parallel-start-rank'))})`,
      fix: `${view.name} line ${line('data-parallel-start-rank')}: --data-parallel-start-rank ${Math.max(0, dp - dpLocal)}   # the ranks of the nodes before this one together; or raise --data-parallel-size`,
    });
    return;
  }
  if (startRank % dpLocal !== 0) {
    const below = startRank - (startRank % dpLocal);
    problems.push({
      level: 'warn',
      text: `--data-parallel-start-rank ${startRank} (${at(view, line('data-parallel-start-rank'))}) is not a multiple of --data-parallel-size-local ${dpLocal}: with ${dpLocal} ranks per node the nodes start at 0, ${dpLocal}, ${dpLocal * 2}, ...`,
      fix: `${view.name} line ${line('data-parallel-start-rank')}: --data-parallel-start-rank ${below}   # or ${below + dpLocal}; the ranks of the nodes before this one together`,
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
    problems.push({
      level: 'warn',
      text: `no --max-num-seqs in ${view.name}: vLLM picks its default, and profile ${ctx.profile.name} expects ${expected} requests at once (${layout.dp} DP ${layout.dp === 1 ? 'group' : 'groups'} need ${needed} each)`,
      fix: `${view.name} line ${view.serve!.line}: --max-num-seqs ${needed}   # x --data-parallel-size ${layout.dp} >= ${expected}`,
    });
    return;
  }
  const capacity = seqs.value * layout.dp;
  if (capacity < expected) {
    problems.push({
      level: 'warn',
      text: `--max-num-seqs ${seqs.value} x --data-parallel-size ${layout.dp} = ${capacity} requests at once, below the ${expected} profile ${ctx.profile.name} expects: the rest wait in the queue, and TTFT counts the wait`,
      fix: `${view.name} line ${flag!.line}: ${flag!.written} ${needed}   # x --data-parallel-size ${layout.dp} >= ${expected}; or lower deployment.expectedConcurrency`,
    });
  }
}

/**
 * Whether the server captures FULL graphs, where npugraph_ex runs: not with --enforce-eager, nor
 * with cudagraph_mode PIECEWISE or NONE (graph_mode.md: "PIECEWISE: Npugraph_ex is disabled").
 */
function fullGraph(args: ServeArgs, json: Map<string, unknown>): boolean {
  if (booleanFlag(args, 'enforce-eager') === true) return false;
  const compilation = json.get('compilation-config');
  const mode = isObject(compilation) ? compilation.cudagraph_mode : undefined;
  return !(typeof mode === 'string' && /^(PIECEWISE|NONE)$/i.test(mode));
}

/** What the weights say of themselves, when they are on this host. */
async function localWeights(ctx: CheckContext, view: LaunchView): Promise<ModelFiles | undefined> {
  const model = view.serve?.parsed.model;
  if (!model) return undefined;
  return ctx.shared('launch.flags:weights', async () => {
    const location = await locateModel(ctx, view, model);
    if (location.kind !== 'path' && location.kind !== 'cached') return undefined;
    const directory = await inspectModel(ctx, location.path);
    return directory.ok ? directory.files : undefined;
  });
}

function configNumber(config: Record<string, unknown> | null, key: string): number | undefined {
  if (!config) return undefined;
  const text = isObject(config.text_config) ? config.text_config : undefined;
  const value = config[key] ?? text?.[key];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * vLLM splits the attention heads over TP (ModelConfig.verify_with_parallel_config: "Total number
 * of attention heads must be divisible by tensor parallel size"), and the KV heads too, or
 * replicates them when TP is a multiple of them.
 */
function checkHeads(view: LaunchView, args: ServeArgs, weights: ModelFiles | undefined, problems: Problem[]): void {
  const layout = parallelism(args);
  if (layout.unknowns.length > 0 || layout.problems.length > 0 || layout.tp <= 1) return;
  const model = args.model?.known ? args.model.text : undefined;
  if (!model) return;
  const fromConfig = configNumber(weights?.config ?? null, 'num_attention_heads');
  const row = fromConfig === undefined ? modelHeadsOf(model) : undefined;
  const heads = fromConfig ?? row?.heads;
  if (heads === undefined) return;
  const kvHeads = fromConfig !== undefined ? (configNumber(weights!.config, 'num_key_value_heads') ?? heads) : row!.kvHeads;
  const source = fromConfig !== undefined ? "the weights' config.json" : `${row!.id}'s config.json (qprep's table)`;
  const tp = layout.tp;
  const flag = lastFlag(args, 'tensor-parallel-size')!;
  const divisors = (n: number) => [...Array(n).keys()].map((i) => i + 1).filter((d) => n % d === 0 && (d >= kvHeads ? d % kvHeads === 0 : kvHeads % d === 0));
  const fits = divisors(heads);
  const below = fits.filter((d) => d < tp).pop();
  const suggestion = below ? `${flag.written} ${below}` : `${flag.written} <a divisor of ${heads}>`;
  if (heads % tp !== 0) {
    problems.push({
      level: 'fail',
      text: `${flag.written} ${tp} (${at(view, flag.line)}) does not divide the ${heads} attention heads of ${model} (${source}): vLLM refuses to start`,
      fix: `${view.name} line ${flag.line}: ${suggestion}   # TP sizes that fit: ${fits.join(', ')}`,
    });
  } else if (tp >= kvHeads ? tp % kvHeads !== 0 : kvHeads % tp !== 0) {
    problems.push({
      level: 'fail',
      text: `${flag.written} ${tp} (${at(view, flag.line)}) does not fit the ${kvHeads} KV heads of ${model} (${source}): the KV heads are neither split evenly nor replicated`,
      fix: `${view.name} line ${flag.line}: ${suggestion}   # TP sizes that fit: ${fits.join(', ')}`,
    });
  }
}

/**
 * Weights quantized by msModelSlim (they carry quant_model_description.json) run only with
 * --quantization ascend (quantization.md: "specifying the --quantization ascend parameter";
 * LLM-Compressor weights need no flag). A W8A8/W4A8 name without the local files is a hint only.
 */
function checkQuantization(view: LaunchView, args: ServeArgs, weights: ModelFiles | undefined, problems: Problem[]): void {
  const quantization = lastFlag(args, 'quantization');
  if (quantization?.value && !quantization.value.known) return;
  if (quantization?.value?.text === 'ascend') return;
  const model = args.model?.known ? args.model.text : undefined;
  if (!model) return;
  const described = weights?.quantDescriptions ?? [];
  const line = quantization?.line ?? view.serve!.line;
  if (described.length > 0) {
    problems.push({
      level: 'fail',
      text: `${model} is quantized by msModelSlim (${described[0]}) but ${quantization?.value ? `--quantization is ${quantization.value.text}` : 'the server has no --quantization ascend'}: the quantized weights do not load`,
      fix: `${view.name} line ${line}: --quantization ascend`,
    });
  } else if (!weights && /(^|[-_./])w(8a8|4a8)/i.test(model.replace(/^.*\//, '')) && !quantization) {
    problems.push({
      level: 'warn',
      text: `${model} looks W8A8/W4A8-quantized and the server has no --quantization ascend: msModelSlim weights need it (LLM-Compressor weights do not); the weights are not on this host to tell`,
      fix: `${view.name} line ${line}: --quantization ascend   # if the weights come from msModelSlim (they carry quant_model_description.json)`,
    });
  }
}

/**
 * vllm-ascend v0.11.0, vllm_ascend/ascend_config.py: TORCHAIR_MODEL_LIST = ["deepseek", "pangu",
 * "kimi_k2", "qwen"], matched as substrings of the model's hf_config.model_type; another type raises
 * NotImplementedError at start, and TorchAir with --enforce-eager raises RuntimeError. The list grew
 * over the releases (v0.9.1 deepseek only, v0.9.2rc1 + pangu, v0.10.0rc1 + kimi_k2, v0.10.1rc1 + qwen);
 * the widest is used, since the installed release is not known here. TorchAir was dropped in v0.12.0rc1.
 */
const TORCHAIR_MODEL_TYPES = ['deepseek', 'pangu', 'kimi_k2', 'qwen'] as const;
const TORCHAIR_SOURCE = 'vllm-ascend v0.11.0 vllm_ascend/ascend_config.py, TORCHAIR_MODEL_LIST';

function checkTorchair(view: LaunchView, args: ServeArgs, json: Map<string, unknown>, weights: ModelFiles | undefined, problems: Problem[]): void {
  const additional = json.get('additional-config');
  const torchair = isObject(additional) ? additional.torchair_graph_config : undefined;
  if (!isObject(torchair) || torchair.enabled !== true) return;
  const flag = lastFlag(args, 'additional-config')!;
  const line = jsonKeyLine(flag, ['torchair_graph_config', 'enabled']);
  if (booleanFlag(args, 'enforce-eager') === true) {
    problems.push({
      level: 'fail',
      text: `torchair_graph_config is enabled (${at(view, line)}) together with --enforce-eager: vllm-ascend refuses to start ("Can't enable graph mode and eager mode at the same time", ${TORCHAIR_SOURCE.replace(', TORCHAIR_MODEL_LIST', '')})`,
      fix: `${view.name} line ${line}: "torchair_graph_config": {"enabled": false}   # or remove --enforce-eager`,
    });
  }
  const configType = weights?.config && typeof weights.config.model_type === 'string' ? weights.config.model_type : undefined;
  const model = args.model?.known ? args.model.text : undefined;
  // without the weights, the model's name stands in for its model_type: a guess, so a warning
  const guessed = configType === undefined && model !== undefined ? model.replace(/^.*\//, '').toLowerCase().replace(/-/g, '_') : undefined;
  const type = configType?.toLowerCase() ?? guessed;
  if (type === undefined || TORCHAIR_MODEL_TYPES.some((supported) => type.includes(supported))) return;
  const what = configType !== undefined ? `model_type ${configType} (the weights' config.json)` : `${model} (by its name; the weights are not on this host to tell its model_type)`;
  problems.push({
    level: configType !== undefined ? 'fail' : 'warn',
    text: `torchair_graph_config is enabled (${at(view, line)}) for ${what}, and TorchAir graph mode supports only the model types ${TORCHAIR_MODEL_TYPES.join(', ')} (${TORCHAIR_SOURCE}): vllm-ascend raises NotImplementedError at start`,
    fix: `${view.name} line ${line}: "torchair_graph_config": {"enabled": false}   # the default graph mode (ACLGraph) serves this model`,
  });
}

/** The rules of the Atlas 300I Duo / 200I Pro guide for Qwen3.5 dense. */
function check310p(view: LaunchView, args: ServeArgs, json: Map<string, unknown>, problems: Problem[]): void {
  const line = view.serve!.line;
  const dtype = lastFlag(args, 'dtype');
  if (!dtype?.value || dtype.value.text !== 'float16') {
    problems.push({
      // the 310P guide: "--dtype float16 must be set on Atlas 300I DUO and Atlas 200I Pro"
      level: 'fail',
      text: `310P supports only FP16, and ${dtype?.value ? `--dtype is ${dtype.value.text}` : '--dtype is not set (bfloat16 models load as bfloat16)'}`,
      fix: `${view.name} line ${dtype?.line ?? line}: --dtype float16`,
    });
  }
  const model = args.model?.text;
  const ssm = lastFlag(args, 'mamba-ssm-cache-dtype');
  if (isQwen35(model) && (!ssm?.value || ssm.value.text !== 'float16')) {
    problems.push({
      level: 'warn',
      text: `310P supports only a float16 Mamba SSM cache for Qwen3.5, and ${ssm?.value ? `--mamba-ssm-cache-dtype is ${ssm.value.text}` : '--mamba-ssm-cache-dtype is not set'}`,
      fix: `${view.name} line ${ssm?.line ?? line}: --mamba-ssm-cache-dtype float16`,
    });
  }
  const additional = json.get('additional-config');
  const ascendCompilation = isObject(additional) ? additional.ascend_compilation_config : undefined;
  const npugraph = isObject(ascendCompilation) ? ascendCompilation.enable_npugraph_ex : undefined;
  if (npugraph !== false && fullGraph(args, json)) {
    const flag = lastFlag(args, 'additional-config');
    problems.push({
      level: 'warn',
      text: `310P does not support enable_npugraph_ex, and --additional-config ${flag ? 'does not set it to false' : 'is not given'}`,
      fix: `${view.name} line ${flag?.line ?? line}: --additional-config '{"ascend_compilation_config": {"enable_npugraph_ex": false}}'`,
    });
  }
  const sizes = captureSizes(json.get('compilation-config'));
  const layout = parallelism(args);
  if (sizes && layout.tp > 1 && sizes.length > 2) {
    problems.push({
      level: 'warn',
      text: `with TP ${layout.tp} on 310P the hardware event ids allow at most two cudagraph capture sizes; --compilation-config lists ${sizes.length} (${sizes.join(', ')})`,
      fix: `${view.name} line ${lastFlag(args, 'compilation-config')?.line ?? line}: "cudagraph_capture_sizes": [${sizes.slice(0, 2).join(', ')}]`,
    });
  }
}

export default defineCheck({
  id: 'launch.flags',
  title: "vllm serve flags consistent",
  category: 'launch',
  level: 'required',
  why:
    'vLLM refuses a JSON flag that does not parse; a Mooncake kv_connector_extra_config whose prefill/decode sizes ' +
    'disagree with the instance breaks the KV transfer; a node serves ranks --data-parallel-start-rank .. + ' +
    '--data-parallel-size-local - 1 of --data-parallel-size, so those must fit (qprep aggregate checks the nodes ' +
    'together); on Atlas 300I Duo / 200I Pro the guide requires --dtype float16, a float16 Mamba SSM cache, ' +
    'enable_npugraph_ex false and at most two capture sizes with TP > 1; prefix caching on the hybrid Qwen3.5 models ' +
    'needs --mamba-cache-mode align; with MTP the capture sizes should be multiples of num_speculative_tokens + 1; ' +
    '--max-num-seqs x --data-parallel-size below the expected concurrency (profile deployment.expectedConcurrency) ' +
    'queues requests; a script whose kv_role is not the role the profile gives this node is the wrong script. ' +
    'Sizes that come from the caller ($1..$7 of a template such as examples/external_online_dp/run_dp_template.sh) are ' +
    'named once and nothing is derived from them. --dtype float16 is required on 310P ("must be set on Atlas 300I DUO ' +
    'and Atlas 200I Pro", tutorials/models/Qwen3.5-Dense.md); enable_npugraph_ex matters only in FULL graph modes ' +
    '(user_guide/feature_guide/graph_mode.md: PIECEWISE disables it, --enforce-eager captures nothing). ' +
    '--tensor-parallel-size must divide the attention heads and fit the KV heads (vLLM ModelConfig.' +
    'verify_with_parallel_config), read from the weights\' config.json or, without them, from a table of the ' +
    'tutorials\' models (src/data/model-heads.ts, from each model\'s config.json on Hugging Face). msModelSlim ' +
    'weights (quant_model_description.json) need --quantization ascend (user_guide/feature_guide/quantization.md). ' +
    'torchair_graph_config enabled for a model_type outside deepseek, pangu, kimi_k2, qwen, or with --enforce-eager, ' +
    'stops vllm-ascend at start (vllm-ascend v0.11.0 vllm_ascend/ascend_config.py: TORCHAIR_MODEL_LIST and ' +
    'check_ascend_config); from the weights\' config.json a fail, from the model\'s name only a warning.',
  reads: ['the --launch script (never executed)', 'npu-smi info (the NPU family)'],
  fix: 'Change the flag on the line the check names, as it prints it.',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return skip(NO_LAUNCH_SCRIPT, { remediation: LAUNCH_REMEDIATION });
    const serve = view.serve;
    if (!serve) return skip(`${view.name} starts no vLLM server: no flag to check (launch.script says why)`, { remediation: LAUNCH_REMEDIATION });
    const args = serve.parsed;
    const problems: Problem[] = [];
    const evidence: Record<string, unknown> = { script: view.input.file, line: serve.line };

    for (const flag of args.missingValues) problems.push({ level: 'fail', text: `${flag.written} (${at(view, flag.line)}) has no value: vllm refuses to start`, fix: `${view.name} line ${flag.line}: ${flag.written} <value>` });
    if (!args.model) problems.push({ level: 'fail', text: `${serve.form} at ${at(view, serve.line)} names no model`, fix: `${view.name} line ${serve.line}: vllm serve /path/to/weights ...` });
    for (const extra of args.extraPositionals) {
      problems.push({ level: 'fail', text: `"${extra.text}" (${at(view, extra.line)}) is a second positional argument: vllm takes only the model (a flag lost its "--"?)`, fix: `${view.name} line ${extra.line}: remove it or add the flag it belongs to` });
    }
    const layout = parallelism(args);
    for (const problem of layout.problems) problems.push({ level: 'fail', text: problem, fix: `${view.name}: write the size as a whole number` });
    const template = layout.unknowns.filter((u) => u.positional);
    if (template.length > 0) {
      evidence.fromCaller = template.map((u) => ({ flag: u.flag, source: u.source, line: u.line }));
      problems.push({
        level: 'warn',
        text: view.arguments
          ? `sizes come from the caller: ${describeCallerValues(template)}; ${describeInvocation(view.arguments.used)} passes ${template.length === 1 ? 'it' : 'them'} computed at run time, and nothing is derived from ${template.length === 1 ? 'it' : 'them'} here`
          : `sizes come from the caller: ${describeCallerValues(template)}; ${view.name} is a template filled in by ${callerOf(template)}, and nothing is derived from them here`,
        fix: `check the script that runs ${view.name} with its arguments (qprep check --launch on a copy with the values written in)`,
      });
    }

    const json = checkJson(view, args, problems);
    // kv_connector_extra_config, ranks and concurrency are judged against sizes; an unknown size judges nothing
    if (layout.unknowns.length === 0) {
      checkKvSizes(ctx, view, args, json.get('kv-transfer-config'), problems);
      checkRanks(view, args, problems);
      checkConcurrency(ctx, view, args, problems);
    }

    // the same flag twice with different values: the last one wins, silently
    const seen = new Map<string, string>();
    for (const flag of args.flags) {
      const value = flag.negated ? 'false' : (flag.value?.text ?? 'true');
      const before = seen.get(flag.name);
      if (before !== undefined && before !== value) {
        // a secret's value is never quoted, not even its first characters
        const shown = (text: string) => (isSecretName(flag.name) ? REDACTED : text.slice(0, 30));
        problems.push({ level: 'warn', text: `--${flag.name} is given twice with different values (${shown(before)}, then ${shown(value)} at line ${flag.line}): vllm keeps the last`, fix: `${view.name}: keep one --${flag.name}` });
      }
      seen.set(flag.name, value);
    }

    const model = args.model?.text;
    if (isQwen35(model) && booleanFlag(args, 'enable-prefix-caching') === true) {
      const mode = lastFlag(args, 'mamba-cache-mode');
      if (mode?.value?.text !== 'align') {
        problems.push({
          level: 'warn',
          text: `--enable-prefix-caching on ${model} (a hybrid Mamba-style model) without --mamba-cache-mode align`,
          fix: `${view.name} line ${lastFlag(args, 'enable-prefix-caching')!.line}: --enable-prefix-caching --mamba-cache-mode align   # or --no-enable-prefix-caching`,
        });
      }
    }

    const speculative = json.get('speculative-config');
    const sizes = captureSizes(json.get('compilation-config'));
    if (isObject(speculative) && /mtp/i.test(String(speculative.method ?? '')) && typeof speculative.num_speculative_tokens === 'number' && sizes) {
      const step = speculative.num_speculative_tokens + 1;
      const odd = sizes.filter((n) => n % step !== 0);
      if (odd.length > 0) {
        problems.push({
          level: 'warn',
          text: `with MTP (num_speculative_tokens ${speculative.num_speculative_tokens}) capture sizes should be multiples of ${step}; ${odd.join(', ')} ${odd.length === 1 ? 'is' : 'are'} not`,
          fix: `${view.name} line ${lastFlag(args, 'compilation-config')!.line}: "cudagraph_capture_sizes": [${[...new Set(sizes.map((n) => Math.max(step, Math.round(n / step) * step)))].join(', ')}]`,
        });
      }
    }

    const npuFamily = await family(ctx);
    evidence.family = npuFamily;
    if (npuFamily === '310p') check310p(view, args, json, problems);
    const weights = await localWeights(ctx, view);
    checkHeads(view, args, weights, problems);
    checkQuantization(view, args, weights, problems);
    checkTorchair(view, args, json, weights, problems);

    evidence.problems = problems.map((p) => `${p.level}: ${p.text}`);
    if (problems.length === 0) {
      const jsonNames = [...json.keys()];
      return pass(`${args.flags.length} flags of ${serve.form} read${jsonNames.length > 0 ? `; ${summarizeList(jsonNames.map((n) => `--${n}`), 4)} valid JSON` : ''}`, { evidence });
    }
    const failing = problems.filter((p) => p.level === 'fail');
    const ordered = [...failing, ...problems.filter((p) => p.level === 'warn')];
    const message = `${ordered[0]!.text}${ordered.length > 1 ? ` (and ${ordered.length - 1} more)` : ''}`;
    const details = {
      expected: 'flags vllm accepts, consistent with each other and this NPU',
      actual: summarizeList(ordered.map((p) => p.text), 2),
      remediation: [...new Set(ordered.map((p) => p.fix))].join('\n'),
      evidence,
    };
    const outcome: Outcome = failing.length > 0 ? fail(message, details) : warn(message, details);
    return outcome;
  },
});
