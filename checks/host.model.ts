import { pass, fail, skip } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { atlasServer } from '../src/parsers/server-model.js';
import { hostInventory } from '../src/probes/inventory.js';

const FAMILY_NAMES = { a2: 'Atlas A2 (910B)', a3: 'Atlas A3 (910C)', '310p': 'Atlas 300I Duo / 200I Pro (310P)' } as const;

export default defineCheck({
  id: 'host.model',
  title: 'Server model for the profile',
  category: 'host',
  level: 'required',
  why:
    'A profile is written for one server generation: an Atlas 800 A3 runs 16 dies with TP16 and an A3 super pod, ' +
    'an Atlas 800 A2 has 8 NPUs. Run on the wrong server, the NPU count, the HCCL settings and the parallel layout ' +
    'of the profile are all wrong at once, and the launch fails late (or runs at half the size). The DMI product ' +
    'name of the server says which generation it is.',
  reads: ['/sys/class/dmi/id/product_name', '/sys/class/dmi/id/sys_vendor', 'systeminformation system()'],
  fix: 'Run the profile written for this server (qprep list --profiles shows the family of each), or run on the server the profile is for.',
  async run(ctx) {
    const wanted = ctx.profile.npu.family;
    const inventory = await hostInventory(ctx);
    const model = inventory.system.model;
    const evidence: Record<string, unknown> = { manufacturer: inventory.system.manufacturer, model, profileFamily: wanted, source: inventory.source };
    if (wanted === 'any') {
      return skip(`the profile ${ctx.profile.name} names no NPU family (npu.family: any)`, {
        remediation: 'set npu.family (a2, a3, 310p) in the profile, or use a built-in deployment profile, to have the server model checked',
        evidence,
      });
    }
    if (model === null) {
      const why = inventory.unknown.find((u) => u.field === 'system.model' || u.field === 'inventory')?.reason ?? 'not read';
      return skip(`the server model is unknown (${why}): not judged`, {
        remediation: 'run qprep where /sys/class/dmi/id is readable (on the host, or with the host root mounted: --root)',
        evidence,
      });
    }
    const server = atlasServer(model);
    const label = `"${model}"${inventory.system.manufacturer ? ` (${inventory.system.manufacturer})` : ''}`;
    if (wanted === '310p') {
      return skip(`the server is ${label}: 300I Duo and 200I Pro cards go into general servers, whose model does not name the NPU family`, {
        remediation: 'nothing to do here: npu.count and npu.devices judge the cards',
        evidence,
      });
    }
    if (!server) {
      return skip(`the server is ${label}, not an Atlas A2/A3 model qprep recognizes: the family is judged by the NPU checks`, {
        remediation: 'nothing to do here: npu.count and npu.devices judge the NPUs of this server',
        evidence,
      });
    }
    evidence.serverFamily = server.family;
    if (server.family === wanted) return pass(`${label} is an ${FAMILY_NAMES[server.family]} server, as profile ${ctx.profile.name} expects`, { evidence });
    return fail(`${label} is an ${FAMILY_NAMES[server.family]} server, but profile ${ctx.profile.name} is for ${FAMILY_NAMES[wanted]}`, {
      expected: FAMILY_NAMES[wanted],
      actual: `${FAMILY_NAMES[server.family]}: DMI product name ${label}`,
      remediation: `run with a profile for ${FAMILY_NAMES[server.family]} (qprep list --profiles shows the family of each), or run this profile on an ${FAMILY_NAMES[wanted]} server`,
      evidence,
    });
  },
});
