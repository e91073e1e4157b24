import type { CheckContext } from '../core/types.js';
import { parseAtbVersionInfo, parseCannInstallInfo } from '../parsers/ascend-files.js';
import { parseBuildInfo } from '../parsers/python-dist.js';
import { cannInstall, DEFAULT_ASCEND_ROOT, driverVersionInfo, firmwareVersionInfo } from './ascend-versions.js';
import { launchView } from './launch.js';
import { installedDistributions, pythonSite, type Distribution } from './python.js';

/**
 * The software stack a launch would run on, read on the node from files only (nothing is
 * imported or run): the Python distributions of the interpreter the launch script runs (their
 * METADATA), the device type the installed vllm-ascend was built for, the CANN toolkit, its
 * kernels and NNAL's ATB (their version files), the driver and firmware, and what the official
 * vllm-ascend images tell about themselves. Every read goes through the host seam, so a
 * snapshot records it and a replay answers the same.
 */

/** The distributions of the stack, by the key the report uses, with their PEP 503 names. */
export const STACK_PACKAGES = {
  vllmAscend: 'vllm-ascend',
  vllm: 'vllm',
  torch: 'torch',
  torchNpu: 'torch-npu',
  transformers: 'transformers',
  tritonAscend: 'triton-ascend',
} as const;

export type StackPackage = keyof typeof STACK_PACKAGES;

export interface PackageFact {
  version: string;
  /** the .dist-info / .egg-info directory */
  path: string;
  versionFrom: Distribution['versionFrom'];
  /** the source tree of an editable install (pip install -e) */
  editable: string | null;
}

export interface ComponentFact {
  version: string;
  /** the file it was read from */
  path: string;
}

export interface InstalledStack {
  python: { path: string | null; via: string; sitePackages: string[] };
  packages: Record<StackPackage, PackageFact | null>;
  /**
   * vllm_ascend/_build_info.py: the device type vllm-ascend was built for (A2, A3, _310P, A5; from
   * v0.12.0rc1); null when the file is not there
   */
  vllmAscendBuild: { deviceType: string | null; path: string } | null;
  cann: {
    toolkit: (ComponentFact & { arch: string | null }) | null;
    /** opp_kernel/version.info of the toolkit's home: the kernels package (Ascend-cann-kernels) */
    kernels: (ComponentFact & { build: string | null }) | null;
    /** NNAL's ATB: nnal/atb/latest/version.info (and its set_env.sh) */
    atb: (ComponentFact & { build: string | null; setEnv: string | null }) | null;
  };
  driver: ComponentFact | null;
  firmware: ComponentFact | null;
  /**
   * What the container tells of its image. The official vllm-ascend images record no tag; their
   * Dockerfiles set SOC_VERSION, the chip the image was built for (ascend910b1, ascend910_9391,
   * ascend310p1, ...), which the process environment shows.
   */
  image: { socVersion: string | null };
  /** the paths looked at that held nothing, for "not found" messages */
  searched: string[];
}

function packageFact(distribution: Distribution | undefined): PackageFact | null {
  if (!distribution) return null;
  return { version: distribution.version, path: distribution.path, versionFrom: distribution.versionFrom, editable: distribution.editable ? distribution.location : null };
}

async function packagesOf(ctx: CheckContext, sitePackages: readonly string[]): Promise<{ packages: InstalledStack['packages']; found: Distribution[] }> {
  const found = await installedDistributions(ctx, sitePackages, Object.values(STACK_PACKAGES));
  const first = (name: string) => found.find((d) => d.name === name);
  const packages = Object.fromEntries(Object.entries(STACK_PACKAGES).map(([key, name]) => [key, packageFact(first(name))])) as InstalledStack['packages'];
  return { packages, found };
}

/** vllm_ascend/_build_info.py beside the installed package (the source tree of an editable install). */
async function buildInfoOf(ctx: CheckContext, vllmAscend: Distribution | undefined, searched: string[]): Promise<InstalledStack['vllmAscendBuild']> {
  if (!vllmAscend) return null;
  const path = `${vllmAscend.location}/vllm_ascend/_build_info.py`;
  const read = await ctx.host.readFile(path);
  if (!read.ok) {
    searched.push(path);
    return null;
  }
  const info = parseBuildInfo(read.value);
  return { deviceType: info.deviceType, path };
}

async function component<T>(ctx: CheckContext, path: string, parse: (text: string) => T, searched: string[]): Promise<T | null> {
  const read = await ctx.host.readFile(path);
  if (read.ok) return parse(read.value);
  searched.push(path);
  return null;
}

async function cannOf(ctx: CheckContext, searched: string[]): Promise<InstalledStack['cann']> {
  const toolkit = await cannInstall(ctx);
  const home = toolkit.found ? toolkit.home : `${DEFAULT_ASCEND_ROOT}/ascend-toolkit/latest`;
  const kernelsPath = `${home}/opp_kernel/version.info`;
  const kernels = await component(ctx, kernelsPath, parseCannInstallInfo, searched);
  // ATB_HOME_PATH is nnal/atb/latest/atb/cxx_abi_N after nnal/atb/set_env.sh; its version.info is two levels up
  const atbHome = ctx.host.env().ATB_HOME_PATH?.trim();
  const atbRoot = atbHome && atbHome.startsWith('/') ? atbHome.replace(/\/+$/, '').replace(/\/[^/]+\/[^/]+$/, '') : `${DEFAULT_ASCEND_ROOT}/nnal/atb/latest`;
  const atbPath = `${atbRoot}/version.info`;
  const atb = await component(ctx, atbPath, parseAtbVersionInfo, searched);
  const setEnvPath = `${DEFAULT_ASCEND_ROOT}/nnal/atb/set_env.sh`;
  const setEnv = (await ctx.host.stat(setEnvPath)).ok ? setEnvPath : null;
  return {
    toolkit: toolkit.found && toolkit.info.version ? { version: toolkit.info.version, path: toolkit.path, arch: toolkit.info.arch } : null,
    kernels: kernels?.version ? { version: kernels.version, build: kernels.componentVersion, path: kernelsPath } : null,
    atb: atb?.version ? { version: atb.version, build: atb.build, path: atbPath, setEnv } : null,
  };
}

/** The stack of this node, once per run: the Python of the launch script (or the vllm first on PATH). */
export function installedStack(ctx: CheckContext): Promise<InstalledStack> {
  return ctx.shared('installed-stack', async () => {
    const searched: string[] = [];
    const view = await launchView(ctx);
    const site = await pythonSite(ctx, view);
    const { packages, found } = await packagesOf(ctx, site.sitePackages);
    if (site.python && !packages.vllmAscend) searched.push(...site.sitePackages.map((dir) => `${dir}/vllm_ascend-*.dist-info`));
    const vllmAscendBuild = await buildInfoOf(ctx, found.find((d) => d.name === STACK_PACKAGES.vllmAscend), searched);
    // the version files the NPU checks read too (memoized), one after the other
    const cann = await cannOf(ctx, searched);
    const driver = await driverVersionInfo(ctx);
    const firmware = await firmwareVersionInfo(ctx);
    const soc = ctx.host.env().SOC_VERSION?.trim();
    return {
      python: { path: site.python, via: site.via, sitePackages: site.sitePackages },
      packages,
      vllmAscendBuild,
      cann,
      driver: driver.ok && driver.value.version ? { version: driver.value.version, path: driver.path } : null,
      firmware: firmware.ok && firmware.value.version ? { version: firmware.value.version, path: firmware.path } : null,
      image: { socVersion: soc ? soc : null },
      searched,
    };
  });
}
