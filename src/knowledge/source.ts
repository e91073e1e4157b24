import { z } from 'zod';

/**
 * Where a row of a knowledge table comes from: a file of a repository at a tag or commit (with
 * the line and its verbatim text), or a page off GitHub's files (an issue, a vendor document)
 * by its URL; a vendor document that belongs to no repository (the CANN reference on
 * hiascend.com) gives its URL and the release as `ref`. The shape every table shares
 * (knowledge/README.md).
 */
export const sourceSchema = z
  .object({
    repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'owner/name').optional(),
    path: z.string().min(1).optional(),
    ref: z.string().min(1).optional().describe('a tag, or a 40-hex commit for a branch that moves'),
    line: z.number().int().positive().optional(),
    url: z.string().url().optional(),
    quote: z.string().optional().describe('the verbatim sentence or line'),
  })
  .strict()
  .refine((s) => s.url !== undefined || (s.repo !== undefined && s.path !== undefined && s.ref !== undefined), { message: 'a source needs repo, path and ref, or url' });

export type KnowledgeSource = z.infer<typeof sourceSchema>;

/** "docs/source/tutorials/models/GLM5.md:254 @ 182b75ea84ff" or the URL: one line for evidence and messages. */
export function describeSource(source: KnowledgeSource): string {
  if (source.repo !== undefined && source.path !== undefined && source.ref !== undefined) {
    const ref = /^[0-9a-f]{40}$/.test(source.ref) ? source.ref.slice(0, 12) : source.ref;
    return `${source.repo} ${source.path}${source.line !== undefined ? `:${source.line}` : ''} @ ${ref}`;
  }
  return source.url ?? source.repo ?? '';
}
