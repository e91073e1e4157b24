import type { CheckContext } from '../core/types.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import type { RuleJudgement } from '../knowledge/judge.js';
import { rulesHere } from './rules.js';

/**
 * The rules of knowledge/rules.json as the launch checks judge them: for the vllm-ascend release
 * the launch's Python has installed (its dist-info, read without importing anything), inside the
 * rule's release range only, and with the assumption said when no version can be read.
 *
 * Usage:
 *   const judged = await launchRule(ctx, 'eager.graph-config-ignored');
 *   if (judged.verdict) problems.push({ level: judged.verdict, ..., evidence: ruleEvidence(judged) });
 */

/** A rule of the knowledge base judged for the installed vllm-ascend, as every check judges it (src/probes/rules.ts). */
export async function launchRule(ctx: CheckContext, id: string): Promise<RuleJudgement> {
  return (await rulesHere(ctx)).judge(id).judgement;
}

/** "rule eager.graph-config-ignored, vllm-ascend 0.18.0", or the assumption made without a version; English unless given the run's words. */
export function ruleNote(judged: RuleJudgement, text: Catalogue['probes']['launch'] = en.probes.launch): string {
  const installed = judged.basis.kind === 'unknown' ? null : judged.basis.installed;
  return text.ruleJudged({ rule: judged.rule.id, installed, release: judged.basis.release, assumption: judged.assumption });
}
