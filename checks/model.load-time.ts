import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { describeProbeError } from '../src/host/types.js';
import { en } from '../src/i18n/en/index.js';
import type { TimeoutBound } from '../src/knowledge/launch-timeouts.js';
import { lastFlag } from '../src/parsers/vllm-args.js';
import { at, noLaunchScript } from '../src/probes/launch.js';
import { loadPlan, type LoadPlan } from '../src/probes/load-plan.js';
import { timeoutPlan, type TimeoutPlan, type TimeoutSetting } from '../src/probes/launch-timeouts.js';
import { localCopyTarget } from '../src/probes/local-disk.js';
import { IO_PROBE_MAX_MS, remoteKind, storageProbe, type StorageProbe } from '../src/probes/storage.js';
import { formatBytes, formatRate } from '../src/util/size.js';

type Text = (typeof en)['checks']['model.load-time'];
type Measured = Extract<StorageProbe, { ok: true }>;

const ENGINE_READY = 'VLLM_ENGINE_READY_TIMEOUT_S';

/** The estimate of this node's load: the bytes at the measured rate, and each shard's measured cost of opening. */
function estimateSeconds(plan: LoadPlan, storage: Measured): number | null {
  if (storage.throughputBytesPerSec === null || storage.throughputBytesPerSec === 0) return null;
  const opening = plan.shardsPerRank * (storage.perShardSeconds ?? 0);
  return Math.ceil(plan.bytesToRead / storage.throughputBytesPerSec + opening);
}

/** "nfs4 10.0.0.5:/models on /models", in a catalogue's words. */
function storageText(t: Text, storage: StorageProbe): string {
  if (storage.mount) return t.storageMounted({ filesystem: storage.mount.fsType, source: storage.mount.source, mountPoint: storage.mount.mountPoint });
  return storage.filesystem ? t.storageType({ filesystem: storage.filesystem }) : t.storageUnknown;
}

/** Where the value in force comes from, in a catalogue's words. */
function originText(t: Text, setting: TimeoutSetting, plan: LoadPlan, timeouts: TimeoutPlan): string {
  if (!setting.honoured && setting.variable === ENGINE_READY) return t.originFixed({ version: timeouts.vllm.version });
  if (setting.from === 'script' && setting.line !== null) return t.originScript({ at: at(plan.view, setting.line) });
  if (setting.from === 'environment') return t.originEnvironment;
  if (setting.variable.startsWith('VLLM_')) return 'file' in setting.defaultFrom ? t.originDefault({ version: timeouts.vllm.version }) : t.originDefaultUnread({ version: timeouts.vllm.version });
  return t.originDefaultOf({ component: setting.variable.startsWith('HCCL_') ? 'CANN' : 'Mooncake' });
}

const MUST_EXCEED: Record<TimeoutBound, (t: Text, estimate: number | null) => string> = {
  'engine-ready': (t, seconds) => t.mustExceedEngineReady({ seconds }),
  'hccl-connect': (t) => t.mustExceedHcclConnect,
  'hccl-exec': (t) => t.mustExceedHcclExec,
  rpc: (t) => t.mustExceedRpc,
  'kv-connect': (t) => t.mustExceedKvConnect,
  'kv-transfer': (t) => t.mustExceedKvTransfer,
};

/** The plan of the timeouts, a line each, in a catalogue's words. */
function planLines(t: Text, plan: LoadPlan, timeouts: TimeoutPlan, estimate: number | null): string[] {
  return timeouts.settings.map((setting) =>
    t.planLine({
      variable: setting.variable,
      value: setting.seconds === null ? t.planUnusable({ written: setting.written ?? '' }) : t.planValue({ seconds: setting.seconds, unit: setting.unit }),
      origin: originText(t, setting, plan, timeouts),
      mustExceed: MUST_EXCEED[setting.bounds](t, estimate),
    }),
  );
}

