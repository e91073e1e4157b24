import { fail, pass, skip } from '../src/core/outcome.js';
import { en } from '../src/i18n/en/index.js';
import { defineCheck } from '../src/core/define-check.js';
import { driverVersionInfo, firmwareVersionInfo } from '../src/probes/ascend-versions.js';
import { npuBoard } from '../src/probes/npu.js';
import { declaredDriverFirmware } from '../src/probes/ascend-compat.js';

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.firmware-version',
  category: 'npu',
  order: 90,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.firmware-version'];
    const [boardRead, firmwareFile, driverFile, container] = await Promise.all([npuBoard(ctx), firmwareVersionInfo(ctx), driverVersionInfo(ctx), ctx.container()]);
    const fromBoard = boardRead.info?.firmwareVersion ?? null;
    const fromFile = firmwareFile.ok ? firmwareFile.value.version : null;
    const firmware = fromBoard ?? fromFile;
    const driver = driverFile.ok ? driverFile.value : null;
    const evidence = {
      firmware,
      source: fromBoard ? 'npu-smi info -t board' : fromFile ? (firmwareFile as { path: string }).path : null,
      compatibility: boardRead.info?.compatibility ?? null,
      boardProblem: boardRead.problem ?? null,
      firmwareFile: firmwareFile.ok ? firmwareFile.value : firmwareFile.reason,
      driverVersion: driver?.version ?? null,
      driverFirmwareRange: driver?.compatibleFirmware ?? [],
    };
    if (!firmware) {
      if (container.inContainer) {
        return skip(t.notVisible, {
          remediation: t.onHost,
          evidence,
        });
      }
      return fail(t.noFirmware({ file: firmwareFile.ok ? null : firmwareFile.text, board: boardRead.problemText ?? null }), {
        remediation: t.installFirmware,
        evidence,
      });
    }
    if (boardRead.info?.compatibility?.toUpperCase() === 'NOK') {
      return fail(t.notCompatible({ firmware }), {
        expected: 'Compatibility OK',
        actual: 'NOK',
        remediation: t.installFirmwareOf({ driver: driver?.version ?? null }),
        evidence,
      });
    }
    // the firmware file's list speaks for the firmware it describes only
    const firmwareDeclarations = firmwareFile.ok && firmwareFile.value.version === firmware ? firmwareFile.value.compatibleDrivers : [];
    const verdict = declaredDriverFirmware(
      { version: driver?.version ?? null, compatibleFirmware: driver?.compatibleFirmware ?? [] },
      { version: firmware, compatibleDrivers: firmwareDeclarations },
    );
    if (verdict.verdict === 'incompatible') {
      const driverRanges = driver?.compatibleFirmware.map(([l, h]) => `[${l}, ${h}]`).join(', ') ?? '';
      const firmwareRanges = firmwareDeclarations.map(([l, h]) => `[${l}, ${h}]`).join(', ');
      // expected is for programs: English; the message says the same in the run's language
      const ranges = (words: typeof t) =>
        [
          driver?.compatibleFirmware.length ? words.driverTakes({ driver: driver.version, ranges: driverRanges }) : '',
          firmwareDeclarations.length ? words.firmwareTakes({ firmware, ranges: firmwareRanges }) : '',
        ].filter(Boolean);
      return fail(t.doesNotFit({ firmware, driver: driver?.version ?? '?', ranges: ranges(t).join(ctx.text.report.clauseSeparator) }), {
        expected: ranges(en.checks['npu.firmware-version']).join('; '),
        actual: `firmware ${firmware}, driver ${driver?.version ?? '?'}`,
        remediation: t.installFirmware,
        evidence,
      });
    }
    const how = verdict.verdict === 'compatible' ? t.withinRange({ by: verdict.by }) : t.noRange;
    return pass(t.fits({ firmware, driver: driver?.version ?? '?', how, compatibility: boardRead.info?.compatibility ?? null }), { evidence });
  },
});
