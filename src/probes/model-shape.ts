import { configValue } from './model-resolve.js';

/**
 * What the memory plan needs of a model, read from its config.json (or the built-in table's
 * values under the same names): the attention of each layer, the linear-attention state of
 * hybrid models, the MoE and dense sizes, the dtype. Pure.
 *
 * The names are those of Hugging Face configs as vLLM reads them (vllm/config/model.py
 * get_head_size, get_total_num_kv_heads, get_num_layers): head_dim else hidden_size /
 * num_attention_heads; the first of num_key_value_heads, n_head_kv, num_kv_heads,
 * multi_query_group_num, else num_attention_heads; MLA when kv_lora_rank is set.
 */

type Json = Record<string, unknown>;

export type LayerKind = 'full' | 'sliding' | 'linear';

export interface LinearAttentionShape {
  keyHeads: number;
  keyDim: number;
  valueHeads: number;
  valueDim: number;
  convKernel: number;
}

export interface MlaShape {
  kvLoraRank: number;
  ropeDim: number;
  qLoraRank: number | null;
  nopeDim: number;
  valueDim: number;
}

export interface MoeShape {
  experts: number;
  topK: number;
  intermediate: number;
  /** all shared experts of a layer together (shared_expert_intermediate_size, or n_shared_experts x moe_intermediate_size) */
  sharedIntermediate: number;
  /** the first layers that are dense (first_k_dense_replace) */
  firstDense: number;
}

export interface ModelShape {
  layers: number;
  hidden: number | null;
  heads: number;
  kvHeads: number;
  headDim: number;
  mla: MlaShape | null;
  /** the kind of every decoder layer, in order */
  layerKinds: LayerKind[];
  linear: LinearAttentionShape | null;
  slidingWindow: number | null;
  /** torch_dtype (or dtype) of the checkpoint; null when config.json does not say */
  dtype: string | null;
  /** mamba_ssm_dtype (Qwen3.5 sets float32) */
  ssmDtype: string | null;
  intermediate: number | null;
  moe: MoeShape | null;
  vocab: number | null;
  tiedEmbeddings: boolean;
  /** MTP layers the checkpoint carries (num_nextn_predict_layers, mtp_num_hidden_layers) */
  mtpLayers: number | null;
  /**
   * each MTP layer carries its own copy of the embedding and the output head (DeepSeek's
   * num_nextn_predict_layers: embed_tokens and shared_head "share parameters" with the main
   * model's, yet are stored again, deepseek-ai/DeepSeek-V3 README_WEIGHTS.md: 671B + 14B MTP)
   */
  mtpOwnVocab: boolean;
  /** gated attention: q_proj also yields the output gate (Qwen3-Next, Qwen3.5) */
  attentionOutputGate: boolean;
  maxPositions: number | null;
  modelType: string | null;
}

export interface ShapeReading {
  /** null when not even the layers and heads are known */
  shape: ModelShape | null;
  /** config.json keys the KV cache needs and the config lacks: with any, the KV cache is not sized */
  missing: string[];
}

function num(config: Json, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = configValue(config, key);
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  }
  return undefined;
}

function text(config: Json, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = configValue(config, key);
    if (typeof value === 'string') return value;
  }
  return null;
}

/**
 * Hybrid models: layer_types, else full attention every full_attention_interval-th layer
 * (Qwen3-Next). A model known to be hybrid (`hybrid`: its model_type or name says Qwen3-Next or
 * Qwen3.5) without either leaves its layout unknown: the key is missing.
 */
function layerKindsOf(config: Json, layers: number, hybrid: boolean, missing: string[]): LayerKind[] {
  const types = configValue(config, 'layer_types');
  if (Array.isArray(types) && types.length === layers && types.every((t) => typeof t === 'string')) {
    return (types).map((t) => (/linear/.test(t) ? 'linear' : /sliding/.test(t) ? 'sliding' : 'full'));
  }
  const interval = num(config, 'full_attention_interval');
  if (interval !== undefined && interval >= 1) return [...Array(layers).keys()].map((i) => ((i + 1) % interval === 0 ? 'full' : 'linear'));
  if (hybrid) missing.push('full_attention_interval');
  const window = num(config, 'sliding_window');
  if (window !== undefined && configValue(config, 'use_sliding_window') === true) return Array<LayerKind>(layers).fill('sliding');
  return Array<LayerKind>(layers).fill('full');
}

function linearOf(config: Json, missing: string[]): LinearAttentionShape | null {
  const keyHeads = num(config, 'linear_num_key_heads');
  const keyDim = num(config, 'linear_key_head_dim');
  const valueHeads = num(config, 'linear_num_value_heads');
  const valueDim = num(config, 'linear_value_head_dim');
  const convKernel = num(config, 'linear_conv_kernel_dim');
  const named = { linear_num_key_heads: keyHeads, linear_key_head_dim: keyDim, linear_num_value_heads: valueHeads, linear_value_head_dim: valueDim, linear_conv_kernel_dim: convKernel };
  const absent = Object.entries(named).filter(([, v]) => v === undefined).map(([k]) => k);
  if (absent.length > 0) {
    missing.push(...absent);
    return null;
  }
  return { keyHeads: keyHeads!, keyDim: keyDim!, valueHeads: valueHeads!, valueDim: valueDim!, convKernel: convKernel! };
}

