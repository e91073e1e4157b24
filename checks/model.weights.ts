import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck, type CheckContext } from '../src/core/types.js';
import { booleanFlag, lastFlag } from '../src/parsers/vllm-args.js';
import { at, LAUNCH_REMEDIATION, launchView, NO_LAUNCH_SCRIPT, parallelism, placeholderIn, type LaunchView } from '../src/probes/launch.js';
import { inspectModel, locateModel, type ModelFiles } from '../src/probes/model.js';
import { npuInventory, parseDeviceList } from '../src/probes/npu.js';
import { formatBytes } from '../src/util/size.js';
import { plural, summarizeList } from '../src/util/text.js';

const MiB = 1024 * 1024;
/** Above this share of the per-NPU budget the weights leave too little for the KV cache and activations. */
const NEAR_LIMIT = 0.85;
const DEFAULT_UTILIZATION = 0.9;

interface Fit {
  status: 'fits' | 'near' | 'over' | 'unknown';
  text: string;
  evidence: Record<string, unknown>;
}

/**
 * A rough fit: the weights are split over TP x PP NPUs, or over TP x DP x PP with expert
 * parallelism (the experts, most of a MoE model, are spread over the whole EP group; the
 * attention layers stay replicated per DP rank, so this under-estimates a little). Each NPU
 * gives vLLM gpu-memory-utilization x its memory, less what is already in use; the KV cache,
 * activations and graphs need the rest, hence the warning near the limit.
 */
async function fit(ctx: CheckContext, view: LaunchView, bytes: number): Promise<Fit> {
  const serve = view.serve!;
  const layout = parallelism(serve.parsed);
  const utilizationFlag = lastFlag(serve.parsed, 'gpu-memory-utilization');
  const utilization = utilizationFlag?.value?.known && /^(0?\.\d+|1(\.0*)?)$/.test(utilizationFlag.value.text) ? Number(utilizationFlag.value.text) : DEFAULT_UTILIZATION;
  const inventory = await npuInventory(ctx);
  if (!inventory.ok) return { status: 'unknown', text: `NPU memory not compared (${inventory.problem.message})`, evidence: {} };
  const visible = view.env.get('ASCEND_RT_VISIBLE_DEVICES')?.value;
  const ids = visible?.known ? parseDeviceList(visible.text.trim()) : undefined;
  const candidates = ids ? inventory.devices.filter((d) => ids.includes(d.visibleIndex)) : inventory.devices;
  const used = candidates.slice(0, Math.max(1, layout.perNode)).filter((d) => d.memory && d.memory.totalMB > 0);
  if (used.length === 0) return { status: 'unknown', text: 'NPU memory not compared (npu-smi shows no memory size)', evidence: {} };
  const expertParallel = booleanFlag(serve.parsed, 'enable-expert-parallel') === true;
  const shards = layout.tp * layout.pp * (expertParallel ? layout.dp : 1);
  const perDeviceMB = bytes / MiB / shards;
  const budgets = used.map((d) => ({ device: d.device, budgetMB: d.memory!.totalMB * utilization - d.memory!.usedMB, totalMB: d.memory!.totalMB, usedMB: d.memory!.usedMB, kind: d.memory!.kind }));
  const tightest = budgets.reduce((a, b) => (b.budgetMB < a.budgetMB ? b : a));
  const kind = tightest.kind === 'ddr' ? 'DDR' : 'HBM';
  const evidence = {
    estimate: `weights / (${expertParallel ? 'TP x DP x PP, expert parallel' : 'TP x PP'}) per NPU against gpu-memory-utilization x memory - used`,
    perDeviceMB: Math.round(perDeviceMB),
    splitOver: shards,
    utilization,
    tightest,
  };
  const split = expertParallel ? `, experts over TP x DP` : '';
  const share = `~${formatBytes(perDeviceMB * MiB)} per NPU (${formatBytes(bytes)} over ${plural(shards, 'NPU')}${split}) of ${formatBytes(Math.max(0, tightest.budgetMB) * MiB)} ${kind} budget (${utilization} x ${formatBytes(tightest.totalMB * MiB)} - ${formatBytes(tightest.usedMB * MiB)} used, device ${tightest.device})`;
  if (perDeviceMB > tightest.budgetMB) return { status: 'over', text: share, evidence };
  if (perDeviceMB > tightest.budgetMB * NEAR_LIMIT) return { status: 'near', text: share, evidence };
  return { status: 'fits', text: share, evidence };
}

