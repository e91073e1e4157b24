import { describe, expect, it } from 'vitest';
import { shapeOf, type ModelShape } from '../../../src/probes/model-shape.js';
import { splitWeights, type SplitPlan } from '../../../src/probes/weights-split.js';

/** DeepSeek-V3's config.json values (knowledge/model-configs.json) with its one MTP module. */
const DEEPSEEK_V3 = {
  model_type: 'deepseek_v3', num_hidden_layers: 61, hidden_size: 7168, intermediate_size: 18432, num_attention_heads: 128, n_routed_experts: 256, n_shared_experts: 1,
  num_experts_per_tok: 8, moe_intermediate_size: 2048, first_k_dense_replace: 3, q_lora_rank: 1536, kv_lora_rank: 512, qk_nope_head_dim: 128, qk_rope_head_dim: 64,
  v_head_dim: 128, vocab_size: 129280, num_nextn_predict_layers: 1,
};

function shape(config: Record<string, unknown>): ModelShape {
  const reading = shapeOf(config);
  expect(reading.missing).toEqual([]);
  return reading.shape!;
}

const PLAN: SplitPlan = { tp: 8, pp: 1, ep: 16, mtp: true, mtpSharesVocab: true, linearBytes: 1, otherBytes: 2 };
const vocabBytes = 2 * 129280 * 7168 * 2;

describe('splitWeights', () => {
  it("counts the embedding and head a DeepSeek MTP module stores again (README_WEIGHTS.md: 671B + 14B), in the checkpoint's bytes", () => {
    const withMtp = splitWeights(shape(DEEPSEEK_V3), PLAN)!;
    const withoutMtp = splitWeights(shape({ ...DEEPSEEK_V3, num_nextn_predict_layers: 0 }), PLAN)!;
    const oneMoreLayer = splitWeights(shape({ ...DEEPSEEK_V3, num_hidden_layers: 62, num_nextn_predict_layers: 0 }), PLAN)!;
    const layerBytes = oneMoreLayer.estimatedTotalBytes - withoutMtp.estimatedTotalBytes;
    // one MoE decoder layer, eh_proj (2h -> h, int8), and its own embedding and head at 2 bytes
    expect(withMtp.estimatedTotalBytes - withoutMtp.estimatedTotalBytes).toBe(layerBytes + 2 * 7168 * 7168 + vocabBytes);
  });

  it("loads the MTP module's own embedding and head where the drafter does not take the target's (vllm-ascend v0.11 and before): split over TP", () => {
    const deepseek = shape(DEEPSEEK_V3);
    const own = splitWeights(deepseek, { ...PLAN, mtpSharesVocab: false })!;
    const shared = splitWeights(deepseek, PLAN)!;
    expect(own.estimatedTotalBytes).toBe(shared.estimatedTotalBytes);
    expect(own.estimatedBytesPerRank - shared.estimatedBytesPerRank).toBeCloseTo(vocabBytes / 8, 0);
    // without an MTP drafter neither is loaded
    const noDrafter = splitWeights(deepseek, { ...PLAN, mtp: false, mtpSharesVocab: false })!;
    expect(noDrafter.estimatedBytesPerRank).toBeLessThan(shared.estimatedBytesPerRank);
  });

  it("adds MLA's 16-bit W_UK_T and W_UV, which vLLM derives from kv_b_proj after loading and keeps beside it, for every loaded layer of the rank", () => {
    const deepseek = shape(DEEPSEEK_V3);
    // 61 layers and the MTP one, kv_lora_rank 512 x 128 / 8 heads x (128 nope + 128 v) x 2 bytes
    expect(splitWeights(deepseek, PLAN)!.derivedBytesPerRank).toBe(62 * 512 * 16 * 256 * 2);
    expect(splitWeights(deepseek, { ...PLAN, mtp: false })!.derivedBytesPerRank).toBe(61 * 512 * 16 * 256 * 2);
    expect(splitWeights(shape({ ...DEEPSEEK_V3, kv_lora_rank: undefined, head_dim: 128, num_key_value_heads: 128 }), PLAN)!.derivedBytesPerRank).toBe(0);
  });

  it('stores no second embedding for an MTP layer of Qwen3.5 (mtp_num_hidden_layers: it uses the main one)', () => {
    const qwen = {
      model_type: 'qwen3_5_moe', num_hidden_layers: 60, hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 2, head_dim: 256, vocab_size: 248320, num_experts: 512,
      num_experts_per_tok: 10, moe_intermediate_size: 1024, shared_expert_intermediate_size: 1024, full_attention_interval: 4, linear_num_key_heads: 16, linear_key_head_dim: 128,
      linear_num_value_heads: 64, linear_value_head_dim: 128, linear_conv_kernel_dim: 4, mtp_num_hidden_layers: 1,
    };
    const own = splitWeights(shape(qwen), { ...PLAN, mtpSharesVocab: false })!;
    const shared = splitWeights(shape(qwen), PLAN)!;
    expect(own.estimatedBytesPerRank).toBe(shared.estimatedBytesPerRank);
  });
});
