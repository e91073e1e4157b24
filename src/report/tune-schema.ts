import { z } from 'zod';
import { errorInfoSchema, errorReportSchema, fullReportSchema, hostInfoSchema, statusSchema, toolSchema } from './schema.js';

/**
 * The documents of `qprep tune` and `qprep rollback` (`schemaVersion: 1`), printed as JSON
 * Schema by `qprep schema tune|rollback`. Ansible reads `changed` and the exit code.
 * Adding optional fields keeps version 1; renaming or removing one needs version 2.
 */

const sourceSchema = fullReportSchema.shape.source;
export const profileRefSchema = z.object({ name: z.string(), source: z.string().describe('"builtin" or the profile file') });
const kindSchema = z.enum(['sysctl', 'sysfs', 'file']);

export const tuneChangeSchema = z.object({
  origin: z.string().describe('the check whose plan asked for the change, or "persist"'),
  kind: kindSchema,
  target: z.string().describe('the sysctl key, or the path'),
  path: z.string(),
  before: z.string().nullable().describe('the old value (kernel values trimmed; files whole); null: a file that did not exist, or not read'),
  after: z.string().describe('the value or file content tune writes'),
  status: z
    .enum(['planned', 'unchanged', 'applied', 'failed', 'reverted', 'revert-failed', 'refused', 'skipped'])
    .describe('planned: --dry-run; unchanged: already right; refused/skipped: nothing was written'),
  error: z.string().optional(),
});

export const conflictSchema = z.object({
  kind: z.enum(['sysctl.d', 'tmpfiles.d', 'tuned', 'cpupower']),
  source: z.string().describe('the file (and line) that sets it'),
  target: z.string().optional(),
  value: z.string().optional(),
  wanted: z.string().optional(),
  winsOverPersist: z.boolean().describe('applied after qprep\'s persistence files: it wins at boot even with --persist'),
  message: z.string(),
});

export const checkBriefSchema = z.object({
  id: z.string(),
  status: statusSchema,
  message: z.string(),
  remediation: z.string().optional(),
});

export const unfinishedRunSchema = z.object({
  runId: z.string(),
  command: z.string(),
  startedAt: z.string(),
  state: z.string(),
  changes: z.number().int().nonnegative(),
});

export const tuneDocumentSchema = z.object({
  schemaVersion: z.literal(1),
  tool: toolSchema,
  command: z.literal('tune'),
  host: hostInfoSchema,
  source: sourceSchema,
  profile: profileRefSchema,
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  dryRun: z.boolean(),
  persist: z.boolean(),
  outcome: z
    .enum(['planned', 'unchanged', 'applied', 'refused', 'rolled-back', 'revert-failed'])
    .describe('exit 0: planned, unchanged, applied; exit 1: refused (nothing written), rolled-back, revert-failed'),
  changed: z.boolean().describe('the host was changed (with dryRun: would be)'),
  changes: z.array(tuneChangeSchema),
  journal: z.string().nullable().describe('the journal holding the old values (under the root)'),
  conflicts: z.array(conflictSchema),
  verify: z.array(checkBriefSchema).describe('the checks re-run after the writes'),
  remaining: z.array(checkBriefSchema).describe('checks that do not pass and that tune did not fix'),
  unfinished: z.array(unfinishedRunSchema).describe('runs of an earlier tune that did not finish; "qprep rollback" undoes them'),
  notes: z.array(z.string()),
});

export const restoreSchema = z.object({
  runId: z.string(),
  origin: z.string(),
  kind: kindSchema,
  target: z.string(),
  path: z.string(),
  current: z.string().nullable().describe('what was there before the rollback'),
  before: z.string().nullable().describe('the value put back; null: the file is removed'),
  after: z.string().describe('what tune had written'),
  status: z
    .enum(['planned', 'restored', 'unchanged', 'drifted', 'missing', 'failed', 'refused'])
    .describe('drifted: changed since tune wrote it, left alone without --force'),
  error: z.string().optional(),
});

export const rollbackDocumentSchema = z.object({
  schemaVersion: z.literal(1),
  tool: toolSchema,
  command: z.literal('rollback'),
  host: hostInfoSchema,
  source: sourceSchema,
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  dryRun: z.boolean(),
  outcome: z.enum(['nothing', 'planned', 'rolled-back', 'incomplete']).describe('exit 0: nothing, planned, rolled-back; exit 1: incomplete'),
  changed: z.boolean(),
  restores: z.array(restoreSchema),
  journal: z.string().nullable().describe('the retired journal record after a complete rollback, else the active journal'),
  notes: z.array(z.string()),
});

/** What the command prints when it cannot run (exit 2): the command's shape, with `error`. */
export function commandErrorSchema<C extends string>(command: C) {
  return z.object({
    schemaVersion: z.literal(1),
    tool: toolSchema,
    command: z.literal(command),
    changed: z.literal(false).optional(),
    error: errorInfoSchema,
  });
}

export const tuneErrorSchema = commandErrorSchema('tune');
export const rollbackErrorSchema = commandErrorSchema('rollback');

// A usage error found before the command starts prints the report's error document.
export const tuneSchema = z.union([tuneDocumentSchema, tuneErrorSchema, errorReportSchema]);
export const rollbackSchema = z.union([rollbackDocumentSchema, rollbackErrorSchema, errorReportSchema]);

export type TuneDocument = z.infer<typeof tuneDocumentSchema>;
export type RollbackDocument = z.infer<typeof rollbackDocumentSchema>;
