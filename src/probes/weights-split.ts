import type { ModelShape } from './model-shape.js';

/**
 * The weights one rank loads: the checkpoint's bytes split as vLLM shards each part. Pure.
 *
 * vLLM's layers (vllm/model_executor/layers/linear.py, vocab_parallel_embedding.py, fused_moe):
 * the embedding and lm_head are split by vocabulary over TP; q/o projections, dense MLPs, shared
 * experts and linear attention over TP; k/v projections over TP down to one KV head per rank
 * (replicated below that); MLA's q_a / kv_a projections are replicated (ReplicatedLinear), q_b /
 * kv_b / o over TP; routed experts over the expert-parallel group (DP x TP) with
 * --enable-expert-parallel, else over TP; the router and the norms are replicated. Pipeline
 * stages split the layers; the first holds the embedding, the last the lm_head. MTP layers are
 * loaded only with an MTP drafter; a DeepSeek-style MTP layer's own embedding and head (stored in
 * the checkpoint) as well, unless the release's drafter shares the target's: vllm-ascend's
 * MtpProposer builds its own VocabParallelEmbedding and ParallelLMHead up to v0.11.x and takes the
 * target's from v0.12.0rc1 (vllm_ascend/spec_decode/mtp_proposer.py load_model at v0.11.0 and
 * v0.12.0rc1).
 *
 * The split is computed on parameter counts from the shape; the checkpoint's real bytes
 * (model.safetensors.index.json's total_size, or the shards) are then spread in the same
 * proportions, so that what the shapes miss (vision towers, quantization scales) is spread too.
 */

export interface SplitPlan {
  tp: number;
  pp: number;
  /** the expert-parallel group (DP x TP), or 0 without --enable-expert-parallel */
  ep: number;
  /** an MTP drafter loads the MTP layers */
  mtp: boolean;
  /** the drafter takes the target's embedding and head instead of loading the MTP layer's own */
  mtpSharesVocab: boolean;
  /** bytes of one parameter of the linear layers: 1 for int8 (W8A8) and fp8 checkpoints, else the dtype's */
  linearBytes: number;
  /** bytes of one parameter of the embedding, lm_head, norms and router */
  otherBytes: number;
}

interface Part {
  /** parameters in the whole checkpoint */
  params: number;
  /** bytes per parameter */
  bytes: number;
  /** parameters of this part one rank holds */
  perRank: number;
  /** loaded at all (MTP layers without the drafter are not) */
  loaded: boolean;
}

export interface WeightsSplit {
  /** the checkpoint's bytes as the shapes count them */
  estimatedTotalBytes: number;
  /**
   * what a rank holds beyond its share of the checkpoint: MLA's W_UK_T and W_UV, the 16-bit
   * copies of kv_b_proj vLLM and vllm-ascend derive after loading and keep beside it ("we just
   * store fp16/bf16 copies", vllm_ascend/attention/mla_v1.py process_weights_after_loading at
   * v0.11.0rc0; vllm/model_executor/layers/attention/mla_attention.py likewise)
   */
  derivedBytesPerRank: number;
  /** the share of the checkpoint one rank holds, 0..1 */
  shareOfTotal: number;
  /** bytes one rank holds when the checkpoint is the estimated size */
  estimatedBytesPerRank: number;
}

function attentionParams(shape: ModelShape, hidden: number, tp: number): { total: number; perRank: number } {
  const { heads } = shape;
  if (shape.mla) {
    const m = shape.mla;
    const qA = m.qLoraRank !== null ? hidden * m.qLoraRank : 0;
    const qB = (m.qLoraRank ?? hidden) * heads * (m.nopeDim + m.ropeDim);
    const kvA = hidden * (m.kvLoraRank + m.ropeDim);
    const kvB = m.kvLoraRank * heads * (m.nopeDim + m.valueDim);
    const o = heads * m.valueDim * hidden;
    return { total: qA + qB + kvA + kvB + o, perRank: qA + kvA + (qB + kvB + o) / tp };
  }
  const hd = shape.headDim;
  const q = hidden * heads * hd * (shape.attentionOutputGate ? 2 : 1);
  const o = heads * hd * hidden;
  const kv = 2 * hidden * shape.kvHeads * hd;
  const kvPerRank = shape.kvHeads >= tp ? kv / tp : kv / shape.kvHeads;
  return { total: q + o + kv, perRank: (q + o) / tp + kvPerRank };
}

