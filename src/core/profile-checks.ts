import { spokenError } from '../i18n/spoken-error.js';
import type { LoadedProfile } from './profile.js';
import type { Check } from './types.js';

/**
 * The check ids a profile names (levels, waivers, skip) must be checks of this catalogue: a
 * typo such as `net.prxy` would otherwise waive or promote nothing, silently. The profile
 * schema cannot know the catalogue, so this runs once the catalogue is at hand.
 */

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The nearest known name when it is close enough to be a typo of it. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (!best || d < best.distance) best = { name: candidate, distance: d };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? best.name : undefined;
}

function selects(check: Check, token: string): boolean {
  if (check.id === token || check.category === token) return true;
  const prefix = token.endsWith('.') ? token : `${token}.`;
  return check.id.startsWith(prefix);
}

/** Throws invalid-profile naming the field and the unknown id (and the check it probably meant). */
export function assertProfileCheckIds(loaded: LoadedProfile, catalogue: readonly Check[]): void {
  const ids: readonly string[] = catalogue.map((c) => c.id);
  const unknown = (field: string, id: string, what = 'check'): never => {
    const near = closestName(id, ids);
    const name = loaded.profile.name;
    throw spokenError('invalid-profile', (t) =>
      t.usage.unknownProfileId({ where: loaded.source === 'builtin' ? t.usage.builtinProfile({ name }) : loaded.source, field, what, id, near: near ?? null }),
    );
  };
  for (const id of Object.keys(loaded.profile.levels)) if (!ids.includes(id)) unknown(`levels.${id}`, id);
  loaded.profile.waivers.forEach((waiver, i) => {
    if (!ids.includes(waiver.id)) unknown(`waivers.${i}.id`, waiver.id);
  });
  loaded.profile.skip.forEach((token, i) => {
    if (!catalogue.some((check) => selects(check, token))) unknown(`skip.${i}`, token, 'check or category');
  });
}
