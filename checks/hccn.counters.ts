import { pass, skip, warn, withoutRepeatedDetails } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { hostPause } from '../src/host/pause.js';
import { hccnStat, hccnProblemText, type HccnAnswer } from '../src/probes/hccn.js';
import { askEvery, devName, hccnProblem, hccnScope, prefetchEvery, unanswered } from '../src/probes/hccn-scope.js';
import { GROWTH_WINDOW_MS, judgeCounters, PERSISTENT_GROWTH_RUNS, type CounterVerdict } from '../src/probes/counters.js';
import type { NpuDevice } from '../src/probes/npu.js';
import type { HccnStat } from '../src/parsers/hccn-link-health.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

/** How long after its first read a port's counters are read again: long enough for RoCE traffic to move them, short enough for a preflight. */
export const READ_GAP_MS = 3000;

type Words = CheckContext['text']['checks']['hccn.counters'];

interface Reads {
  device: NpuDevice;
  first: Extract<HccnAnswer<HccnStat>, { ok: true }>;
  firstAt: number;
  second: HccnAnswer<HccnStat> | undefined;
  secondAt: number | null;
}

function budgetOf(ctx: CheckContext): number {
  return ctx.timeoutMs * 6 + 5000 + READ_GAP_MS;
}

/** Each port's counters again, READ_GAP_MS after its first read, while the check's budget lets a read start. */
async function readAgain(ctx: CheckContext, first: ReadonlyArray<{ device: NpuDevice; answer: Extract<HccnAnswer<HccnStat>, { ok: true }>; at: number }>, startedAt: number): Promise<Reads[]> {
  const startBy = { at: startedAt + budgetOf(ctx) - 2 * ctx.timeoutMs, why: 'not read again: the check\'s time budget was spent' };
  return Promise.all(
    first.map(async ({ device, answer, at }): Promise<Reads> => {
      await hostPause(ctx.host, at + READ_GAP_MS - performance.now());
      const second = await hccnStat(ctx, device.device, { read: 'again', startBy });
      return { device, first: answer, firstAt: at, second, secondAt: performance.now() };
    }),
  );
}

function growthText(growth: Readonly<Record<string, number>>): string {
  return Object.entries(growth).map(([name, by]) => `${name} +${by}`).join(', ');
}

function describe(t: Words, v: CounterVerdict): string {
  if (Object.keys(v.growth).length > 0) return t.grewItem({ device: devName(v.device), growth: growthText(v.growth), seconds: ((v.intervalMs ?? 0) / 1000).toFixed(1) });
  return t.grewSinceItem({ device: devName(v.device), growth: growthText(v.sinceLastRun?.growth ?? {}), since: v.sinceLastRun?.previousAt ?? '?' });
}

function judged(ctx: CheckContext, verdicts: CounterVerdict[], problems: string[]): Outcome {
  const t = ctx.text.checks['hccn.counters'];
  const list = ctx.text.report.list;
  const evidence = { ports: verdicts, readGapMs: READ_GAP_MS, persistentGrowthRuns: PERSISTENT_GROWTH_RUNS, windowHours: GROWTH_WINDOW_MS / 3600_000, notReadAgain: problems };
  const grew = verdicts.filter((v) => Object.keys(v.growth).length > 0 || Object.keys(v.sinceLastRun?.growth ?? {}).length > 0);
  const persistent = grew.filter((v) => v.growthRuns24h >= PERSISTENT_GROWTH_RUNS);
  const details = grew.map((v) => describe(t, v));
  if (persistent.length > 0) {
    const first = persistent[0]!;
    return hccnProblem(ctx, t.persistent({ count: persistent.length, total: verdicts.length, runs: PERSISTENT_GROWTH_RUNS, list: summarizeList(persistent.map((v) => devName(v.device)), 6, list) }), {
      expected: `error counters that grow in fewer than ${PERSISTENT_GROWTH_RUNS} runs within 24 h`,
      actual: persistent.map((v) => `${devName(v.device)}: grew in ${v.growthRuns24h} runs within 24 h`).join(', '),
      remediation: t.persistentFix({ device: first.device }),
      action: 'replace-part',
      details,
      evidence,
    });
  }
  if (grew.length > 0) {
    return warn(t.grew({ count: grew.length, total: verdicts.length, list: summarizeList(grew.map((v) => describe(t, v)), 3, list) }), {
      expected: 'no error counter grows while the port carries traffic',
      actual: grew.map((v) => `${devName(v.device)}: ${growthText({ ...v.sinceLastRun?.growth, ...v.growth })}`).join('; '),
      remediation: t.grewFix({ device: grew[0]!.device }),
      action: 'monitor',
      details,
      evidence,
    });
  }
  const of = (state: CounterVerdict['exercised']) => verdicts.filter((v) => v.exercised === state).map((v) => v.device);
  const never = of('never');
  if (never.length === verdicts.length) return skip(t.notExercised({ total: verdicts.length }), { remediation: t.notExercisedFix, evidence });
  const counted = verdicts.filter((v) => Object.values(v.errors).some((n) => n > 0)).map((v) => `${devName(v.device)} ${Object.values(v.errors).reduce((a, b) => a + b, 0)}`);
  return pass(
    t.steady({
      total: verdicts.length,
      seconds: (READ_GAP_MS / 1000).toFixed(0),
      never: never.length > 0 ? `dev${formatRanges(never)}` : null,
      idle: of('idle-now').length > 0 ? `dev${formatRanges(of('idle-now'))}` : null,
      unknown: of('unknown').length > 0 ? `dev${formatRanges(of('unknown'))}` : null,
      counted: counted.length > 0 ? summarizeList(counted, 4, list) : null,
      notReadAgain: problems.length,
    }),
    { evidence },
  );
}

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.counters',
  category: 'hccn',
  order: 38,
  level: 'required',
  depth: 'deep',
  cost: { hccnTool: [{ args: '-stat -g', reads: 2 }], waitMs: READ_GAP_MS },
  action: { fail: 'replace-part', warn: 'monitor', skip: 'none' },
  budgetMs: budgetOf,
  prefetch: prefetchEvery(() => [hccnStat]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.counters'];
    const startedAt = performance.now();
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnStat);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const at = performance.now();
    const first = answers.flatMap(({ device, answer }) => (answer.ok ? [{ device, answer, at }] : []));
    const reads = await readAgain(ctx, first, startedAt);
    const problems: string[] = [];
    const nowMs = ctx.now().getTime();
    const verdicts = reads.map((r) => {
      const second = r.second?.ok ? r.second.value.counters : null;
      if (r.second && !r.second.ok) problems.push(`${devName(r.device.device)}: ${hccnProblemText(r.second)}`);
      return judgeCounters({
        device: r.device.device,
        first: r.first.value.counters,
        second,
        // the host let READ_GAP_MS pass between the reads (a replay's recording did): at least that
        intervalMs: second && r.secondAt !== null ? Math.max(READ_GAP_MS, Math.round(r.secondAt - r.firstAt)) : null,
        nowMs,
        ...(ctx.history ? { history: ctx.history } : {}),
      });
    });
    return withoutRepeatedDetails(judged(ctx, verdicts, problems));
  },
});
