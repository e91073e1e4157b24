import { z } from 'zod';
import modelsJson from '../../knowledge/models.json' with { type: 'json' };
import { sourceSchema } from './source.js';
import { knowledgeTable } from './table.js';

/** knowledge/models.json: the model families of the support matrix, by model_type and architectures. */
export const modelFamilyRowSchema = z
  .object({
    family: z.string(),
    modelTypes: z.array(z.string()).describe("config.json's model_type"),
    architectures: z.array(z.string()).describe("config.json's architectures"),
    names: z.string().describe("a pattern of the model's path or hub id, when config.json cannot be read"),
    matrix: z.string().describe("a pattern of the support matrix's Model cell"),
    since: z.object({ version: z.string(), source: sourceSchema }).nullable().describe('the first release that supports it, as its release notes or tutorial say'),
    identitySources: z.array(sourceSchema),
    firstListed: z.string().nullable(),
    listedIn: z.record(z.string(), z.array(z.string())).describe('hardware ("A2/A3", "310P", "950") -> the releases whose matrix lists the family'),
    source: sourceSchema,
  })
  .strict();

export type ModelFamilyRow = z.infer<typeof modelFamilyRowSchema>;

export const modelsTable = knowledgeTable('models', modelsJson, modelFamilyRowSchema);
