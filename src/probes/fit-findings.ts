import type { Action } from '../core/ids/actions.js';
import type { Catalogue } from '../i18n/en/index.js';
import { compareAscendVersions } from '../util/ascend-version.js';
import { formatBytes } from '../util/size.js';
import { STREAM_LIMIT } from './graph-streams.js';
import type { FitPlan } from './fit.js';
import { thousands } from '../util/text.js';

/**
 * What model.fit finds in a memory plan: vLLM's own refusals (fail), what it would start with
 * but serve badly, and what rests on an estimate the user can remove (warn), each with the knob
 * that fixes it and by how much. Pure.
 */

export type FitText = Catalogue['checks']['model.fit'];

export interface FixContext {
  script: string;
  /** the line of a flag in the script, else that of the server command */
  line: (flag: string) => number;
}

export interface Finding {
  level: 'fail' | 'warn';
  code: 'alignment' | 'free-memory' | 'weights' | 'no-cache' | 'one-request' | 'not-sized' | 'concurrency' | 'builtin' | 'streams';
  text: (t: FitText) => string;
  fix: (t: FitText, at: FixContext) => string;
  /** when it is not the check's reconfigure: another workload holds the memory */
  action?: Action;
}

const size = formatBytes;

/** x to 2 decimals as Python's "%.2f" prints it (vLLM's log): an exact half rounds to even. */
export function pythonFixed2(x: number): string {
  const scaled = x * 100;
  const floor = Math.floor(scaled);
  const rounded = scaled - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled);
  return (rounded / 100).toFixed(2);
}

/** Fixes that each solve the problem: the first as it is, the others marked as alternatives (the report labels them). */
function alternatives(lines: ReadonlyArray<string | null>): string {
  return lines
    .filter((line): line is string => line !== null)
    .flatMap((line) => line.split('\n'))
    .map((line, i) => (i === 0 ? line : `or: ${line}`))
    .join('\n');
}
const up = (n: number) => Math.ceil(n * 100 - 1e-9) / 100;
const down = (n: number) => Math.floor(n * 100 + 1e-9) / 100;

/** The memory before the cache, as this release counts it: weights, activations, buffers, graphs and what it charges for other processes. */
function beforeCache(plan: FitPlan): number {
  const budget = plan.device.budget;
  return plan.weights.bytes + plan.activation.bytes + plan.nonTorch.bytes + budget.graphCharged + budget.othersCharged;
}

/** The --gpu-memory-utilization that gives the cache `kvBytes`, or null above 0.98 (vLLM needs some room). */
function utilizationFor(plan: FitPlan, kvBytes: number): number | null {
  const halved = plan.device.budget.formula === '310p-v0.18+' ? 2 : 1;
  const u = up((beforeCache(plan) + kvBytes * halved) / plan.device.visible.bytes);
  return u <= 0.98 && u > plan.settings.utilization ? u : null;
}

/** A larger --tensor-parallel-size whose weights per rank fit the requested memory, and that divides the heads. */
function largerTp(plan: FitPlan): number | null {
  const { tp } = plan.layout;
  const heads = plan.shape?.heads ?? 0;
  const room = plan.device.budget.requestedBytes - plan.activation.bytes - plan.nonTorch.bytes;
  for (let candidate = tp * 2; candidate <= 64; candidate *= 2) {
    if (heads > 0 && heads % candidate !== 0) continue;
    if ((plan.weights.bytes * tp) / candidate < room * 0.8) return candidate;
  }
  return null;
}

function startFindings(plan: FitPlan): Finding[] {
  const found: Finding[] = [];
  const { device, kv } = plan;
  const budget = device.budget;
  if (kv?.layout.alignmentError) {
    found.push({ level: 'fail', code: 'alignment', text: (t) => t.alignment({ model: plan.model.argument.text, tp: plan.layout.tp }), fix: (t, at) => t.alignmentFix({ script: at.script, line: at.line('tensor-parallel-size') }) });
  }
  if (budget.checksFreeAtStart && budget.formula !== 'kv-cache-memory' && budget.freeBytes < budget.requestedBytes) {
    const u = down(budget.freeBytes / device.visible.bytes);
    const p = { device: device.device, free: size(budget.freeBytes), visible: size(device.visible.bytes), utilization: plan.settings.utilization, requested: size(budget.requestedBytes), inUse: size(device.inUseBytes) };
    found.push({ level: 'fail', code: 'free-memory', action: 'restart-workload', text: (t) => t.freeBelow(p), fix: (t, at) => alternatives([t.freeBelowFix({ ...p, script: at.script, line: at.line('gpu-memory-utilization'), lower: u })]) });
  }
  return found;
}

