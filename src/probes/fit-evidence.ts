import type { ModelFitEvidence } from '../report/schema.js';
import { describeSource } from '../knowledge/source.js';
import type { FitPlan } from './fit.js';
import { pythonFixed2 } from './fit-findings.js';

/**
 * model.fit's evidence: the machine figures under the names the issue fixed (weightsBytesPerNpu,
 * kvBudgetBytesPerNpu, kvBytesPerToken, kvTokens, maxConcurrency, maxModelLen,
 * hbmVisibleBytesPerNpu, basis) and the plan with every term and what it came from, which
 * `qprep explain model.fit` prints. Its type is the published schema's (qprep schema fit-evidence).
 */

export type FitEvidence = ModelFitEvidence;

const round = (n: number) => Math.round(n);

export function planEvidence(plan: FitPlan, script: string): FitEvidence {
  const { device, kv, model } = plan;
  const budget = device.budget;
  const capacity = kv?.capacity ?? null;
  return {
    script,
    weightsBytesPerNpu: round(plan.weights.bytes),
    kvBudgetBytesPerNpu: round(budget.kvBytes),
    kvBytesPerToken: kv ? kv.layout.bytesPerToken : null,
    kvTokens: capacity ? capacity.tokens : null,
    maxConcurrency: capacity ? Number(pythonFixed2(capacity.concurrency)) : null,
    maxModelLen: plan.maxModelLen.value,
    hbmVisibleBytesPerNpu: device.visible.bytes,
    basis: plan.basis,
    plan: {
      model: {
        argument: model.argument.text,
        id: model.identity.id,
        name: model.identity.name,
        identityFrom: model.identity.from,
        directory: model.directory,
        builtinModel: plan.builtin?.model ?? null,
        builtinSources: Object.fromEntries(Object.entries(plan.builtinSources).map(([key, source]) => [key, describeSource(source)])),
        missing: plan.missing,
      },
      release: { vllmAscend: plan.vllmAscend?.version ?? null, formula: budget.formula },
      parallel: { tp: plan.layout.tp, pp: plan.layout.pp, dp: plan.layout.dp, dpLocal: plan.layout.dpLocal, ep: plan.settings.expertParallel && plan.shape?.moe ? plan.layout.tp * plan.layout.dp * plan.layout.pcp : 0 },
      device: {
        device: device.device,
        npuSmiTotalMB: device.npuSmiTotalMB,
        npuSmiUsedMB: device.npuSmiUsedMB,
        visibleBytes: device.visible.bytes,
        reserveMiB: device.visible.reserveMiB,
        visibleMatch: device.visible.match,
        visibleSource: device.visible.source ? describeSource(device.visible.source) : null,
        inUseBytes: device.inUseBytes,
        freeBytes: round(budget.freeBytes),
      },
      requestedBytes: round(budget.requestedBytes),
      utilization: plan.settings.utilization,
      checksFreeAtStart: budget.checksFreeAtStart,
      weights: { ...plan.weights, bytes: round(plan.weights.bytes), totalBytes: round(plan.weights.totalBytes), share: plan.weights.share, derivedBytes: round(plan.weights.derivedBytes) },
      activation: { ...plan.activation, bytes: round(plan.activation.bytes) },
      nonTorch: { ...plan.nonTorch, bytes: round(plan.nonTorch.bytes), hcclBytes: round(plan.nonTorch.hcclBytes), parts: plan.nonTorch.parts.map((p) => ({ part: p.part, bytes: round(p.bytes) })) },
      graph: { ...plan.graph, bytes: round(plan.graph.bytes) },
      othersChargedBytes: round(budget.othersCharged),
      halved: budget.formula === '310p-v0.18+',
      kv: kv
        ? {
            blockSize: kv.layout.blockSize,
            pageBytes: kv.layout.pageBytes,
            groupSize: kv.layout.groupSize,
            groups: kv.layout.kinds.map((k) => ({ ...k })),
            kvHeadsPerRank: kv.layout.kvHeadsPerRank,
            stateBytesPerSequence: kv.layout.stateBytesPerSequence,
            blocks: capacity?.blocks ?? null,
            blocksPerRequest: plan.maxModelLen.value !== null ? kv.layout.blocksPerRequest(plan.maxModelLen.value) : null,
            neededBytesPerRequest: capacity?.neededBytes ?? null,
            maxModelLenThatFits: capacity?.maxModelLenThatFits ?? null,
          }
        : null,
      maxModelLenFrom: plan.maxModelLen.from,
      maxNumSeqs: { value: plan.settings.maxNumSeqs, given: plan.settings.maxNumSeqsGiven },
      mc2: plan.mc2
        ? { epWorldSize: plan.mc2.epWorldSize, maxBs: plan.mc2.maxBs, localExperts: plan.mc2.localExperts, maxNumTokens: plan.mc2.maxNumTokens, neededMB: plan.mc2.neededMB, buffsizeMB: plan.mc2.buffsizeMB }
        : null,
      streams: plan.streams ? { ...plan.streams } : null,
    },
  };
}
