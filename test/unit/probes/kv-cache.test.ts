import { describe, expect, it } from 'vitest';
import { kvCapacity, kvLayout, type KvInputs } from '../../../src/probes/kv-cache.js';
import { mc2MaxBs, mc2Need } from '../../../src/probes/hccl-mc2.js';
import { shapeOf } from '../../../src/probes/model-shape.js';

/*
 * The KV arithmetic against the figures vLLM printed in public vllm-ascend logs, given the KV
 * memory it printed: the blocks, "GPU KV cache size" and "Maximum concurrency" must come out as
 * printed. The end-to-end predictions (budget included) are in test/unit/checks/model.fit.cases.test.ts.
 */

const GiB = 2 ** 30;
const QWEN3_30B = { model_type: 'qwen3_moe', num_hidden_layers: 48, hidden_size: 2048, num_attention_heads: 32, num_key_value_heads: 4, head_dim: 128, num_experts: 128, num_experts_per_tok: 8, moe_intermediate_size: 768, vocab_size: 151936 };
const QWEN3_NEXT = {
  model_type: 'qwen3_next', num_hidden_layers: 48, hidden_size: 2048, num_attention_heads: 16, num_key_value_heads: 2, head_dim: 256, full_attention_interval: 4,
  linear_num_key_heads: 16, linear_key_head_dim: 128, linear_num_value_heads: 32, linear_value_head_dim: 128, linear_conv_kernel_dim: 4, num_experts: 512, num_experts_per_tok: 10, moe_intermediate_size: 512,
};
const DEEPSEEK_V3 = { model_type: 'deepseek_v3', num_hidden_layers: 61, hidden_size: 7168, num_attention_heads: 128, kv_lora_rank: 512, qk_rope_head_dim: 64, qk_nope_head_dim: 128, v_head_dim: 128, q_lora_rank: 1536, num_nextn_predict_layers: 1 };
const QWEN3_235B = { model_type: 'qwen3_moe', num_hidden_layers: 94, hidden_size: 4096, num_attention_heads: 64, num_key_value_heads: 4, head_dim: 128 };

function inputs(config: Record<string, unknown>, extra: Partial<KvInputs> = {}): KvInputs {
  const { shape, missing } = shapeOf(config);
  expect(missing).toEqual([]);
  return {
    shape: shape!, tp: 1, contextParallel: 1, blockSize: null, kvDtypeBytes: 2, kvScaleBytes: 0, ssmDtypeBytes: 2, convDtypeBytes: 2,
    draftLayers: 0, speculativeTokens: 0, mambaCacheMode: 'none', hybridAlignment: 'k-only', hybridManager: true, maxNumBatchedTokens: 2048, ...extra,
  };
}

