import { pass, fail, skip } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { atlasServer } from '../src/parsers/server-model.js';
import { hostInventory } from '../src/probes/inventory.js';

const FAMILY_NAMES = { a2: 'Atlas A2 (910B)', a3: 'Atlas A3 (910C)', '310p': 'Atlas 300I Duo / 200I Pro (310P)' } as const;

// title, why, fix and every message: src/i18n/*/checks/host.ts
export default defineCheck({
  id: 'host.model',
  category: 'host',
  order: 10,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['host.model'];
    const wanted = ctx.profile.npu.family;
    const inventory = await hostInventory(ctx);
    const model = inventory.system.model;
    const evidence: Record<string, unknown> = { manufacturer: inventory.system.manufacturer, model, profileFamily: wanted, source: inventory.source };
    if (wanted === 'any') {
      return skip(t.noFamily({ profile: ctx.profile.name }), {
        remediation: t.setFamily,
        evidence,
      });
    }
    if (model === null) {
      const why = inventory.unknown.find((u) => u.field === 'system.model' || u.field === 'inventory')?.reason ?? 'not read';
      return skip(t.unknownModel({ why }), {
        remediation: t.readDmi,
        evidence,
      });
    }
    const server = atlasServer(model);
    const label = `"${model}"${inventory.system.manufacturer ? ` (${inventory.system.manufacturer})` : ''}`;
    if (wanted === '310p') {
      return skip(t.generalServer({ server: label }), {
        remediation: t.cardsJudged,
        evidence,
      });
    }
    if (!server) {
      return skip(t.notAtlas({ server: label }), {
        remediation: t.npusJudged,
        evidence,
      });
    }
    evidence.serverFamily = server.family;
    if (server.family === wanted) return pass(t.matches({ server: label, family: FAMILY_NAMES[server.family], profile: ctx.profile.name }), { evidence });
    return fail(t.mismatch({ server: label, family: FAMILY_NAMES[server.family], profile: ctx.profile.name, wanted: FAMILY_NAMES[wanted] }), {
      expected: FAMILY_NAMES[wanted],
      actual: `${FAMILY_NAMES[server.family]}: DMI product name ${label}`,
      remediation: t.useProfileFor({ family: FAMILY_NAMES[server.family], wanted: FAMILY_NAMES[wanted] }),
      evidence,
    });
  },
});