function storageLine(t: Text, storage: Measured, bytesToRead: number): string {
  const sample = storage.sample;
  const method = sample.method === 'direct' ? t.methodDirect : sample.method === 'uncached-files' ? t.methodUncached : t.methodBuffered;
  const resident = storage.residentBytes === null ? null : `${Math.round((100 * storage.residentBytes) / Math.max(bytesToRead, 1))} %`;
  const perShard = storage.perShardSeconds === null ? null : Math.round(storage.perShardSeconds * 10000) / 10;
  return t.planStorage({
    storage: storageText(t, storage),
    kind: storage.kind,
    read: formatBytes(sample.bytesRead),
    seconds: Math.round(sample.durationMs / 100) / 10,
    method,
    opens: sample.opens.length,
    perShard,
    resident,
  });
}

/** The engine-ready timeout in force, or the outcome when the script's value cannot be used. */
function engineReady(timeouts: TimeoutPlan): TimeoutSetting {
  return timeouts.settings.find((s) => s.variable === ENGINE_READY)!;
}

/**
 * 2.5 times the estimate, in whole minutes: the load, as long again for profiling and graph
 * capture, and a margin for a storage that delivers a little less on the day than in 3 s of probe.
 */
function suggestedTimeout(estimate: number): number {
  return Math.ceil((2.5 * estimate) / 60) * 60;
}

