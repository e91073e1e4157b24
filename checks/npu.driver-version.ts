import { error, fail, pass, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { driverVersionInfo } from '../src/probes/ascend-versions.js';
import { npuInventory, npuProblemText } from '../src/probes/npu.js';
import { compareAscendVersions } from '../src/util/ascend-version.js';

/**
 * The profile's minimum driver (npu.minDriver): the CANN of the deployment's image needs at least
 * the HDK its release notes pair it with. Undefined when the profile sets none or the version passes.
 */
function belowMinimum(ctx: CheckContext, version: string, path: string, evidence: Record<string, unknown>): Outcome | undefined {
  const minimum = ctx.profile.npu.minDriver;
  if (minimum === undefined) return undefined;
  const order = compareAscendVersions(version, minimum);
  if (order === undefined || order >= 0) return undefined;
  const t = ctx.text.checks['npu.driver-version'];
  return fail(t.tooOld({ version, path, minimum, profile: ctx.profile.name }), {
    expected: `>= ${minimum}`,
    actual: version,
    remediation: t.upgrade({ minimum, version }),
    evidence: { ...evidence, minDriver: minimum },
  });
}

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.driver-version',
  category: 'npu',
  order: 80,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.driver-version'];
    const [file, inventory, container] = await Promise.all([driverVersionInfo(ctx), npuInventory(ctx), ctx.container()]);
    const mountFlag = '-v /usr/local/Ascend/driver/version.info:/usr/local/Ascend/driver/version.info';
    if (!file.ok) {
      const missing = file.code === 'ENOENT';
      const remediation = container.inContainer ? t.addMount({ flag: mountFlag }) : t.reinstall;
      if (!missing) return error(t.cannotRead({ reason: file.text }), { remediation, evidence: { path: file.path } });
      return fail(t.noVersion({ reason: file.text }), { expected: 'driver/version.info', actual: 'missing', remediation, evidence: { path: file.path } });
    }
    const info = file.value;
    const evidence = {
      path: file.path,
      version: info.version,
      innerVersion: info.innerVersionText,
      ascendhalVersion: info.ascendhalVersion,
      npuSmiDriverVersion: inventory.ok ? inventory.driverVersion : null,
    };
    if (!info.version) {
      return error(t.namesNone({ path: file.path }), {
        remediation: t.damaged,
        evidence,
      });
    }
    if (!inventory.ok || !inventory.driverVersion) {
      const tooOld = belowMinimum(ctx, info.version, file.path, evidence);
      if (tooOld) return tooOld;
      return warn(t.unconfirmed({ version: info.version, path: file.path, problem: inventory.ok ? null : npuProblemText(inventory.problem) }), {
        remediation: t.makeNpuSmiWork,
        evidence,
      });
    }
    const order = compareAscendVersions(info.version, inventory.driverVersion);
    if (order !== 0 && info.version.toLowerCase() !== inventory.driverVersion.toLowerCase()) {
      return fail(t.disagree({ version: info.version, path: file.path, loaded: inventory.driverVersion }), {
        expected: inventory.driverVersion,
        actual: info.version,
        remediation: container.inContainer ? t.notHostsFile({ path: file.path, flag: mountFlag }) : t.unfinishedUpgrade,
        evidence,
      });
    }
    const tooOld = belowMinimum(ctx, info.version, file.path, evidence);
    if (tooOld) return tooOld;
    const minimum = ctx.profile.npu.minDriver;
    const shown = minimum !== undefined && compareAscendVersions(info.version, minimum) !== undefined ? minimum : null;
    return pass(t.agree({ version: info.version, inner: info.innerVersionText || null, minimum: shown, profile: ctx.profile.name }), { evidence });
  },
});
