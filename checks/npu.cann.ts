import { fail, pass, skip, warn } from '../src/core/outcome.js';
import { en } from '../src/i18n/en/index.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { cannInstall, driverVersionInfo, type CannLocation } from '../src/probes/ascend-versions.js';
import { npuInventory } from '../src/probes/npu.js';
import { declaredDriverCann, describeInnerList, knownIncompatibilities, type DriverDeclarations } from '../src/probes/ascend-compat.js';
import { compareAscendVersions } from '../src/util/ascend-version.js';

type Found = Extract<CannLocation, { found: true }>;

/** No CANN: fine on a host (it lives in the serving image), a failure in the container that serves. */
function noCann(ctx: CheckContext, cann: Extract<CannLocation, { found: false }>, inContainer: boolean, notes: string | null): Outcome {
  const t = ctx.text.checks['npu.cann'];
  const evidence = { searched: cann.searched, envNotes: cann.envNotes };
  if (!inContainer) {
    return skip(t.noneOnHost({ notes }), {
      remediation: t.checkInContainer,
      evidence,
    });
  }
  return fail(t.noneInContainer({ notes }), {
    expected: 'ascend_toolkit_install.info under ASCEND_TOOLKIT_HOME or /usr/local/Ascend',
    actual: 'not found',
    remediation: t.useImage,
    evidence,
  });
}

/**
 * The driver and CANN pair: what their version files declare about each other, then the
 * table of pairs known to fail (confirmed: a fail; reported: a warning).
 */
function pairVerdict(ctx: CheckContext, cann: Found, driver: DriverDeclarations & { version: string }, evidence: Record<string, unknown>, notes: string | null): Outcome {
  const t = ctx.text.checks['npu.cann'];
  const info = cann.info;
  const version = info.version!;
  const driverVersion = driver.version;
  const declared = declaredDriverCann(driver, { version, innerVersion: info.innerVersion, compatibleDrivers: info.compatibleDrivers });
  const known = knownIncompatibilities(driverVersion, version);
  const confirmed = known.filter((k) => k.confidence === 'confirmed');
  const reported = known.filter((k) => k.confidence === 'reported');
  const pairOf = (words: typeof t) =>
    words.pair({ version, inner: info.innerVersion?.vrc ?? null, driver: driverVersion, driverInner: driver.innerVersion?.vrc ?? null });
  // actual and expected are for programs: English; the message says the pair in the run's language
  const englishT = en.checks['npu.cann'];
  const pairText = pairOf(englishT);
  const pair = pairOf(t);

  if (declared.verdict === 'incompatible') {
    const lists = (words: typeof t) =>
      [
        driver.compatibleCann ? words.driverAccepts({ list: describeInnerList(driver.compatibleCann) }) : '',
        info.compatibleDrivers ? words.cannSupports({ list: describeInnerList(info.compatibleDrivers) }) : '',
      ].filter(Boolean);
    return fail(t.unsupported({ pair, lists: lists(t).join(ctx.text.report.clauseSeparator) }), {
      expected: lists(englishT).join('; '),
      actual: pairText,
      remediation: t.imageForDriver,
      evidence,
    });
  }
  if (confirmed.length > 0) {
    const row = confirmed[0]!;
    return fail(t.knownToFail({ pair, symptom: row.symptom }), {
      expected: 'a driver/CANN pair without known failures',
      actual: pairText,
      remediation: `${row.fix} (${row.sources[0]})`,
      evidence: { ...evidence, knownIssues: known },
    });
  }
  if (reported.length > 0) {
    const row = reported[0]!;
    return warn(t.reportedFailure({ pair, symptom: row.symptom }), {
      remediation: `${row.fix} (${row.sources[0]})`,
      evidence: { ...evidence, knownIssues: known },
    });
  }
  const how = declared.verdict === 'compatible' ? t.declaredBy({ by: declared.by }) : t.undeclared;
  return pass(t.fits({ pair, how, notes }), { evidence });
}

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.cann',
  category: 'npu',
  order: 100,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.cann'];
    const [cann, driverFile, inventory, container, identity] = await Promise.all([
      cannInstall(ctx),
      driverVersionInfo(ctx),
      npuInventory(ctx),
      ctx.container(),
      ctx.host.identity(),
    ]);
    const notes = cann.envNotes.length ? cann.envNotes.join(ctx.text.report.clauseSeparator) : null;
    if (!cann.found) return noCann(ctx, cann, container.inContainer, notes);
    const info = cann.info;
    const version = info.version!;
    const driverVersion = (driverFile.ok ? driverFile.value.version : null) ?? (inventory.ok ? inventory.driverVersion : null);
    const driver = {
      version: driverVersion,
      innerVersion: driverFile.ok ? driverFile.value.innerVersion : null,
      compatibleCann: driverFile.ok ? driverFile.value.compatibleCann : null,
      compatibleFirmware: [],
    };
    const evidence = {
      path: cann.path,
      via: cann.via,
      version,
      innerVersion: info.innerVersionText,
      arch: info.arch,
      compatibleDrivers: info.compatibleDrivers,
      driverVersion,
      driverInnerVersion: driverFile.ok ? driverFile.value.innerVersionText : null,
      driverCompatibleCann: driver.compatibleCann,
      envNotes: cann.envNotes,
    };

    if (info.arch && info.arch !== identity.arch) {
      return fail(t.wrongArch({ version, home: cann.home, arch: info.arch, hostArch: identity.arch }), {
        expected: identity.arch,
        actual: info.arch,
        remediation: t.installArch({ arch: identity.arch }),
        evidence,
      });
    }
    const minimum = ctx.profile.npu.minCann;
    if (minimum !== undefined && (compareAscendVersions(version, minimum) ?? 0) < 0) {
      return fail(t.tooOld({ version, home: cann.home, minimum, profile: ctx.profile.name }), {
        expected: `>= ${minimum}`,
        actual: version,
        remediation: t.newerImage({ minimum }),
        evidence: { ...evidence, minCann: minimum },
      });
    }
    if (!driverVersion) {
      return warn(t.noDriver({ version, home: cann.home }), {
        remediation: t.readDriver,
        evidence,
      });
    }
    return pairVerdict(ctx, cann, { ...driver, version: driverVersion }, evidence, notes);
  },
});
