import { z } from 'zod';
import { factsSchema } from '../facts/schema.js';

/**
 * The readiness report, `schemaVersion: 1` (DESIGN §3). Ansible gates on `ready` and the exit
 * code, orchestrators read `checks`; `qprep schema report` prints this as JSON Schema.
 * Adding optional fields keeps version 1; renaming or removing one needs version 2.
 */

export const statusSchema = z.enum(['pass', 'warn', 'fail', 'skip', 'error']);
export const levelSchema = z.enum(['required', 'recommended']);
export const categorySchema = z.enum(['tuning', 'host', 'network', 'npu', 'hccn', 'launch']);

export const toolSchema = z.object({ name: z.literal('qprep'), version: z.string() });

export const checkResultSchema = z.object({
  id: z.string().describe('stable check id, category.name'),
  title: z.string(),
  category: categorySchema,
  level: levelSchema,
  status: statusSchema,
  message: z.string().describe('one line that stands alone in a log'),
  expected: z.string().optional(),
  actual: z.string().optional(),
  remediation: z.string().optional().describe('present on every non-pass result: the exact command or docker run flag'),
  evidence: z.record(z.string(), z.unknown()).describe('what the check observed'),
  details: z
    .array(z.string())
    .optional()
    .describe('lines for a person when the message cannot say it all: every failing pair of a ping plan, one line per peer'),
  waived: z
    .object({ reason: z.string(), expires: z.string().optional() })
    .optional()
    .describe('set when a fail was downgraded to warn by --ignore or a profile waiver'),
  waiverExpired: z
    .object({ reason: z.string(), expires: z.string() })
    .optional()
    .describe('set when the profile waives this check but the waiver expired: the result stands as observed'),
  durationMs: z.number().nonnegative(),
});

export const summarySchema = z.object({
  pass: z.number().int().nonnegative(),
  warn: z.number().int().nonnegative(),
  fail: z.number().int().nonnegative(),
  skip: z.number().int().nonnegative(),
  error: z.number().int().nonnegative(),
});

export const hostInfoSchema = z.object({
  hostname: z.string(),
  arch: z.string(),
  kernel: z.string(),
  os: z.string().describe('PRETTY_NAME of /etc/os-release, or "unknown"'),
  inContainer: z.boolean(),
  containerRuntime: z.string().nullable().optional(),
});

export const errorInfoSchema = z.object({
  code: z.string().describe('usage, invalid-profile, invalid-snapshot, invalid-cluster, invalid-input, output, refused, locked, internal'),
  message: z.string(),
});

export const clusterInfoSchema = z.object({
  file: z.string(),
  name: z.string().nullable(),
  self: z.string().describe('the node this host is in the cluster'),
  matchedBy: z.enum(['node-option', 'address', 'hostname']).describe('how the host found itself: --node, a local address, or its hostname'),
  evidence: z.string().describe('the address and interface, the hostname, or the option that matched'),
  nodes: z.array(z.string()).describe('every node of the cluster, in file order'),
  plan: z.enum(['same-index', 'full-mesh', 'ring']),
  note: z.string().optional().describe('set when hostname and addresses disagree'),
});

export const launchInfoSchema = z.object({
  file: z.string().describe('the path given to --launch ("-" for standard input), or the one recorded in the snapshot'),
  from: z.enum(['file', 'stdin', 'snapshot']),
  lines: z.number().int().nonnegative(),
  serve: z
    .object({
      line: z.number().int().positive(),
      form: z.enum(['vllm serve', 'api_server']),
      model: z.string().nullable(),
    })
    .nullable()
    .describe('the server command qprep found in the script; null when there is none'),
});

export const fullReportSchema = z.object({
  schemaVersion: z.literal(1),
  tool: toolSchema,
  runId: z.string(),
  host: hostInfoSchema,
  source: z
    .object({
      kind: z.enum(['live', 'snapshot']),
      root: z.string(),
      snapshot: z.object({ file: z.string(), createdAt: z.string(), toolVersion: z.string() }).optional(),
    })
    .describe('where the answers came from: the live host (under root) or a recorded snapshot'),
  profile: z.object({ name: z.string(), source: z.string().describe('"builtin" or the profile file') }),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  ready: z.boolean(),
  strict: z.boolean(),
  selection: z.object({
    only: z.array(z.string()),
    skip: z.array(z.string()),
    ignore: z.array(z.string()),
  }),
  summary: summarySchema,
  blocking: z.array(z.string()).describe('ids of the checks that make the node not ready'),
  checks: z.array(checkResultSchema),
  facts: factsSchema.optional().describe('the `qprep facts` document of this node, present when NPU or HCCN checks ran'),
  cluster: clusterInfoSchema.optional().describe('present with --cluster'),
  launch: launchInfoSchema.optional().describe('present with --launch SCRIPT (or a snapshot that recorded one): the script the launch checks read'),
});

export const errorReportSchema = z.object({
  schemaVersion: z.literal(1),
  tool: toolSchema,
  ready: z.literal(false),
  error: errorInfoSchema,
});

export const reportSchema = z.union([fullReportSchema, errorReportSchema]);

export type Report = z.infer<typeof fullReportSchema>;
export type ErrorReport = z.infer<typeof errorReportSchema>;
export type AnyReport = z.infer<typeof reportSchema>;
export type HostInfo = z.infer<typeof hostInfoSchema>;
export type ClusterInfo = z.infer<typeof clusterInfoSchema>;
export type LaunchInfo = z.infer<typeof launchInfoSchema>;
