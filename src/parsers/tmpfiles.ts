import { globMatches } from '../util/glob.js';

/** One line of a tmpfiles.d(5) file. */
export interface TmpfilesLine {
  /** the type with its modifiers, e.g. "w", "w+", "d" */
  type: string;
  path: string;
  /** the argument field ("-" when absent); for "w" lines, what is written */
  argument: string;
  /** 1-based line number */
  line: number;
}

/**
 * Parses tmpfiles.d(5): "Type Path Mode User Group Age Argument", whitespace-separated, the
 * argument being the rest of the line. Comments start with "#". Never throws.
 */
export function parseTmpfiles(text: string): TmpfilesLine[] {
  const result: TmpfilesLine[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(\S+)\s+(\S+)(?:\s+(\S+)(?:\s+(\S+)(?:\s+(\S+)(?:\s+(\S+)(?:\s+(.*))?)?)?)?)?$/.exec(line);
    if (!match) continue;
    result.push({ type: match[1]!, path: match[2]!, argument: match[7]?.trim() || '-', line: i + 1 });
  }
  return result;
}

/** Does a tmpfiles.d path (shell glob allowed for "w" lines) name `path`? */
export function tmpfilesPathMatches(pattern: string, path: string): boolean {
  if (!/[*?[]/.test(pattern)) return pattern === path;
  // an unclosed "[" is no glob tmpfiles would expand either: it matches nothing
  return globMatches(pattern, path, { separator: '/', classes: true });
}
