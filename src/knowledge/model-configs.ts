import { z } from 'zod';
import table from '../../knowledge/model-configs.json' with { type: 'json' };
import { sourceSchema, type KnowledgeSource } from './source.js';
import { knowledgeTable } from './table.js';

/**
 * knowledge/model-configs.json: config.json values of the reference models, for planning a
 * deployment before its weights are on the node. A model's values are the union of its rows,
 * each value with the source it came from; what no row gives is absent, never guessed.
 */

const configValue = z.union([z.number(), z.string(), z.boolean(), z.array(z.string())]);

export const modelConfigRowSchema = z
  .object({
    /** the Hugging Face id */
    model: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
    values: z.record(z.string(), configValue).refine((v) => Object.keys(v).length > 0, 'a row gives at least one value').describe('config.json keys and values'),
    evidence: z.string().min(1).describe('what kind of document the source is, and how its names map to config.json\'s'),
    note: z.string().optional(),
    source: sourceSchema,
  })
  .strict();

export const modelConfigsTable = knowledgeTable('model-configs', table, modelConfigRowSchema);

export interface BuiltinConfig {
  /** the Hugging Face id */
  model: string;
  /** config.json as far as the table knows it */
  config: Record<string, unknown>;
  /** where each value came from */
  sources: Record<string, KnowledgeSource>;
  /** what the rows say they lack */
  notes: string[];
}

function load(): BuiltinConfig[] {
  const byModel = new Map<string, BuiltinConfig>();
  for (const row of modelConfigsTable.rows()) {
    const entry = byModel.get(row.model) ?? { model: row.model, config: {}, sources: {}, notes: [] };
    for (const [key, value] of Object.entries(row.values)) {
      if (key in entry.config) continue; // the first row that gives a value is its source
      entry.config[key] = value;
      entry.sources[key] = row.source;
    }
    if (row.note) entry.notes.push(row.note);
    byModel.set(row.model, entry);
  }
  return [...byModel.values()];
}

let loaded: BuiltinConfig[] | undefined;

/** Every model of the table (validated once; a malformed table fails here, and its test). */
export function builtinConfigs(): readonly BuiltinConfig[] {
  loaded ??= load();
  return loaded;
}

/**
 * The row of a model by its name (the resolver's identity: "Qwen3-235B-A22B"): the table's NAME
 * itself, or followed by a variant suffix ("-Instruct-2507", "-w8a8-mtp"), case-insensitive. A
 * following "." is another model ("DeepSeek-V3" is not "DeepSeek-V3.2").
 */
export function builtinConfigOf(name: string): BuiltinConfig | undefined {
  const wanted = name.toLowerCase();
  let best: BuiltinConfig | undefined;
  for (const entry of builtinConfigs()) {
    const own = entry.model.replace(/^.*\//, '').toLowerCase();
    const matches = wanted === own || (wanted.startsWith(own) && /^[-_]/.test(wanted.slice(own.length)));
    if (matches && (!best || own.length > best.model.replace(/^.*\//, '').length)) best = entry;
  }
  return best;
}
