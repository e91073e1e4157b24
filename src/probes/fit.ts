import type { CheckContext } from '../core/types.js';
import { builtinConfigOf, type BuiltinConfig } from '../knowledge/model-configs.js';
import { visibleMemoryOf, type VisibleMemory } from '../knowledge/npu-visible-memory.js';
import type { KnowledgeSource } from '../knowledge/source.js';
import type { NpuFamily } from '../parsers/npu-smi-info.js';
import { parallelism, type LaunchView, type Parallelism } from './launch.js';
import { readFitSettings, type FitSettings } from './fit-settings.js';
import { activationEstimate, graphMemoryEstimate, kvBudget, nonTorchEstimate, parseVersion, type Budget, type NonTorchPart, type VersionTriple } from './kv-budget.js';
import { kvCapacity, kvLayout, type HybridAlignment, type KvCapacity, type KvLayout } from './kv-cache.js';
import { mc2MaxBs, mc2Need, type Mc2Need } from './hccl-mc2.js';
import { dtypeBytes, isHybridModel, shapeOf, type ModelShape } from './model-shape.js';
import { resolveModel, type ResolvedModel } from './model-resolve.js';
import { npuInventory, parseDeviceList, type NpuDevice } from './npu.js';
import { installedVllmAscend } from './launch-rules.js';
import { streamBudget, type StreamBudget } from './graph-streams.js';
import { splitWeights } from './weights-split.js';

/**
 * The memory plan of the launch script's server on this node, per NPU rank: what it will load,
 * what vLLM will give the KV cache, what that holds. Gathered once per run from the resolved
 * model (config.json, or the built-in table when the weights are not here), npu-smi's table, the
 * launch flags and the installed vllm-ascend; the arithmetic is in kv-budget.ts, kv-cache.ts,
 * weights-split.ts, hccl-mc2.ts and graph-streams.ts.
 */

const MiB = 2 ** 20;

export type FitBasis = 'config.json' | 'builtin';

/** A figure of the plan with what it came from: exact (read or computed as vLLM does) or an estimate. */
export interface Term {
  bytes: number;
  how: 'exact' | 'estimate';
  /** what it is made of, in English (evidence and explain) */
  from: string;
}

export interface DevicePlan {
  device: number;
  npuSmiTotalMB: number;
  npuSmiUsedMB: number;
  visible: VisibleMemory;
  inUseBytes: number;
  budget: Budget;
}

export interface FitPlan {
  model: ResolvedModel;
  basis: FitBasis;
  /** the built-in row used (all of it when there is no config.json, the gaps of a partial config.json otherwise) */
  builtin: BuiltinConfig | null;
  /** values of the plan the built-in table gave, with their sources */
  builtinSources: Record<string, KnowledgeSource>;
  shape: ModelShape | null;
  /** config.json keys the KV cache needs and neither the weights nor the table give */
  missing: string[];
  layout: Parallelism;
  settings: FitSettings;
  family: NpuFamily;
  /** the driver as npu-smi reports it */
  driverVersion: string | null;
  vllmAscend: { version: string; parsed: VersionTriple | undefined } | null;
  /** the tightest NPU of those this server uses, and every one of them */
  device: DevicePlan;
  devices: DevicePlan[];
  weights: Term & { totalBytes: number; totalFrom: 'total_size' | 'shards' | 'shapes'; share: number | null; mtpLoaded: boolean };
  activation: Term & { maxNumBatchedTokens: number; hidden: number | null };
  nonTorch: Term & { hcclBytes: number; parts: NonTorchPart[] };
  graph: Term;
  maxModelLen: { value: number | null; from: 'flag' | 'config.json' | 'builtin' | 'auto' | 'unknown' };
  kv: { layout: KvLayout; capacity: KvCapacity | null } | null;
  mc2: (Mc2Need & { epWorldSize: number; maxNumTokens: number; buffsizeMB: number }) | null;
  streams: StreamBudget | null;
}

export type FitProblem =
  | { kind: 'no-model' }
  | { kind: 'no-npu'; problem: string }
  | { kind: 'no-memory-size' }
  | { kind: 'caller-sizes' };

/** The config the plan reads: config.json's, its gaps filled from the built-in table; with what each came from. */
function configFor(model: ResolvedModel): { config: Record<string, unknown>; basis: FitBasis; builtin: BuiltinConfig | null } {
  const builtin = builtinConfigOf(model.identity.name) ?? null;
  if (model.config) return { config: { ...(builtin?.config ?? {}), ...model.config }, basis: 'config.json', builtin };
  return { config: builtin?.config ?? {}, basis: 'builtin', builtin };
}

