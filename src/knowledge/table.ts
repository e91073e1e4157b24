import type { z } from 'zod';
import { QprepError } from '../errors.js';
import { describeZodError } from '../util/zod-error.js';

/**
 * One table of knowledge/: `{ "table": NAME, "description": "...", "rows": [...] }`, each row
 * validated by the table's schema the first time the table is read (not at start-up: most runs
 * need no table). The JSON is imported, so the same code works in tsc's output, under vitest and
 * in the single-file bundle, where esbuild inlines it.
 */
export interface KnowledgeTable<Row> {
  /** the file name without .json: "releases" */
  readonly name: string;
  /** the rows, validated; throws a QprepError naming the file, row and field when a row is not valid */
  rows(): readonly Row[];
  description(): string;
}

export function knowledgeTable<Schema extends z.ZodType>(name: string, json: unknown, rowSchema: Schema): KnowledgeTable<z.infer<Schema>> {
  let validated: { rows: Array<z.infer<Schema>>; description: string } | undefined;
  const load = () => {
    if (validated) return validated;
    const file = `knowledge/${name}.json`;
    const document = json as { table?: unknown; description?: unknown; rows?: unknown };
    if (typeof document !== 'object' || document === null || document.table !== name || typeof document.description !== 'string' || !Array.isArray(document.rows)) {
      throw new QprepError('internal', `${file}: not a knowledge table named "${name}" ({"table", "description", "rows"})`);
    }
    const rows = document.rows.map((row: unknown, index: number) => {
      const parsed = rowSchema.safeParse(row);
      if (!parsed.success) throw new QprepError('internal', `${file}: row ${index + 1}: ${describeZodError(parsed.error)}`);
      return parsed.data;
    });
    validated = { rows, description: document.description };
    return validated;
  };
  return { name, rows: () => load().rows, description: () => load().description };
}