describe('the KV cache as vLLM lays it out', () => {
  it('Qwen3-30B-A3B at TP 2: 2 KV heads per rank, 25.53 GiB -> 557,696 tokens, 13.62x at 40,960 (vllm-ascend PR #11380)', () => {
    const layout = kvLayout(inputs(QWEN3_30B, { tp: 2 }));
    expect(layout).toMatchObject({ blockSize: 128, pageBytes: 131072, groupSize: 48, bytesPerToken: 49152, kvHeadsPerRank: 2 });
    const capacity = kvCapacity(layout, 25.53 * GiB, 40960);
    expect(capacity.blocks).toBe(4357);
    expect(capacity.tokens).toBe(557696);
    expect(capacity.concurrency.toFixed(2)).toBe('13.62');
    // printed 28.67 GiB: 4892 blocks are [28.665, 28.670) GiB
    expect(kvCapacity(layout, 28.665 * GiB, 40960).tokens).toBe(626176);
  });

  it('Qwen3-30B-A3B-W8A8 at TP 4, per rank (vllm-ascend #2473): 791,040 and 826,752 tokens', () => {
    const layout = kvLayout(inputs(QWEN3_30B, { tp: 4 }));
    expect(layout.kvHeadsPerRank).toBe(1);
    expect(kvCapacity(layout, 19443365990, 4096)).toMatchObject({ blocks: 6180, tokens: 791040 });
    expect(kvCapacity(layout, 19443365990, 4096).concurrency).toBeCloseTo(193.12, 2);
    expect(kvCapacity(layout, 20320957030, 4096).tokens).toBe(826752);
  });

  it('Qwen3-235B shape at TP 8 replicates its 4 KV heads to one per rank: 236,416 tokens, 7.21x (vllm-ascend #3800)', () => {
    const layout = kvLayout(inputs(QWEN3_235B, { tp: 8 }));
    expect(layout).toMatchObject({ kvHeadsPerRank: 1, bytesPerToken: 94 * 512 });
    const capacity = kvCapacity(layout, 11381826560, 32768);
    expect(capacity.tokens).toBe(236416);
    expect(capacity.concurrency.toFixed(2)).toBe('7.21');
  });

  it('DeepSeek-V3 MLA with its MTP layer: one 1152-byte latent per token and layer on every rank, 2728672256 B -> 38,144 tokens (PR #3184)', () => {
    const layout = kvLayout(inputs(DEEPSEEK_V3, { tp: 8, draftLayers: 1, speculativeTokens: 1 }));
    expect(layout).toMatchObject({ kvHeadsPerRank: 1, bytesPerToken: 62 * 1152, groupSize: 62 });
    expect(kvCapacity(layout, 2728672256, 8192).tokens).toBe(38144);
  });

  it('Qwen3-Next at TP 4 on v0.12 (K+V alignment): block 384, 4 groups of 12; 2941 blocks print 282,240 tokens and 210.07x (vllm-ascend #5020)', () => {
    const layout = kvLayout(inputs(QWEN3_NEXT, { tp: 4, hybridAlignment: 'k+v' }));
    expect(layout).toMatchObject({ blockSize: 384, pageBytes: 384 * 1024, groupSize: 12 });
    expect(layout.kinds).toEqual([
      { kind: 'linear', layers: 36, groups: 3 },
      { kind: 'full', layers: 12, groups: 1 },
    ]);
    // conv (8192 / 4 x 3 x 2) + ssm (32 / 4 x 128 x 128 x 2) per linear layer
    expect(layout.stateBytesPerSequence).toBe(36 * (12288 + 262144));
    const capacity = kvCapacity(layout, 0, 4096, 1, 2941);
    expect(capacity.tokens).toBe(282240);
    expect(capacity.concurrency.toFixed(2)).toBe('210.07');
  });

  it('Qwen3.5-35B-A3B shape at TP 8 from v0.16 (K-only alignment): block 512, 524288 bytes of K+V per page next to the conv state (vllm-ascend #7393)', () => {
    const config = { ...QWEN3_NEXT, model_type: 'qwen3_5_moe', num_hidden_layers: 40, num_attention_heads: 16, num_key_value_heads: 2, head_dim: 256, linear_num_value_heads: 32, mamba_ssm_dtype: 'float32' };
    const layout = kvLayout(inputs(config, { tp: 8, ssmDtypeBytes: 4 }));
    expect(layout.blockSize).toBe(512);
    // the float32 SSM state of 32 / 8 x 128 x 128 x 4 = 262144 bytes is 512 tokens of one K head
    const conv = ((128 * 16 * 2 + 128 * 32) / 8) * 3 * 2;
    expect(layout.pageBytes - conv).toBe(524288);
  });

  it('refuses what vLLM refuses: one request of max-model-len over the budget, and says the length that fits', () => {
    const layout = kvLayout(inputs({ model_type: 'qwen3', num_hidden_layers: 28, hidden_size: 1024, num_attention_heads: 16, num_key_value_heads: 8, head_dim: 128 }));
    expect(layout.bytesPerToken).toBe(114688);
    // vllm-ascend #14004: 0.09 GiB for a 4096-token request of Qwen3-0.6B, which needs 0.44 GiB
    const capacity = kvCapacity(layout, 0.09 * GiB, 4096);
    expect(capacity.neededBytes).toBe(469762048);
    expect(capacity.neededBytes).toBeGreaterThan(0.09 * GiB);
    expect(capacity.maxModelLenThatFits).toBe(768);
  });

  it('an unaligned SSM state is vllm-ascend\'s "Cannot align" refusal', () => {
    const layout = kvLayout(inputs({ ...QWEN3_NEXT, linear_value_head_dim: 100 }, { tp: 4 }));
    expect(layout.alignmentError).toBe('Cannot align ssm_page_size and attn_page_size.');
  });
});

describe('the HCCL buffer of MC2 dispatch (CANN MoeDistributeDispatchV2 tiling)', () => {
  it('gives the NEEDED of the three refusals in vllm-ascend history: 609, 305 and 294 MB', () => {
    expect(mc2Need({ hidden: 2048, topK: 8, experts: 128, epWorldSize: 2, maxBs: 512 })).toMatchObject({ localExperts: 64, tokenNeedSizeDispatch: 4608, tokenNeedSizeCombine: 4096, neededMB: 609 });
    expect(mc2Need({ hidden: 2048, topK: 8, experts: 128, epWorldSize: 2, maxBs: 256 }).neededMB).toBe(305);
    expect(mc2Need({ hidden: 2048, topK: 10, experts: 512, epWorldSize: 4, maxBs: 64 }).neededMB).toBe(294);
  });

  it('takes the tokens of one rank as vllm-ascend does: cdiv(max tokens, TP), at most 512', () => {
    expect(mc2MaxBs(256, 4)).toBe(64);
    expect(mc2MaxBs(4096, 1)).toBe(512);
  });
});