function linearAttentionParams(shape: ModelShape, hidden: number): number {
  const l = shape.linear!;
  const k = l.keyHeads * l.keyDim;
  const v = l.valueHeads * l.valueDim;
  // qkv and z in, b and a gates, out; the depthwise conv over q, k, v
  return hidden * (2 * k + v) + hidden * v + 2 * hidden * l.valueHeads + v * hidden + (2 * k + v) * l.convKernel;
}

/** One decoder layer's MLP: dense, or routed + shared experts and the router. */
function mlpParts(shape: ModelShape, hidden: number, layer: number): { dense: number; experts: number; shared: number; router: number } {
  const moe = shape.moe;
  if (moe && layer >= moe.firstDense) {
    return { dense: 0, experts: moe.experts * 3 * hidden * moe.intermediate, shared: 3 * hidden * moe.sharedIntermediate, router: hidden * moe.experts };
  }
  return { dense: 3 * hidden * (shape.intermediate ?? 0), experts: 0, shared: 0, router: 0 };
}

function parts(shape: ModelShape, plan: SplitPlan): Part[] {
  const hidden = shape.hidden!;
  const tp = plan.tp;
  const expertDivisor = plan.ep > 0 ? plan.ep : tp;
  const list: Part[] = [];
  const add = (params: number, bytes: number, divisor: number, loaded = true, perRank?: number) => list.push({ params, bytes, perRank: perRank ?? params / divisor, loaded });
  const layerParts = (kind: 'full' | 'sliding' | 'linear', index: number, loaded: boolean, stages: number) => {
    if (kind === 'linear' && shape.linear) add(linearAttentionParams(shape, hidden), plan.linearBytes, tp * stages, loaded);
    else {
      const attention = attentionParams(shape, hidden, tp);
      add(attention.total, plan.linearBytes, 1, loaded, attention.perRank / stages);
    }
    const mlp = mlpParts(shape, hidden, index);
    add(mlp.dense, plan.linearBytes, tp * stages, loaded);
    add(mlp.experts, plan.linearBytes, expertDivisor * stages, loaded);
    add(mlp.shared, plan.linearBytes, tp * stages, loaded);
    add(mlp.router, plan.otherBytes, stages, loaded);
  };
  shape.layerKinds.forEach((kind, i) => layerParts(kind, i, true, plan.pp));
  // the MTP layers: a full-attention decoder layer (with the MLP of the last layers) and its 2h -> h projection
  for (let i = 0; i < (shape.mtpLayers ?? 0); i++) {
    layerParts('full', shape.layers, plan.mtp, 1);
    add(2 * hidden * hidden, plan.linearBytes, 1, plan.mtp);
    if (shape.mtpOwnVocab) add(2 * (shape.vocab ?? 0) * hidden, plan.otherBytes, tp, plan.mtp && !plan.mtpSharesVocab);
  }
  const embedding = (shape.vocab ?? 0) * hidden;
  const lmHead = shape.tiedEmbeddings ? 0 : embedding;
  // with pipeline stages, one rank holds the embedding (first) or the lm_head (last), not both
  if (plan.pp > 1) add(embedding + lmHead, plan.otherBytes, 1, true, Math.max(embedding, lmHead) / tp);
  else add(embedding + lmHead, plan.otherBytes, tp);
  return list;
}

/** MLA's W_UK_T and W_UV of every loaded layer: kv_lora_rank x the rank's heads x (nope + v) at 2 bytes. */
function mlaCopies(shape: ModelShape, plan: SplitPlan): number {
  const m = shape.mla;
  if (!m) return 0;
  const layers = Math.ceil(shape.layers / plan.pp) + (plan.mtp ? (shape.mtpLayers ?? 0) : 0);
  return layers * m.kvLoraRank * (shape.heads / plan.tp) * (m.nopeDim + m.valueDim) * 2;
}

/** The split of the checkpoint; null when the shape lacks the sizes it needs (hidden size, vocabulary). */
export function splitWeights(shape: ModelShape, plan: SplitPlan): WeightsSplit | null {
  if (shape.hidden === null || shape.vocab === null) return null;
  if (shape.layerKinds.includes('linear') && !shape.linear) return null;
  const all = parts(shape, plan);
  const total = all.reduce((sum, p) => sum + p.params * p.bytes, 0);
  const perRank = all.filter((p) => p.loaded).reduce((sum, p) => sum + p.perRank * p.bytes, 0);
  if (total <= 0) return null;
  return { estimatedTotalBytes: total, shareOfTotal: perRank / total, estimatedBytesPerRank: perRank, derivedBytesPerRank: mlaCopies(shape, plan) };
}
