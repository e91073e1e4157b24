import type { NpuFamily } from '../parsers/npu-smi-info.js';

/**
 * The memory vLLM gives the KV cache on one rank, as the installed vllm-ascend computes it. Pure.
 *
 * Every release starts from requested = torch_npu's total x --gpu-memory-utilization and takes
 * off what the model uses before the cache: its weights, the activation peak of the profile run
 * and the memory outside torch (HCCL buffers, the ACL context). They differ in what else they take
 * off and whether they refuse to start (vllm_ascend/worker/worker.py determine_available_memory
 * and _init_device, at the tags named):
 *
 * - v0.9 - v0.14 (v0.13.0 @6281c1207a7a499e9f23a42b3a1e7027469f2b10): total x util - peak -
 *   (device used - torch allocated); the device's used memory is global, so what other processes
 *   hold is taken off too; a negative result is 0 ("Available memory: 0"). No start check.
 * - v0.15 - v0.17 (v0.17.0rc1 @e20f0b1a0d2fdb1d86a15d55d70fe60a7a1b5a45): requested - non-KV -
 *   non_torch_memory_cleared_by_empty_cache, which is again the device's other users (vllm-ascend
 *   #7308); refuses to start when free < requested ("Free memory on device ... is less than
 *   desired GPU memory utilization").
 * - v0.18 on (v0.18.0 @e18643f8a4d5bd9990727654318ad069ea0b56e2; HEAD @182b75ea84ff): requested -
 *   non-KV only; same start check. --kv-cache-memory replaces the sum (from v0.19.1rc1).
 * - v0.21 - v0.22 (v0.22.1rc1): also the ACL graph memory profiled before the cache, unless
 *   VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 (removed again in v0.23.0).
 * - 310P from v0.18.0rc1 (vllm_ascend/_310p/worker_310p.py): (requested - non-KV - the device's
 *   other users) // 2, "halved for workspace".
 */

export interface VersionTriple {
  major: number;
  minor: number;
  patch: number;
}

/** "0.13.0rc2" -> 0.13.0; undefined for a version that is not one. */
export function parseVersion(text: string): VersionTriple | undefined {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3] ?? 0) };
}

const before = (v: VersionTriple, major: number, minor: number, patch = 0) =>
  v.major < major || (v.major === major && (v.minor < minor || (v.minor === minor && v.patch < patch)));

export type BudgetFormula = 'v0.9-v0.14' | 'v0.15-v0.17' | 'v0.18+' | 'v0.21-v0.22' | '310p-v0.18+' | 'kv-cache-memory';

export interface BudgetInputs {
  /** vllm-ascend's version, or undefined when not found (the newest rules are used) */
  version: VersionTriple | undefined;
  family: NpuFamily;
  /** what torch_npu sees of the device */
  visibleBytes: number;
  /** what torch_npu sees in use before vLLM starts: other processes and the device's own context */
  inUseBytes: number;
  utilization: number;
  /** --kv-cache-memory */
  kvCacheMemoryBytes: number | null;
  weightsBytes: number;
  activationBytes: number;
  nonTorchBytes: number;
  /** the ACL graph memory v0.21 - v0.22 take off before the cache (0 when graphs are off or the variable says so) */
  graphBytes: number;
}

export interface Budget {
  formula: BudgetFormula;
  requestedBytes: number;
  /** free memory at start as torch_npu sees it */
  freeBytes: number;
  /** this release refuses to start when free < requested */
  checksFreeAtStart: boolean;
  /** the other users of the device this release takes off the cache (0 where it does not) */
  othersCharged: number;
  /** the graph memory taken off */
  graphCharged: number;
  /** the KV cache budget, before vLLM's own refusals (may be <= 0) */
  kvBytes: number;
}

export function formulaOf(version: VersionTriple | undefined, family: NpuFamily, kvCacheMemory: boolean): BudgetFormula {
  if (kvCacheMemory && (version === undefined || !before(version, 0, 19, 1))) return 'kv-cache-memory';
  if (version !== undefined && before(version, 0, 15)) return 'v0.9-v0.14';
  if (version !== undefined && before(version, 0, 18)) return 'v0.15-v0.17';
  if (family === '310p') return '310p-v0.18+';
  if (version !== undefined && !before(version, 0, 21) && before(version, 0, 23)) return 'v0.21-v0.22';
  return 'v0.18+';
}

