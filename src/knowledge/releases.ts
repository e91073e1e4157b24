import { z } from 'zod';
import releasesJson from '../../knowledge/releases.json' with { type: 'json' };
import { sourceSchema } from './source.js';
import { knowledgeTable } from './table.js';

const version = z.string().nullable();

/** knowledge/releases.json: every vllm-ascend release (and main) with the stack it was released for. */
export const releaseRowSchema = z
  .object({
    version: z.string().describe('the tag, "v0.23.0", or "main"'),
    commit: z.string().regex(/^[0-9a-f]{40}$/),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('the commit date of the tag'),
    listed: z.enum(['matrix', 'own-matrix', 'installation', 'main-row', 'none']).describe("where the row was read: main's compatibility matrix, the tag's own, the tag's installation page"),
    vllm: version,
    python: version,
    cann: version,
    torch: version,
    torchNpu: version,
    tritonAscend: version,
    mooncake: version,
    hardwareCann: z.array(z.object({ hardware: z.string(), cann: version, torchNpu: version, source: sourceSchema })),
    source: sourceSchema,
  })
  .strict();

export const releasesTable = knowledgeTable('releases', releasesJson, releaseRowSchema);
