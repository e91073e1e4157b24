import { fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en } from '../src/i18n/en/index.js';
import { familiesOf, familySupported, firstRelease, newestRelease, releaseRow } from '../src/knowledge/judge.js';
import type { ModelFamilyRow } from '../src/knowledge/models.js';
import { describeSource } from '../src/knowledge/source.js';
import { launchView, noLaunchScript } from '../src/probes/launch.js';
import { resolveModel, type ResolvedModel } from '../src/probes/model-resolve.js';
import { rulesHere, type RulesHere } from '../src/probes/rules.js';
import { comparePep440 } from '../src/util/pep440.js';

type Text = (typeof en.checks)['model.supported'];

/** The families of knowledge/models.json the served model is, by config.json's model_type, its architectures, or its name. */
function identify(model: ResolvedModel): ReturnType<typeof familiesOf> & { what: (t: Text) => string } {
  const identity = model.identity;
  const found = familiesOf({ modelType: identity.modelType, architectures: identity.architectures, name: identity.id ?? identity.name });
  const what = (t: Text) =>
    found.by === 'model_type'
      ? t.byModelType({ modelType: identity.modelType! })
      : found.by === 'architectures'
        ? t.byArchitectures({ architectures: identity.architectures.join(', ') })
        : t.byName({ name: identity.id ?? identity.name });
  return { ...found, what };
}

function familyEvidence(families: readonly ModelFamilyRow[]): Array<Record<string, unknown>> {
  return families.map((f) => {
    const first = firstRelease(f);
    return { family: f.family, firstRelease: first?.version ?? null, source: first ? describeSource(first.source) : null };
  });
}

/** "Qwen3.5" or "Qwen3.5 / Qwen3.6" (config.json cannot tell the two apart without the name) */
function familyNames(families: readonly ModelFamilyRow[]): string {
  return families.map((f) => f.family).join(' / ');
}

/** The release to install: the first that supports it (its source says so), with its source. */
function firstOf(families: readonly ModelFamilyRow[]): { version: string; source: string; quote: string } | null {
  const firsts = families.map(firstRelease).filter((f): f is NonNullable<typeof f> => f !== null);
  const earliest = firsts.sort((a, b) => comparePep440(a.version, b.version) ?? 0)[0];
  return earliest ? { version: earliest.version, source: describeSource(earliest.source), quote: earliest.source.quote ?? '' } : null;
}

function judgeFamilies(ctx: CheckContext, model: ResolvedModel, here: RulesHere): Outcome {
  const t = ctx.text.checks['model.supported'];
  const found = identify(model);
  const evidence: Record<string, unknown> = {
    modelType: model.identity.modelType,
    architectures: model.identity.architectures,
    by: found.by,
    families: familyEvidence(found.families),
    installed: here.installed,
    judgedAs: here.basis.release,
  };
  if (found.families.length === 0) {
    const what = model.identity.modelType ?? model.identity.id ?? model.identity.name;
    return skip(t.notInTable({ what }), { remediation: t.notInTableFix, evidence });
  }
  const names = familyNames(found.families);
  const first = firstOf(found.families);
  const since = first ? t.since({ version: first.version, source: first.source }) : t.noFirst;
  if (here.basis.kind === 'unknown') {
    return skip(t.noVersion({ families: names, what: found.what(t), since }), { remediation: t.noVersionFix, evidence });
  }
  const release = here.basis.kind === 'installed' ? here.basis.release : t.judgedAs({ installed: here.basis.installed, release: here.basis.release });
  if (found.families.some((f) => familySupported(f, here.basis.release))) {
    return pass(t.supported({ families: names, what: found.what(t), release, since }), { evidence });
  }
  const words = (w: Text) => ({ families: names, what: found.what(w), release, first: first?.version ?? null, quote: first?.quote ?? '', source: first?.source ?? '' });
  const details = {
    expected: first ? `vllm-ascend ${first.version} or later` : `a vllm-ascend release that lists ${names}`,
    actual: `vllm-ascend ${here.installed}`,
    remediation: first ? t.upgradeFix({ version: first.version, newest: newestRelease(), vllm: releaseRow(first.version)?.vllm ?? null }) : t.noFirstFix,
    evidence,
  };
  // a verdict that rests on the model's name alone (no config.json here) is a warning
  return found.by === 'name' ? warn(t.unsupported(words(t)), details) : fail(t.unsupported(words(t)), details);
}

// title, why, reads, fix and every message: src/i18n/*/checks/knowledge.ts
export default defineCheck({
  id: 'model.supported',
  category: 'launch',
  order: 83,
  depth: 'quick',
  level: 'required',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['model.supported'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    if (!view.serve) return skip(t.noServer({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    const model = await resolveModel(ctx, view);
    if (!model) return skip(t.noModel({ script: view.name }), { remediation: ctx.text.probes.launch.remediation });
    return judgeFamilies(ctx, model, await rulesHere(ctx));
  },
});
