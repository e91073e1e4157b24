import { isAscendVersion, parseBracketList, parseInnerVersion, type InnerVersion } from '../util/ascend-version.js';
import { decodeText, MAX_LINE_LENGTH, preview, splitLines, type TextInput } from './lines.js';

/**
 * The vendor's version and install-info files: `key=value` lines (driver and firmware
 * `version.info`, `/etc/ascend_install.info`, CANN `ascend_toolkit_install.info`, component
 * `version.info`), or `key : value` lines (NNAL, MindIE). Unknown keys are kept, CR and
 * surrounding quotes are dropped, keys are looked up without case.
 */

export interface AscendFile {
  entries: Array<{ key: string; value: string; line: number }>;
  /** non-empty lines that are not `key=value` or `key : value` */
  skippedLines: Array<{ line: number; text: string }>;
}

export function parseAscendKeyValue(input: TextInput): AscendFile {
  const file: AscendFile = { entries: [], skippedLines: [] };
  splitLines(decodeText(input)).forEach((raw, index) => {
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) return;
    const skip = () => {
      if (file.skippedLines.length < 20) file.skippedLines.push({ line: index + 1, text: preview(text) });
    };
    if (raw.length > MAX_LINE_LENGTH) return skip();
    const equals = text.indexOf('=');
    const colon = text.indexOf(':');
    const at = equals < 0 ? colon : colon < 0 ? equals : Math.min(equals, colon);
    if (at <= 0) return skip();
    const key = text.slice(0, at).trim();
    let value = text.slice(at + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!/^[\w .()-]{1,80}$/.test(key)) return skip();
    file.entries.push({ key, value, line: index + 1 });
  });
  return file;
}

export function fileValue(file: AscendFile, key: string): string | undefined {
  const wanted = key.toLowerCase();
  const value = file.entries.find((e) => e.key.toLowerCase() === wanted)?.value;
  return value === '' ? undefined : value;
}

/** `/usr/local/Ascend/driver/version.info`. */
export interface DriverVersionInfo {
  /** `package_version` when present (the release), else `Version` */
  version: string | null;
  innerVersion: InnerVersion | null;
  innerVersionText: string | null;
  /** `compatible_version=[V100R001C17],...`: the CANN inner versions this driver accepts */
  compatibleCann: string | null;
  /** `compatible_version_fw=[7.0.0,7.7.99]`: the firmware range */
  compatibleFirmware: Array<[string, string]>;
  ascendhalVersion: string | null;
}

/**
 * Newer drivers write the release into `package_version` and may put a component number in
 * `Version` (`Version=7.35.23`, `package_version=26.0.rc1`): the package wins.
 */
export function parseDriverVersionInfo(input: TextInput): DriverVersionInfo {
  const file = parseAscendKeyValue(input);
  const pkg = fileValue(file, 'package_version');
  const version = pkg && isAscendVersion(pkg) ? pkg : (fileValue(file, 'Version') ?? pkg ?? null);
  const innerText = fileValue(file, 'Innerversion') ?? null;
  return {
    version: version ?? null,
    innerVersion: innerText ? (parseInnerVersion(innerText) ?? null) : null,
    innerVersionText: innerText,
    compatibleCann: fileValue(file, 'compatible_version') ?? null,
    compatibleFirmware: parseBracketList(fileValue(file, 'compatible_version_fw') ?? ''),
    ascendhalVersion: fileValue(file, 'ascendhal_version') ?? null,
  };
}

/** `/usr/local/Ascend/firmware/version.info`. */
export interface FirmwareVersionInfo {
  /** `Version=7.7.0.1.231` */
  version: string | null;
  /** the HDK package it came with */
  packageVersion: string | null;
  /** `compatible_version_drv=[24.1,24.1.],...`: driver versions (a trailing dot is a prefix) */
  compatibleDrivers: Array<[string, string]>;
}

export function parseFirmwareVersionInfo(input: TextInput): FirmwareVersionInfo {
  const file = parseAscendKeyValue(input);
  return {
    version: fileValue(file, 'Version') ?? null,
    packageVersion: fileValue(file, 'package_version') ?? null,
    compatibleDrivers: parseBracketList(fileValue(file, 'compatible_version_drv') ?? ''),
  };
}

/** `/etc/ascend_install.info`: where the driver and firmware were installed, and whether completely. */
export interface AscendInstallInfo {
  driverInstallPath: string | null;
  firmwareInstallPath: string | null;
  /** `complete` on a finished install of a recent driver; absent on older ones */
  driverInstallStatus: string | null;
  userName: string | null;
  userGroup: string | null;
}

export function parseAscendInstallInfo(input: TextInput): AscendInstallInfo {
  const file = parseAscendKeyValue(input);
  return {
    driverInstallPath: fileValue(file, 'Driver_Install_Path_Param') ?? null,
    firmwareInstallPath: fileValue(file, 'Firmware_Install_Path_Param') ?? null,
    driverInstallStatus: fileValue(file, 'Driver_Install_Status') ?? null,
    userName: fileValue(file, 'UserName') ?? null,
    userGroup: fileValue(file, 'UserGroup') ?? null,
  };
}

/** CANN: `ascend_toolkit_install.info` (also `ascend_nnae_install.info`) or a component `version.info`. */
export interface CannInstallInfo {
  packageName: string | null;
  /** the release: `8.3.RC2`, `9.0.0` (a component file's `version_dir`) */
  version: string | null;
  innerVersion: InnerVersion | null;
  innerVersionText: string | null;
  /** `compatible_version=[V100R001C15],...`: the driver inner versions this CANN declares it runs on */
  compatibleDrivers: string | null;
  arch: string | null;
  path: string | null;
  /** the component number when read from a component version.info (`Version=8.2.0.0.201`) */
  componentVersion: string | null;
}

export function parseCannInstallInfo(input: TextInput): CannInstallInfo {
  const file = parseAscendKeyValue(input);
  const innerText = fileValue(file, 'innerversion') ?? null;
  const versionDir = fileValue(file, 'version_dir');
  const plainVersion = fileValue(file, 'version');
  return {
    packageName: fileValue(file, 'package_name') ?? null,
    version: versionDir ?? plainVersion ?? null,
    innerVersion: innerText ? (parseInnerVersion(innerText) ?? null) : null,
    innerVersionText: innerText,
    compatibleDrivers: fileValue(file, 'compatible_version') ?? null,
    arch: fileValue(file, 'arch') ?? null,
    path: fileValue(file, 'path') ?? null,
    componentVersion: versionDir ? (plainVersion ?? null) : null,
  };
}

/** NNAL's ATB: `/usr/local/Ascend/nnal/atb/latest/version.info`, `key : value` lines. */
export interface AtbVersionInfo {
  /** `Ascend-cann-atb : 8.2.RC1`: the release */
  version: string | null;
  /** `Ascend-cann-atb Version : 8.2.RC1.B150`: the build */
  build: string | null;
}

export function parseAtbVersionInfo(input: TextInput): AtbVersionInfo {
  const file = parseAscendKeyValue(input);
  return { version: fileValue(file, 'Ascend-cann-atb') ?? null, build: fileValue(file, 'Ascend-cann-atb Version') ?? null };
}
