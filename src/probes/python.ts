import type { CheckContext } from '../core/types.js';
import { en } from '../i18n/en/index.js';
import type { PythonVia } from '../i18n/types.js';
import { parseCoreMetadata, parseDirectUrl, parseEggLink } from '../parsers/python-dist.js';
import type { LaunchView } from './launch.js';

/**
 * The Python a launch would use, found by reading files only: the `vllm` the script runs (or
 * the one first on PATH), its `#!` line, and the site-packages directories of that
 * interpreter's prefix. Installed distributions are read from their `*.dist-info` directories,
 * so nothing is imported or run (pip would start a Python that may itself be broken).
 */

export interface PythonSite {
  /** the interpreter, as the launcher's #! names it */
  python: string | null;
  /** how it was found, in English for the evidence: "the #! line of /usr/local/bin/vllm" */
  via: string;
  /** the same, for the message; null when no interpreter was found */
  how: PythonVia | null;
  /** site-packages / dist-packages directories that exist */
  sitePackages: string[];
  /** what was looked at, for "not found" messages */
  searched: string[];
}

export interface Distribution {
  /** normalized (PEP 503): vllm-ascend, torch-npu */
  name: string;
  /** METADATA's (or PKG-INFO's) Version, else the directory name's */
  version: string;
  /** the .dist-info or .egg-info directory */
  path: string;
  /** where the version was read */
  versionFrom: 'METADATA' | 'PKG-INFO' | 'directory name';
  /**
   * the directory that holds the package's modules: the site-packages directory, or the source
   * tree of an editable install (direct_url.json, pip install -e), as the official images install
   * vllm and vllm-ascend under /vllm-workspace
   */
  location: string;
  editable: boolean;
}

async function isExecutable(ctx: CheckContext, path: string): Promise<boolean> {
  const stat = await ctx.host.stat(path);
  return stat.ok && stat.value.kind === 'file' && (stat.value.mode & 0o111) !== 0;
}

function dirname(path: string): string {
  const cut = path.replace(/\/+$/, '').lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** Finds `name` on `path` (a PATH value) by reading the directories, under --root like every file. */
async function onPath(ctx: CheckContext, name: string, path: string, searched: string[]): Promise<string | undefined> {
  for (const dir of path.split(':').filter((d) => d.startsWith('/'))) {
    const candidate = `${dir.replace(/\/+$/, '')}/${name}`;
    searched.push(candidate);
    if (await isExecutable(ctx, candidate)) return candidate;
  }
  return undefined;
}

/** The interpreter of a script's `#!` line; `#!/usr/bin/env python3` is looked up on PATH. */
async function interpreterOf(ctx: CheckContext, script: string, path: string, searched: string[]): Promise<string | undefined> {
  const read = await ctx.host.readFile(script);
  if (!read.ok) return undefined;
  const first = read.value.slice(0, 512).split('\n')[0] ?? '';
  const match = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(first);
  if (!match) return undefined;
  if (/\/env$/.test(match[1]!) && match[2]) return onPath(ctx, match[2], path, searched);
  return /python/.test(match[1]!) ? match[1] : undefined;
}

async function existingDirs(ctx: CheckContext, candidates: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of [...new Set(candidates)]) {
    const stat = await ctx.host.stat(dir);
    if (stat.ok && stat.value.kind === 'directory') found.push(dir);
  }
  return found;
}

/** lib/python3.X directories of a prefix */
async function pythonLibs(ctx: CheckContext, prefix: string, lib: string): Promise<string[]> {
  const listed = await ctx.host.readDir(`${prefix}/${lib}`);
  if (!listed.ok) return [];
  return listed.value.filter((e) => /^python3(\.\d+)?$/.test(e.name)).map((e) => `${prefix}/${lib}/${e.name}`);
}

