import { z } from 'zod';
import launchTimeoutsJson from '../../knowledge/launch-timeouts.json' with { type: 'json' };
import { sourceSchema } from './source.js';
import { knowledgeTable } from './table.js';

/** What a timeout bounds: the wait for the engines, an RPC, HCCL's link set-up and its operations, a Mooncake KV connection and transfer. */
export const TIMEOUT_BOUNDS = ['engine-ready', 'rpc', 'hccl-connect', 'hccl-exec', 'kv-connect', 'kv-transfer'] as const;
export type TimeoutBound = (typeof TIMEOUT_BOUNDS)[number];

/** knowledge/launch-timeouts.json: the timeouts that end a start or its first collectives, with their defaults. */
export const launchTimeoutRowSchema = z
  .object({
    variable: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
    bounds: z.enum(TIMEOUT_BOUNDS),
    component: z.enum(['vllm', 'cann', 'mooncake']),
    unit: z.enum(['s', 'ms']),
    default: z.number().int().nonnegative(),
    /** the row applies when this other variable has this value (HCCL_EXEC_TIMEOUT with HCCL_OP_EXPANSION_MODE=AIV) */
    when: z.object({ variable: z.string(), value: z.string() }).strict().optional(),
    source: sourceSchema,
  })
  .strict();

export type LaunchTimeoutRow = z.infer<typeof launchTimeoutRowSchema>;

export const launchTimeoutsTable = knowledgeTable('launch-timeouts', launchTimeoutsJson, launchTimeoutRowSchema);

/**
 * The default of a variable given the script's other variables: the row whose `when` holds,
 * else the row without one.
 */
export function defaultTimeout(variable: string, valueOf: (name: string) => string | undefined): LaunchTimeoutRow | undefined {
  const candidates = launchTimeoutsTable.rows().filter((row) => row.variable === variable);
  return candidates.find((row) => row.when && valueOf(row.when.variable)?.trim().toUpperCase() === row.when.value.toUpperCase()) ?? candidates.find((row) => !row.when);
}
