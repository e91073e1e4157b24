const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration as operators write one: "500ms", "45s", "30m", "2h", "1d", or combined
 * "1h30m". Returns milliseconds, or undefined for anything else (a bare number has no obvious unit).
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?(ms|[smhd]))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|[smhd])/g)) total += Number(match[1]) * UNIT_MS[match[2]!]!;
  return total > 0 ? Math.round(total) : undefined;
}

/**
 * A timeout as --timeout takes it: a duration ("10s", "500ms", "2m") or, as before units were
 * accepted, a bare number of milliseconds. Undefined when it is neither or not positive.
 */
export function parseTimeout(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) > 0 ? Number(trimmed) : undefined;
  return parseDuration(trimmed);
}

/** 95_000 -> "1m35s", 7_200_000 -> "2h": the largest two units, for ages in tables. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const parts: Array<[number, string]> = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor((seconds % 86_400) / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'm'],
    [seconds % 60, 's'],
  ];
  const first = parts.findIndex(([value]) => value > 0);
  return parts
    .slice(first, first + 2)
    .filter(([value]) => value > 0)
    .map(([value, unit]) => `${value}${unit}`)
    .join('');
}
