/**
 * Python package versions as PEP 440 orders them, for what qprep compares: vllm-ascend's release
 * tags (`v0.13.0rc3`, `v0.7.3.post1`), the versions pip records (`0.16.0rc2.dev902+gf355e4673`,
 * `0.23.0+empty`, `2.10.0.post4`), transformers' `5.2.0`. The local part (`+...`) is kept but never
 * ordered, as PEP 440 says for comparisons against a public version. `main` (vllm-ascend's branch)
 * orders after every version.
 */

export interface Pep440 {
  release: number[];
  pre?: { kind: 'a' | 'b' | 'rc'; n: number };
  post?: number;
  dev?: number;
  local?: string;
}

const PATTERN = /^v?(\d+(?:\.\d+)*)(?:[-_.]?(a|b|c|rc|alpha|beta)[-_.]?(\d*))?(?:[-_.]?(?:post|rev|r)[-_.]?(\d*))?(?:[-_.]?dev[-_.]?(\d*))?(?:\+([a-z0-9.]+))?$/i;

export function parsePep440(text: string): Pep440 | undefined {
  const match = PATTERN.exec(text.trim());
  if (!match) return undefined;
  const release = match[1]!.split('.').map(Number);
  while (release.length < 3) release.push(0);
  const version: Pep440 = { release };
  if (match[2]) {
    const word = match[2].toLowerCase();
    const kind = word === 'alpha' ? 'a' : word === 'beta' ? 'b' : word === 'c' ? 'rc' : (word as 'a' | 'b' | 'rc');
    version.pre = { kind, n: Number(match[3] || 0) };
  }
  if (match[4] !== undefined) version.post = Number(match[4] || 0);
  if (match[5] !== undefined) version.dev = Number(match[5] || 0);
  if (match[6]) version.local = match[6];
  return version;
}

const PRE: Record<'a' | 'b' | 'rc', number> = { a: 0, b: 1, rc: 2 };

function comparePublic(a: Pep440, b: Pep440): number {
  for (let i = 0; i < Math.max(a.release.length, b.release.length); i++) {
    const diff = (a.release[i] ?? 0) - (b.release[i] ?? 0);
    if (diff !== 0) return diff;
  }
  // X.devN < X.aN < X.rcN < X < X.postN
  const phase = (v: Pep440) => (v.pre ? 0 : v.dev !== undefined && v.post === undefined ? -1 : 1);
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  if (a.pre && b.pre) {
    const diff = PRE[a.pre.kind] - PRE[b.pre.kind] || a.pre.n - b.pre.n;
    if (diff !== 0) return diff;
  }
  const post = (a.post ?? -1) - (b.post ?? -1);
  if (post !== 0) return post;
  if (a.dev === b.dev) return 0;
  return a.dev === undefined ? 1 : b.dev === undefined ? -1 : a.dev - b.dev;
}

/** <0, 0 or >0; undefined when either is not a version (main orders after every version). */
export function comparePep440(a: string, b: string): number | undefined {
  if (a === b) return 0;
  if (a === 'main' || b === 'main') return a === 'main' ? (b === 'main' ? 0 : 1) : -1;
  const pa = parsePep440(a);
  const pb = parsePep440(b);
  if (!pa || !pb) return undefined;
  return comparePublic(pa, pb);
}

/** The public version without its local part: "0.23.0+empty" -> "0.23.0". */
export function publicVersion(text: string): string {
  return text.trim().replace(/\+.*$/, '');
}
