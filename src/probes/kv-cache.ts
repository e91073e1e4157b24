import type { LayerKind, ModelShape } from './model-shape.js';

/**
 * The KV cache as vLLM lays it out on one rank, from the model's shape and the launch flags, and
 * what a given KV budget holds: blocks, tokens, requests of max-model-len. Pure.
 *
 * Sources (read for this; the commits are those of the copies read):
 * - vllm-project/vllm vllm/v1/kv_cache_interface.py @001cabc1be16a59a70d720ed61a13b678c060a18:
 *   FullAttentionSpec page = block x kv_heads x (head_size + head_size_v) x dtype; MLAAttentionSpec
 *   one latent (kv_lora_rank + qk_rope_head_dim) per token and head, kv_heads 1; SlidingWindowSpec
 *   max usage (cdiv(min(window - 1 + max_num_batched_tokens, max_model_len), block) + 1) pages;
 *   MambaSpec page = the state's bytes, max usage (1 + num_speculative_blocks) pages (mode
 *   "align": 2 +, "all": cdiv(max_model_len, block)).
 * - vllm-project/vllm vllm/v1/core/kv_cache_utils.py @001cabc1be16a59a70d720ed61a13b678c060a18:
 *   get_num_blocks = available // page // layers; the hybrid groups of one page size
 *   (_get_kv_cache_groups_uniform_page_size: group size the smallest layer count of a type, the
 *   largest when it is under 1.5 x the smallest); _check_enough_kv_cache_memory (the refusal of a
 *   max-model-len one request cannot fill); _report_kv_cache_config: "GPU KV cache size" =
 *   num_blocks // groups x block, "Maximum concurrency" = num_blocks / the blocks of one request.
 * - vllm-project/vllm vllm/config/model.py get_num_kv_heads: max(1, kv_heads // TP), 1 for MLA.
 * - vllm-project/vllm vllm/model_executor/layers/mamba/mamba_utils.py @02d710837549a368073552333f66d714477415d2
 *   gated_delta_net_state_shape: conv (conv_dim / TP, kernel - 1 + num_spec), ssm
 *   (value_heads / TP, value_dim, key_dim), conv_dim = key_dim x key_heads x 2 + value_dim x value_heads.
 * - vllm-project/vllm-ascend vllm_ascend/patch/platform/patch_mamba_config.py: the hybrid block
 *   size. @182b75ea84ff13ece27b57391331ef8935410aea (from v0.16.0rc1): block = 128 x cdiv(ssm page,
 *   128 x one token's K), every page = block x one token's K+V + the conv state. @6281c1207a7a
 *   (v0.13.0, and to v0.15): block = 128 x cdiv(conv + ssm, 128 x one token's K+V), page = block x
 *   K+V. The 310P patch (patch_mamba_config_310.py) keeps the K+V rule.
 */

export type HybridAlignment = 'k-only' | 'k+v';
export type MambaCacheMode = 'none' | 'align' | 'all';

export interface KvInputs {
  shape: ModelShape;
  tp: number;
  /** prefill and decode context parallel sizes: the cache of one request is spread over them */
  contextParallel: number;
  /** --block-size, or null for the platform's (128 on Ascend: vllm_ascend/utils.py refresh_block_size) */
  blockSize: number | null;
  /** bytes of one K or V element: --kv-cache-dtype, or the model's dtype with auto */
  kvDtypeBytes: number;
  /** fp32 scales of the *_per_token_head cache dtypes, per token and head, K and V each */
  kvScaleBytes: number;
  ssmDtypeBytes: number;
  convDtypeBytes: number;
  /** full-attention layers the MTP drafter adds to the cache (vLLM registers them in the same forward context) */
  draftLayers: number;
  /** num_speculative_tokens */
  speculativeTokens: number;
  mambaCacheMode: MambaCacheMode;
  hybridAlignment: HybridAlignment;
  /** false with --disable-hybrid-kv-cache-manager: sliding layers cost the full length */
  hybridManager: boolean;
  maxNumBatchedTokens: number;
}

