/**
 * The kernel's cpulist format (/sys/devices/system/cpu/online, Cpus_allowed_list): "0-3,8,10-11".
 * Returns undefined when the text is not a cpulist; never throws.
 */
export function parseCpuList(text: string): number[] | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const cpus: number[] = [];
  for (const part of trimmed.split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) return undefined;
    const low = Number(match[1]);
    const high = match[2] === undefined ? low : Number(match[2]);
    if (high < low || high - low > 65536) return undefined;
    for (let cpu = low; cpu <= high; cpu++) cpus.push(cpu);
  }
  return [...new Set(cpus)].sort((a, b) => a - b);
}
