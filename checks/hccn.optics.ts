import { pass, skip, warn, withoutRepeatedDetails } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { linkHealthValue } from '../src/knowledge/hccn-link-health.js';
import { hccnOptical } from '../src/probes/hccn.js';
import { askEvery, devName, hccnProblem, hccnScope, prefetchEvery, unanswered } from '../src/probes/hccn-scope.js';
import { judgeOptics, type OpticsFinding, type OpticsVerdict } from '../src/probes/optics.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

type Words = CheckContext['text']['checks']['hccn.optics'];

/** One finding as a person reads it. */
function say(t: Words, f: OpticsFinding): string {
  const lane = f.lane ?? 0;
  switch (f.kind) {
    case 'absent':
      return t.absent;
    case 'unreachable':
      return t.unreachable;
    case 'initializing':
      return t.initializing;
    case 'temperature':
      return t.temperature({ value: f.value!, limit: f.limit!, high: f.side === 'high' });
    case 'tx-power':
    case 'rx-power':
      return t.power({ rx: f.kind === 'rx-power', lane, value: f.value!, limit: f.limit!, high: f.side === 'high' });
    case 'rx-weak':
      return t.weak({ lane, value: f.value!, limit: f.limit! });
    case 'lane-spread':
      return t.spread({ rx: f.side === 'rx', value: f.value!, limit: f.limit!, strongest: f.lanes![0]!, weakest: f.lanes![1]! });
    case 'snr-low':
      return t.snr({ lane, value: f.value!, limit: f.limit! });
    case 'flag-set':
      return t.flagSet({ flag: f.flag!, value: `0x${f.value!.toString(16)}` });
    case 'present-contradiction':
      return t.presentContradiction;
    case 'flag-contradiction':
      return t.flagContradiction({ flag: f.flag!, value: `0x${f.value!.toString(16)}`, lanes: f.lanes!.join(', ') });
  }
}

/** A port and its findings (of one severity, when given), the findings joined as the language joins clauses. */
function describePort(text: Catalogue, v: OpticsVerdict, severity?: 'fail' | 'warn'): string {
  const t = text.checks['hccn.optics'];
  const findings = v.findings.filter((f) => severity === undefined || f.severity === severity);
  return t.port({ device: devName(v.device), module: [v.vendor, v.partNumber].filter(Boolean).join(' ') || null, findings: findings.map((f) => say(t, f)).join(text.report.clauseSeparator) });
}

function evidenceOf(verdicts: readonly OpticsVerdict[]): Record<string, unknown> {
  return {
    ports: verdicts,
    warnLevels: {
      rxWeakBelowMw: linkHealthValue('optics-rx-power-warn-low'),
      laneSpreadDb: linkHealthValue('optics-lane-spread'),
      mediaSnrBelowDb: linkHealthValue('optics-media-snr-low'),
      source: 'Ascend/mind-cluster ascend-faultdiag toolkit (threshold_config.py, constants.py)',
    },
  };
}

function judged(ctx: CheckContext, verdicts: OpticsVerdict[]): Outcome {
  const t = ctx.text.checks['hccn.optics'];
  const list = ctx.text.report.list;
  const evidence = evidenceOf(verdicts);
  const total = verdicts.length;
  const judgeable = verdicts.filter((v) => v.answer !== 'unsupported');
  if (judgeable.length === 0) return skip(t.unsupported({ total }), { remediation: t.unsupportedFix, evidence });
  const failing = verdicts.filter((v) => v.findings.some((f) => f.severity === 'fail'));
  const warning = verdicts.filter((v) => v.findings.length > 0 && !failing.includes(v));
  const details = verdicts.filter((v) => v.findings.length > 0).map((v) => describePort(ctx.text, v));
  if (failing.length > 0) {
    return hccnProblem(ctx, t.failing({ count: failing.length, total, list: summarizeList(failing.map((v) => describePort(ctx.text, v, 'fail')), 3, list) }), {
      expected: "every lane's Tx and Rx power and the module's temperature inside the module's own thresholds; a module in every cage",
      actual: failing.map((v) => describePort(en, v, 'fail')).join(' | '),
      remediation: t.failFix({ device: failing[0]!.device }),
      action: 'replace-part',
      details,
      evidence,
    });
  }
  if (warning.length > 0) {
    return warn(t.warning({ count: warning.length, total, list: summarizeList(warning.map((v) => describePort(ctx.text, v)), 3, list) }), {
      expected: 'Rx power of every lane at least the warning level, lanes within the spread, flags agreeing with the powers',
      actual: warning.map((v) => describePort(en, v)).join(' | '),
      remediation: warning.some((v) => v.findings.some((f) => f.kind.endsWith('contradiction'))) ? t.contradictionFix({ device: warning[0]!.device }) : t.warnFix({ device: warning[0]!.device }),
      action: 'monitor',
      details,
      evidence,
    });
  }
  const unread = verdicts.filter((v) => v.answer === 'unsupported' || v.noReadings).map((v) => v.device);
  return pass(t.healthy({ total: judgeable.length, unread: unread.length > 0 ? `dev${formatRanges(unread)}` : null }), { evidence });
}

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.optics',
  category: 'hccn',
  order: 34,
  level: 'required',
  depth: 'deep',
  cost: { hccnTool: [{ args: '-optical -g' }] },
  action: { fail: 'replace-part', warn: 'monitor' },
  prefetch: prefetchEvery(() => [hccnOptical]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.optics'];
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnOptical);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const verdicts = answers.flatMap(({ device, answer }) => (answer.ok ? [judgeOptics(device.device, answer.value)] : []));
    return withoutRepeatedDetails(judged(ctx, verdicts));
  },
});
