import { z } from 'zod';
import { ACTIONS } from '../core/ids/actions.js';
import { CATEGORY_IDS } from '../core/ids/categories.js';
import { DEPTHS } from '../core/ids/depths.js';
import { factsSchema, stackFactSchema } from '../facts/schema.js';

/**
 * The readiness report, `schemaVersion: 1`. Ansible gates on `ready` and the exit
 * code, orchestrators read `checks`; `qprep schema report` prints this as JSON Schema.
 * Adding optional fields keeps version 1; renaming or removing one needs version 2.
 */

export const statusSchema = z.enum(['pass', 'warn', 'fail', 'skip', 'error']);
export const levelSchema = z.enum(['required', 'recommended']);
export const categorySchema = z.enum(CATEGORY_IDS);
export const actionSchema = z
  .enum(ACTIONS)
  .describe(
    'what to do about a finding, mildest first: none (nothing on the host), monitor (keep serving, watch it), reconfigure (a setting, file, mount or package), ' +
      'restart-workload (stop or re-run the workload), reset-npu (npu-smi set -t reset, the workload stopped first), isolate-npu (take the chip out of service), ' +
      'replace-part (reseat or replace a module, cable or card)',
  );

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
  evidence: z
    .record(z.string(), z.unknown())
    .describe(
      'what the check observed; the fields other programs read are published: hccn.peers (qprep schema peers-evidence); model.fit: weightsBytesPerNpu, kvBudgetBytesPerNpu, kvBytesPerToken, kvTokens, maxConcurrency, maxModelLen, hbmVisibleBytesPerNpu, basis and the plan (qprep schema fit-evidence); model.load-time: bytesToRead, throughputBytesPerSec, estimatedSeconds, timeoutSeconds, filesystem, cached (qprep schema load-time-evidence)',
    ),
  details: z
    .array(z.string())
    .optional()
    .describe('lines for a person when the message cannot say it all: every failing pair of a ping plan, one line per peer'),
  waived: z
    .object({
      reason: z.string(),
      expires: z.string().optional(),
      found: z.enum(['fail', 'warn']).optional().describe('what the check found before the waiver'),
    })
    .optional()
    .describe('set when a fail was downgraded to warn by --ignore or a profile waiver'),
  waiverRefused: z
    .string()
    .optional()
    .describe('set when --ignore or a profile waiver names this check but it ended in error: the waiver is not applied (an error means it could not assess; use --skip)'),
  waiverExpired: z
    .object({ reason: z.string(), expires: z.string() })
    .optional()
    .describe('set when the profile waives this check but the waiver expired: the result stands as observed'),
  causedBy: z
    .string()
    .optional()
    .describe('the id of the check that reports the cause of this problem (npu.smi when the NPU table could not be read); the dependant keeps its own status, message and remediation'),
  action: actionSchema
    .optional()
    .describe('present on every non-pass result (a skip: none): what the check recommends doing about what it found; absent on a pass. Absent in reports of qprep before 0.2'),
  observedAt: z
    .string()
    .optional()
    .describe('qprep serve: this result was carried from the last run at a greater depth (--deep-every), which observed it at this time; absent on a result of the run itself'),
  durationMs: z.number().nonnegative(),
});

export const summarySchema = z.object({
  pass: z.number().int().nonnegative(),
  warn: z.number().int().nonnegative(),
  fail: z.number().int().nonnegative(),
  skip: z.number().int().nonnegative(),
  error: z.number().int().nonnegative(),
  worstAction: actionSchema
    .optional()
    .describe('the worst action of any result of the run (none when nothing asks for one). Absent in reports of qprep before 0.2'),
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
  code: z
    .string()
    .describe('usage, invalid-profile, invalid-snapshot, invalid-cluster, invalid-input, output, refused, locked, interrupted, nothing-assessed, internal'),
  message: z.string(),
  hint: z.string().optional().describe('what to do about it, when the message alone does not say'),
});

export const clusterInfoSchema = z.object({
  file: z.string(),
  name: z.string().nullable(),
  self: z.string().describe('the node this host is in the cluster'),
  matchedBy: z.enum(['node-option', 'address', 'hostname']).describe('how the host found itself: --node, a local address, or its hostname'),
  evidence: z.string().describe('the address and interface, the hostname, or the option that matched'),
  nodes: z.array(z.string()).describe('every node of the cluster, in file order'),
  plan: z.enum(['same-index', 'full-mesh', 'ring', 'rolling']),
  pairs: z.enum(['both', 'once']).optional().describe('once: each NPU pair is pinged by one of its two nodes (hccn.peers evidence: qprep schema peers-evidence)'),
  note: z.string().optional().describe('set when hostname and addresses disagree'),
});