function moeOf(config: Json): MoeShape | null {
  const experts = num(config, 'num_experts', 'n_routed_experts', 'num_local_experts');
  const intermediate = num(config, 'moe_intermediate_size');
  if (!experts || !intermediate) return null;
  const shared = num(config, 'shared_expert_intermediate_size') ?? (num(config, 'n_shared_experts') ?? 0) * intermediate;
  return { experts, topK: num(config, 'num_experts_per_tok') ?? 0, intermediate, sharedIntermediate: shared, firstDense: num(config, 'first_k_dense_replace') ?? 0 };
}

function mlaOf(config: Json): MlaShape | null {
  const kvLoraRank = num(config, 'kv_lora_rank');
  if (!kvLoraRank) return null;
  return {
    kvLoraRank,
    ropeDim: num(config, 'qk_rope_head_dim') ?? 0,
    qLoraRank: num(config, 'q_lora_rank') ?? null,
    nopeDim: num(config, 'qk_nope_head_dim') ?? 0,
    valueDim: num(config, 'v_head_dim') ?? 0,
  };
}

/** Whether a model is a hybrid of linear and full attention by its model_type, or its name when config.json says nothing. */
export function isHybridModel(modelType: string | null, name: string): boolean {
  if (modelType !== null) return /^qwen3_(next|5)/.test(modelType);
  return /qwen3[._-]?(next|5)/i.test(name);
}

/** The shape of a model from config.json's values, with the keys it lacks to size the KV cache. */
export function shapeOf(config: Json, options: { hybrid?: boolean } = {}): ShapeReading {
  const missing: string[] = [];
  const layers = num(config, 'num_hidden_layers', 'n_layers', 'num_layers');
  const heads = num(config, 'num_attention_heads', 'n_head', 'n_heads');
  const hidden = num(config, 'hidden_size', 'd_model', 'dim') ?? null;
  if (layers === undefined) missing.push('num_hidden_layers');
  if (heads === undefined) missing.push('num_attention_heads');
  const mla = mlaOf(config);
  const headDim = num(config, 'head_dim') ?? (hidden !== null && heads ? hidden / heads : undefined);
  if (!mla && headDim === undefined) missing.push('head_dim');
  if (layers === undefined || heads === undefined || (!mla && headDim === undefined)) return { shape: null, missing };
  const kvHeads = num(config, 'num_key_value_heads', 'n_head_kv', 'num_kv_heads', 'multi_query_group_num') ?? heads;
  const type = text(config, 'model_type');
  const layerKinds = layerKindsOf(config, layers, options.hybrid ?? isHybridModel(type, ''), missing);
  const linear = layerKinds.includes('linear') || missing.includes('full_attention_interval') ? linearOf(config, missing) : null;
  const shape: ModelShape = {
    layers,
    hidden,
    heads,
    kvHeads,
    headDim: headDim ?? 0,
    mla,
    layerKinds,
    linear,
    slidingWindow: num(config, 'sliding_window') ?? null,
    dtype: text(config, 'torch_dtype', 'dtype'),
    ssmDtype: text(config, 'mamba_ssm_dtype'),
    intermediate: num(config, 'intermediate_size', 'ffn_hidden_size', 'inter_dim') ?? null,
    moe: moeOf(config),
    vocab: num(config, 'vocab_size') ?? null,
    tiedEmbeddings: configValue(config, 'tie_word_embeddings') === true,
    mtpLayers: num(config, 'num_nextn_predict_layers', 'mtp_num_hidden_layers') ?? null,
    mtpOwnVocab: (num(config, 'num_nextn_predict_layers') ?? 0) > 0,
    attentionOutputGate: configValue(config, 'attn_output_gate') === true || /^qwen3_(next|5)/.test(type ?? ''),
    maxPositions: num(config, 'max_position_embeddings') ?? null,
    modelType: type,
  };
  return { shape, missing };
}

/** Bytes of one element of a dtype as vLLM and torch name it; undefined for a name it does not know. */
export function dtypeBytes(dtype: string | null | undefined): number | undefined {
  if (!dtype) return undefined;
  const name = dtype.replace(/^torch\./, '').toLowerCase();
  if (/^(float32|fp32|float)$/.test(name)) return 4;
  if (/^(bfloat16|bf16|float16|fp16|half)$/.test(name)) return 2;
  if (/^(int8|uint8|fp8|fp8_e4m3|fp8_e5m2|float8_e4m3fn|float8_e5m2)/.test(name)) return 1;
  return undefined;
}