/** The NPUs this server's ranks use on this node (ASCEND_RT_VISIBLE_DEVICES, then the first TP x PP x DP-local). */
function usedDevices(view: LaunchView, devices: readonly NpuDevice[], perNode: number): NpuDevice[] {
  const visible = view.env.get('ASCEND_RT_VISIBLE_DEVICES')?.value;
  const ids = visible?.known ? parseDeviceList(visible.text.trim()) : undefined;
  const candidates = ids ? devices.filter((d) => ids.includes(d.visibleIndex)) : [...devices];
  return candidates.slice(0, Math.max(1, perNode)).filter((d) => d.memory && d.memory.totalMB > 0);
}

async function vllmAscendVersion(ctx: CheckContext, view: LaunchView): Promise<FitPlan['vllmAscend']> {
  const version = await installedVllmAscend(ctx, view);
  return version ? { version, parsed: parseVersion(version) } : null;
}

function weightsTerm(model: ResolvedModel, shape: ModelShape | null, layout: Parallelism, settings: FitSettings): FitPlan['weights'] {
  const files = model.files;
  const quantized = settings.quantization === 'ascend' || (files?.quantDescriptions.length ?? 0) > 0;
  const dtype = dtypeBytes(shape?.dtype) ?? 2;
  const plan = {
    tp: layout.tp,
    pp: layout.pp,
    ep: settings.expertParallel && shape?.moe ? layout.tp * layout.dp * layout.pcp : 0,
    mtp: /mtp/i.test(settings.speculative?.method ?? ''),
    linearBytes: quantized || /fp8|float8/i.test(shape?.dtype ?? '') ? 1 : dtype,
    otherBytes: dtype === 4 ? 4 : 2,
  };
  const split = shape ? splitWeights(shape, plan) : null;
  const even = layout.tp * layout.pp * (settings.expertParallel ? layout.dp : 1);
  const localTotal = files ? (files.index?.totalSize ?? (files.totalBytes > 0 ? files.totalBytes : null)) : null;
  const totalFrom = files?.index?.totalSize ? 'total_size' : localTotal !== null ? 'shards' : 'shapes';
  const total = localTotal ?? split?.estimatedTotalBytes ?? 0;
  const share = split?.shareOfTotal ?? null;
  const bytes = share !== null ? total * share : total / even;
  const splitText = share !== null ? `split as vLLM shards each part (TP ${layout.tp}${plan.ep > 0 ? `, experts over EP ${plan.ep}` : ''}${layout.pp > 1 ? `, PP ${layout.pp}` : ''}${plan.mtp ? ', MTP layers loaded' : ''})` : `divided evenly over ${even} NPUs`;
  const totalText = totalFrom === 'total_size' ? `${files!.index!.name} total_size` : totalFrom === 'shards' ? 'the shards on disk' : 'the parameter count of the config';
  return { bytes, how: totalFrom === 'shapes' || share === null ? 'estimate' : 'exact', from: `${totalText}, ${splitText}`, totalBytes: total, totalFrom, share, mtpLoaded: plan.mtp };
}

function devicePlans(devices: NpuDevice[], family: NpuFamily, inputs: Omit<Parameters<typeof kvBudget>[0], 'visibleBytes' | 'inUseBytes' | 'family'>): DevicePlan[] {
  return devices.map((d) => {
    const memory = d.memory!;
    const visible = visibleMemoryOf(family, memory.totalMB);
    const inUse = Math.max(0, memory.usedMB - visible.reserveMiB) * MiB;
    return { device: d.device, npuSmiTotalMB: memory.totalMB, npuSmiUsedMB: memory.usedMB, visible, inUseBytes: inUse, budget: kvBudget({ ...inputs, family, visibleBytes: visible.bytes, inUseBytes: inUse }) };
  });
}

function maxModelLenOf(settings: FitSettings, shape: ModelShape | null, basis: FitBasis, fromBuiltin: boolean): FitPlan['maxModelLen'] {
  if (settings.maxModelLen === 'auto') return { value: null, from: 'auto' };
  if (settings.maxModelLen !== null) return { value: settings.maxModelLen, from: 'flag' };
  if (shape?.maxPositions) return { value: shape.maxPositions, from: basis === 'config.json' && !fromBuiltin ? 'config.json' : 'builtin' };
  return { value: null, from: 'unknown' };
}

/**
 * The hybrid block rule of the release: K-only alignment from vllm-ascend v0.16.0rc1 on A2 / A3,
 * K+V before it and on 310P (patch_mamba_config.py, patch_mamba_config_310.py).
 */
function alignmentOf(version: VersionTriple | undefined, family: NpuFamily): HybridAlignment {
  if (family === '310p') return 'k+v';
  if (version !== undefined && (version.major === 0 && version.minor < 16)) return 'k+v';
  return 'k-only';
}

