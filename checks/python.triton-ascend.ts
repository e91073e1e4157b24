import { fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { ruleEvidence } from '../src/knowledge/judge.js';
import { launchRule, ruleNote } from '../src/probes/launch-rules.js';
import { defineCheck } from '../src/core/define-check.js';
import { launchView } from '../src/probes/launch.js';
import { npuInventory } from '../src/probes/npu.js';
import { installedDistributions, pythonSite } from '../src/probes/python.js';
import { summarizeList } from '../src/util/text.js';

const UNWANTED = ['triton-ascend', 'triton'];

/**
 * `site-packages/triton` left without a dist-info: `pip uninstall` removes what the RECORD lists
 * and leaves files it does not (the 310P guide: "manually remove the remaining triton directory
 * in site-packages"). Python still imports the directory as the package.
 */
async function residualTriton(ctx: CheckContext, dirs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    const stat = await ctx.host.stat(`${dir}/triton`);
    if (stat.ok && stat.value.kind === 'directory') found.push(`${dir}/triton`);
  }
  return found;
}

export default defineCheck({
  id: 'python.triton-ascend',
  category: 'launch',
  order: 90,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  // title, why, fix, reads and every message: src/i18n/*/checks/tuning.ts
  async run(ctx) {
    const t = ctx.text.checks['python.triton-ascend'];
    const list = ctx.text.report.list;
    const inventory = await npuInventory(ctx);
    const detected = inventory.ok ? inventory.family : 'unknown';
    const family = detected !== 'unknown' ? detected : ctx.profile.npu.family;
    if (family !== '310p') {
      const seen = detected !== 'unknown' ? t.familySeen({ family: detected }) : inventory.ok ? t.familyUnknown : t.familyUnread({ problem: inventory.problem.message });
      return skip(t.notA310p({ seen, profileFamily: ctx.profile.npu.family }), {
        remediation: t.notA310pFix,
        evidence: { family },
      });
    }
    const view = await launchView(ctx);
    const site = await pythonSite(ctx, view);
    const evidence: Record<string, unknown> = { family, python: site.python, via: site.via, sitePackages: site.sitePackages };
    if (!site.python) {
      return skip(t.noPython({ searched: summarizeList(site.searched, 3, list) }), {
        remediation: t.inContainer,
        evidence,
      });
    }
    if (site.sitePackages.length === 0) {
      return skip(t.noSitePackages({ python: site.python }), {
        remediation: t.inContainer,
        evidence: { ...evidence, searched: site.searched },
      });
    }
    const found = await installedDistributions(ctx, site.sitePackages, UNWANTED);
    evidence.found = found;
    const via = site.how ? ctx.text.probes.python.via(site.how) : site.via;
    if (found.length === 0) {
      const residual = await residualTriton(ctx, site.sitePackages);
      if (residual.length > 0) {
        // rule 310p.triton-residual: what pip uninstall leaves behind is still imported as triton
        const judged = await launchRule(ctx, '310p.triton-residual');
        if (judged.verdict === 'fail' || judged.verdict === 'warn') {
          evidence.residual = residual;
          return (judged.verdict === 'fail' ? fail : warn)(t.residual({ paths: summarizeList(residual, 2, list), python: site.python, rule: ruleNote(judged, ctx.text.probes.launch) }), {
            expected: 'no triton package directory without its dist-info',
            actual: residual.join(', '),
            remediation: residual.map((path) => `rm -rf ${path}`).join('\n'),
            evidence: { ...evidence, ...ruleEvidence(judged) },
          });
        }
      }
      return pass(t.clean({ python: site.python, via, sitePackages: summarizeList(site.sitePackages, 2, list) }), { evidence });
    }
    const names = [...new Set(found.map((d) => d.name))];
    return fail(t.installed({ found: summarizeList(found.map((d) => `${d.name} ${d.version}`), 3, list), python: site.python }), {
      expected: 'neither triton nor triton-ascend',
      actual: found.map((d) => d.path).join(', '),
      remediation: `${site.python} -m pip uninstall -y ${names.join(' ')}`,
      evidence,
    });
  },
});
