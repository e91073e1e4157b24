/**
 * Driver (HDK) and CANN combinations known to fail, from public reports (reference §6.7).
 * The vendor files declare compatibility themselves (driver `compatible_version`, CANN
 * `compatible_version`), and npu.cann uses those first; this table holds the combinations
 * that the declarations let through or that a host's files do not declare, with what users
 * saw. Add a row when a new report shows one; versions compare with compareAscendVersions,
 * `prefix` matches a version and everything below it (`24.1` matches `24.1.rc2.2`).
 *
 * `confidence`: `confirmed` when the reporter isolated the combination (swapping one side
 * fixed it) or a maintainer confirmed it — npu.cann fails; `reported` when a thread points at
 * it without proof — npu.cann warns.
 */
export interface VersionMatch {
  /** the version or any of its sub-versions */
  prefix?: string;
  /** inclusive bounds */
  min?: string;
  max?: string;
}

export interface IncompatibleCombination {
  driver: VersionMatch;
  cann: VersionMatch;
  confidence: 'confirmed' | 'reported';
  symptom: string;
  fix: string;
  sources: string[];
}

export const INCOMPATIBLE_DRIVER_CANN: readonly IncompatibleCombination[] = [
  {
    driver: { prefix: '24.1' },
    cann: { prefix: '8.3.RC2' },
    confidence: 'confirmed',
    symptom: 'the model load hangs until "watchdog timeout, moduleId 7, timeout : 300s" (DeepSeek-V3.2 on vllm-ascend images with CANN 8.3.RC2); the same deployment works with CANN 8.2.RC2',
    fix: 'upgrade the NPU driver and firmware (HDK) to 25.x, or use an image built on CANN 8.2',
    sources: ['https://github.com/vllm-project/vllm-ascend/issues/5468', 'https://github.com/Ascend/cann-container-image/issues/58'],
  },
  {
    driver: { prefix: '24.1.rc3' },
    cann: { prefix: '8.0.RC3' },
    confidence: 'reported',
    symptom: '"CANN error" at the first kernel launch; the image\'s CANN 8.0.RC3 was built against driver 24.1.rc2',
    fix: 'use the driver the CANN release notes pair with CANN 8.0.RC3 (24.1.rc2), or rebuild the image on a CANN release made for the installed driver',
    sources: ['https://github.com/gpustack/gpustack/issues/755'],
  },
];
