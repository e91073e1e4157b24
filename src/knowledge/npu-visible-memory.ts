import { z } from 'zod';
import table from '../../knowledge/npu-visible-memory.json' with { type: 'json' };
import type { NpuFamily } from '../parsers/npu-smi-info.js';
import { sourceSchema, type KnowledgeSource } from './source.js';
import { knowledgeTable } from './table.js';

/**
 * knowledge/npu-visible-memory.json: the memory torch_npu reports against npu-smi's total, per
 * NPU model. vLLM's budget is that total x --gpu-memory-utilization, so a plan read from npu-smi
 * alone overstates it by the driver's reserve (3116 MiB on a 64 GB 910B).
 */

export const npuVisibleMemoryRowSchema = z
  .object({
    family: z.enum(['a2', 'a3', '310p']),
    npuSmiTotalMB: z.number().int().positive().nullable().describe("npu-smi's HBM total in MB (MiB); null: any total of the family"),
    visibleBytes: z.number().int().positive().nullable().describe("torch.npu.mem_get_info's total; null: npu-smi's total"),
    precision: z.string().min(1),
    note: z.string().min(1),
    source: sourceSchema,
  })
  .strict();

export const npuVisibleMemoryTable = knowledgeTable('npu-visible-memory', table, npuVisibleMemoryRowSchema);

export interface VisibleMemory {
  /** what torch_npu sees, in bytes */
  bytes: number;
  /** npu-smi's total less that, in MiB */
  reserveMiB: number;
  /** exact: a row of this model and total; family: a row of the family for any total; none: no row, npu-smi's total taken as it is */
  match: 'exact' | 'family' | 'none';
  source: KnowledgeSource | null;
}

/** What torch_npu sees of an NPU whose npu-smi total is totalMB (MiB). */
export function visibleMemoryOf(family: NpuFamily, totalMB: number): VisibleMemory {
  const MiB = 1024 * 1024;
  const ofFamily = npuVisibleMemoryTable.rows().filter((row) => row.family === family);
  const row = ofFamily.find((r) => r.npuSmiTotalMB === totalMB) ?? ofFamily.find((r) => r.npuSmiTotalMB === null);
  if (!row) return { bytes: totalMB * MiB, reserveMiB: 0, match: 'none', source: null };
  const bytes = row.visibleBytes ?? totalMB * MiB;
  return { bytes, reserveMiB: Math.round(totalMB - bytes / MiB), match: row.npuSmiTotalMB === null ? 'family' : 'exact', source: row.source };
}
