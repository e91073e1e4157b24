import { decodeText, MAX_LINE_LENGTH, splitLines, type TextInput } from './lines.js';

/**
 * The files pip leaves for an installed distribution, read as text (nothing is imported):
 * the core metadata of a `.dist-info` (METADATA) or `.egg-info` (PKG-INFO), the PEP 610
 * `direct_url.json` of an editable or local install, the one path of a setuptools `.egg-link`,
 * and vllm-ascend's generated `vllm_ascend/_build_info.py`.
 */

export interface CoreMetadata {
  name: string | null;
  version: string | null;
}

/**
 * Core metadata (packaging.python.org, "Core metadata specifications"): `Name: value` header
 * lines up to the first empty line, then the description. Only the header is read.
 */
export function parseCoreMetadata(input: TextInput): CoreMetadata {
  const found: CoreMetadata = { name: null, version: null };
  for (const line of splitLines(decodeText(input))) {
    if (line.trim() === '') break;
    if (line.length > MAX_LINE_LENGTH || /^\s/.test(line)) continue;
    const match = /^(Name|Version):[ \t]*(\S.*?)\s*$/i.exec(line);
    if (!match) continue;
    const key = match[1]!.toLowerCase() as 'name' | 'version';
    found[key] ??= match[2]!;
  }
  return found;
}

export interface DirectUrl {
  url: string;
  /** dir_info.editable: pip install -e */
  editable: boolean;
  /** the local directory a file:// URL names */
  path: string | null;
}

/** PEP 610 direct_url.json: `{"url": "file:///vllm-workspace/vllm-ascend", "dir_info": {"editable": true}}`. */
export function parseDirectUrl(input: TextInput): DirectUrl | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeText(input));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const document = parsed as { url?: unknown; dir_info?: unknown };
  if (typeof document.url !== 'string') return null;
  const dirInfo = typeof document.dir_info === 'object' && document.dir_info !== null ? (document.dir_info as { editable?: unknown }) : {};
  let path: string | null = null;
  if (document.url.startsWith('file://')) {
    try {
      path = decodeURIComponent(document.url.slice('file://'.length)).replace(/\/+$/, '') || '/';
    } catch {
      path = null;
    }
    if (path !== null && !path.startsWith('/')) path = null;
  }
  return { url: document.url, editable: dirInfo.editable === true, path };
}

/** A setuptools `NAME.egg-link` (pip install -e with an old setuptools): the source directory on its first line. */
export function parseEggLink(input: TextInput): string | null {
  const first = splitLines(decodeText(input))[0]?.trim() ?? '';
  return first.startsWith('/') && first.length <= MAX_LINE_LENGTH ? first.replace(/\/+$/, '') || '/' : null;
}

export interface BuildInfo {
  /** `__device_type__`: the device type vllm-ascend was built for (A2, A3, _310P, A5) */
  deviceType: string | null;
  /** `__soc_version__`, which older builds wrote instead */
  socVersion: string | null;
}

/**
 * vllm_ascend/_build_info.py, written by vllm-ascend's setup.py at build time:
 * `# Auto-generated file` then `__device_type__ = 'A2'`.
 */
export function parseBuildInfo(input: TextInput): BuildInfo {
  const info: BuildInfo = { deviceType: null, socVersion: null };
  for (const line of splitLines(decodeText(input))) {
    if (line.length > MAX_LINE_LENGTH) continue;
    const match = /^\s*(__device_type__|__soc_version__)\s*=\s*(['"])([^'"]{1,64})\2\s*$/.exec(line);
    if (!match) continue;
    if (match[1] === '__device_type__') info.deviceType ??= match[3]!;
    else info.socVersion ??= match[3]!;
  }
  return info;
}