export interface KvGroup {
  kind: LayerKind;
  /** layers of this kind (group count = cdiv(layers, group size)) */
  layers: number;
  groups: number;
}

export interface KvLayout {
  blockSize: number;
  /** bytes of one block of one layer: the same for every layer once padded */
  pageBytes: number;
  /** layers that share one block id (the tensors of the cache): all layers for a uniform model */
  groupSize: number;
  kinds: KvGroup[];
  /** the KV bytes of one token on this rank, summed over the layers that hold per-token KV */
  bytesPerToken: number;
  /** the linear-attention state of one sequence on this rank (conv + SSM, every linear layer), 0 for other models */
  stateBytesPerSequence: number;
  /** KV heads per rank (1 for MLA, never below 1: heads are replicated when TP exceeds them) */
  kvHeadsPerRank: number;
  /** vllm-ascend refuses the model: the SSM state does not fill whole K pages ("Cannot align ssm_page_size and attn_page_size.") */
  alignmentError: string | null;
  /** the blocks of one request of a given length */
  blocksPerRequest: (maxModelLen: number) => number;
}

const cdiv = (a: number, b: number) => Math.ceil(a / b);
const ASCEND_BLOCK = 128;

function kvHeadsPerRank(shape: ModelShape, tp: number): number {
  return shape.mla ? 1 : Math.max(1, Math.floor(shape.kvHeads / tp));
}

/** K+V bytes of one token in one attention layer, and K alone (MLA: the latent and the rope part). */
function tokenBytes(shape: ModelShape, inputs: KvInputs): { kv: number; k: number } {
  const heads = kvHeadsPerRank(shape, inputs.tp);
  if (shape.mla) {
    return { kv: (shape.mla.kvLoraRank + shape.mla.ropeDim) * heads * inputs.kvDtypeBytes, k: shape.mla.kvLoraRank * heads * inputs.kvDtypeBytes };
  }
  const k = shape.headDim * heads * inputs.kvDtypeBytes;
  return { kv: 2 * k + 2 * heads * inputs.kvScaleBytes, k };
}

/** The conv and SSM state of one linear-attention layer of one sequence on this rank. */
function mambaStates(shape: ModelShape, inputs: KvInputs): { conv: number; ssm: number } {
  const linear = shape.linear!;
  const convDim = linear.keyDim * linear.keyHeads * 2 + linear.valueDim * linear.valueHeads;
  const conv = (convDim / inputs.tp) * (linear.convKernel - 1 + inputs.speculativeTokens) * inputs.convDtypeBytes;
  const ssm = (linear.valueHeads / inputs.tp) * linear.valueDim * linear.keyDim * inputs.ssmDtypeBytes;
  return { conv, ssm };
}

/** vLLM's group size: the smallest layer count of a kind, the largest when it is under 1.5 x the smallest. */
function groupSizeOf(counts: number[]): number {
  const min = Math.min(...counts);
  const max = Math.max(...counts);
  return max < min * 1.5 ? max : min;
}

/** The layers of each kind that hold a cache: the model's, with the drafter's full-attention layers. */
function layerCounts(inputs: KvInputs): Map<LayerKind, number> {
  const kinds = inputs.shape.layerKinds.map((k) => (k === 'sliding' && !inputs.hybridManager ? 'full' : k));
  const counts = new Map<LayerKind, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  if (inputs.draftLayers > 0) counts.set('full', (counts.get('full') ?? 0) + inputs.draftLayers);
  return counts;
}

function hybridBlock(inputs: KvInputs, token: { kv: number; k: number }, states: { conv: number; ssm: number }): { block: number; page: number; error: string | null } {
  const user = inputs.blockSize;
  if (inputs.hybridAlignment === 'k-only') {
    const aligned = ASCEND_BLOCK * cdiv(states.ssm, ASCEND_BLOCK * token.k);
    const error = token.k * aligned === states.ssm ? null : 'Cannot align ssm_page_size and attn_page_size.';
    const block = user === null || user < aligned ? aligned : user;
    return { block, page: block * token.kv + states.conv, error };
  }
  const aligned = ASCEND_BLOCK * cdiv(states.conv + states.ssm, ASCEND_BLOCK * token.kv);
  const block = user === null || user < aligned ? aligned : user;
  return { block, page: block * token.kv, error: null };
}

