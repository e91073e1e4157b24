import { z } from 'zod';
import hbmEccJson from '../../knowledge/hbm-ecc.json' with { type: 'json' };
import { ACTIONS } from '../core/ids/actions.js';
import type { EccCounters } from '../parsers/npu-smi-ecc.js';
import { sourceSchema } from './source.js';
import { knowledgeTable } from './table.js';

/** The rules of knowledge/hbm-ecc.json, by id: the catalogue words each one (src/i18n/en/checks/npu.ts, npu.ecc). */
export const HBM_ECC_RULES = ['isolation-full', 'pending-isolation', 'uncorrectable', 'isolation-high'] as const;
export type HbmEccRuleId = (typeof HBM_ECC_RULES)[number];

const COUNTERS = ['singleBitErrors', 'doubleBitErrors', 'singleBitTotal', 'doubleBitTotal', 'singleBitIsolatedPages', 'doubleBitIsolatedPages', 'singleBitPendingPages', 'doubleBitPendingPages'] as const satisfies ReadonlyArray<keyof EccCounters>;

/** knowledge/hbm-ecc.json: a threshold of one HBM counter, its verdict and action, with its source. */
const hbmEccRowSchema = z
  .object({
    id: z.enum(HBM_ECC_RULES),
    field: z.enum(COUNTERS),
    atLeast: z.number().int().positive(),
    status: z.enum(['fail', 'warn']),
    action: z.enum(ACTIONS),
    /** the fault code the device raises at that threshold (knowledge/fault-codes.json) */
    code: z.string().regex(/^[0-9A-F]+$/).optional(),
    source: sourceSchema,
  })
  .strict();

export type HbmEccRule = z.infer<typeof hbmEccRowSchema>;

export const hbmEccTable = knowledgeTable('hbm-ecc', hbmEccJson, hbmEccRowSchema);

/** The rules one chip's HBM counters reach, most severe first (the table's order); a counter the driver does not print reaches none. */
export function hbmEccFindings(hbm: EccCounters): HbmEccRule[] {
  return hbmEccTable.rows().filter((rule) => {
    const value = hbm[rule.field];
    return value !== null && value >= rule.atLeast;
  });
}
