/** /proc/meminfo as bytes per field ("MemTotal:  16318412 kB" -> MemTotal: 16710053888). Never throws. */
export function parseMeminfo(text: string): Map<string, number> {
  const fields = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z0-9_()]+):\s+(\d+)(?:\s+(kB))?\s*$/.exec(line);
    if (match) fields.set(match[1]!, Number(match[2]) * (match[3] ? 1024 : 1));
  }
  return fields;
}