export function kvLayout(inputs: KvInputs): KvLayout {
  const { shape } = inputs;
  const token = tokenBytes(shape, inputs);
  const counts = layerCounts(inputs);
  const attentionLayers = (counts.get('full') ?? 0) + (counts.get('sliding') ?? 0);
  const linearLayers = counts.get('linear') ?? 0;
  const heads = kvHeadsPerRank(shape, inputs.tp);
  let block = inputs.blockSize ?? ASCEND_BLOCK;
  let page = block * token.kv;
  let stateBytes = 0;
  let error: string | null = null;
  if (linearLayers > 0 && shape.linear) {
    const states = mambaStates(shape, inputs);
    ({ block, page, error } = hybridBlock(inputs, token, states));
    stateBytes = (states.conv + states.ssm) * linearLayers;
  }
  const kinds = [...counts.entries()].filter(([, n]) => n > 0);
  const uniform = kinds.length === 1;
  const groupSize = uniform ? kinds[0]![1] : groupSizeOf(kinds.map(([, n]) => n));
  const groups = kinds.map(([kind, layers]) => ({ kind, layers, groups: uniform ? 1 : cdiv(layers, groupSize) }));
  const window = shape.slidingWindow ?? 0;
  const ownLen = (len: number) => cdiv(len, inputs.contextParallel);
  const blocksOf = (group: KvGroup, len: number): number => {
    if (group.kind === 'linear') {
      if (inputs.mambaCacheMode === 'all') return cdiv(ownLen(len), block);
      return (inputs.mambaCacheMode === 'align' ? 2 : 1) + inputs.speculativeTokens;
    }
    if (group.kind === 'sliding') return cdiv(Math.min(window - 1 + inputs.maxNumBatchedTokens, ownLen(len)), block) + 1;
    return cdiv(ownLen(len), block);
  };
  return {
    blockSize: block,
    pageBytes: page,
    groupSize,
    kinds: groups,
    bytesPerToken: token.kv * attentionLayers,
    stateBytesPerSequence: stateBytes,
    kvHeadsPerRank: heads,
    alignmentError: error,
    blocksPerRequest: (len) => groups.reduce((sum, g) => sum + g.groups * blocksOf(g, len), 0),
  };
}

export interface KvCapacity {
  blocks: number;
  /** vLLM's "GPU KV cache size": blocks // groups x block (x context parallel) */
  tokens: number;
  /** vLLM's "Maximum concurrency for max-model-len tokens per request" */
  concurrency: number;
  /** the KV memory one request of max-model-len needs (vLLM's refusal when over the budget) */
  neededBytes: number;
  /** the longest max-model-len the budget holds one request of (vLLM's own estimate in its refusal), 0 when none */
  maxModelLenThatFits: number;
}

/** What a KV budget per rank holds (vLLM takes the smallest over the ranks). */
export function kvCapacity(layout: KvLayout, availableBytes: number, maxModelLen: number, contextParallel = 1, blocksOverride?: number): KvCapacity {
  const groupsTotal = layout.kinds.reduce((sum, g) => sum + g.groups, 0);
  const blocks = blocksOverride ?? Math.max(0, Math.floor(availableBytes / layout.pageBytes / layout.groupSize));
  const needed = (len: number) => layout.groupSize * layout.pageBytes * layout.blocksPerRequest(len);
  let low = 0;
  let high = maxModelLen;
  if (needed(high) <= availableBytes) low = high;
  else {
    // the largest length one request fits in, as vLLM's estimate_max_model_len searches it
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (needed(mid) <= availableBytes) low = mid;
      else high = mid - 1;
    }
  }
  return {
    blocks,
    tokens: Math.floor(blocks / groupsTotal) * layout.blockSize * contextParallel,
    concurrency: blocks / layout.blocksPerRequest(maxModelLen),
    neededBytes: needed(maxModelLen),
    maxModelLenThatFits: availableBytes > 0 ? low : 0,
  };
}
