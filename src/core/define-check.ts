import { en } from '../i18n/en/index.js';
import type { Check } from './types.js';

/** What a check's file says: its id, category, place, level and logic. Its text is the catalogue's. */
export type CheckSpec = Omit<Check, 'title' | 'why' | 'fix' | 'reads'>;

/**
 * A check of the catalogue. Its title, why, fix and reads are its English catalogue entry's
 * (src/i18n/en/checks), the reference `qprep list` and the docs read; the run's language is read
 * at run time (describeCheck). The id is a CheckId, and the English catalogue has an entry for
 * every CheckId, so a check without its entry does not compile.
 */
export function defineCheck(spec: CheckSpec): Check {
  const { title, why, fix, reads } = en.checks[spec.id];
  return { ...spec, title, why, fix, reads };
}
