import { error, fail, pass, warn } from '../src/core/outcome.js';
import { defineCheck, type CheckContext, type Outcome } from '../src/core/types.js';
import { driverVersionInfo } from '../src/probes/ascend-versions.js';
import { npuInventory } from '../src/probes/npu.js';
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
  return fail(`driver ${version} (${path}) is older than ${minimum}, the minimum of profile ${ctx.profile.name}`, {
    expected: `>= ${minimum}`,
    actual: version,
    remediation: `upgrade the NPU driver and firmware (Ascend HDK) to ${minimum} or later on the host: Ascend-hdk-*-npu-firmware_*.run --full, then Ascend-hdk-*-npu-driver_*.run --full, reboot; or use the image made for driver ${version}`,
    evidence: { ...evidence, minDriver: minimum },
  });
}

export default defineCheck({
  id: 'npu.driver-version',
  title: 'Driver version (version.info and npu-smi agree, at least the profile minimum)',
  category: 'npu',
  level: 'required',
  why:
    'CANN checks the driver it runs on through driver/version.info, while npu-smi reports the driver actually loaded. ' +
    'When the two differ, the version.info is not the host\'s (a copy baked into the image, or a half-finished upgrade) ' +
    'or npu-smi belongs to another driver, and CANN\'s compatibility decision rests on a wrong version: the "driver version ' +
    'inconsistency" reports end that way. A profile can name the oldest driver its deployment runs on (npu.minDriver): ' +
    'each vllm-ascend image carries one CANN, and each CANN release names the HDK it needs. Required.',
  reads: ['<driver>/version.info (driver dir from /etc/ascend_install.info, /usr/local/Ascend/driver by default)', 'npu-smi info (Version:)'],
  fix: 'Mount the host\'s driver/version.info into the container, or finish the driver upgrade (reinstall the package, reboot); below the profile minimum, upgrade the driver and firmware (Ascend HDK).',
  async run(ctx) {
    const [file, inventory, container] = await Promise.all([driverVersionInfo(ctx), npuInventory(ctx), ctx.container()]);
    const mountFlag = '-v /usr/local/Ascend/driver/version.info:/usr/local/Ascend/driver/version.info';
    if (!file.ok) {
      const missing = file.code === 'ENOENT';
      const remediation = container.inContainer
        ? `add ${mountFlag} to docker run`
        : 'reinstall the NPU driver package (Ascend-hdk-*-npu-driver_*.run --full)';
      if (!missing) return error(`cannot read the driver version: ${file.reason}`, { remediation, evidence: { path: file.path } });
      return fail(`no driver version: ${file.reason}`, { expected: 'driver/version.info', actual: 'missing', remediation, evidence: { path: file.path } });
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
      return error(`${file.path} names no driver version (no Version= or package_version= line)`, {
        remediation: 'reinstall the NPU driver package; the file is damaged',
        evidence,
      });
    }
    if (!inventory.ok || !inventory.driverVersion) {
      const tooOld = belowMinimum(ctx, info.version, file.path, evidence);
      if (tooOld) return tooOld;
      return warn(`driver ${info.version} per ${file.path}; npu-smi could not confirm it${inventory.ok ? ' (its table names no version)' : `: ${inventory.problem.message}`}`, {
        remediation: 'make npu-smi work (see npu.smi), then re-run',
        evidence,
      });
    }
    const order = compareAscendVersions(info.version, inventory.driverVersion);
    if (order !== 0 && info.version.toLowerCase() !== inventory.driverVersion.toLowerCase()) {
      return fail(`driver ${info.version} per ${file.path}, but npu-smi reports driver ${inventory.driverVersion}`, {
        expected: inventory.driverVersion,
        actual: info.version,
        remediation: container.inContainer
          ? `the container's ${file.path} is not the host's: add ${mountFlag} to docker run (and mount npu-smi from the host too)`
          : 'a driver upgrade is unfinished or npu-smi belongs to another install: reinstall the driver package and reboot',
        evidence,
      });
    }
    const tooOld = belowMinimum(ctx, info.version, file.path, evidence);
    if (tooOld) return tooOld;
    const minimum = ctx.profile.npu.minDriver;
    const atLeast = minimum !== undefined && compareAscendVersions(info.version, minimum) !== undefined ? `, at least ${minimum} (profile ${ctx.profile.name})` : '';
    return pass(`driver ${info.version}${info.innerVersionText ? ` (${info.innerVersionText})` : ''}; version.info and npu-smi agree${atLeast}`, { evidence });
  },
});
