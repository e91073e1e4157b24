import type { CheckId } from '../core/ids/checks.js';
import { en, type Catalogue } from './en/index.js';
import type { Lang } from './lang.js';
import type { CheckText } from './types.js';
import { zh } from './zh/index.js';

export type { Catalogue } from './en/index.js';
export type { CheckText } from './types.js';
export type { Lang } from './lang.js';

const CATALOGUES: Readonly<Record<Lang, Catalogue>> = { en, zh };

/** The catalogue of a language. */
export function textFor(lang: Lang): Catalogue {
  return CATALOGUES[lang];
}

/** What `list`, `explain`, the docs and the report show of a check, in the catalogue's language. */
export function describeCheck(id: CheckId, text: Catalogue): CheckText {
  return text.checks[id];
}