function filesSummary(files: ModelFiles): string {
  const parts: string[] = [];
  if (files.shards.length > 0) parts.push(`${plural(files.shards.length, 'safetensors shard')} (${formatBytes(files.totalBytes)})`);
  else if (files.otherWeights.length > 0) parts.push(`${summarizeList(files.otherWeights, 2)} (${formatBytes(files.totalBytes)})`);
  if (files.index) parts.push(`all ${files.index.shards.length} in ${files.index.name}`);
  if (files.quantDescriptions.length > 0) parts.push(files.quantDescriptions[0]!);
  return parts.join(', ');
}

export default defineCheck({
  id: 'model.weights',
  title: 'Model weights present and sized for the NPUs',
  category: 'launch',
  level: 'required',
  why:
    'vllm serve loads the weights only after minutes of start-up: a model directory without config.json, with a shard ' +
    'its index lists missing (an interrupted download), non-quantized weights under --quantization ascend, or a hub ' +
    'id that is not in the local cache (vLLM then downloads hundreds of GB, or fails offline) is found here instead. ' +
    'The size is compared, roughly, with the NPU memory vLLM may use.',
  reads: ['the --launch script (never executed)', 'the model directory (config.json, *.safetensors, the index)', 'the Hugging Face / ModelScope cache', 'npu-smi info'],
  fix: 'Point vllm serve at the directory that holds the complete weights, download the missing shards, or use more NPUs (a larger --tensor-parallel-size).',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return skip(NO_LAUNCH_SCRIPT, { remediation: LAUNCH_REMEDIATION });
    const serve = view.serve;
    if (!serve?.parsed.model) return skip(`${view.name} names no model to check (launch.script / launch.flags say why)`, { remediation: LAUNCH_REMEDIATION });
    const model = serve.parsed.model;
    const line = model.line;
    const placeholder = model.known ? placeholderIn(model.text) : undefined;
    if (placeholder !== undefined) {
      return skip(`the model of ${view.name} (${at(view, line)}) is the placeholder ${placeholder}: no weights to look for (launch.placeholders names it)`, {
        remediation: `${view.name} line ${line}: vllm serve <the weights directory or hub id>`,
        evidence: { script: view.input.file, model: model.text, line, placeholder },
      });
    }
    const location = await locateModel(ctx, view, model);
    const evidence: Record<string, unknown> = { script: view.input.file, model: model.text, line, location };

    if (location.kind === 'dynamic') {
      return warn(`the model of ${view.name} (${at(view, line)}) is computed at run time (${location.reason}): the weights cannot be checked`, {
        remediation: `${view.name} line ${line}: vllm serve /path/to/weights   # written literally`,
        evidence,
      });
    }
    if (location.kind === 'relative') {
      return warn(`the model "${location.text}" (${at(view, line)}) is a relative path: it depends on the directory the script is started from`, {
        remediation: `${view.name} line ${line}: vllm serve /absolute/path/to/${location.text.replace(/^\.{1,2}\//, '')}`,
        evidence,
      });
    }
    if (location.kind === 'not-captured') {
      return error(`the cache entries of ${location.id} were not captured in the snapshot (${summarizeList(location.searched, 2)}): the weights cannot be judged from it`, {
        remediation: `record the snapshot with this script: qprep snapshot -o host.json --launch ${view.input.file === '-' ? 'SCRIPT' : view.input.file}`,
        evidence,
      });
    }
    if (location.kind === 'not-cached') {
      // filling the cache vLLM reads needs no change to the script
      const download =
        location.hub === 'modelscope'
          ? `modelscope download --model ${location.id}   # into the ModelScope cache vllm reads (VLLM_USE_MODELSCOPE)`
          : `huggingface-cli download ${location.id}   # into the Hugging Face cache vllm reads`;
      const text = `${location.id} (${at(view, line)}) is a ${location.hub === 'modelscope' ? 'ModelScope' : 'Hugging Face'} id that is not in the local cache (${summarizeList(location.searched, 2)})`;
      const remediation = `${download}\nor download it to a directory and serve that: ${view.name} line ${line}: vllm serve /path/to/${location.id.replace(/^.*\//, '')}`;
      if (location.offline) return fail(`${text}, and the hub is offline (HF_HUB_OFFLINE): vllm cannot load it`, { remediation, evidence });
      return warn(`${text}: vllm downloads it at start, which takes long for large models and fails without internet`, { remediation, evidence });
    }

    const path = location.path;
    const where = location.kind === 'cached' ? `${location.id} (cached at ${path})` : path;
    const inspected = await inspectModel(ctx, path);
    if (!inspected.ok) {
      if (inspected.code === 'ENOTCAPTURED') {
        return error(`${path} was not captured in the snapshot: the weights cannot be judged from it`, {
          remediation: `record the snapshot with this script: qprep snapshot -o host.json --launch ${view.input.file === '-' ? 'SCRIPT' : view.input.file}`,
          evidence,
        });
      }
      if (inspected.code === 'ENOENT') {
        return fail(`the model directory ${path} (${at(view, line)}) does not exist`, {
          expected: 'a directory with config.json and the weights',
          actual: 'no such directory',
          remediation: `download the weights to ${path}, or correct ${view.name} line ${line}${ctx.host.root !== '/' ? '' : ' (in a container: mount it, docker run -v /root/.cache:/root/.cache)'}`,
          evidence,
        });
      }
      if (inspected.code === 'ENOTDIR' && /\.gguf$/.test(path)) return pass(`${path} is a GGUF file`, { evidence });
      return fail(`cannot read the model directory ${path}: ${inspected.problem}`, { remediation: `make ${path} a readable directory of weights`, evidence });
    }
    const files = inspected.files;
    evidence.files = {
      config: files.config ? { model_type: files.config.model_type ?? null } : null,
      shards: files.shards.length,
      bytes: files.totalBytes,
      index: files.index?.name ?? null,
      missing: files.missing,
      quantDescriptions: files.quantDescriptions,
    };
    const problems: string[] = [];
    const fixes: string[] = [];
    if (!files.config) {
      problems.push(`${where}: ${files.configProblem ?? 'config.json unreadable'}`);
      fixes.push(`copy config.json of the model into ${path} (it comes with the weights)`);
    }
    if (files.indexProblem) {
      problems.push(`${where}: ${files.indexProblem}`);
      fixes.push(`download the index again into ${path}`);
    }
    if (files.missing.length > 0) {
      problems.push(`${where} lacks ${plural(files.missing.length, 'shard')} its index lists: ${summarizeList(files.missing, 3)}`);
      fixes.push(location.kind === 'cached' ? `download ${location.id} again (the cache resumes the missing files)` : `copy the missing shards into ${path}, or download the model again`);
    }
    if (files.shards.length === 0 && files.otherWeights.length === 0) {
      problems.push(`${where} holds no weights (*.safetensors, *.bin)`);
      fixes.push(`download the weights into ${path}`);
    }
    const quantization = lastFlag(serve.parsed, 'quantization')?.value?.text;
    if (quantization === 'ascend' && files.quantDescriptions.length === 0) {
      problems.push(`--quantization ascend, but ${where} has no quant_model_description*.json: these are not Ascend-quantized weights`);
      fixes.push(`use the quantized weights (e.g. the -w8a8 model), or drop --quantization ascend at ${at(view, lastFlag(serve.parsed, 'quantization')!.line)}`);
    }
    if (problems.length > 0) {
      return fail(`${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`, {
        expected: 'config.json and every shard',
        actual: summarizeList(problems, 2),
        remediation: fixes.join('\n'),
        evidence,
      });
    }

    const sized = await fit(ctx, view, files.totalBytes);
    evidence.fit = sized.evidence;
    const summary = `${where}: ${filesSummary(files)}`;
    const layout = parallelism(serve.parsed);
    if (sized.status === 'over') {
      return fail(`the weights do not fit: ${sized.text}`, {
        expected: 'weights per NPU within the memory vLLM may use',
        actual: sized.text,
        remediation: `use more NPUs: --tensor-parallel-size ${layout.tp * 2} (with the devices to match), or a quantized model, or free the NPUs (npu-smi info shows what holds them)`,
        evidence,
      });
    }
    if (sized.status === 'near') {
      return warn(`the weights leave little room for the KV cache: ${sized.text}`, {
        remediation: `raise --gpu-memory-utilization a little, use more NPUs (--tensor-parallel-size ${layout.tp * 2}), or a quantized model`,
        evidence,
      });
    }
    return pass(`${summary}; ${sized.text}`, { evidence });
  },
});