function memoryFindings(plan: FitPlan): Finding[] {
  const found: Finding[] = [];
  const budget = plan.device.budget;
  const capacity = plan.kv?.capacity ?? null;
  const p = { weights: size(plan.weights.bytes), requested: size(budget.requestedBytes), utilization: plan.settings.utilization, visible: size(plan.device.visible.bytes), kv: size(budget.kvBytes), overhead: size(plan.activation.bytes + plan.nonTorch.bytes + budget.graphCharged), others: budget.othersCharged > 0 ? size(budget.othersCharged) : null };
  const tp = largerTp(plan);
  const tpFix = (t: FitText, at: FixContext) => (tp ? t.largerTp({ script: at.script, line: at.line('tensor-parallel-size'), tp, npus: tp * plan.layout.pp * plan.layout.dpLocal }) : t.quantizedOrMore);
  if (budget.formula !== 'kv-cache-memory' && plan.weights.bytes > budget.requestedBytes) {
    found.push({ level: 'fail', code: 'weights', text: (t) => t.weightsOver(p), fix: tpFix });
    return found;
  }
  if (budget.kvBytes <= 0) {
    const u = capacity ? utilizationFor(plan, capacity.neededBytes) : null;
    found.push({ level: 'fail', code: 'no-cache', text: (t) => t.noCache(p), fix: (t, at) => alternatives([u ? t.raiseUtilization({ script: at.script, line: at.line('gpu-memory-utilization'), utilization: u }) : null, tpFix(t, at)]) });
    return found;
  }
  if (capacity && plan.maxModelLen.value !== null && capacity.neededBytes > budget.kvBytes) {
    const u = utilizationFor(plan, capacity.neededBytes);
    const q = { ...p, maxModelLen: plan.maxModelLen.value, needed: size(capacity.neededBytes), fits: capacity.maxModelLenThatFits };
    const halves = plan.settings.kvDtypeBytes > 1 && capacity.neededBytes / 2 <= budget.kvBytes;
    found.push({
      level: 'fail',
      code: 'one-request',
      text: (t) => t.oneRequest(q),
      fix: (t, at) =>
        alternatives([
          q.fits > 0 ? t.shorterContext({ script: at.script, line: at.line('max-model-len'), maxModelLen: q.fits }) : null,
          u ? t.raiseUtilization({ script: at.script, line: at.line('gpu-memory-utilization'), utilization: u }) : null,
          halves ? t.smallerKvDtype : null,
          tpFix(t, at),
        ]),
    });
  }
  return found;
}

/** The largest max-model-len at which the cache holds `seqs` requests at once. */
function lengthForSeqs(plan: FitPlan, seqs: number): number {
  const capacity = plan.kv!.capacity!;
  let low = 0;
  let high = plan.maxModelLen.value ?? 0;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (capacity.blocks / plan.kv!.layout.blocksPerRequest(mid) >= seqs) low = mid;
    else high = mid - 1;
  }
  return low;
}

function serviceFindings(plan: FitPlan): Finding[] {
  const found: Finding[] = [];
  const capacity = plan.kv?.capacity ?? null;
  const layout = plan.kv?.layout;
  if (!plan.kv && plan.missing.length > 0) {
    const p = { where: plan.model.config ? 'config.json' : plan.builtin ? `qprep's table (${plan.builtin.model})` : null, keys: plan.missing.join(', '), model: plan.model.argument.text };
    found.push({ level: 'warn', code: 'not-sized', text: (t) => t.notSized(p), fix: (t) => t.notSizedFix({ directory: plan.model.directory }) });
  }
  const seqs = plan.settings.maxNumSeqs;
  if (capacity && layout && plan.settings.maxNumSeqsGiven && plan.maxModelLen.value !== null && capacity.concurrency < seqs && capacity.neededBytes <= plan.device.budget.kvBytes) {
    const u = utilizationFor(plan, seqs * layout.blocksPerRequest(plan.maxModelLen.value) * layout.groupSize * layout.pageBytes);
    const length = lengthForSeqs(plan, seqs);
    const p = { tokens: thousands(capacity.tokens), concurrency: pythonFixed2(capacity.concurrency), maxModelLen: thousands(plan.maxModelLen.value), seqs };
    found.push({
      level: 'warn',
      code: 'concurrency',
      text: (t) => t.lowConcurrency(p),
      fix: (t, at) =>
        alternatives([
          u ? t.raiseUtilization({ script: at.script, line: at.line('gpu-memory-utilization'), utilization: u }) : null,
          length > 0 ? t.contextForSeqs({ script: at.script, line: at.line('max-model-len'), maxModelLen: length, seqs }) : null,
          t.fewerSeqs({ script: at.script, line: at.line('max-num-seqs'), seqs: Math.max(1, Math.floor(capacity.concurrency)) }),
        ]),
    });
  }
  // without a KV size the built-in values are not what the plan rests on: the not-sized finding says what to put in place
  if (plan.basis === 'builtin' && plan.builtin && plan.kv) {
    const p = { model: plan.builtin.model, keys: Object.keys(plan.builtinSources).length, local: plan.model.config !== null };
    found.push({ level: 'warn', code: 'builtin', text: (t) => t.builtin(p), fix: (t) => t.builtinFix({ id: plan.model.identity.id ?? plan.builtin!.model, directory: plan.model.directory }) });
  }
  const streams = plan.streams;
  // up to v0.20 vllm-ascend drops the sizes over its budget itself; from v0.21 it captures them all,
  // which drivers before HDK 25.5.1 run out of streams for (vllm_ascend/compilation/acl_graph.py's advice)
  const version = plan.vllmAscend?.parsed;
  const captures = version === undefined || version.major > 0 || version.minor >= 21;
  const oldDriver = plan.driverVersion !== null && (compareAscendVersions(plan.driverVersion, '25.5.1') ?? 0) < 0;
  if (streams?.piecewise && captures && oldDriver && streams.captureSizes > streams.maxCaptureSizes) {
    const p = { sizes: streams.captureSizes, resources: streams.resourcesPerGraph, factor: streams.parallelFactor, streams: streams.streams, limit: STREAM_LIMIT, max: streams.maxCaptureSizes, mode: streams.mode };
    found.push({ level: 'warn', code: 'streams', text: (t) => t.streams(p), fix: (t, at) => alternatives([t.streamsFix({ script: at.script, line: at.line('compilation-config'), max: streams.maxCaptureSizes })]) });
  }
  return found;
}

/** vLLM's refusals first; when it refuses, how it would serve is moot. */
export function fitFindings(plan: FitPlan): Finding[] {
  const refusals = [...startFindings(plan), ...memoryFindings(plan)];
  return refusals.length > 0 ? refusals : serviceFindings(plan);
}
