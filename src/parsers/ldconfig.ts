export interface LdCacheEntry {
  soname: string;
  /** "libc6,x86-64", "libc6,AArch64", ... */
  flags: string;
  path: string;
}

/** `ldconfig -p`: "\tlibjemalloc.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libjemalloc.so.2". Never throws. */
export function parseLdconfigCache(text: string): LdCacheEntry[] {
  const entries: LdCacheEntry[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s+(\S+)\s+\(([^)]*)\)(?:\s+OS ABI:[^=]*)?\s+=>\s+(\S+)\s*$/.exec(line);
    if (match) entries.push({ soname: match[1]!, flags: match[2]!, path: match[3]! });
  }
  return entries;
}

/** Does an ldconfig flags string describe a library for this machine's architecture? */
export function ldFlagsMatchArch(flags: string, arch: string): boolean {
  const lower = flags.toLowerCase();
  if (arch === 'x86_64') return lower.includes('x86-64');
  if (arch === 'aarch64') return lower.includes('aarch64');
  return true;
}