export function kvBudget(inputs: BudgetInputs): Budget {
  const formula = formulaOf(inputs.version, inputs.family, inputs.kvCacheMemoryBytes !== null);
  const requested = inputs.visibleBytes * inputs.utilization;
  const free = Math.max(0, inputs.visibleBytes - inputs.inUseBytes);
  const nonKv = inputs.weightsBytes + inputs.activationBytes + inputs.nonTorchBytes;
  const base = { requestedBytes: requested, freeBytes: free, checksFreeAtStart: formula !== 'v0.9-v0.14', othersCharged: 0, graphCharged: 0 };
  switch (formula) {
    case 'kv-cache-memory':
      return { formula, ...base, kvBytes: inputs.kvCacheMemoryBytes! };
    case 'v0.9-v0.14':
      return { formula, ...base, othersCharged: inputs.inUseBytes, kvBytes: Math.max(0, requested - nonKv - inputs.inUseBytes) };
    case 'v0.15-v0.17':
      return { formula, ...base, othersCharged: inputs.inUseBytes, kvBytes: requested - nonKv - inputs.inUseBytes };
    case '310p-v0.18+':
      return { formula, ...base, othersCharged: inputs.inUseBytes, kvBytes: Math.floor((requested - nonKv - inputs.inUseBytes) / 2) };
    case 'v0.21-v0.22':
      return { formula, ...base, graphCharged: inputs.graphBytes, kvBytes: requested - nonKv - inputs.graphBytes };
    case 'v0.18+':
      return { formula, ...base, kvBytes: requested - nonKv };
  }
}

const GiB = 2 ** 30;
const MiB = 2 ** 20;

/**
 * The activation peak of the profile run, estimated: max_num_batched_tokens x hidden x 2 bytes
 * x 20, within 0.25 - 4 GiB. Calibrated on vllm-ascend's own figures: 0.64 GiB for Qwen3-30B-A3B
 * (hidden 2048) at 8192 tokens (PR #11380, whose 8192 x 2048 x 2 x 20 is 0.625 GiB), 0.22 GiB for
 * a 1.1 GiB model (PR #8289). An estimate: vLLM measures it after loading the weights.
 */
export function activationEstimate(maxNumBatchedTokens: number, hidden: number | null): number {
  const raw = maxNumBatchedTokens * (hidden ?? 4096) * 2 * 20;
  return Math.min(4 * GiB, Math.max(0.25 * GiB, raw));
}

/** The ACL context and workspaces outside torch: 0.15 GiB (0.13 GiB single-card in PR #8289, 0.03 GiB more after start in PR #7427). */
export const CONTEXT_NON_TORCH_BYTES = 0.15 * GiB;

/**
 * The memory outside torch: the context, and 2 x the buffer of each HCCL communicator
 * ("每个通信域占用“2*HCCL_BUFFSIZE”大小的内存", CANN's HCCL_BUFFSIZE reference) of more than one
 * rank: the TP group and, with expert parallelism, the EP group get 200 MB each (vllm-ascend
 * utils.py _DEFAULT_BUFFER_SIZE), the DP group 50 MB (_MIN_DP_BUFFER_SIZE: its buffer is a few
 * integers), and the mc2 group of a MoE model with expert parallelism HCCL_BUFFSIZE (it gets no
 * per-group size: get_hccl_config_for_pg_options). PR #11380's TP 2 EP 2 run measured 1.02 and
 * 3.56 GiB against the 1.32 GiB this gives. An estimate.
 */
export interface NonTorchPart {
  part: 'context' | 'tp' | 'ep' | 'dp' | 'mc2';
  bytes: number;
}

export function nonTorchEstimate(options: { tp: number; dp: number; ep: number; mc2: boolean; hcclBuffsizeMB: number }): { bytes: number; hcclBytes: number; parts: NonTorchPart[] } {
  const parts: NonTorchPart[] = [{ part: 'context', bytes: CONTEXT_NON_TORCH_BYTES }];
  if (options.tp > 1) parts.push({ part: 'tp', bytes: 2 * 200 * MiB });
  if (options.ep > 1) parts.push({ part: 'ep', bytes: 2 * 200 * MiB });
  if (options.dp > 1) parts.push({ part: 'dp', bytes: 2 * 50 * MiB });
  if (options.mc2) parts.push({ part: 'mc2', bytes: 2 * options.hcclBuffsizeMB * MiB });
  const bytes = parts.reduce((sum, p) => sum + p.bytes, 0);
  return { bytes, hcclBytes: bytes - CONTEXT_NON_TORCH_BYTES, parts };
}

/**
 * The ACL graph memory v0.21 - v0.22 profile before the cache, estimated as 3.53 % of the
 * device: Qwen3-Coder-30B-A3B's log on v0.22.1rc1 (vllm-ascend #11990) prints utilization
 * 0.9200 as equivalent to 0.8847 without it.
 */
export function graphMemoryEstimate(visibleBytes: number): number {
  return visibleBytes * (0.92 - 0.8847);
}