function kvOf(shape: ModelShape, missing: string[], layout: Parallelism, settings: FitSettings, alignment: HybridAlignment, kvBytes: number, maxModelLen: number | null): FitPlan['kv'] {
  if (missing.length > 0) return null;
  const mtp = /mtp/i.test(settings.speculative?.method ?? '');
  const modelDtype = 2;
  const ssmName = settings.mambaSsmDtype === 'auto' ? shape.ssmDtype : settings.mambaSsmDtype;
  const stage = layout.pp > 1 ? { ...shape, layerKinds: shape.layerKinds.slice(0, Math.ceil(shape.layers / layout.pp)) } : shape;
  const kvLayoutResult = kvLayout({
    shape: stage,
    tp: layout.tp,
    contextParallel: layout.pcp * settings.decodeContextParallel,
    blockSize: settings.blockSize,
    kvDtypeBytes: settings.kvDtypeBytes,
    kvScaleBytes: settings.kvScaleBytes,
    ssmDtypeBytes: dtypeBytes(ssmName) ?? modelDtype,
    convDtypeBytes: settings.mambaConvDtype === 'auto' ? modelDtype : (dtypeBytes(settings.mambaConvDtype) ?? modelDtype),
    draftLayers: mtp ? (shape.mtpLayers ?? 1) : 0,
    speculativeTokens: settings.speculative?.tokens ?? 0,
    mambaCacheMode: settings.mambaCacheMode,
    hybridAlignment: alignment,
    hybridManager: settings.hybridManager,
    maxNumBatchedTokens: settings.maxNumBatchedTokens,
  });
  const capacity = maxModelLen !== null ? kvCapacity(kvLayoutResult, Math.max(0, kvBytes), maxModelLen, layout.pcp * settings.decodeContextParallel, settings.numGpuBlocksOverride ?? undefined) : null;
  return { layout: kvLayoutResult, capacity };
}

function mc2Of(shape: ModelShape | null, layout: Parallelism, settings: FitSettings): FitPlan['mc2'] {
  if (!shape?.moe || !settings.expertParallel || shape.hidden === null) return null;
  const epWorldSize = layout.tp * layout.dp * layout.pcp;
  if (epWorldSize <= 1) return null;
  const step = 1 + (settings.speculative?.tokens ?? 0);
  const maxNumTokens = settings.prefillMc2 ? settings.maxNumBatchedTokens : settings.captureSizes.length > 0 ? Math.max(...settings.captureSizes) : settings.maxNumSeqs * step;
  const need = mc2Need({ hidden: shape.hidden, topK: shape.moe.topK, experts: shape.moe.experts, epWorldSize, maxBs: mc2MaxBs(maxNumTokens, layout.tp) });
  return { ...need, epWorldSize, maxNumTokens, buffsizeMB: settings.hcclBuffsizeMB };
}

function nonTorchFrom(layout: Parallelism, ep: number, mc2: boolean, buffsizeMB: number): string {
  const parts = ['0.15 GiB context'];
  if (layout.tp > 1) parts.push('2 x 200 MB for the TP group');
  if (ep > 1) parts.push('2 x 200 MB for the EP group');
  if (layout.dp > 1) parts.push('2 x 50 MB for the DP group');
  if (mc2) parts.push(`2 x HCCL_BUFFSIZE ${buffsizeMB} MB for the mc2 group`);
  return parts.join(' + ');
}

/** The config.json keys that size the KV cache: from the table, they make the plan an estimate. */
const KV_KEYS = new Set([
  'num_hidden_layers', 'num_attention_heads', 'num_key_value_heads', 'head_dim', 'hidden_size', 'kv_lora_rank', 'qk_rope_head_dim', 'layer_types',
  'full_attention_interval', 'linear_num_key_heads', 'linear_key_head_dim', 'linear_num_value_heads', 'linear_value_head_dim', 'linear_conv_kernel_dim',
  'mamba_ssm_dtype', 'sliding_window', 'num_nextn_predict_layers', 'mtp_num_hidden_layers', 'max_position_embeddings',
]);

