import { INCOMPATIBLE_DRIVER_CANN, type IncompatibleCombination, type VersionMatch } from '../data/driver-cann-incompatible.js';
import { compareAscendVersions, hasVersionPrefix, innerVersionListIncludes, inVersionRange, type InnerVersion } from '../util/ascend-version.js';

/**
 * Driver/CANN and driver/firmware compatibility from what the vendor files declare. Each side
 * lists the other side's versions it was released against; the newer of the two knows about
 * the older, the older cannot know about the newer. So a pair is compatible when either side
 * lists the other, incompatible when every side that declares a list leaves the other out,
 * and undeclared when neither file has a list.
 */
export type Declared = 'compatible' | 'incompatible' | 'undeclared';

export interface DeclarationVerdict {
  verdict: Declared;
  /** which side's list settled it, for the message */
  by: string[];
}

function combine(sides: Array<{ name: string; includes: boolean | undefined }>): DeclarationVerdict {
  const yes = sides.filter((s) => s.includes === true).map((s) => s.name);
  if (yes.length > 0) return { verdict: 'compatible', by: yes };
  const no = sides.filter((s) => s.includes === false).map((s) => s.name);
  if (no.length > 0) return { verdict: 'incompatible', by: no };
  return { verdict: 'undeclared', by: [] };
}

export interface DriverDeclarations {
  version: string | null;
  innerVersion: InnerVersion | null;
  /** `compatible_version` of driver/version.info: CANN inner versions */
  compatibleCann: string | null;
  /** `compatible_version_fw` of driver/version.info */
  compatibleFirmware: Array<[string, string]>;
}

export interface CannDeclarations {
  version: string | null;
  innerVersion: InnerVersion | null;
  /** `compatible_version` of the CANN install record: driver inner versions */
  compatibleDrivers: string | null;
}

export function declaredDriverCann(driver: DriverDeclarations, cann: CannDeclarations): DeclarationVerdict {
  return combine([
    { name: 'driver', includes: cann.innerVersion && driver.compatibleCann ? innerVersionListIncludes(driver.compatibleCann, cann.innerVersion) : undefined },
    { name: 'CANN', includes: driver.innerVersion && cann.compatibleDrivers ? innerVersionListIncludes(cann.compatibleDrivers, driver.innerVersion) : undefined },
  ]);
}

function anyRange(version: string, ranges: ReadonlyArray<[string, string]>): boolean | undefined {
  if (ranges.length === 0) return undefined;
  const answers = ranges.map(([low, high]) => inVersionRange(version, low, high));
  if (answers.includes(true)) return true;
  return answers.every((a) => a === undefined) ? undefined : false;
}

export function declaredDriverFirmware(
  driver: { version: string | null; compatibleFirmware: Array<[string, string]> },
  firmware: { version: string | null; compatibleDrivers: Array<[string, string]> },
): DeclarationVerdict {
  return combine([
    { name: 'driver', includes: firmware.version ? anyRange(firmware.version, driver.compatibleFirmware) : undefined },
    { name: 'firmware', includes: driver.version ? anyRange(driver.version, firmware.compatibleDrivers) : undefined },
  ]);
}

function matches(version: string, match: VersionMatch): boolean {
  if (match.prefix !== undefined && !hasVersionPrefix(version, match.prefix)) return false;
  if (match.min !== undefined && !((compareAscendVersions(version, match.min) ?? -1) >= 0)) return false;
  if (match.max !== undefined && !((compareAscendVersions(version, match.max) ?? 1) <= 0)) return false;
  return true;
}

/** The known-bad combinations (src/data/driver-cann-incompatible.ts) this pair falls into. */
export function knownIncompatibilities(driverVersion: string, cannVersion: string, table: readonly IncompatibleCombination[] = INCOMPATIBLE_DRIVER_CANN): IncompatibleCombination[] {
  return table.filter((row) => matches(driverVersion, row.driver) && matches(cannVersion, row.cann));
}

/** `[V100R001C17],...,[V100R001C21]` as `V100R001C17-C21` for messages. */
export function describeInnerList(list: string): string {
  const cs = [...list.matchAll(/V(\d+)R(\d+)C(\d+)/gi)].map((m) => ({ vr: `V${m[1]}R${m[2]}`, c: Number(m[3]) }));
  if (cs.length === 0) return list;
  const sameVr = cs.every((x) => x.vr === cs[0]!.vr);
  if (!sameVr) return cs.map((x) => `${x.vr}C${x.c}`).join(', ');
  const sorted = cs.map((x) => x.c).sort((a, b) => a - b);
  return `${cs[0]!.vr}C${sorted.map(String).join('/C')}`;
}
