import { z } from 'zod';
import quantizationJson from '../../knowledge/quantization.json' with { type: 'json' };
import rulesJson from '../../knowledge/rules.json' with { type: 'json' };
import { sourceSchema } from './source.js';
import { knowledgeTable } from './table.js';

/**
 * knowledge/rules.json and knowledge/quantization.json: what a guide, the code or a public report
 * says a launch must (not) do, with the releases it holds for.
 */
export const ruleRowSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9.-]*$/),
    summary: z.string(),
    severity: z.enum(['fail', 'warn', 'info']).describe('the verdict inside the release range'),
    outside: z.enum(['warn']).optional().describe('the verdict outside it (default: none)'),
    whenUnknown: z.enum(['newest', 'in-force', 'warn']).describe('with the installed version unknown: judged as at the newest release, as in force, or as a warning'),
    appliesTo: z.record(z.string(), z.unknown()),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    from: z.string().optional(),
    until: z.string().optional(),
    match: z.array(z.object({ paths: z.array(z.string()), pattern: z.string() })).optional(),
    reports: z.array(z.object({ version: z.string().optional(), url: z.string().url(), quote: z.string() })).optional(),
    statedIn: z.array(z.object({ refs: z.array(z.string()), path: z.string(), quote: z.string() })),
    applies: z.object({ from: z.string(), to: z.string() }).nullable().describe('null: every release'),
    source: sourceSchema,
  })
  .strict();

export type RuleRow = z.infer<typeof ruleRowSchema>;

export const rulesTable = knowledgeTable('rules', rulesJson, ruleRowSchema);
export const quantizationTable = knowledgeTable('quantization', quantizationJson, ruleRowSchema);
