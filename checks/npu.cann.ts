import { fail, pass, skip, warn } from '../src/core/outcome.js';
import { en } from '../src/i18n/en/index.js';
import { defineCheck } from '../src/core/define-check.js';
import { cannInstall, driverVersionInfo } from '../src/probes/ascend-versions.js';
import { npuInventory } from '../src/probes/npu.js';
import { declaredDriverCann, describeInnerList, knownIncompatibilities } from '../src/probes/ascend-compat.js';
import { compareAscendVersions } from '../src/util/ascend-version.js';

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.cann',
  category: 'npu',
  order: 100,
  level: 'required',
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
    if (!cann.found) {
      const evidence = { searched: cann.searched, envNotes: cann.envNotes };
      if (!container.inContainer) {
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
  },
});
