/**
 * The HCCL buffer MC2 dispatch and combine need (MoE with expert parallelism on Atlas A3), as
 * CANN's MoeDistributeDispatchV2 tiling computes it before it refuses a smaller HCCL_BUFFSIZE. Pure.
 *
 * Source: CANN ops-transformer, mc2/moe_distribute_dispatch_v2/op_host/op_tiling/
 * moe_distribute_dispatch_v2_tiling.cpp (CheckWinSize, the A3 path MoeDistributeDispatchA3TilingFuncImpl;
 * read in the mirror repo-mirror-test/ops-transformer @7ea2095910a6863f0cde390a9d66379370201342):
 *
 *   tokenNeedSizeCombine  = align_up(h x 2, 512)
 *   tokenNeedSizeDispatch = align_up(align_up(h x 2, 32) + 44, 512)
 *   NEEDED = ((maxBs x tokenNeedSizeDispatch x epWorldSize x localMoeExpertNum)
 *            + (maxBs x tokenNeedSizeCombine x (k + sharedExpertNum))) x 2
 *   refused when NEEDED > HCCL_BUFFSIZE MB; printed as floor(NEEDED / MiB) + 1 "MB"
 *
 * Its inputs from vllm-ascend (@182b75ea84ff13ece27b57391331ef8935410aea):
 * ascend_forward_context.py set_mc2_tokens_capacity: max_num_tokens = max_num_batched_tokens with
 * enable_prefill_mc2, else the largest graph capture size when there are capture sizes, else
 * max_num_seqs x (1 + num_speculative_tokens); per TP rank cdiv(max_num_tokens, TP), at most 512
 * (_MC2_TOKENS_PER_RANK_LIMIT). The mc2 group spans the expert-parallel ranks (DP x TP) and gets
 * no per-group buffer: HCCL_BUFFSIZE is what counts (utils.py get_hccl_config_for_pg_options). The
 * shared experts run outside MC2 (sharedExpertNum 0 in every log).
 *
 * Checked against the three refusals vllm-ascend's history prints (609 MB: Qwen3-30B-A3B, DP 2 with
 * EP, PR #5287; 305 MB: Qwen3-Omni-30B-A3B, EP 2, PR #7426; 294 MB: Qwen3-Next, TP 4 with EP).
 */

export interface Mc2Inputs {
  hidden: number;
  /** num_experts_per_tok */
  topK: number;
  /** routed experts (+ redundant ones) */
  experts: number;
  /** the expert-parallel world: DP x TP */
  epWorldSize: number;
  /** tokens per rank in one dispatch: min(512, cdiv(max_num_tokens, TP)) */
  maxBs: number;
}

export interface Mc2Need {
  maxBs: number;
  localExperts: number;
  tokenNeedSizeDispatch: number;
  tokenNeedSizeCombine: number;
  bytes: number;
  /** as CANN prints it: "NEEDED_HCCL_BUFFSIZE(...) = N MB" */
  neededMB: number;
}

/** vllm-ascend's _MC2_TOKENS_PER_RANK_LIMIT */
export const MC2_TOKENS_PER_RANK_LIMIT = 512;

const alignUp = (n: number, to: number) => Math.ceil(n / to) * to;

export function mc2Need(inputs: Mc2Inputs): Mc2Need {
  const combine = alignUp(inputs.hidden * 2, 512);
  const dispatch = alignUp(alignUp(inputs.hidden * 2, 32) + 44, 512);
  const local = Math.ceil(inputs.experts / inputs.epWorldSize);
  const bytes = (inputs.maxBs * dispatch * inputs.epWorldSize * local + inputs.maxBs * combine * inputs.topK) * 2;
  return { maxBs: inputs.maxBs, localExperts: local, tokenNeedSizeDispatch: dispatch, tokenNeedSizeCombine: combine, bytes, neededMB: Math.floor(bytes / 2 ** 20) + 1 };
}

/** The tokens of one rank's dispatch: set_mc2_tokens_capacity's max_num_tokens, per TP rank, at most 512. */
export function mc2MaxBs(maxNumTokens: number, tp: number): number {
  return Math.min(MC2_TOKENS_PER_RANK_LIMIT, Math.ceil(maxNumTokens / tp));
}
