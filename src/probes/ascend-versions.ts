import type { CheckContext } from '../core/types.js';
import { describeProbeError, type ProbeErrorCode } from '../host/types.js';
import {
  parseAscendInstallInfo,
  parseCannInstallInfo,
  parseDriverVersionInfo,
  parseFirmwareVersionInfo,
  type AscendInstallInfo,
  type CannInstallInfo,
  type DriverVersionInfo,
  type FirmwareVersionInfo,
} from '../parsers/ascend-files.js';
import { compareAscendVersions } from '../util/ascend-version.js';

/** Reads of the vendor's version and install files, each once per run. */

/** `reason` is English (evidence); `text` says the same in the run's language, for messages. */
export type FileRead<T> = { ok: true; path: string; value: T } | { ok: false; path: string; code: ProbeErrorCode; reason: string; text: string };

async function readParsed<T>(ctx: CheckContext, path: string, parse: (text: string) => T): Promise<FileRead<T>> {
  const read = await ctx.host.readFile(path);
  if (!read.ok) return { ok: false, path, code: read.code, reason: describeProbeError(path, read), text: describeProbeError(path, read, ctx.text.probes.file) };
  return { ok: true, path, value: parse(read.value) };
}

export const INSTALL_INFO_PATH = '/etc/ascend_install.info';
export const DEFAULT_ASCEND_ROOT = '/usr/local/Ascend';

export interface AscendInstall {
  installInfo: FileRead<AscendInstallInfo>;
  /** `<Driver_Install_Path_Param>/driver`, /usr/local/Ascend/driver by default */
  driverRoot: string;
  firmwareRoot: string;
}

function joinRoot(base: string | null, leaf: string): string {
  const root = base && base.startsWith('/') ? base.replace(/\/+$/, '') : DEFAULT_ASCEND_ROOT;
  return `${root || ''}/${leaf}`;
}

/** /etc/ascend_install.info and the driver and firmware directories it names. */
export function ascendInstall(ctx: CheckContext): Promise<AscendInstall> {
  return ctx.shared('ascend-install', async () => {
    const installInfo = await readParsed(ctx, INSTALL_INFO_PATH, parseAscendInstallInfo);
    const info = installInfo.ok ? installInfo.value : null;
    return {
      installInfo,
      driverRoot: joinRoot(info?.driverInstallPath ?? null, 'driver'),
      firmwareRoot: joinRoot(info?.firmwareInstallPath ?? info?.driverInstallPath ?? null, 'firmware'),
    };
  });
}

export function driverVersionInfo(ctx: CheckContext): Promise<FileRead<DriverVersionInfo>> {
  return ctx.shared('driver-version-info', async () => {
    const { driverRoot } = await ascendInstall(ctx);
    return readParsed(ctx, `${driverRoot}/version.info`, parseDriverVersionInfo);
  });
}

export function firmwareVersionInfo(ctx: CheckContext): Promise<FileRead<FirmwareVersionInfo>> {
  return ctx.shared('firmware-version-info', async () => {
    const { firmwareRoot } = await ascendInstall(ctx);
    return readParsed(ctx, `${firmwareRoot}/version.info`, parseFirmwareVersionInfo);
  });
}

export type CannLocation =
  | { found: true; path: string; home: string; via: string; info: CannInstallInfo; searched: string[]; envNotes: string[] }
  | { found: false; searched: string[]; envNotes: string[] };

/**
 * Finds the CANN toolkit: the homes named by ASCEND_TOOLKIT_HOME and ASCEND_HOME_PATH first
 * (what set_env.sh exports and vllm-ascend images set), then the classic
 * `ascend-toolkit/latest`, the CANN 8.5+/9.x `/usr/local/Ascend/cann` and `cann-<version>`
 * directories, and nnae. In each home the install record (`<arch>-linux/ascend_toolkit_install.info`,
 * or at the top on newer layouts) is read, else a component `version.info`.
 */
export function cannInstall(ctx: CheckContext): Promise<CannLocation> {
  return ctx.shared('cann-install', async () => {
    const env = ctx.host.env();
    const { arch } = await ctx.host.identity();
    const homes: Array<{ home: string; via: string }> = [];
    const envNotes: string[] = [];
    for (const name of ['ASCEND_TOOLKIT_HOME', 'ASCEND_HOME_PATH'] as const) {
      const value = env[name]?.trim();
      if (!value) continue;
      if (!value.startsWith('/')) {
        envNotes.push(`${name}=${value} is not an absolute path`);
        continue;
      }
      const stat = await ctx.host.stat(value);
      if (!stat.ok) envNotes.push(`${name}=${value} does not exist`);
      else homes.push({ home: value.replace(/\/+$/, ''), via: name });
    }
    homes.push({ home: `${DEFAULT_ASCEND_ROOT}/ascend-toolkit/latest`, via: 'default location' });
    homes.push({ home: `${DEFAULT_ASCEND_ROOT}/cann`, via: 'default location' });
    const listing = await ctx.host.readDir(DEFAULT_ASCEND_ROOT);
    if (listing.ok) {
      const versioned = listing.value
        .map((e) => e.name)
        .filter((name) => /^cann-\d/.test(name))
        .sort((a, b) => -(compareAscendVersions(a.slice(5), b.slice(5)) ?? 0));
      for (const name of versioned) homes.push({ home: `${DEFAULT_ASCEND_ROOT}/${name}`, via: 'default location' });
    }
    homes.push({ home: `${DEFAULT_ASCEND_ROOT}/nnae/latest`, via: 'default location' });

    const searched: string[] = [];
    const seen = new Set<string>();
    for (const { home, via } of homes) {
      if (seen.has(home)) continue;
      seen.add(home);
      if (!(await ctx.host.stat(home)).ok) {
        searched.push(home);
        continue;
      }
      const candidates = [
        `${home}/${arch}-linux/ascend_toolkit_install.info`,
        `${home}/ascend_toolkit_install.info`,
        `${home}/${arch}-linux/ascend_nnae_install.info`,
        `${home}/runtime/version.info`,
        `${home}/toolkit/version.info`,
      ];
      for (const path of candidates) {
        searched.push(path);
        const read = await readParsed(ctx, path, parseCannInstallInfo);
        if (read.ok && read.value.version) return { found: true as const, path, home, via, info: read.value, searched, envNotes };
      }
    }
    return { found: false as const, searched, envNotes };
  });
}
