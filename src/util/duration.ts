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
 * A duration as a command-line option takes it: its milliseconds, or why it is refused. A bare
 * number is refused, never read as milliseconds or seconds: `--timeout 10` meant 10 ms while
 * every other duration of qprep took units, and no reader can tell which was meant.
 */
export function judgeDuration(
  text: string,
  minimumMs = 1,
  maximumMs = Infinity,
): { ms: number } | { refused: 'no-unit' | 'not-a-duration' | 'too-short' | 'too-long' } {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return { refused: Number(trimmed) > 0 ? 'no-unit' : 'not-a-duration' };
  const ms = parseDuration(trimmed);
  if (ms === undefined) return { refused: 'not-a-duration' };
  if (ms < minimumMs) return { refused: 'too-short' };
  return ms > maximumMs ? { refused: 'too-long' } : { ms };
}

/** 2_147_483_647 -> "24d20h31m23s647ms": every unit, nothing rounded, as a duration option takes it back. */
export function formatExactDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms));
  const parts: string[] = [];
  for (const [unit, size] of Object.entries(UNIT_MS).sort(([, a], [, b]) => b - a)) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count}${unit}`);
  }
  return parts.length > 0 ? parts.join('') : '0ms';
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