async function assemble(ctx: CheckContext, view: LaunchView): Promise<FitPlan | FitProblem> {
  const args = view.serve!.parsed;
  const model = await resolveModel(ctx, view);
  if (!model) return { kind: 'no-model' };
  const layout = parallelism(args);
  if (layout.unknowns.length > 0 || layout.problems.length > 0) return { kind: 'caller-sizes' };
  const inventory = await npuInventory(ctx);
  if (!inventory.ok) return { kind: 'no-npu', problem: inventory.problem.message };
  const devices = usedDevices(view, inventory.devices, layout.perNode);
  if (devices.length === 0) return { kind: 'no-memory-size' };
  const family = inventory.family !== 'unknown' ? inventory.family : ctx.profile.npu.family === 'any' ? 'unknown' : ctx.profile.npu.family;
  const settings = readFitSettings(args, view.env);
  const { config, basis, builtin } = configFor(model);
  const reading = shapeOf(config, { hybrid: isHybridModel(model.identity.modelType, model.identity.id ?? model.identity.name) });
  const shape = reading.shape;
  const missing = shape ? reading.missing : reading.missing.length > 0 ? reading.missing : ['num_hidden_layers'];
  const builtinSources: Record<string, KnowledgeSource> = {};
  for (const [key, source] of Object.entries(builtin?.sources ?? {})) if (!model.config || !(key in model.config)) builtinSources[key] = source;
  const usesBuiltin = basis === 'builtin' || Object.keys(builtinSources).some((key) => KV_KEYS.has(key));
  const vllmAscend = await vllmAscendVersion(ctx, view);
  const weights = weightsTerm(model, shape, layout, settings);
  const mc2 = mc2Of(shape, layout, settings);
  const activation = activationEstimate(settings.maxNumBatchedTokens, shape?.hidden ?? null);
  const ep = settings.expertParallel && shape?.moe ? layout.tp * layout.dp * layout.pcp : 0;
  const nonTorch = nonTorchEstimate({ tp: layout.tp, dp: layout.dp, ep, mc2: mc2 !== null, hcclBuffsizeMB: settings.hcclBuffsizeMB });
  const plans0 = devicePlans(devices, family, { version: vllmAscend?.parsed, utilization: settings.utilization, kvCacheMemoryBytes: settings.kvCacheMemoryBytes, weightsBytes: weights.bytes, activationBytes: activation, nonTorchBytes: nonTorch.bytes, graphBytes: 0 });
  const graphOn = plans0[0]!.budget.formula === 'v0.21-v0.22' && settings.graphProfiling && settings.captureSizes.length > 0;
  const graph = graphOn ? graphMemoryEstimate(plans0[0]!.visible.bytes) : 0;
  const plans = graph > 0 ? devicePlans(devices, family, { version: vllmAscend?.parsed, utilization: settings.utilization, kvCacheMemoryBytes: settings.kvCacheMemoryBytes, weightsBytes: weights.bytes, activationBytes: activation, nonTorchBytes: nonTorch.bytes, graphBytes: graph }) : plans0;
  const device = plans.reduce((a, b) => (b.budget.kvBytes < a.budget.kvBytes ? b : a));
  const maxModelLen = maxModelLenOf(settings, shape, basis, 'max_position_embeddings' in builtinSources);
  const kv = shape ? kvOf(shape, missing, layout, settings, alignmentOf(vllmAscend?.parsed, family), device.budget.kvBytes, maxModelLen.value) : null;
  return {
    model,
    basis: usesBuiltin ? 'builtin' : 'config.json',
    builtin,
    builtinSources,
    shape,
    missing,
    layout,
    settings,
    family,
    driverVersion: inventory.driverVersion ?? inventory.toolVersion,
    vllmAscend,
    device,
    devices: plans,
    weights,
    activation: { bytes: activation, how: 'estimate', from: `max_num_batched_tokens ${settings.maxNumBatchedTokens} x hidden ${shape?.hidden ?? '4096 (assumed)'} x 2 B x 20, within 0.25-4 GiB`, maxNumBatchedTokens: settings.maxNumBatchedTokens, hidden: shape?.hidden ?? null },
    nonTorch: { ...nonTorch, how: 'estimate', from: nonTorchFrom(layout, ep, mc2 !== null, settings.hcclBuffsizeMB) },
    graph: { bytes: graph, how: 'estimate', from: graph > 0 ? '3.53 % of the device (ACL graph profiling of vllm-ascend v0.21-v0.22)' : 'not taken off by this release' },
    maxModelLen,
    kv,
    mc2,
    streams: shape ? streamBudget({ layers: shape.layers, draftLayers: /mtp/i.test(settings.speculative?.method ?? '') ? (shape.mtpLayers ?? 1) : 0, layout, settings, moe: shape.moe !== null }) : null,
  };
}

/** The plan of the judged script's server, once per run; a problem when it cannot be made. */
export function fitPlan(ctx: CheckContext, view: LaunchView): Promise<FitPlan | FitProblem> {
  return ctx.shared(`fit-plan:${view.input.file}`, () => assemble(ctx, view));
}

export function isPlan(plan: FitPlan | FitProblem): plan is FitPlan {
  return 'model' in plan;
}