const lineSchema = z.number().int().positive();

const kvSideSchema = z
  .object({
    dp: z.number().int().nonnegative().nullable().describe('dp_size; null when not a whole number'),
    tp: z.number().int().nonnegative().nullable().describe('tp_size; null when not a whole number'),
    dpLine: lineSchema,
    tpLine: lineSchema,
  })
  .nullable();

const termSchema = z.object({
  bytes: z.number().describe('bytes per NPU rank'),
  how: z.enum(['exact', 'estimate']),
  from: z.string().describe('what the figure is made of (English)'),
});

/**
 * The evidence of model.fit: the memory plan of the launch script's server per NPU rank, in bytes
 * and tokens. The first eight fields are the machine figures (`qprep schema fit-evidence`); `plan`
 * has every term with what it came from.
 */
export const modelFitEvidenceSchema = z.object({
  script: z.string(),
  weightsBytesPerNpu: z.number().nonnegative().describe('the weights one rank loads'),
  kvBudgetBytesPerNpu: z.number().describe('the memory vLLM gives the KV cache on the tightest rank; <= 0: "No available memory for the cache blocks"'),
  kvBytesPerToken: z.number().nonnegative().nullable().describe('KV bytes of one token on one rank, over the layers that hold per-token KV (hybrid models: the full-attention layers); null when the KV cache is not sized'),
  kvTokens: z.number().int().nonnegative().nullable().describe('vLLM\'s "GPU KV cache size: N tokens"'),
  maxConcurrency: z.number().nonnegative().nullable().describe('vLLM\'s "Maximum concurrency for maxModelLen tokens per request"'),
  maxModelLen: z.number().int().positive().nullable().describe('--max-model-len, else the config\'s max_position_embeddings'),
  hbmVisibleBytesPerNpu: z.number().nonnegative().describe('what torch_npu sees of the NPU (mem_get_info total), which --gpu-memory-utilization multiplies'),
  basis: z.enum(['config.json', 'builtin']).describe('config.json: the weights\' own; builtin: qprep\'s table of model configs (an estimate the download removes)'),
  plan: z.object({
    model: z.object({
      argument: z.string(),
      id: z.string().nullable(),
      name: z.string(),
      identityFrom: z.enum(['config.json', 'hub-id', 'cache-path', 'path']),
      directory: z.string().nullable(),
      builtinModel: z.string().nullable(),
      builtinSources: z.record(z.string(), z.string()).describe('config keys the built-in table gave, and their source'),
      missing: z.array(z.string()).describe('config keys the KV cache needs and nothing gave'),
    }),
    release: z.object({ vllmAscend: z.string().nullable(), formula: z.string() }),
    parallel: z.object({ tp: z.number(), pp: z.number(), dp: z.number(), dpLocal: z.number(), ep: z.number() }),
    device: z.object({
      device: z.number(),
      npuSmiTotalMB: z.number(),
      npuSmiUsedMB: z.number(),
      visibleBytes: z.number(),
      reserveMiB: z.number(),
      visibleMatch: z.enum(['exact', 'family', 'none']),
      visibleSource: z.string().nullable(),
      inUseBytes: z.number(),
      freeBytes: z.number(),
    }),
    requestedBytes: z.number(),
    utilization: z.number(),
    checksFreeAtStart: z.boolean(),
    weights: termSchema.extend({
      totalBytes: z.number(),
      totalFrom: z.enum(['total_size', 'shards', 'shapes']),
      share: z.number().nullable().describe('the share of the checkpoint one rank holds, from the shapes; null: divided evenly'),
      mtpLoaded: z.boolean(),
      derivedBytes: z.number().describe("what the rank holds beyond its share of the checkpoint: MLA's 16-bit W_UK_T and W_UV, derived from kv_b_proj after loading"),
    }),
    activation: termSchema.extend({ maxNumBatchedTokens: z.number(), hidden: z.number().nullable() }),
    nonTorch: termSchema.extend({
      hcclBytes: z.number(),
      parts: z.array(z.object({ part: z.enum(['context', 'tp', 'ep', 'dp', 'mc2']), bytes: z.number() })),
    }),
    graph: termSchema,
    othersChargedBytes: z.number().describe('memory of other processes this release takes off the KV cache too'),
    halved: z.boolean().describe('310P: the budget is halved for workspace'),
    kv: z
      .object({
        blockSize: z.number(),
        pageBytes: z.number(),
        groupSize: z.number(),
        groups: z.array(z.object({ kind: z.enum(['full', 'sliding', 'linear']), layers: z.number(), groups: z.number() })),
        kvHeadsPerRank: z.number(),
        stateBytesPerSequence: z.number(),
        blocks: z.number().nullable(),
        blocksPerRequest: z.number().nullable().describe('the blocks one request of maxModelLen takes over every group'),
        neededBytesPerRequest: z.number().nullable(),
        maxModelLenThatFits: z.number().nullable(),
      })
      .nullable(),
    maxModelLenFrom: z.enum(['flag', 'config.json', 'builtin', 'auto', 'unknown']),
    maxNumSeqs: z.object({ value: z.number(), given: z.boolean() }),
    mc2: z
      .object({ epWorldSize: z.number(), maxBs: z.number(), localExperts: z.number(), maxNumTokens: z.number(), neededMB: z.number(), buffsizeMB: z.number() })
      .nullable()
      .describe('the HCCL buffer MC2 dispatch needs (CANN MoeDistributeDispatchV2), with expert parallelism on a MoE model'),
    streams: z
      .object({ piecewise: z.boolean(), captureSizes: z.number(), resourcesPerGraph: z.number(), parallelFactor: z.number(), streams: z.number(), maxCaptureSizes: z.number(), mode: z.enum(['AIV', 'FFTS+']) })
      .nullable(),
  }),
  findings: z.array(z.string()).optional().describe('"fail: ..." / "warn: ..." in English'),
});

