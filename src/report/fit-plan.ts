import type { Catalogue } from '../i18n/en/index.js';
import { formatBytes } from '../util/size.js';
import type { ModelFitEvidence } from './schema.js';
import { visibleWidth } from './wrap.js';
import { thousands } from '../util/text.js';

/**
 * `qprep explain model.fit --launch SCRIPT`: model.fit's plan as a person reads vLLM's start-up
 * log, one row per figure with what it came from. Pure: the evidence of the check in, text out.
 */

type Words = Catalogue['commands']['explain']['plan'];

interface Row {
  label: string;
  value: string;
  how?: 'exact' | 'estimate';
  from?: string;
}

const digits = (n: number) => thousands(Math.floor(n));

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
}

function memoryRows(e: ModelFitEvidence, w: Words): Row[] {
  const p = e.plan;
  const rows: Row[] = [
    { label: w.npu, value: w.npuValue({ device: p.device.device, total: p.device.npuSmiTotalMB, used: p.device.npuSmiUsedMB }) },
    { label: w.visible, value: formatBytes(p.device.visibleBytes), how: p.device.visibleMatch === 'exact' ? 'exact' : 'estimate', from: w.visibleFrom({ reserve: p.device.reserveMiB, source: p.device.visibleSource, match: p.device.visibleMatch }) },
    { label: w.requested, value: formatBytes(p.requestedBytes), how: 'exact', from: w.requestedFrom({ utilization: p.utilization }) },
    {
      label: w.weights,
      value: formatBytes(p.weights.bytes),
      how: p.weights.how,
      from: w.weightsFrom({ totalFrom: p.weights.totalFrom, total: formatBytes(p.weights.totalBytes), split: p.weights.share !== null, tp: p.parallel.tp, ep: p.parallel.ep, pp: p.parallel.pp, mtp: p.weights.mtpLoaded, derived: p.weights.derivedBytes > 0 ? formatBytes(p.weights.derivedBytes) : null }),
    },
    { label: w.activation, value: formatBytes(p.activation.bytes), how: p.activation.how, from: w.activationFrom({ tokens: p.activation.maxNumBatchedTokens, hidden: String(p.activation.hidden ?? 4096) }) },
    { label: w.nonTorch, value: formatBytes(p.nonTorch.bytes), how: p.nonTorch.how, from: w.nonTorchFrom({ parts: p.nonTorch.parts.map((part) => w.nonTorchPart({ part: part.part, size: formatBytes(part.bytes) })).join(' + ') }) },
  ];
  if (p.graph.bytes > 0) rows.push({ label: w.graph, value: formatBytes(p.graph.bytes), how: p.graph.how, from: p.graph.from });
  if (p.othersChargedBytes > 0) rows.push({ label: w.others, value: formatBytes(p.othersChargedBytes), how: 'exact', from: w.othersFrom });
  rows.push({ label: w.kv, value: formatBytes(e.kvBudgetBytesPerNpu), from: w.kvFrom({ halved: p.halved, kvCacheMemory: p.release.formula === 'kv-cache-memory' }) });
  return rows;
}

function cacheRows(e: ModelFitEvidence, w: Words): Row[] {
  const kv = e.plan.kv;
  if (!kv || e.kvBytesPerToken === null) return [{ label: w.notSized, value: w.lacking({ keys: e.plan.model.missing.join(', ') }) }];
  const attention = kv.groups.filter((g) => g.kind !== 'linear').reduce((sum, g) => sum + g.layers, 0);
  const rows: Row[] = [{ label: w.perToken, value: formatBytes(e.kvBytesPerToken), how: 'exact', from: w.perTokenFrom({ layers: attention, heads: kv.kvHeadsPerRank }) }];
  if (kv.stateBytesPerSequence > 0) rows.push({ label: w.state, value: formatBytes(kv.stateBytesPerSequence), how: 'exact', from: w.stateFrom });
  const groups = kv.groups.map((g) => `${g.groups} x ${g.kind}`).join(' + ');
  rows.push({ label: w.block, value: w.blockValue({ block: kv.blockSize, page: formatBytes(kv.pageBytes), groupSize: kv.groupSize, groups }) });
  if (e.kvTokens !== null) rows.push({ label: '', value: w.tokens({ tokens: digits(e.kvTokens) }) });
  if (e.maxConcurrency !== null && e.maxModelLen !== null) rows.push({ label: '', value: w.concurrency({ maxModelLen: digits(e.maxModelLen), concurrency: e.maxConcurrency.toFixed(2) }) });
  return rows;
}

function extraRows(e: ModelFitEvidence, w: Words): Row[] {
  const rows: Row[] = [];
  const { mc2, streams } = e.plan;
  if (mc2) rows.push({ label: w.mc2, value: w.mc2Value({ needed: mc2.neededMB, buffsize: mc2.buffsizeMB }), how: 'exact', from: w.mc2From({ maxBs: mc2.maxBs, ep: mc2.epWorldSize, local: mc2.localExperts }) });
  if (streams?.piecewise) rows.push({ label: w.streams, value: w.streamsValue({ streams: streams.streams, sizes: streams.captureSizes, max: streams.maxCaptureSizes }), from: w.streamsFrom({ piecewise: streams.piecewise }) });
  return rows;
}

export function formatFitPlan(e: ModelFitEvidence, outcome: { status: string; message: string }, w: Words): string {
  const p = e.plan;
  const fromTable = Object.keys(p.model.builtinSources).length;
  const builtinKeys = fromTable > 0 ? w.valuesFromTable({ count: fromTable }) : '';
  const rows: Row[] = [
    { label: w.model, value: p.model.id ?? p.model.name, from: e.basis === 'config.json' ? w.fromConfig : w.fromBuiltin({ model: p.model.builtinModel ?? '', keys: builtinKeys }) },
    { label: w.release, value: p.release.vllmAscend ?? w.notFound, from: w.formula({ formula: p.release.formula }) },
    { label: w.parallel, value: w.parallelValue(p.parallel) },
    ...memoryRows(e, w),
    ...cacheRows(e, w),
    ...extraRows(e, w),
  ];
  const labelWidth = Math.max(...rows.map((r) => visibleWidth(r.label)));
  // the value column is as wide as the values that have a source after them, up to 40
  const valueWidth = Math.min(40, Math.max(0, ...rows.filter((r) => r.how || r.from).map((r) => visibleWidth(r.value))));
  const lines = rows.map((r) => {
    const how = r.how ? (r.how === 'exact' ? w.exact : w.estimate) : '';
    const tail = [how, r.from ?? ''].filter(Boolean).join(': ');
    return `  ${pad(r.label, labelWidth)}  ${tail ? pad(r.value, valueWidth) : r.value}${tail ? `  ${tail}` : ''}`.trimEnd();
  });
  return [w.heading({ script: e.script, model: p.model.argument, status: outcome.status }), ...lines, `  ${pad(w.verdict, labelWidth)}  ${outcome.message}`, ''].join('\n');
}