/** The interpreter and its package directories, for the launch script's server (or the PATH's vllm). */
export async function pythonSite(ctx: CheckContext, view: LaunchView | undefined): Promise<PythonSite> {
  const searched: string[] = [];
  const pathVariable = view?.env.get('PATH');
  const path = pathVariable?.value.known ? pathVariable.value.text : (ctx.host.env().PATH ?? '/usr/local/bin:/usr/bin:/bin');
  let python: string | undefined;
  let how: PythonVia | null = null;
  const executable = view?.serve?.executable;
  const launcher = executable?.known ? executable.text : 'vllm';
  const isPython = /(^|\/)python[0-9.]*$/.test(launcher);
  const resolved = launcher.startsWith('/') ? ((await isExecutable(ctx, launcher)) ? launcher : undefined) : await onPath(ctx, launcher, path, searched);
  if (launcher.startsWith('/')) searched.push(launcher);
  if (resolved && isPython) {
    python = resolved;
    how = { kind: 'script-runs', python: resolved };
  } else if (resolved) {
    python = await interpreterOf(ctx, resolved, path, searched);
    how = python ? { kind: 'shebang', launcher: resolved } : null;
  }
  if (!python) {
    const fallback = await onPath(ctx, 'python3', path, searched);
    if (fallback) {
      python = fallback;
      how = { kind: 'first-on-path', missing: resolved ? null : launcher };
    }
  }
  if (!python) return { python: null, via: '', how: null, sitePackages: [], searched };

  const prefixes = [dirname(dirname(python))];
  const link = await ctx.host.readLink(python);
  if (link.ok) {
    const target = link.value.startsWith('/') ? link.value : `${dirname(python)}/${link.value}`;
    prefixes.push(dirname(dirname(target)));
  }
  const candidates: string[] = [];
  for (const prefix of [...new Set(prefixes)]) {
    for (const lib of ['lib', 'lib64']) {
      for (const dir of await pythonLibs(ctx, prefix, lib)) candidates.push(`${dir}/site-packages`, `${dir}/dist-packages`);
    }
    // Debian: pip installs into /usr/local/lib/python3.X/dist-packages, packages into /usr/lib/python3/dist-packages
    if (prefix === '/usr') {
      for (const dir of await pythonLibs(ctx, '/usr/local', 'lib')) candidates.push(`${dir}/dist-packages`, `${dir}/site-packages`);
      candidates.push('/usr/lib/python3/dist-packages');
    }
  }
  const homeVariable = view?.env.get('HOME');
  const home = homeVariable?.value.known ? homeVariable.value.text : ctx.host.env().HOME;
  if (home) for (const dir of await pythonLibs(ctx, `${home}/.local`, 'lib')) candidates.push(`${dir}/site-packages`);
  searched.push(...candidates);
  // the evidence is the same in every language: programs read it
  return { python, via: how ? en.probes.python.via(how) : '', how, sitePackages: await existingDirs(ctx, candidates), searched };
}

/** The version a distribution's metadata file states, and where its modules are (PEP 610 for an editable install). */
async function describeDistribution(ctx: CheckContext, dir: string, entry: string, name: string, fromName: string, kind: string): Promise<Distribution> {
  const path = `${dir}/${entry}`;
  const file = kind === 'dist-info' ? 'METADATA' : 'PKG-INFO';
  const read = await ctx.host.readFile(`${path}/${file}`);
  const stated = read.ok ? parseCoreMetadata(read.value).version : null;
  const distribution: Distribution = { name, version: stated ?? fromName, path, versionFrom: stated ? file : 'directory name', location: dir, editable: false };
  if (kind === 'dist-info') {
    const direct = await ctx.host.readFile(`${path}/direct_url.json`);
    const url = direct.ok ? parseDirectUrl(direct.value) : null;
    if (url?.editable && url.path) Object.assign(distribution, { location: url.path, editable: true });
  }
  return distribution;
}

/** `NAME.egg-link` of a setuptools develop install: the source tree, whose NAME.egg-info holds PKG-INFO. */
async function eggLinked(ctx: CheckContext, dir: string, entry: string, wanted: ReadonlySet<string>): Promise<Distribution | undefined> {
  const name = normalizedName(entry.replace(/\.egg-link$/, ''));
  if (!wanted.has(name)) return undefined;
  const link = await ctx.host.readFile(`${dir}/${entry}`);
  const source = link.ok ? parseEggLink(link.value) : null;
  if (!source) return undefined;
  const listed = await ctx.host.readDir(source);
  const info = listed.ok ? listed.value.find((e) => e.name.endsWith('.egg-info') && normalizedName(e.name.replace(/\.egg-info$/, '')) === name) : undefined;
  if (!info) return undefined;
  const read = await ctx.host.readFile(`${source}/${info.name}/PKG-INFO`);
  const version = read.ok ? parseCoreMetadata(read.value).version : null;
  if (!version) return undefined;
  return { name, version, path: `${source}/${info.name}`, versionFrom: 'PKG-INFO', location: source, editable: true };
}

function normalizedName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/**
 * Distributions installed in these directories whose normalized name is one of `names` (PEP 503),
 * the first directory that has one winning, as Python's import order does. The version is the
 * one METADATA states (a local version such as 0.11.0+empty keeps its label), read as text.
 */
export async function installedDistributions(ctx: CheckContext, dirs: readonly string[], names: readonly string[]): Promise<Distribution[]> {
  const wanted = new Set(names.map(normalizedName));
  const found: Distribution[] = [];
  for (const dir of dirs) {
    const listed = await ctx.host.readDir(dir);
    if (!listed.ok) continue;
    for (const entry of listed.value) {
      const match = /^(.+?)-([^-]+?)\.(dist-info|egg-info)$/.exec(entry.name);
      if (match) {
        const name = normalizedName(match[1]!);
        if (wanted.has(name)) found.push(await describeDistribution(ctx, dir, entry.name, name, match[2]!, match[3]!));
      } else if (entry.name.endsWith('.egg-link')) {
        const linked = await eggLinked(ctx, dir, entry.name, wanted);
        if (linked) found.push(linked);
      }
    }
  }
  return found;
}
