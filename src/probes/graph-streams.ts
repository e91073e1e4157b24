import type { FitSettings } from './fit-settings.js';
import type { Parallelism } from './launch.js';

/**
 * The streams ACL graph capture takes, against what the device has: vllm-ascend's own budget.
 * Pure.
 *
 * vllm-ascend v0.18.0 (@e18643f8a4d5bd9990727654318ad069ea0b56e2) vllm_ascend/utils.py
 * update_aclgraph_sizes, present from v0.9 to v0.20 and removed in v0.21.0rc1 (newer HDK and CANN
 * capture more): "we can only capture 1800 graphs at most, due to the limitation of ACL graph.
 * This number is bounded by the number of streams, which is 2048, we save 248 streams as a
 * buffer." Each PIECEWISE graph takes num_hidden_layers + 1 streams (+ the drafter's layers + 1);
 * with HCCL_OP_EXPANSION_MODE=AIV times 1 + the communication groups (DP, TP over 1) + EP +
 * multistream_overlap_shared_expert (+ DP > 1 on MoE models; dense models also give up
 * factor x resources of the 1800), else the FFTS+ rule (1800 - groups x 40) / resources /
 * (1 + groups x 2). Over it, releases up to v0.20 drop capture sizes; later ones capture them all
 * and the capture can fail with 207008 "Stream resources are insufficient" on older drivers.
 * FULL and FULL_DECODE_ONLY capture one graph per size, not per layer: they are not judged here.
 */

export interface StreamBudget {
  /** graphs are captured piecewise (the case this budget is about) */
  piecewise: boolean;
  captureSizes: number;
  resourcesPerGraph: number;
  parallelFactor: number;
  /** the capture sizes vllm-ascend up to v0.20 keeps */
  maxCaptureSizes: number;
  /** streams the capture takes by the same rule: sizes x resources x factor */
  streams: number;
  mode: 'AIV' | 'FFTS+';
}

export const STREAM_LIMIT = 1800;

export function streamBudget(inputs: { layers: number; draftLayers: number; layout: Parallelism; settings: FitSettings; moe: boolean }): StreamBudget | null {
  const { layout, settings } = inputs;
  if (settings.captureSizes.length === 0) return null;
  const mode = (settings.cudagraphMode ?? '').toUpperCase();
  const piecewise = mode === '' || mode === 'PIECEWISE' || mode === 'FULL_AND_PIECEWISE';
  const resources = inputs.layers + 1 + (inputs.draftLayers > 0 ? inputs.draftLayers + 1 : 0);
  const groups = [layout.dp, layout.tp].filter((size) => size > 1).length;
  let max = STREAM_LIMIT;
  let factor: number;
  let maxSizes: number;
  if (settings.hcclExpansion === 'AIV') {
    factor = 1 + groups + (settings.expertParallel ? 1 : 0) + (settings.overlapSharedExpert ? 1 : 0) + (inputs.moe && layout.dp > 1 ? 1 : 0);
    if (!inputs.moe) max -= factor * resources;
    maxSizes = Math.floor(max / resources / factor);
  } else {
    max -= (layout.pcp > 1 ? 100 : 0) + (settings.decodeContextParallel > 1 ? 100 : 0);
    factor = 1 + groups * 2;
    maxSizes = Math.floor((max - groups * 40) / resources / factor);
  }
  return { piecewise, captureSizes: settings.captureSizes.length, resourcesPerGraph: resources, parallelFactor: factor, maxCaptureSizes: Math.max(0, maxSizes), streams: settings.captureSizes.length * resources * factor, mode: settings.hcclExpansion === 'AIV' ? 'AIV' : 'FFTS+' };
}
