import { z } from 'zod';
import linkHealthJson from '../../knowledge/hccn-link-health.json' with { type: 'json' };
import { sourceSchema } from './source.js';
import { knowledgeTable } from './table.js';

/** knowledge/hccn-link-health.json: the levels the link-health checks judge against, each with its source. */
export const linkHealthRowSchema = z
  .object({
    id: z.enum(['optics-rx-power-warn-low', 'optics-lane-spread', 'optics-media-snr-low', 'link-flap-frequency', 'fec-rs-fix']),
    value: z.number().nonnegative().optional(),
    unit: z.string().optional(),
    /** link-flap-frequency: the window the events are counted in, and how long after the last one the escalation holds */
    windowSeconds: z.number().int().positive().optional(),
    releaseSeconds: z.number().int().positive().optional(),
    /** fec-rs-fix: the command as the source writes it ($i the device) */
    command: z.string().optional(),
    meaning: z.string(),
    source: sourceSchema,
  })
  .strict()
  .refine((row) => (row.value !== undefined) !== (row.command !== undefined), { message: 'a row has a value or a command' });

export type LinkHealthRow = z.infer<typeof linkHealthRowSchema>;
export type LinkHealthId = LinkHealthRow['id'];

export const linkHealthTable = knowledgeTable('hccn-link-health', linkHealthJson, linkHealthRowSchema);

/** The row of an id; every id of the schema has one (the table's test says so). */
export function linkHealthRow(id: LinkHealthId): LinkHealthRow {
  const row = linkHealthTable.rows().find((r) => r.id === id);
  if (!row) throw new Error(`knowledge/hccn-link-health.json has no row ${id}`);
  return row;
}

/** The value of a row that has one. */
export function linkHealthValue(id: Exclude<LinkHealthId, 'fec-rs-fix'>): number {
  const value = linkHealthRow(id).value;
  if (value === undefined) throw new Error(`knowledge/hccn-link-health.json row ${id} has no value`);
  return value;
}
