import type { CheckContext } from '../core/types.js';
import type { Catalogue } from '../i18n/en/index.js';
import { judgeRule, releaseBasis, ruleById, ruleEvidence, type ReleaseBasis, type RuleJudgement } from '../knowledge/judge.js';
import { describeSource } from '../knowledge/source.js';
import { installedStack } from './stack.js';

/**
 * A rule of knowledge/rules.json or knowledge/quantization.json judged for this node: the
 * installed vllm-ascend (the Python the launch script runs) decides whether the rule holds,
 * and a finding made from it carries the rule's id and source in its evidence. The one place
 * the checks that judge the knowledge go through:
 *
 *   const here = await rulesHere(ctx);
 *   const rule = here.judge('glm5.mtp-enforce-eager');
 *   if (rule.level) findings.push({ level: rule.level, text: (t) => `${...} (${rule.tag(t)})`, evidence: rule.evidence });
 */

export interface RuleHere {
  judgement: RuleJudgement;
  /** the finding's level here: the rule's severity inside its range, `outside` beyond it, null when it says nothing */
  level: 'fail' | 'warn' | null;
  /** rule, source, applies, judgedAs, installed, assumption: what programs read of the rule */
  evidence: Record<string, unknown>;
  /** "rule glm5.mtp-enforce-eager, vllm-ascend v0.21.0rc1" in a catalogue's words; with the assumption when no version was read */
  tag: (text: Catalogue) => string;
  /** the rule's source as one line: "vllm-project/vllm-ascend docs/...md:179 @ 182b75ea84ff" or its URL */
  source: string;
}

export interface RulesHere {
  basis: ReleaseBasis;
  /** the installed vllm-ascend version as read, null when none was found */
  installed: string | null;
  judge: (id: string) => RuleHere;
}

/** The words that say on which release a rule was judged and, with no version read, what was assumed. */
export function basisTag(judged: RuleJudgement, text: Catalogue): string {
  const t = text.probes.rules;
  const rule = judged.rule.id;
  const basis = judged.basis;
  const range = judged.rule.applies ? t.range({ from: judged.rule.applies.from, to: judged.rule.applies.to }) : t.everyRelease;
  if (basis.kind === 'installed') return t.installed({ rule, version: basis.release });
  if (basis.kind === 'between') return t.between({ rule, installed: basis.installed, release: basis.release });
  if (judged.assumption === 'in-force') return t.assumedInForce({ rule, range });
  if (judged.assumption === 'warn') return t.assumedWarn({ rule, range });
  return t.assumedNewest({ rule, release: basis.release });
}

function judgeHere(basis: ReleaseBasis, id: string): RuleHere {
  const judgement = judgeRule(ruleById(id), basis);
  const level = judgement.verdict === 'fail' || judgement.verdict === 'warn' ? judgement.verdict : null;
  return {
    judgement,
    level,
    evidence: ruleEvidence(judgement),
    tag: (text) => basisTag(judgement, text),
    source: describeSource(judgement.rule.source),
  };
}

/** The release this node's rules are judged for: the installed vllm-ascend, once per run. */
export function rulesHere(ctx: CheckContext): Promise<RulesHere> {
  return ctx.shared('rules-here', async () => {
    const stack = await installedStack(ctx);
    const installed = stack.packages.vllmAscend?.version ?? null;
    const basis = releaseBasis(installed);
    return { basis, installed, judge: (id: string) => judgeHere(basis, id) };
  });
}
