const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  ki: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  mi: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
  gi: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1000 ** 4,
  tib: 1024 ** 4,
  ti: 1024 ** 4,
};

/**
 * Parses "1GiB", "16g" (docker's --shm-size spelling, binary), "500 GB" (decimal) or a plain
 * number of bytes. Returns undefined for anything else.
 */
export function parseSize(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(input);
  if (!match) return undefined;
  const factor = UNITS[match[2]!.toLowerCase()];
  if (factor === undefined) return undefined;
  return Math.round(Number(match[1]) * factor);
}

/** 1073741824 -> "1.0 GiB" */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A storage rate in decimal units, as disks and networks are rated: 52400000 -> "52.4 MB/s" */
export function formatRate(bytesPerSecond: number): string {
  const units = ['B/s', 'kB/s', 'MB/s', 'GB/s', 'TB/s'];
  let value = bytesPerSecond;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B/s` : `${value.toFixed(1)} ${units[unit]}`;
}
