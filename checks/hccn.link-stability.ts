import { error, pass, warn, withoutRepeatedDetails } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { linkHealthRow } from '../src/knowledge/hccn-link-health.js';
import { hccnLinkStat } from '../src/probes/hccn.js';
import { askEvery, devName, hccnProblem, hccnScope, prefetchEvery, unanswered } from '../src/probes/hccn-scope.js';
import { BRING_UP_WINDOW_MS, FLAP_WINDOW_MS, judgeLink, type LinkVerdict } from '../src/probes/link-stability.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

type Words = CheckContext['text']['checks']['hccn.link-stability'];

/** The run's clock read as a wall-clock time (the tool prints local time): the fallback when it printed no current time. */
function localWallClockMs(now: Date): number {
  return now.getTime() - now.getTimezoneOffset() * 60_000;
}

/** A port with a problem: down now, escalated, or flapped. */
function describe(t: Words, v: LinkVerdict): string {
  if (v.state === 'down-now') return t.downItem({ device: devName(v.device), since: v.newest?.time ?? '?' });
  if (v.state === 'escalated') return t.escalatedItem({ device: devName(v.device), count: v.flaps24h, until: v.escalatedUntil ?? '?' });
  return t.flapItem({ device: devName(v.device), count: v.flaps24h, last: v.recentDowns[0] ?? null });
}

/** A line per port with a problem, and one for the ports that went down while brought up only. */
function details(t: Words, verdicts: readonly LinkVerdict[]): string[] {
  const lines = verdicts.filter((v) => ['down-now', 'escalated', 'flapped'].includes(v.state)).map((v) => describe(t, v));
  const burst = verdicts.filter((v) => v.state === 'bring-up-burst').map((v) => v.device);
  if (burst.length > 0) lines.push(t.burstLine({ devices: `dev${formatRanges(burst)}` }));
  return lines;
}

function judged(ctx: CheckContext, verdicts: LinkVerdict[]): Outcome {
  const t = ctx.text.checks['hccn.link-stability'];
  const list = ctx.text.report.list;
  const rule = linkHealthRow('link-flap-frequency');
  const evidence = {
    ports: verdicts,
    flapWindowHours: FLAP_WINDOW_MS / 3600_000,
    bringUpWindowSeconds: BRING_UP_WINDOW_MS / 1000,
    frequencyRule: { times: rule.value, windowSeconds: rule.windowSeconds, releaseSeconds: rule.releaseSeconds, source: 'Ascend/mind-cluster faultCustomization.json, fault code 81078603' },
  };
  const lines = details(t, verdicts);
  const of = (state: LinkVerdict['state']) => verdicts.filter((v) => v.state === state);
  const down = of('down-now');
  const escalated = of('escalated');
  const flapped = of('flapped');
  const total = verdicts.length;
  if (down.length > 0) {
    return hccnProblem(ctx, t.downNow({ count: down.length, total, list: summarizeList(down.map((v) => describe(t, v)), 4, list) }), {
      expected: 'the newest -link_stat record of every port: LINK UP',
      actual: down.map((v) => `${devName(v.device)}: LINK DOWN at ${v.newest?.time ?? '?'}`).join(', '),
      remediation: t.downFix({ device: down[0]!.device }),
      action: 'reconfigure',
      details: lines,
      evidence,
    });
  }
  if (escalated.length > 0) {
    const first = escalated[0]!;
    return hccnProblem(ctx, t.escalated({ count: escalated.length, total, times: rule.value ?? 5, list: summarizeList(escalated.map((v) => describe(t, v)), 4, list) }), {
      expected: `fewer than ${rule.value} down transitions of a port within 24 h`,
      actual: escalated.map((v) => `${devName(v.device)}: ${v.flaps24h} in 24 h`).join(', '),
      remediation: t.escalatedFix({ device: first.device, until: first.escalatedUntil ?? '?' }),
      action: 'isolate-npu',
      details: lines,
      evidence,
    });
  }
  if (flapped.length > 0) {
    return warn(t.flapped({ count: flapped.length, total, list: summarizeList(flapped.map((v) => describe(t, v)), 4, list) }), {
      expected: 'no down transition of a port in the 24 h before the read, bring-up aside',
      actual: flapped.map((v) => `${devName(v.device)}: ${v.flaps24h} in 24 h, last ${v.recentDowns[0] ?? 'before this run'}`).join(', '),
      remediation: t.flapFix({ device: flapped[0]!.device }),
      action: 'monitor',
      details: lines,
      evidence,
    });
  }
  const burst = of('bring-up-burst').map((v) => v.device);
  // the message says everything a pass has to say
  return pass(t.stable({ total, burst: burst.length > 0 ? `dev${formatRanges(burst)}` : null }), { evidence });
}

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.link-stability',
  category: 'hccn',
  order: 32,
  level: 'required',
  depth: 'deep',
  cost: { hccnTool: [{ args: '-link_stat -g' }] },
  action: { fail: 'reconfigure', warn: 'monitor' },
  prefetch: prefetchEvery(() => [hccnLinkStat]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.link-stability'];
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnLinkStat);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const fallbackNowMs = localWallClockMs(ctx.now());
    const read = answers.map(({ device, answer }) => {
      const entries = answer.ok ? answer.value.entries : [];
      // the tool may print another device's id for -i N (its [device N] variant): one entry is this device's
      return { device: device.device, entry: entries.find((e) => e.device === device.device) ?? entries[0] };
    });
    const unread = read.filter((r) => r.entry === undefined).map((r) => r.device);
    if (unread.length > 0) {
      // an answer without one [devid N] line of history judges nothing: never a pass by default
      return error(ctx.text.probes.hccn.cannotRead({ what: t.readWhat, failed: unread.length, total: read.length, devices: summarizeList(unread.map(devName), 6, ctx.text.report.list), problem: t.noHistory }), {
        remediation: t.noHistoryFix({ device: unread[0]! }),
        evidence: { unread },
      });
    }
    const verdicts = read.flatMap(({ device, entry }) => (entry ? [judgeLink({ device, entry, fallbackNowMs, ...(ctx.history ? { history: ctx.history } : {}) })] : []));
    return withoutRepeatedDetails(judged(ctx, verdicts));
  },
});
