/**
 * Shell-style globs of configuration files (sysctl.d keys, tmpfiles.d paths), matched without
 * regular expressions: a pattern such as `kernel.*a*a*a*a*a*a*a*a*a*a*b` compiled to a regex
 * backtracks exponentially, and a file on the host must never be able to hang qprep. This
 * matcher is the classic one with a single backtrack point, O(pattern × text).
 */

type Token = { kind: 'star' } | { kind: 'any' } | { kind: 'char'; char: string } | { kind: 'class'; negated: boolean; ranges: Array<[string, string]> };

/** The tokens of one component, or undefined when a `[` is never closed. */
function tokenize(pattern: string, classes: boolean): Token[] | undefined {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[' && classes) {
      let j = i + 1;
      const negated = pattern[j] === '!' || pattern[j] === '^';
      if (negated) j++;
      const ranges: Array<[string, string]> = [];
      // a "]" right after the opening (or the negation) is a member, as in the shell
      let first = true;
      while (j < pattern.length && (pattern[j] !== ']' || first)) {
        const low = pattern[j]!;
        if (pattern[j + 1] === '-' && j + 2 < pattern.length && pattern[j + 2] !== ']') {
          ranges.push([low, pattern[j + 2]!]);
          j += 3;
        } else {
          ranges.push([low, low]);
          j++;
        }
        first = false;
      }
      if (j >= pattern.length) return undefined;
      tokens.push({ kind: 'class', negated, ranges });
      i = j;
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

function matchesOne(token: Token, c: string): boolean {
  switch (token.kind) {
    case 'any':
      return true;
    case 'char':
      return token.char === c;
    case 'class':
      return token.ranges.some(([low, high]) => c >= low && c <= high) !== token.negated;
    case 'star':
      return false;
  }
}

function matchComponent(tokens: readonly Token[], text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resumeAt = 0;
  while (t < text.length) {
    const token = tokens[p];
    if (token && token.kind !== 'star' && matchesOne(token, text[t]!)) {
      p++;
      t++;
    } else if (token?.kind === 'star') {
      star = p++;
      resumeAt = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resumeAt;
    } else return false;
  }
  while (tokens[p]?.kind === 'star') p++;
  return p === tokens.length;
}

/**
 * Does `text` match the glob? `*` and `?` never match `separator` (a sysctl key's "." or a path's
 * "/"), so both are compared component by component; `[...]` classes only with `classes`
 * (an unclosed `[` matches nothing).
 */
export function globMatches(pattern: string, text: string, options: { separator: string; classes: boolean }): boolean {
  const patternParts = pattern.split(options.separator);
  const textParts = text.split(options.separator);
  if (patternParts.length !== textParts.length) return false;
  return patternParts.every((part, i) => {
    const tokens = tokenize(part, options.classes);
    return tokens !== undefined && matchComponent(tokens, textParts[i]!);
  });
}
