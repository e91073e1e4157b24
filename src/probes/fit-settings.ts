import { booleanFlag, jsonFlag, lastFlag, type ServeArgs } from '../parsers/vllm-args.js';
import type { ShellVariable } from '../parsers/launch-script.js';
import { parseSize } from '../util/size.js';
import { dtypeBytes } from './model-shape.js';
import type { MambaCacheMode } from './kv-cache.js';

/**
 * What the launch flags say about memory, with vLLM's defaults where a flag is not given. Pure.
 *
 * Defaults: --gpu-memory-utilization 0.9 (vllm/config/cache.py); --max-num-batched-tokens 2048
 * and --max-num-seqs 256 for `vllm serve` on a device under 70 GiB (vllm/engine/arg_utils.py
 * get_batch_defaults, the OPENAI_API_SERVER row; every Ascend NPU is under it); --block-size 128
 * (vllm_ascend/utils.py refresh_block_size); the graph capture sizes up to min(max_num_seqs x (1 +
 * num_speculative_tokens) x 2, 512, max_num_batched_tokens) (vllm/config/vllm.py
 * _set_cudagraph_sizes): [1, 2, 4] + 8 .. 248 by 8 + 256 .. by 16.
 */

export interface FitSettings {
  utilization: number;
  utilizationGiven: boolean;
  /** --kv-cache-memory in bytes */
  kvCacheMemoryBytes: number | null;
  /** --max-model-len; null when not given (config.json's max_position_embeddings then), 'auto' for -1 / auto */
  maxModelLen: number | 'auto' | null;
  maxNumSeqs: number;
  maxNumSeqsGiven: boolean;
  maxNumBatchedTokens: number;
  blockSize: number | null;
  /** --kv-cache-dtype as written (auto by default) */
  kvCacheDtype: string;
  /** bytes of one K/V element: 2 for the 16-bit model dtypes, 1 for int8 / fp8 caches */
  kvDtypeBytes: number;
  kvScaleBytes: number;
  /** --dtype */
  dtype: string;
  /** --mamba-ssm-cache-dtype, auto: config.json's mamba_ssm_dtype, else the model dtype */
  mambaSsmDtype: string;
  mambaConvDtype: string;
  mambaCacheMode: MambaCacheMode;
  /** the speculative method and its tokens (--speculative-config) */
  speculative: { method: string; tokens: number } | null;
  enforceEager: boolean;
  cudagraphMode: string | null;
  /** the graph capture sizes, given or vLLM's defaults; empty with --enforce-eager */
  captureSizes: number[];
  captureSizesGiven: boolean;
  numGpuBlocksOverride: number | null;
  quantization: string | null;
  hybridManager: boolean;
  decodeContextParallel: number;
  expertParallel: boolean;
  /** additional_config.enable_prefill_mc2 */
  prefillMc2: boolean;
  /** additional_config.multistream_overlap_shared_expert */
  overlapSharedExpert: boolean;
  /** HCCL_BUFFSIZE in MB (200 when unset: CANN's default) */
  hcclBuffsizeMB: number;
  hcclBuffsizeGiven: boolean;
  /** HCCL_OP_EXPANSION_MODE */
  hcclExpansion: string | null;
  /** VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS is not 0 */
  graphProfiling: boolean;
}

function known(args: ServeArgs, name: string): string | undefined {
  const flag = lastFlag(args, name);
  return flag?.value?.known ? flag.value.text.trim() : undefined;
}