export type ModelFitEvidence = z.infer<typeof modelFitEvidenceSchema>;

export const launchLayoutSchema = z
  .object({
    role: z.enum(['prefill', 'decode', 'both']).nullable().describe('from kv_role: kv_producer, kv_consumer, kv_both; null without --kv-transfer-config'),
    tp: z.number().int().positive(),
    pp: z.number().int().positive(),
    dp: z.number().int().positive().describe('--data-parallel-size: ranks of the whole instance'),
    dpLocal: z.number().int().nonnegative().describe('--data-parallel-size-local: ranks this node serves'),
    startRank: z.number().int().nonnegative().describe('--data-parallel-start-rank: the first rank this node serves'),
    nnodes: z.number().int().positive(),
    nodeRank: z.number().int().nonnegative(),
    headless: z.boolean().describe('no API server on this node (--headless, or a node after the first of --nnodes)'),
    port: z.number().int().positive().nullable().describe('the API port; null on a headless node'),
    rpcPort: z.number().int().positive().nullable().describe('--data-parallel-rpc-port as given; null when not given'),
    dpAddress: z
      .object({
        value: z.string(),
        known: z.boolean().describe('false when the script computes it at run time'),
        line: lineSchema.describe('the line of --data-parallel-address'),
        from: z.object({ name: z.string(), line: lineSchema }).nullable().describe('the assignment the value was written in (node0_ip at line 11)'),
      })
      .nullable()
      .describe('--data-parallel-address: the master of the instance; null when not given'),
    nodeAddress: z
      .object({ value: z.string(), known: z.boolean(), name: z.string(), line: lineSchema.nullable() })
      .nullable()
      .describe("this node's address as the script sets it (HCCL_IF_IP, IP_ADDRESS or local_ip), with the line where it is written"),
    maxNumSeqs: z.number().int().positive().nullable(),
    kv: z
      .object({
        connector: z.string().nullable(),
        role: z.string().nullable(),
        port: z.string().nullable(),
        engineId: z.string().nullable(),
        line: lineSchema,
        prefill: kvSideSchema.describe('kv_connector_extra_config.prefill: the sizes of the prefill instance this one expects'),
        decode: kvSideSchema.describe('kv_connector_extra_config.decode'),
      })
      .nullable()
      .describe('--kv-transfer-config, when it parses'),
    lines: z
      .object({
        serve: lineSchema,
        tp: lineSchema.nullable(),
        dp: lineSchema.nullable(),
        dpLocal: lineSchema.nullable(),
        startRank: lineSchema.nullable(),
        rpcPort: lineSchema.nullable(),
        maxNumSeqs: lineSchema.nullable(),
      })
      .describe('the line of each flag as written; null when the flag is not given'),
  })
  .describe('the parallel layout of the server, as qprep aggregate compares it across nodes');

