import { fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { cannInstall, driverVersionInfo } from '../src/probes/ascend-versions.js';
import { npuInventory } from '../src/probes/npu.js';
import { declaredDriverCann, describeInnerList, knownIncompatibilities } from '../src/util/ascend-compat.js';
import { compareAscendVersions } from '../src/util/ascend-version.js';

export default defineCheck({
  id: 'npu.cann',
  title: 'CANN toolkit fits the driver',
  category: 'npu',
  level: 'required',
  why:
    'Each vllm-ascend release pins one CANN version, and each CANN runs on the drivers it was released against: the ' +
    'driver\'s version.info lists the CANN inner versions it accepts and the CANN install record the drivers it supports. ' +
    'A CANN image newer than the host driver fails late, e.g. DeepSeek-V3.2 with CANN 8.3.RC2 on driver 24.1 hangs until ' +
    '"watchdog timeout". Known-bad pairs that the files do not reveal are kept in a table of reported failures. A profile ' +
    'can name the oldest CANN its deployment runs on (npu.minCann). Required. ' +
    'A bare host without CANN is skipped: the toolkit ships in the vllm-ascend image.',
  reads: [
    'ASCEND_TOOLKIT_HOME, ASCEND_HOME_PATH',
    '<toolkit>/<arch>-linux/ascend_toolkit_install.info (ascend-toolkit/latest, /usr/local/Ascend/cann, cann-<version>, nnae), or a component version.info',
    '<driver>/version.info',
  ],
  fix: 'Use the vllm-ascend image (or CANN release) made for the installed driver, or upgrade the driver and firmware to the HDK the CANN release notes name.',
  async run(ctx) {
    const [cann, driverFile, inventory, container, identity] = await Promise.all([
      cannInstall(ctx),
      driverVersionInfo(ctx),
      npuInventory(ctx),
      ctx.container(),
      ctx.host.identity(),
    ]);
    if (!cann.found) {
      const evidence = { searched: cann.searched, envNotes: cann.envNotes };
      if (!container.inContainer) {
        return skip(`no CANN toolkit on this host${cann.envNotes.length ? ` (${cann.envNotes.join('; ')})` : ''}; it ships in the vllm-ascend image: run qprep inside the container to check it`, {
          remediation: 'check it where vLLM runs: docker exec <container> qprep check --only npu.cann (or install CANN on this host if vLLM runs here)',
          evidence,
        });
      }
      return fail(`no CANN toolkit in this container${cann.envNotes.length ? ` (${cann.envNotes.join('; ')})` : ''}`, {
        expected: 'ascend_toolkit_install.info under ASCEND_TOOLKIT_HOME or /usr/local/Ascend',
        actual: 'not found',
        remediation: 'use a vllm-ascend image (quay.io/ascend/vllm-ascend), or install CANN and source /usr/local/Ascend/ascend-toolkit/set_env.sh',
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
      return fail(`CANN ${version} at ${cann.home} is built for ${info.arch}, this host is ${identity.arch}`, {
        expected: identity.arch,
        actual: info.arch,
        remediation: `install the ${identity.arch} CANN package (or use the image for this architecture)`,
        evidence,
      });
    }
    const minimum = ctx.profile.npu.minCann;
    if (minimum !== undefined && (compareAscendVersions(version, minimum) ?? 0) < 0) {
      return fail(`CANN ${version} at ${cann.home} is older than ${minimum}, the minimum of profile ${ctx.profile.name}`, {
        expected: `>= ${minimum}`,
        actual: version,
        remediation: `use a vllm-ascend image built on CANN ${minimum} or later (the release's installation page names its CANN), or install that CANN and source its set_env.sh`,
        evidence: { ...evidence, minCann: minimum },
      });
    }
    if (!driverVersion) {
      return warn(`CANN ${version} at ${cann.home}; no driver version to check it against (driver version.info unreadable, npu-smi unavailable)`, {
        remediation: 'make the driver version readable (see npu.driver-version), then re-run',
        evidence,
      });
    }
    const declared = declaredDriverCann(driver, { version, innerVersion: info.innerVersion, compatibleDrivers: info.compatibleDrivers });
    const known = knownIncompatibilities(driverVersion, version);
    const confirmed = known.filter((k) => k.confidence === 'confirmed');
    const reported = known.filter((k) => k.confidence === 'reported');
    const pairText = `CANN ${version}${info.innerVersion ? ` (${info.innerVersion.vrc})` : ''} with driver ${driverVersion}${driver.innerVersion ? ` (${driver.innerVersion.vrc})` : ''}`;

    if (declared.verdict === 'incompatible') {
      const lists = [
        driver.compatibleCann ? `the driver accepts CANN ${describeInnerList(driver.compatibleCann)}` : '',
        info.compatibleDrivers ? `CANN supports drivers ${describeInnerList(info.compatibleDrivers)}` : '',
      ].filter(Boolean);
      return fail(`${pairText} is not a supported pair: ${lists.join('; ')}`, {
        expected: lists.join('; '),
        actual: pairText,
        remediation: 'use the vllm-ascend image made for this driver, or upgrade the driver and firmware to the HDK release the CANN release notes name',
        evidence,
      });
    }
    if (confirmed.length > 0) {
      const row = confirmed[0]!;
      return fail(`${pairText} is known to fail: ${row.symptom}`, {
        expected: 'a driver/CANN pair without known failures',
        actual: pairText,
        remediation: `${row.fix} (${row.sources[0]})`,
        evidence: { ...evidence, knownIssues: known },
      });
    }
    if (reported.length > 0) {
      const row = reported[0]!;
      return warn(`${pairText} has a reported failure: ${row.symptom}`, {
        remediation: `${row.fix} (${row.sources[0]})`,
        evidence: { ...evidence, knownIssues: known },
      });
    }
    const how = declared.verdict === 'compatible' ? `declared compatible by the ${declared.by.join(' and ')}` : 'neither file declares the other; no known failure';
    const envNote = cann.envNotes.length ? ` (note: ${cann.envNotes.join('; ')})` : '';
    return pass(`${pairText}: ${how}${envNote}`, { evidence });
  },
});
