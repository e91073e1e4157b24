import { globMatches } from '../util/glob.js';

/** One `key = value` line of a sysctl.d(5) file. */
export interface SysctlAssignment {
  /** the key with dots as separators (vm.swappiness), as sysctl.d(5) normalizes it */
  key: string;
  value: string;
  /** 1-based line number */
  line: number;
  /** a leading "-": failures to set it are ignored */
  ignoreErrors: boolean;
}

/**
 * sysctl.d(5) keys may use "/" as the separator; when the first separator is a slash, slashes
 * and dots swap (net/ipv4/conf/eth0.100/rp_filter is net.ipv4.conf.eth0/100.rp_filter).
 */
export function normalizeSysctlKey(key: string): string {
  const first = /[./]/.exec(key);
  if (!first || first[0] === '.') return key;
  return key.replace(/[./]/g, (c) => (c === '/' ? '.' : '/'));
}

/**
 * Parses a sysctl.d / sysctl.conf file: comments start with "#" or ";", lines without "=" are
 * ignored (as systemd-sysctl does). Never throws.
 */
export function parseSysctlConf(text: string): SysctlAssignment[] {
  const assignments: SysctlAssignment[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const equals = line.indexOf('=');
    if (equals <= 0) continue;
    let key = line.slice(0, equals).trim();
    const ignoreErrors = key.startsWith('-');
    if (ignoreErrors) key = key.slice(1).trim();
    if (key === '' || /\s/.test(key)) continue;
    assignments.push({ key: normalizeSysctlKey(key), value: line.slice(equals + 1).trim(), line: i + 1, ignoreErrors });
  }
  return assignments;
}

/** Does a (possibly globbed, systemd >= 238) sysctl.d key set `key`? */
export function sysctlKeyMatches(pattern: string, key: string): boolean {
  if (!pattern.includes('*') && !pattern.includes('?')) return pattern === key;
  return globMatches(pattern, key, { separator: '.', classes: false });
}
