import type { Check } from '../core/types.js';
import { en, type Catalogue } from './en/index.js';
import type { Lang } from './lang.js';
import type { CheckText } from './types.js';
import { zh } from './zh/index.js';

export type { Catalogue } from './en/index.js';
export type { CheckText } from './types.js';
export { LANGS, resolveLang, type Lang } from './lang.js';

const CATALOGUES: Readonly<Record<Lang, Catalogue>> = { en, zh };

/** The catalogue of a language. */
export function textFor(lang: Lang): Catalogue {
  return CATALOGUES[lang];
}

/** The catalogue entry of a check id, when that check's text is in the catalogue. */
export function checkEntry(text: Catalogue, id: string): CheckText | undefined {
  const entries = text.checks as Readonly<Record<string, CheckText>>;
  return Object.hasOwn(entries, id) ? entries[id] : undefined;
}

/**
 * What `list`, `explain`, the docs and the report show of a check, in the catalogue's language.
 * A check whose text is not in the catalogue yet shows the English of its own file.
 */
export function describeCheck(check: Check, text: Catalogue): CheckText & { readonly reads: readonly string[] } {
  const entry = checkEntry(text, check.id);
  if (!entry) return { title: check.title, why: check.why, fix: check.fix, reads: check.reads };
  return { title: entry.title, why: entry.why, fix: entry.fix, reads: entry.reads ?? check.reads };
}
