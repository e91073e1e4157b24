import { z } from 'zod';
import { errorReportSchema, toolSchema } from './schema.js';
import { commandErrorSchema, profileRefSchema } from './tune-schema.js';

/** The document of `qprep env --format json` (`schemaVersion: 1`); `qprep schema env` prints it. */
export const envDocumentSchema = z.object({
  schemaVersion: z.literal(1),
  tool: toolSchema,
  command: z.literal('env'),
  hostname: z.string(),
  profile: profileRefSchema,
  node: z
    .object({
      ip: z.string(),
      nic: z.string(),
      source: z.string().describe('how the address was chosen: --ip, --nic, default-route, only-interface, or "cluster file FILE (node NAME)"'),
    })
    .nullable(),
  unset: z.array(z.string()).describe('variables the launch script unsets'),
  exports: z.array(
    z.object({
      name: z.string(),
      value: z.string(),
      source: z.enum(['jemalloc', 'network', 'profile']),
    }),
  ),
  notes: z.array(z.string()),
});

export const envErrorSchema = commandErrorSchema('env');
export const envSchema = z.union([envDocumentSchema, envErrorSchema, errorReportSchema]);
export type EnvDocument = z.infer<typeof envDocumentSchema>;
