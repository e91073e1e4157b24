import { fail, pass, skip } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { driverVersionInfo, firmwareVersionInfo } from '../src/probes/ascend-versions.js';
import { npuBoard } from '../src/probes/npu.js';
import { declaredDriverFirmware } from '../src/util/ascend-compat.js';

export default defineCheck({
  id: 'npu.firmware-version',
  title: 'Firmware version fits the driver',
  category: 'npu',
  level: 'recommended',
  why:
    'Driver and firmware are released in pairs: the driver declares the firmware range it supports ' +
    '(compatible_version_fw), the firmware the drivers it supports (compatible_version_drv), and npu-smi -t board ' +
    'prints the driver\'s own verdict (Compatibility OK/NOK). A mismatch usually follows a driver upgrade without the ' +
    'firmware. Recommended rather than required: the driver installer refuses most bad pairs itself, and a pair that slips ' +
    'through shows up in npu.health; this check names the cause.',
  reads: ['npu-smi info -t board -i <card>', '<firmware>/version.info', '<driver>/version.info'],
  fix: 'Install the firmware package that belongs to the installed driver (same HDK release), then reboot.',
  async run(ctx) {
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
        return skip('the firmware version is not visible in this container (npu-smi -t board named none, and the guides do not mount /usr/local/Ascend/firmware); run qprep on the host to check it', {
          remediation: 'on the host: qprep check --only npu.firmware-version',
          evidence,
        });
      }
      return fail(`no firmware version: ${firmwareFile.ok ? 'version.info names none' : firmwareFile.reason}; npu-smi -t board: ${boardRead.problem ?? 'named none'}`, {
        remediation: 'install the firmware package of the driver\'s HDK release (Ascend-hdk-*-npu-firmware_*.run --full), then reboot',
        evidence,
      });
    }
    if (boardRead.info?.compatibility?.toUpperCase() === 'NOK') {
      return fail(`the driver reports firmware ${firmware} as not compatible (npu-smi info -t board: Compatibility NOK)`, {
        expected: 'Compatibility OK',
        actual: 'NOK',
        remediation: `install the firmware package of driver ${driver?.version ?? 'the installed driver'}'s HDK release, then reboot`,
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
      const ranges = [
        driver?.compatibleFirmware.length ? `driver ${driver.version} takes firmware ${driver.compatibleFirmware.map(([l, h]) => `[${l}, ${h}]`).join(', ')}` : '',
        firmwareDeclarations.length ? `firmware ${firmware} takes drivers ${firmwareDeclarations.map(([l, h]) => `[${l}, ${h}]`).join(', ')}` : '',
      ].filter(Boolean);
      return fail(`firmware ${firmware} does not fit driver ${driver?.version ?? '?'}: ${ranges.join('; ')}`, {
        expected: ranges.join('; '),
        actual: `firmware ${firmware}, driver ${driver?.version ?? '?'}`,
        remediation: 'install the firmware package of the driver\'s HDK release (Ascend-hdk-*-npu-firmware_*.run --full), then reboot',
        evidence,
      });
    }
    const how =
      verdict.verdict === 'compatible'
        ? `within the range the ${verdict.by.join(' and ')} declare${verdict.by.length === 1 ? 's' : ''}`
        : 'neither file declares a range';
    const compat = boardRead.info?.compatibility ? `; npu-smi Compatibility ${boardRead.info.compatibility}` : '';
    return pass(`firmware ${firmware} with driver ${driver?.version ?? '?'}: ${how}${compat}`, { evidence });
  },
});
