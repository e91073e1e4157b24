import { z } from 'zod';
import { errorInfoSchema, errorReportSchema, statusSchema, summarySchema, toolSchema } from './schema.js';

/**
 * The document of `qprep aggregate --format json` (`schemaVersion: 1`): the cluster verdict
 * over many nodes' reports. `qprep schema aggregate` prints it as JSON Schema. Adding optional
 * fields keeps version 1; renaming or removing one needs version 2.
 */

/**
 * The values qprep aggregate compares across nodes, in the order its findings list them: the
 * NPU stack, the Python stack the launch runs, the host, the tuning (src/aggregate/node-record.ts
 * reads each from a report). The kernel settings of the tuning checks follow as sysctl:<key>.
 */
export const COMPARED_FIELDS = [
  'driver',
  'firmware',
  'cann',
  'npuSmi',
  'vllmAscend',
  'vllm',
  'torch',
  'torchNpu',
  'transformers',
  'tritonAscend',
  'atb',
  'kernel',
  'npuCount',
  'npuModel',
  'tls',
  'superPod',
  'profile',
  'serverModel',
  'cpu',
  'memory',
  'nicMtu',
  'cpu.governor',
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];
const COMPARED_FIELD_NAMES = COMPARED_FIELDS.join(', ');

export const severitySchema = z
  .enum(['fail', 'warn', 'note'])
  .describe('fail: the cluster is not ready; warn: not ready under --strict only; note: information');

export const aggregateNodeSchema = z.object({
  name: z.string().describe('the node: its name in the cluster file, else the hostname of its report; for a document without a verdict, its file name'),
  nameFrom: z.enum(['cluster', 'report', 'file']).describe('where the name comes from'),
  verdict: z.enum(['ready', 'not-ready', 'no-verdict', 'missing']).describe('no-verdict: an error document (exit 2 of qprep check); missing: a node of --cluster without a report'),
  source: z.string().nullable().describe('the file the report was read from ("-" for standard input, "#N" for the Nth document of a stream); null for a missing node'),
  hostname: z.string().nullable(),
  startedAt: z.string().nullable(),
  ageSeconds: z.number().nullable().describe('how old the report is, from its startedAt'),
  stale: z.boolean().describe('older than --max-age'),
  profile: z.string().nullable(),
  summary: summarySchema.nullable(),
  failing: z
    .array(z.object({ id: z.string(), status: statusSchema, message: z.string(), remediation: z.string().optional() }))
    .describe('the checks that make the node not ready (the report\'s blocking list)'),
  values: z
    .record(z.string(), z.string().nullable())
    .describe('what the node reported for each compared field (see drift[].field); null: not reported'),
  error: errorInfoSchema.optional().describe('why a document has no verdict'),
});

export const driftSchema = z.object({
  field: z.string().describe(`one of the compared fields (${COMPARED_FIELD_NAMES}), or sysctl:<key>`),
  label: z.string(),
  severity: severitySchema,
  majority: z
    .object({ value: z.string(), nodes: z.number().int().nonnegative() })
    .nullable()
    .describe('the value most nodes share; null when no value has more nodes than every other'),
  odd: z.array(z.object({ node: z.string(), value: z.string() })).describe('the nodes that differ from the majority (empty when there is none)'),
  groups: z.array(z.object({ value: z.string(), nodes: z.array(z.string()) })).describe('every value seen, most common first'),
  unknown: z.array(z.string()).describe('nodes whose report does not tell this value'),
  message: z.string(),
});

export const collisionSchema = z.object({
  ip: z.string(),
  owners: z.array(z.object({ node: z.string(), device: z.number().int(), field: z.enum(['ip', 'vnicIp']) })),
  message: z.string(),
});

export const duplicateSchema = z.object({
  node: z.string(),
  kept: z.object({ source: z.string(), startedAt: z.string() }),
  dropped: z.array(z.object({ source: z.string(), startedAt: z.string() })),
});

export const findingSchema = z.object({
  severity: severitySchema,
  kind: z.enum(['not-ready', 'no-verdict', 'missing', 'stale', 'drift', 'ip-collision', 'unexpected-node', 'duplicate', 'launch', 'pair-failed', 'pair-not-verified', 'load-skew']),
  message: z.string().describe('one line that stands alone in a log'),
  nodes: z.array(z.string()).describe('the nodes concerned'),
  remediation: z.string().optional().describe('the change to make, at the script and line (launch findings)'),
});

export const launchInstanceSchema = z.object({
  role: z.enum(['prefill', 'decode', 'both', 'serve']).describe("the KV role of its nodes' scripts; serve: no KV connector"),
  master: z.string().nullable().describe('the node that starts rank 0 at its own address; null when none does'),
  address: z.string().nullable().describe('the --data-parallel-address of the instance (its master)'),
  dp: z.number().int().positive(),
  tp: z.number().int().positive(),
  pp: z.number().int().positive(),
  nodes: z.array(
    z.object({
      node: z.string(),
      script: z.string().describe('the launch script the node reported (its file name)'),
      startRank: z.number().int().nonnegative(),
      dpLocal: z.number().int().nonnegative(),
      ranks: z.string().describe('"8-15"; empty when it serves none'),
    }),
  ),
});

export const aggregateLaunchSchema = z
  .object({
    instances: z.array(launchInstanceSchema).describe('the vLLM instances the nodes form, by role and master'),
    without: z.array(z.string()).describe('nodes whose report has no launch layout (checked without --launch, or no server command)'),
  })
  .describe('the cross-node launch rules: ranks, master addresses, the P/D sizes of the KV connector');

