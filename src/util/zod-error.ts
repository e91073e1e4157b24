import type { z } from 'zod';

/** One line naming the field path and the problem: `tuning.swappiness.max: expected number, got string`. */
export function describeZodError(error: z.ZodError): string {
  const [first, ...rest] = error.issues;
  if (!first) return 'invalid document';
  const where = first.path.length > 0 ? first.path.map(String).join('.') : '(top level)';
  const more = rest.length > 0 ? ` (and ${rest.length} more ${rest.length === 1 ? 'problem' : 'problems'})` : '';
  return `${where}: ${first.message}${more}`;
}
