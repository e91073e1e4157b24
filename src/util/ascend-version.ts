/**
 * Ascend version strings are not semver: drivers print `25.0.rc1.1`, `24.1.RC2`, `23.0.0`,
 * `21.0.4.B030`, CANN `8.3.RC2` or `7.0.T10`, firmware `7.7.0.1.231`. This is the one
 * comparator qprep uses for all of them.
 *
 * Ordering, per dot-separated position: numbers compare numerically; at one position a test
 * build (`T10`, `alpha`, `beta`) sorts before a release candidate (`rc1`, `RC2`), which sorts
 * before a release number (`25.0.rc1.1 < 25.0.0`), which sorts before a build suffix
 * (`21.0.4 < 21.0.4.B030`). A missing position counts as release 0, so `25.0 = 25.0.0` and
 * `25.0.rc1 < 25.0.rc1.1`. `rc`, `RC` and `Rc` are the same.
 */

type TokenKind = 'test' | 'rc' | 'release' | 'build';

interface Token {
  kind: TokenKind;
  value: number;
}

const KIND_RANK: Record<TokenKind, number> = { test: 0, rc: 1, release: 2, build: 3 };

function tokenOf(part: string): Token | undefined {
  if (/^\d{1,9}$/.test(part)) return { kind: 'release', value: Number(part) };
  const match = /^(rc|t|alpha|beta|b|spc)(\d{0,9})$/i.exec(part);
  if (!match) return undefined;
  const label = match[1]!.toLowerCase();
  const value = match[2] ? Number(match[2]) : 0;
  if (label === 'rc') return { kind: 'rc', value };
  if (label === 'b' || label === 'spc') return { kind: 'build', value };
  return { kind: 'test', value };
}

/** The tokens of a version, or undefined when it is not an Ascend version (empty parts, stray words). */
function tokenize(version: string): Token[] | undefined {
  const text = version.trim().replace(/^v(?=\d)/i, '');
  if (text === '' || text.length > 64) return undefined;
  const tokens: Token[] = [];
  for (const part of text.split('.')) {
    const token = tokenOf(part);
    if (!token) return undefined;
    tokens.push(token);
  }
  return tokens;
}

export function isAscendVersion(version: string): boolean {
  return tokenize(version) !== undefined;
}

function compareTokens(a: readonly Token[], b: readonly Token[]): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] ?? { kind: 'release', value: 0 };
    const y = b[i] ?? { kind: 'release', value: 0 };
    if (x.kind !== y.kind) return KIND_RANK[x.kind] - KIND_RANK[y.kind];
    if (x.value !== y.value) return x.value < y.value ? -1 : 1;
  }
  return 0;
}

/** Negative, zero or positive as `a` sorts before, with or after `b`; undefined when either is not a version. */
export function compareAscendVersions(a: string, b: string): number | undefined {
  const x = tokenize(a);
  const y = tokenize(b);
  if (!x || !y) return undefined;
  const order = compareTokens(x, y);
  return order < 0 ? -1 : order > 0 ? 1 : 0;
}

/** `24.1` is a prefix of `24.1.rc2.2` and of `24.1`; `24.1` is not a prefix of `24.10`. */
export function hasVersionPrefix(version: string, prefix: string): boolean {
  const v = tokenize(version);
  const p = tokenize(prefix);
  if (!v || !p || p.length > v.length) return false;
  return p.every((token, i) => token.kind === v[i]!.kind && token.value === v[i]!.value);
}

/**
 * Is `version` in the range the vendor files write as `[low,high]`? A high bound ending in a
 * dot is a prefix: firmware's `compatible_version_drv=[24.1,24.1.]` means "24.1 and every
 * 24.1.x". Undefined when a bound or the version does not parse.
 */
export function inVersionRange(version: string, low: string, high: string): boolean | undefined {
  if (high.endsWith('.')) {
    const prefix = high.slice(0, -1);
    const atLow = compareAscendVersions(version, low);
    if (atLow === undefined || !isAscendVersion(prefix)) return undefined;
    return atLow === 0 || hasVersionPrefix(version, prefix);
  }
  const aboveLow = compareAscendVersions(version, low);
  const belowHigh = compareAscendVersions(version, high);
  if (aboveLow === undefined || belowHigh === undefined) return undefined;
  return aboveLow >= 0 && belowHigh <= 0;
}

/** `[7.0.0,7.7.99]` or `[23.0.0,23.0.0.],[24.1,24.1.]` or `[V100R001C17],[V100R001C18]` as [low, high] pairs. */
export function parseBracketList(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const match of text.matchAll(/\[([^\][]{0,200})\]/g)) {
    const parts = match[1]!.split(',').map((p) => p.trim());
    if (parts.length === 1 && parts[0]) pairs.push([parts[0], parts[0]]);
    else if (parts.length === 2 && parts[0] && parts[1]) pairs.push([parts[0], parts[1]]);
  }
  return pairs;
}

/** A vendor inner version such as `V100R001C21SPC002B220`: CANN and drivers match on V, R and C. */
export interface InnerVersion {
  v: number;
  r: number;
  c: number;
  spc: number | null;
  b: number | null;
  /** `V100R001C21`, the part compatibility lists name */
  vrc: string;
}

export function parseInnerVersion(text: string): InnerVersion | undefined {
  const match = /^V(\d{1,4})R(\d{1,4})C(\d{1,4})(?:SPC(\d{1,4}))?(?:B(\d{1,6}))?$/i.exec(text.trim());
  if (!match) return undefined;
  const [v, r, c] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return {
    v,
    r,
    c,
    spc: match[4] ? Number(match[4]) : null,
    b: match[5] ? Number(match[5]) : null,
    vrc: `V${match[1]}R${match[2]}C${match[3]}`.toUpperCase(),
  };
}

function vrcOrder(a: InnerVersion, b: InnerVersion): number {
  return a.v - b.v || a.r - b.r || a.c - b.c;
}

/**
 * Does a list such as `[V100R001C17],[V100R001C13,V100R001C19]` name `inner` (by V, R and C)?
 * Undefined when the list holds no inner version at all.
 */
export function innerVersionListIncludes(list: string, inner: InnerVersion): boolean | undefined {
  let understood = false;
  for (const [lowText, highText] of parseBracketList(list)) {
    const low = parseInnerVersion(lowText);
    const high = parseInnerVersion(highText);
    if (!low || !high) continue;
    understood = true;
    if (vrcOrder(inner, low) >= 0 && vrcOrder(inner, high) <= 0) return true;
  }
  return understood ? false : undefined;
}