const matrixPairSchema = z.object({
  owner: z.string().describe('the node that pings the pair'),
  ownerDevice: z.number().int(),
  peer: z.string(),
  peerDevice: z.number().int(),
  detail: z.string().describe('"100% loss", "skipped: ...", "not verified: node3 has no report"'),
  ageS: z.number().int().nonnegative().nullable().optional().describe('plan: rolling: seconds since the pair\'s last proof, at aggregate time; null when never proven'),
});

export const peerPairsSchema = z
  .object({
    nodes: z.array(z.string()).describe('the nodes whose hccn.peers ran with pairs: once or plan: rolling'),
    total: z.number().int().nonnegative().describe('unordered NPU pairs those reports cover, each counted once'),
    ok: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative().describe('loss or unreachable in the owner\'s result'),
    notVerified: z.number().int().nonnegative().describe('no result from the owner: its report is missing, it did not run hccn.peers, or did not ping the pair'),
    failing: z.array(matrixPairSchema),
    unverified: z.array(matrixPairSchema),
    rolling: z
      .object({
        nodes: z.array(z.string()).describe('the nodes whose hccn.peers ran plan: rolling'),
        maxAgeS: z.number().int().positive().describe('a proof older than this verifies nothing (rollingMaxAgeS, the largest of the reports)'),
        oldestAgeS: z.number().int().nonnegative().nullable().describe('the oldest proof that still verifies its pair; null when none does'),
        never: z.number().int().nonnegative().describe('pairs no run has pinged yet'),
        stale: z.number().int().nonnegative().describe('pairs whose last proof is older than maxAgeS'),
      })
      .optional()
      .describe('plan: rolling: how much of the matrix the kept proofs cover, and how old they are'),
  })
  .describe('pairs: once: the NPU pair matrix joined from every report; a pair is proven only by its owner\'s result');

export const aggregateLoadTimeSchema = z
  .object({
    spreadSeconds: z.number().nonnegative().describe('the slowest node\'s estimate minus the fastest\'s'),
    slowest: z.string(),
    fastest: z.string(),
    nodes: z
      .array(
        z.object({
          node: z.string(),
          estimatedSeconds: z.number().nonnegative(),
          bytesToRead: z.number().nonnegative(),
          throughputBytesPerSec: z.number().nonnegative().nullable(),
          filesystem: z.string().nullable(),
          mountSource: z.string().nullable(),
          hcclConnectTimeoutSeconds: z.number().nonnegative().nullable(),
        }),
      )
      .describe('the nodes whose model.load-time estimated their load, slowest first'),
  })
  .describe('the nodes\' estimated load times (model.load-time): a gap over a waiting node\'s HCCL_CONNECT_TIMEOUT is a load-skew finding');

export const aggregateDocumentSchema = z.object({
  schemaVersion: z.literal(1),
  tool: toolSchema,
  command: z.literal('aggregate'),
  generatedAt: z.string(),
  ready: z.boolean().describe('the cluster is ready: no finding of severity fail (nor warn with --strict)'),
  strict: z.boolean(),
  maxAgeSeconds: z.number().nullable(),
  cluster: z
    .object({ file: z.string(), nodes: z.array(z.string()) })
    .nullable()
    .describe('the --cluster file and its nodes'),
  summary: z.object({
    documents: z.number().int().nonnegative().describe('documents read, duplicates included'),
    nodes: z.number().int().nonnegative().describe('entries of nodes[], missing ones included'),
    ready: z.number().int().nonnegative(),
    notReady: z.number().int().nonnegative(),
    noVerdict: z.number().int().nonnegative(),
    missing: z.number().int().nonnegative(),
    stale: z.number().int().nonnegative(),
    duplicates: z.number().int().nonnegative().describe('reports dropped because a newer one of the same node was given'),
  }),
  nodes: z.array(aggregateNodeSchema),
  drift: z.array(driftSchema).describe('fields whose value is not the same on every node that reports it'),
  collisions: z.array(collisionSchema).describe('NPU device addresses held by more than one device'),
  missing: z.array(z.object({ name: z.string(), host: z.string().nullable() })).describe('nodes of --cluster without a report'),
  unexpected: z.array(z.string()).describe('nodes with a report that --cluster does not list'),
  duplicates: z.array(duplicateSchema),
  findings: z.array(findingSchema).describe('every reason for the verdict, failures first'),
  launch: aggregateLaunchSchema.optional().describe('present when at least one report carries a launch layout (qprep check --launch)'),
  peerPairs: peerPairsSchema.optional().describe('present when at least one report ran hccn.peers with pairs: once'),
  loadTime: aggregateLoadTimeSchema.optional().describe('present when two or more reports estimated their load (model.load-time)'),
});

export const aggregateSchema = z.union([aggregateDocumentSchema, errorReportSchema]);

export type AggregateDocument = z.infer<typeof aggregateDocumentSchema>;
export type AggregateNode = z.infer<typeof aggregateNodeSchema>;
export type Drift = z.infer<typeof driftSchema>;
export type Collision = z.infer<typeof collisionSchema>;
export type Finding = z.infer<typeof findingSchema>;
export type Severity = z.infer<typeof severitySchema>;
export type PeerPairs = z.infer<typeof peerPairsSchema>;
export type LaunchInstance = z.infer<typeof launchInstanceSchema>;
export type AggregateLaunch = z.infer<typeof aggregateLaunchSchema>;
export type AggregateLoadTime = z.infer<typeof aggregateLoadTimeSchema>;
