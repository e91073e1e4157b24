/** "Did you mean": the one known name closest to what was typed, as git and kubectl offer it. */

/** Optimal string alignment distance: edits, with a swap of two neighbours counting as one (chekc). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `input`, when it is close enough to be a typo (at most a third of
 * its letters wrong, and never more than 3): one suggestion or none, never a list.
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const typed = input.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed, name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (!best || best.distance === 0) return best?.name;
  const allowed = Math.min(3, Math.max(1, Math.floor(Math.max(typed.length, best.name.length) / 3)));
  return best.distance <= allowed ? best.name : undefined;
}

/** The hint line under an unknown-name error: the closest name, else where to find them all. */
export function didYouMean(input: string, candidates: Iterable<string>, whereAll: string): string {
  const match = closest(input, candidates);
  return match !== undefined ? `did you mean "${match}"?` : whereAll;
}
