import { catalogue } from '../../checks/index.js';
import { defineCheck, type CheckSpec } from '../../src/core/define-check.js';
import type { CheckId } from '../../src/core/ids/checks.js';
import type { Check } from '../../src/core/types.js';

/**
 * A check with the id, category and place of one of the catalogue (so its text is that check's:
 * a check has no text of its own) and the logic the test gives it. The engine's tests need checks
 * that hang, throw, fail or plan on purpose.
 */
export function fakeCheck(id: CheckId, spec: Partial<Omit<CheckSpec, 'id'>> & Pick<CheckSpec, 'run'>): Check {
  const real = catalogue.find((check) => check.id === id)!;
  return defineCheck({ id, category: real.category, order: real.order, level: real.level, action: real.action, ...spec });
}