export const launchInfoSchema = z.object({
  file: z.string().describe('the path given to --launch ("-" for standard input), or the one recorded in the snapshot'),
  from: z.enum(['file', 'stdin', 'snapshot']),
  lines: z.number().int().nonnegative(),
  serve: z
    .object({
      line: z.number().int().positive(),
      form: z.enum(['vllm serve', 'api_server']),
      model: z.string().nullable(),
      layout: launchLayoutSchema.optional(),
    })
    .nullable()
    .describe('the server command qprep found in the script; null when there is none'),
});

export const fullReportSchema = z.object({
  schemaVersion: z.literal(1),
  tool: toolSchema,
  lang: z
    .enum(['en', 'zh'])
    .optional()
    .describe('the language of title, message, remediation and details (--lang, QPREP_LANG or the locale); ids, statuses, levels, codes and evidence never change with it. Absent in reports of qprep before 0.2'),
  runId: z.string(),
  host: hostInfoSchema,
  source: z
    .object({
      kind: z.enum(['live', 'snapshot']),
      root: z.string(),
      snapshot: z.object({ file: z.string(), createdAt: z.string(), toolVersion: z.string() }).optional(),
    })
    .describe('where the answers came from: the live host (under root) or a recorded snapshot'),
  profile: z.object({
    name: z.string(),
    source: z.string().describe('"builtin", the profile file, or "recorded" (the profile a replayed snapshot recorded)'),
    nodes: z.number().int().positive().optional().describe("the nodes the profile's deployment spans (deployment.nodes); qprep aggregate expects that many reports"),
  }),
  startedAt: z.string(),
  durationMs: z.number().nonnegative(),
  ready: z.boolean(),
  strict: z.boolean(),
  selection: z.object({
    only: z.array(z.string()),
    skip: z.array(z.string()),
    ignore: z.array(z.string()),
    depth: z
      .enum(DEPTHS)
      .optional()
      .describe('how deep the run looked (--depth): quick, standard or deep; which checks each runs: qprep list. Absent in reports of qprep before 0.2'),
  }),
  summary: summarySchema,
  blocking: z.array(z.string()).describe('ids of the checks that make the node not ready'),
  checks: z.array(checkResultSchema),
  facts: factsSchema.optional().describe('the `qprep facts` document of this node, present when NPU or HCCN checks ran'),
  stack: stackFactSchema
    .optional()
    .describe('the installed software stack the NPU and launch checks judged (vllm-ascend, vllm, torch, torch_npu, transformers, CANN and its components, driver, firmware), present when NPU or launch checks ran'),
  cluster: clusterInfoSchema.optional().describe('present with --cluster'),
  launch: launchInfoSchema.optional().describe('present with --launch SCRIPT (or a snapshot that recorded one): the script the launch checks read'),
  leftProcesses: z
    .array(
      z.object({
        tool: z.string().describe('the executable as run'),
        firstCall: z.array(z.string()).describe('the argv of the first call that left processes'),
        calls: z.number().int().positive(),
        processes: z.number().int().positive().describe('processes found running after their call ended, all killed'),
      }),
    )
    .optional()
    .describe('set when a tool left processes running outside its process group (setsid, a double fork): qprep found them by its run token and killed them'),
  interrupted: z
    .object({
      signal: z.string().describe('SIGINT or SIGTERM'),
      unfinished: z.array(z.string()).describe('ids of the checks that had not finished; each is an error in checks'),
    })
    .optional()
    .describe('set when a signal stopped the run: the report is partial, ready is false and the exit code is 2'),
  error: errorInfoSchema
    .optional()
    .describe('set when this report carries no verdict (exit code 2): with interrupted (code "interrupted"), when qprep serve cut the run at its --budget (code "interrupted"), or when every selected check skipped (code "nothing-assessed")'),
});

export const errorReportSchema = z.object({
  schemaVersion: z.literal(1),
  tool: toolSchema,
  command: z
    .string()
    .nullable()
    .optional()
    .describe('the command that failed (check, snapshot, facts, tune, ...); null when none was recognized; absent in documents of qprep before 0.2'),
  ready: z.literal(false).optional().describe('present in the error documents of check and aggregate, the commands that give a readiness verdict'),
  error: errorInfoSchema,
});

export const reportSchema = z.union([fullReportSchema, errorReportSchema]);

export type Report = z.infer<typeof fullReportSchema>;
export type ErrorReport = z.infer<typeof errorReportSchema>;
export type AnyReport = z.infer<typeof reportSchema>;
export type HostInfo = z.infer<typeof hostInfoSchema>;
export type ClusterInfo = z.infer<typeof clusterInfoSchema>;
export type LaunchLayout = z.infer<typeof launchLayoutSchema>;
