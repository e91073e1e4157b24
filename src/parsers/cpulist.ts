import { NR_CPUS, parseIdRanges, type IdRanges } from './id-ranges.js';

/**
 * The kernel's cpulist format (/sys/devices/system/cpu/online, Cpus_allowed_list): "0-3,8,10-11",
 * bounded by NR_CPUS (8192): a list naming CPU 8192 or more, or more than 8192 entries, is an
 * impossible value (see id-ranges.ts). Never throws.
 */
export function readCpuList(text: string): IdRanges {
  return parseIdRanges(text, NR_CPUS);
}

/** The CPUs of a cpulist, or undefined when the text is not one or is impossible. */
export function parseCpuList(text: string): number[] | undefined {
  const parsed = readCpuList(text);
  return parsed.ok ? parsed.ids : undefined;
}
