import { CATEGORY_IDS } from './ids/categories.js';
import type { Check } from './types.js';

/**
 * The checks in report order, which is also the order the run starts them in: by their
 * category's place in CATEGORY_IDS, then by each check's own `order` in its category (the id
 * breaks a tie, which the catalogue's test refuses).
 */
export function inReportOrder(checks: readonly Check[]): readonly Check[] {
  const rank = (check: Check) => CATEGORY_IDS.indexOf(check.category);
  return [...checks].sort((a, b) => rank(a) - rank(b) || a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
