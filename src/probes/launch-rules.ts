import type { CheckContext } from '../core/types.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import { judgeRule, releaseBasis, ruleById, type RuleJudgement } from '../knowledge/judge.js';
import type { LaunchView } from './launch.js';
import { installedDistributions, pythonSite } from './python.js';

/**
 * The rules of knowledge/rules.json as the launch checks judge them: for the vllm-ascend release
 * the launch's Python has installed (its dist-info, read without importing anything), inside the
 * rule's release range only, and with the assumption said when no version can be read.
 *
 * Usage:
 *   const judged = await launchRule(ctx, view, 'eager.graph-config-ignored');
 *   if (judged.verdict) problems.push({ level: judged.verdict, ..., evidence: ruleEvidence(judged) });
 */

/**
 * The vllm-ascend version installed in the Python that runs the launch's server (or the PATH's
 * vllm without a script): the one place the launch checks read it, so that it can be pointed at
 * another probe of the installed stack later. Null when no dist-info is found.
 */
export function installedVllmAscend(ctx: CheckContext, view: LaunchView | undefined): Promise<string | null> {
  return ctx.shared('launch:vllm-ascend-version', async () => {
    const site = await pythonSite(ctx, view);
    const found = await installedDistributions(ctx, site.sitePackages, ['vllm-ascend']);
    return found[0]?.version ?? null;
  });
}

/** A rule of the knowledge base judged for the installed vllm-ascend. */
export async function launchRule(ctx: CheckContext, view: LaunchView | undefined, id: string): Promise<RuleJudgement> {
  return judgeRule(ruleById(id), releaseBasis(await installedVllmAscend(ctx, view)));
}

/** "rule eager.graph-config-ignored, vllm-ascend 0.18.0", or the assumption made without a version; English unless given the run's words. */
export function ruleNote(judged: RuleJudgement, text: Catalogue['probes']['launch'] = en.probes.launch): string {
  const installed = judged.basis.kind === 'unknown' ? null : judged.basis.installed;
  return text.ruleJudged({ rule: judged.rule.id, installed, release: judged.basis.release, assumption: judged.assumption });
}