/** The fixes of a load too long for its timeout, one per line: the export line, a local copy, eager loading on network storage. */
async function fixes(ctx: CheckContext, t: Text, plan: LoadPlan, storage: Measured, setting: TimeoutSetting, estimate: number, timeouts: TimeoutPlan): Promise<string> {
  const view = plan.view;
  const serveLine = view.serve!.line;
  const lines: string[] = [];
  const value = suggestedTimeout(estimate);
  if (!setting.honoured) lines.push(t.upgradeVllm({ version: timeouts.vllm.version }));
  else if (setting.from === 'script' && setting.line !== null) lines.push(t.exportAt({ script: view.name, line: setting.line, value }));
  else lines.push(t.exportBefore({ script: view.name, line: serveLine, value }));
  if (storage.kind !== 'memory') {
    const name = plan.directory.replace(/\/+$/, '').replace(/^.*\//, '') || 'model';
    const target = await localCopyTarget(ctx, plan.bytesToRead, storage.mount?.mountPoint ?? null);
    lines.push(
      target
        ? t.copyLocalTo({
            source: plan.directory,
            target: `${target.mountPoint.replace(/\/+$/, '')}/${name}`,
            disk: `${target.fsType} ${target.source}`,
            free: formatBytes(target.availableBytes),
            script: view.name,
            line: plan.line,
          })
        : t.copyLocal({ source: plan.directory, name, script: view.name, line: plan.line }),
    );
  }
  const strategy = lastFlag(view.serve!.parsed, 'safetensors-load-strategy')?.value;
  if (remoteKind(storage.kind) && !(strategy?.known && strategy.text === 'eager')) {
    lines.push(t.eager({ script: view.name, line: plan.line, filesystem: storage.filesystem ?? storage.kind }));
  }
  return lines.join('\n');
}

/** Why the probe gave no figure: off, not recorded, or a failure. */
function withoutFigure(ctx: CheckContext, plan: LoadPlan, storage: Exclude<StorageProbe, { ok: true }>, evidence: Record<string, unknown>): Outcome {
  const t = ctx.text.checks['model.load-time'];
  if (storage.off) return skip(t.probeOff({ bytes: formatBytes(plan.bytesToRead) }), { remediation: t.probeOffFix, evidence });
  evidence.probeError = { code: storage.code, message: storage.message };
  if (storage.code === 'ENOTCAPTURED') {
    return error(t.notCaptured({ directory: plan.boundary }), { remediation: t.recordAgain({ script: plan.view.input.file === '-' ? 'SCRIPT' : plan.view.input.file }), evidence });
  }
  const problem = describeProbeError(plan.boundary, storage, ctx.text.probes.file);
  return error(t.probeFailed({ problem }), { remediation: t.probeFailedFix({ directory: plan.boundary }), evidence });
}

/** The machine fields, in English whatever the run's language. */
function evidenceOf(plan: LoadPlan, storage: StorageProbe, timeouts: TimeoutPlan, estimate: number | null, setting: TimeoutSetting): Record<string, unknown> {
  const english = en.checks['model.load-time'];
  const hccl = timeouts.settings.find((s) => s.variable === 'HCCL_CONNECT_TIMEOUT');
  return {
    script: plan.view.input.file,
    model: plan.model,
    directory: plan.directory,
    bytesToRead: plan.bytesToRead,
    throughputBytesPerSec: storage.ok ? storage.throughputBytesPerSec : null,
    estimatedSeconds: estimate,
    timeoutSeconds: setting.seconds ?? setting.defaultSeconds,
    filesystem: storage.filesystem,
    cached: storage.ok ? storage.cached : null,
    basis: 'every rank reads every shard; the ranks of a node share the page cache, so the storage delivers each shard once per node',
    shards: plan.shardsPerRank,
    ranksOnNode: plan.ranksOnNode,
    storage: {
      mountPoint: storage.mount?.mountPoint ?? null,
      source: storage.mount?.source ?? null,
      kind: storage.kind,
      ...(storage.ok
        ? {
            method: storage.sample.method,
            ...(storage.sample.directRefused ? { directRefused: storage.sample.directRefused } : {}),
            ...(storage.sample.residencyUnknown ? { residencyUnknown: storage.sample.residencyUnknown } : {}),
            bytesRead: storage.sample.bytesRead,
            durationMs: storage.sample.durationMs,
            stoppedBy: storage.sample.stoppedBy,
            perShardSeconds: storage.perShardSeconds,
            residentBytes: storage.residentBytes,
            holeBytesAtLeast: storage.sample.holeBytesAtLeast,
            refused: storage.sample.files.filter((f) => f.refused).map((f) => ({ path: f.path, reason: f.refused })),
          }
        : {}),
    },
    timeoutVariable: ENGINE_READY,
    timeoutFrom: setting.from,
    timeoutHonoured: setting.honoured,
    hcclConnectTimeoutSeconds: hccl?.seconds ?? null,
    vllm: timeouts.vllm,
    timeouts: timeouts.settings.map((s) => ({
      variable: s.variable,
      seconds: s.seconds,
      written: s.written,
      from: s.from,
      line: s.line,
      defaultSeconds: s.defaultSeconds,
      defaultFrom: s.defaultFrom,
      honoured: s.honoured,
      mustExceed: MUST_EXCEED[s.bounds](english, estimate),
    })),
  };
}

/** The verdict of a measured load against the engine-ready timeout. */
async function judge(ctx: CheckContext, plan: LoadPlan, storage: Measured, timeouts: TimeoutPlan): Promise<Outcome> {
  const t = ctx.text.checks['model.load-time'];
  const setting = engineReady(timeouts);
  const estimate = estimateSeconds(plan, storage);
  const evidence = evidenceOf(plan, storage, timeouts, estimate, setting);
  const details = [storageLine(t, storage, plan.bytesToRead), ...planLines(t, plan, timeouts, estimate)];
  const storageWords = storageText(t, storage);
  if (estimate === null) {
    return fail(t.nothingRead({ storage: storageWords, seconds: Math.round(storage.sample.durationMs / 1000) }), {
      remediation: t.nothingReadFix({ mountPoint: storage.mount?.mountPoint ?? plan.boundary }),
      evidence,
      details,
    });
  }
  if (setting.unusable === 'not-a-number' && setting.line !== null) {
    return fail(t.timeoutNotNumber({ at: at(plan.view, setting.line), value: setting.written ?? '' }), {
      remediation: t.exportAt({ script: plan.view.name, line: setting.line, value: Math.max(suggestedTimeout(estimate), setting.defaultSeconds) }),
      evidence,
      details,
    });
  }
  const timeoutSeconds = setting.seconds ?? setting.defaultSeconds;
  const estimateWords = t.estimate({ bytes: formatBytes(plan.bytesToRead), storage: storageWords, rate: formatRate(storage.throughputBytesPerSec!), seconds: estimate });
  const timeoutWords = t.timeout({ variable: ENGINE_READY, seconds: timeoutSeconds, origin: originText(t, setting, plan, timeouts) });
  const stalled = storage.sample.stoppedBy === 'stalled';
  const withStall = (text: string) => (stalled ? t.stalled({ text, seconds: Math.round((IO_PROBE_MAX_MS + 2000) / 1000) }) : text);
  if (estimate > timeoutSeconds || estimate > timeoutSeconds / 2) {
    const over = estimate > timeoutSeconds;
    const message = withStall(over ? t.over({ estimate: estimateWords, timeout: timeoutWords }) : t.overHalf({ estimate: estimateWords, timeout: timeoutWords }));
    const remediation = await fixes(ctx, t, plan, storage, setting, estimate, timeouts);
    const englishTimeout = `${ENGINE_READY} ${timeoutSeconds} s`;
    const outcome = { expected: `a load under ${over ? '' : 'half of '}${englishTimeout}`, actual: `~${estimate} s`, remediation, evidence, details };
    return over ? fail(message, outcome) : warn(message, outcome);
  }
  return caveats(ctx, plan, storage, setting, { estimateWords, timeoutWords, evidence, details, estimate });
}

/** A load within the timeout: a pass, unless the figure may be the page cache's or the script's timeout is not what vLLM will use. */
async function caveats(
  ctx: CheckContext,
  plan: LoadPlan,
  storage: Measured,
  setting: TimeoutSetting,
  words: { estimateWords: string; timeoutWords: string; evidence: Record<string, unknown>; details: string[]; estimate: number },
): Promise<Outcome> {
  const t = ctx.text.checks['model.load-time'];
  const within = t.within({ estimate: words.estimateWords, timeout: words.timeoutWords });
  const base = { evidence: words.evidence, details: words.details };
  if (setting.unusable === 'not-evaluated' && setting.line !== null) {
    return warn(t.timeoutComputed({ text: within, at: at(plan.view, setting.line) }), { ...base, remediation: t.exportAt({ script: plan.view.name, line: setting.line, value: suggestedTimeout(words.estimate) }) });
  }
  if (!setting.honoured && setting.from === 'script' && setting.line !== null) {
    return warn(t.timeoutIgnored({ text: within, at: at(plan.view, setting.line), version: (await timeoutPlan(ctx, plan.view)).vllm.version }), {
      ...base,
      remediation: t.upgradeVllm({ version: (await timeoutPlan(ctx, plan.view)).vllm.version }),
    });
  }
  if (storage.sparse) {
    const remediation = await fixes(ctx, t, plan, storage, setting, words.estimate, await timeoutPlan(ctx, plan.view));
    return warn(t.sparseRead({ text: within, holes: formatBytes(storage.sample.holeBytesAtLeast) }), { ...base, remediation });
  }
  if (storage.kind !== 'memory' && storage.cached !== false) {
    const message = storage.cached === true ? t.cachedRead({ text: within }) : t.cacheUnknown({ text: within, why: storage.sample.directRefused ?? storage.sample.residencyUnknown ?? '' });
    const remediation = await fixes(ctx, t, plan, storage, setting, words.estimate, await timeoutPlan(ctx, plan.view));
    return warn(message, { ...base, remediation });
  }
  return pass(within, base);
}

// title, why, fix, reads and every message: src/i18n/*/checks/tuning.ts
export default defineCheck({
  id: 'model.load-time',
  category: 'launch',
  // after model.fit: the weights are there and fit, then: will they load in time?
  order: 87,
  level: 'required',
  cost: { readsStorage: true },
  // a load too long for its timeout is fixed in the script or by moving the weights
  action: 'reconfigure',
  // the read of the weights overlaps the other checks: the run waits for it as little as it can
  prefetch(ctx) {
    void loadPlan(ctx).then((result) => (result.ok ? storageProbe(ctx, result.plan.boundary, result.plan.shardPaths) : undefined));
  },
  async run(ctx) {
    const t = ctx.text.checks['model.load-time'];
    const result = await loadPlan(ctx);
    if (!result.ok) {
      if (result.why === 'no-script') return noLaunchScript(ctx);
      const reason = result.why === 'no-model' ? t.noModel({ script: result.view!.name }) : result.why === 'not-local' ? t.notLocal : result.why === 'unreadable' ? t.unreadable : t.noWeights;
      return { ...skip(reason, { remediation: t.followWeights }), causedBy: 'model.weights' };
    }
    const plan = result.plan;
    const [storage, timeouts] = await Promise.all([storageProbe(ctx, plan.boundary, plan.shardPaths), timeoutPlan(ctx, plan.view)]);
    if (!storage.ok) return withoutFigure(ctx, plan, storage, evidenceOf(plan, storage, timeouts, null, engineReady(timeouts)));
    return judge(ctx, plan, storage, timeouts);
  },
});