function count(args: ServeArgs, name: string): number | undefined {
  const value = known(args, name);
  return value !== undefined && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/** vLLM's human-readable integers (--max-model-len 128k = 128000, 128K = 131072); -1 or auto: fit to the memory. */
export function parseMaxModelLen(text: string): number | 'auto' | undefined {
  if (text === '-1' || text.toLowerCase() === 'auto') return 'auto';
  const match = /^(\d+(?:\.\d+)?)([kKmMgG]?)$/.exec(text);
  if (!match) return undefined;
  const unit = match[2]!;
  const factor = unit === '' ? 1 : unit === unit.toLowerCase() ? 1000 ** ('kmg'.indexOf(unit) + 1) : 1024 ** ('KMG'.indexOf(unit) + 1);
  return Math.round(Number(match[1]) * factor);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonOf(args: ServeArgs, name: string): Record<string, unknown> {
  const parsed = jsonFlag(args, name);
  return parsed.state === 'ok' && isObject(parsed.value) ? parsed.value : {};
}

/** vLLM's default capture sizes up to max (vllm/config/vllm.py), rounded up to multiples of 1 + speculative tokens. */
export function defaultCaptureSizes(max: number, step: number): number[] {
  const base = [1, 2, 4].filter((n) => n <= max);
  for (let n = 8; n < 256 && n <= max; n += 8) base.push(n);
  for (let n = 256; n <= max; n += 16) base.push(n);
  return [...new Set(base.map((n) => Math.ceil(n / step) * step))].sort((a, b) => a - b);
}

function speculativeOf(args: ServeArgs): FitSettings['speculative'] {
  const spec = { ...jsonOf(args, 'speculative-config') };
  const tokens = spec.num_speculative_tokens;
  if (typeof tokens !== 'number' || tokens <= 0) return null;
  return { method: typeof spec.method === 'string' ? spec.method : '', tokens };
}

function captureOf(args: ServeArgs, enforceEager: boolean, maxNumSeqs: number, maxNumBatchedTokens: number, speculative: FitSettings['speculative']) {
  const compilation = jsonOf(args, 'compilation-config');
  const mode = typeof compilation.cudagraph_mode === 'string' ? compilation.cudagraph_mode : null;
  const sizes = compilation.cudagraph_capture_sizes;
  const given = Array.isArray(sizes) && sizes.every((n) => typeof n === 'number');
  const step = 1 + (speculative?.tokens ?? 0);
  let captureSizes: number[] = [];
  if (!enforceEager && mode?.toUpperCase() !== 'NONE') {
    captureSizes = given ? [...new Set(sizes)].filter((n) => n <= maxNumBatchedTokens).sort((a, b) => a - b) : defaultCaptureSizes(Math.min(maxNumSeqs * step * 2, 512, maxNumBatchedTokens), step);
  }
  return { cudagraphMode: mode, captureSizes, captureSizesGiven: given };
}

function envValue(env: ReadonlyMap<string, ShellVariable>, name: string): string | undefined {
  const variable = env.get(name);
  return variable?.value.known ? variable.value.text.trim() : undefined;
}

export function readFitSettings(args: ServeArgs, env: ReadonlyMap<string, ShellVariable>): FitSettings {
  const utilization = known(args, 'gpu-memory-utilization');
  const utilizationValue = utilization !== undefined && /^(0?\.\d+|1(\.0*)?)$/.test(utilization) ? Number(utilization) : undefined;
  const kvMemory = known(args, 'kv-cache-memory') ?? known(args, 'kv-cache-memory-bytes');
  const maxModelLenText = known(args, 'max-model-len');
  const maxNumSeqs = count(args, 'max-num-seqs');
  const maxNumBatchedTokens = count(args, 'max-num-batched-tokens') ?? 2048;
  const seqs = Math.min(maxNumSeqs ?? 256, maxNumBatchedTokens);
  const kvCacheDtype = known(args, 'kv-cache-dtype') ?? 'auto';
  const enforceEager = booleanFlag(args, 'enforce-eager') === true;
  const speculative = speculativeOf(args);
  const additional = jsonOf(args, 'additional-config');
  const buffsize = envValue(env, 'HCCL_BUFFSIZE');
  const ssm = known(args, 'mamba-ssm-cache-dtype') ?? 'auto';
  const conv = known(args, 'mamba-cache-dtype') ?? 'auto';
  const mode = known(args, 'mamba-cache-mode');
  return {
    utilization: utilizationValue ?? 0.9,
    utilizationGiven: utilizationValue !== undefined,
    kvCacheMemoryBytes: kvMemory !== undefined ? (parseSize(kvMemory) ?? null) : null,
    maxModelLen: maxModelLenText !== undefined ? (parseMaxModelLen(maxModelLenText) ?? null) : null,
    maxNumSeqs: seqs,
    maxNumSeqsGiven: maxNumSeqs !== undefined,
    maxNumBatchedTokens,
    blockSize: count(args, 'block-size') ?? null,
    kvCacheDtype,
    kvDtypeBytes: kvCacheDtype === 'auto' ? (dtypeBytes(known(args, 'dtype')) === 4 ? 4 : 2) : (dtypeBytes(kvCacheDtype.replace(/_per_token_head$/, '')) ?? 2),
    kvScaleBytes: /_per_token_head$/.test(kvCacheDtype) ? 4 : 0,
    dtype: known(args, 'dtype') ?? 'auto',
    mambaSsmDtype: ssm,
    mambaConvDtype: conv,
    mambaCacheMode: mode === 'align' || mode === 'all' ? mode : 'none',
    speculative,
    enforceEager,
    ...captureOf(args, enforceEager, seqs, maxNumBatchedTokens, speculative),
    numGpuBlocksOverride: count(args, 'num-gpu-blocks-override') ?? null,
    quantization: known(args, 'quantization') ?? null,
    hybridManager: booleanFlag(args, 'disable-hybrid-kv-cache-manager') !== true,
    decodeContextParallel: count(args, 'decode-context-parallel-size') ?? 1,
    expertParallel: booleanFlag(args, 'enable-expert-parallel') === true,
    prefillMc2: additional.enable_prefill_mc2 === true,
    overlapSharedExpert: additional.multistream_overlap_shared_expert === true,
    hcclBuffsizeMB: buffsize !== undefined && /^\d+$/.test(buffsize) && Number(buffsize) > 0 ? Number(buffsize) : 200,
    hcclBuffsizeGiven: buffsize !== undefined,
    hcclExpansion: envValue(env, 'HCCL_OP_EXPANSION_MODE')?.replace(/^"|"$/g, '') ?? null,
    graphProfiling: envValue(env, 'VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS') !== '0',
  };
}
