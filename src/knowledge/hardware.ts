import { z } from 'zod';
import hardwareJson from '../../knowledge/hardware.json' with { type: 'json' };
import { sourceSchema } from './source.js';
import { knowledgeTable } from './table.js';

/** The NPU families vllm-ascend's FAQ names: A2, A3, 310P, the first-generation 910, 310B, and the 950. */
export const HARDWARE_FAMILIES = ['A2', 'A3', '310P', '910', '310B', '950'] as const;
export type HardwareFamily = (typeof HARDWARE_FAMILIES)[number];

/** knowledge/hardware.json: one row per release and family the release's FAQ (or support matrix) names. */
export const hardwareRowSchema = z
  .object({
    version: z.string(),
    family: z.enum(HARDWARE_FAMILIES),
    status: z.enum(['supported', 'experimental', 'unsupported']),
    source: sourceSchema,
  })
  .strict();

export type HardwareRow = z.infer<typeof hardwareRowSchema>;

export const hardwareTable = knowledgeTable('hardware', hardwareJson, hardwareRowSchema);
