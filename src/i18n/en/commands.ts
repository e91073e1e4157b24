import type { FaultLevel } from '../../knowledge/fault-codes.js';
import { plural } from '../../util/text.js';

/** The text of list, explain, tune, rollback, env, aggregate, facts and serve. */
export const commands = {
  list: {
    columns: { id: 'ID', level: 'LEVEL', depth: 'DEPTH', category: 'CATEGORY', title: 'TITLE' },
    /** what a check costs beyond the shared probes, after its title */
    cost: {
      /** `queries`: "-link_stat -g", "-fec -g (a2), -speed -g when needed" */
      hccnTool: (p: { count: number; queries: string }) => `hccn_tool ${p.count}/device: ${p.queries}`,
      whenNeeded: 'when needed',
      pings: 'pings each peer node, device by device',
      npuSmi: (p: { count: number }) => `npu-smi ${p.count}/die`,
      wait: (p: { seconds: number }) => `waits ${p.seconds} s`,
      storage: "reads the weights' storage",
      connects: "connects to other nodes' ports",
    },
    /** the footer: what each depth may cost (--depth) */
    depths: (p: { quick: number; standard: number; deep: number; waitSeconds: number }) =>
      `--depth quick runs the checks of depth quick (no per-device call: ${p.quick} of them), standard (the default) adds at most 8 hccn_tool calls per device, the pings and the storage read (${p.standard}), deep adds the link diagnostics: at most 12 hccn_tool calls per device and a wait of up to ${p.waitSeconds} s (${p.deep})`,
    category: (p: { key: string; heading: string }) => `${p.key} (${p.heading})`,
    selectors: (p: { categories: string }) => `--only and --skip take ids, id prefixes (npu, hccn) and categories: ${p.categories}`,
  },
  /** the comments of `qprep env`'s shell lines (the lines themselves never change) */
  env: {
    /** `qprep`: how qprep was started, as the user pastes it (`npx qprep`) */
    header: (p: { hostname: string; profile: string; qprep: string }) => `# qprep env for ${p.hostname} (profile ${p.profile}); load it with: source <(${p.qprep} env)`,
    node: (p: { ip: string; nic: string; source: string }) => `# node address ${p.ip} on ${p.nic} (${p.source})`,
    note: (p: { note: string }) => `# note: ${p.note}`,
  },
  explain: {
    heading: (p: { id: string; title: string }) => `${p.id}: ${p.title}`,
    /** English paragraphs are wrapped at spaces; Chinese has none to break at and is printed whole */
    wrapParagraphs: true,
    category: (p: { category: string; level: string; required: boolean }) =>
      `category: ${p.category} · level: ${p.level}${p.required ? ' (a fail or error makes the node not ready)' : ' (a fail is reported as a warning)'}`,
    why: 'Why it matters:',
    reads: 'What it reads:',
    fix: 'How to fix a failure:',
    /** qprep explain RULE: a rule of knowledge/rules.json or knowledge/quantization.json; its summary and quotes are the data's, in English */
    rule: {
      heading: (p: { id: string; file: string }) => `${p.id} (a rule of ${p.file})`,
      says: 'What it says:',
      verdict: (p: { severity: string; outside: string | null }) =>
        `verdict: ${p.severity} on the releases it applies to${p.outside !== null ? `, ${p.outside} on the others` : ', nothing on the others'}`,
      whenUnknown: (p: { how: 'newest' | 'in-force' | 'warn' }) =>
        `with no vllm-ascend version found: ${p.how === 'newest' ? 'judged as at the newest release' : p.how === 'in-force' ? 'judged as if it applies' : 'a warning'}`,
      releases: (p: { from: string | null; to: string | null }) => `releases: ${p.from === null || p.to === null ? 'every release' : p.from === p.to ? p.from : `${p.from} to ${p.to}`}`,
      appliesTo: (p: { what: string }) => `applies to: ${p.what}`,
      params: (p: { values: string }) => `parameters: ${p.values}`,
      statements: 'Stated in:',
      statedAt: (p: { refs: string; path: string }) => `${p.refs}: ${p.path}`,
      noStatement: 'no file of a vllm-ascend release states it: its source is a public report or a vendor document',
      reports: 'Public reports:',
      reportAt: (p: { version: string | null; url: string }) => (p.version !== null ? `${p.version}: ${p.url}` : p.url),
      source: 'Source:',
    },
    /** qprep explain 80E18005: an Ascend fault code; levels and actions are ids, never translated */
    code: {
      heading: (p: { code: string; meaning: string | null }) => `${p.code}: ${p.meaning ?? 'an Ascend fault code'}`,
      verdict: (p: { level: string; action: string; meaning: string }) => `handling level: ${p.level} · action: ${p.action} (${p.meaning})`,
      what: 'What it is:',
      levelHeading: 'What the handling level means (the Ascend device plugin):',
      levels: {
        NotHandleFault: 'no effect on the workload: the device plugin does nothing. The chip still reports the fault, so qprep watches it.',
        SubHealthFault: "sub-healthy: the device plugin handles it as the job's subHealthyStrategy says and takes no action at once.",
        RestartRequest: 'the workload is affected: re-run the request (inference) or the job (training).',
        RestartBusiness: 'the workload is affected: re-run it.',
        FreeRestartNPU: 'the workload is affected: reset the chip once it is idle.',
        RestartNPU: 'the workload is affected: reset the chip at once (stop the workload, reset, run it again).',
        PreSeparateNPU: 'no effect on the workload yet, but no new work is scheduled on the chip (pre-isolation).',
        SeparateNPU: 'it cannot recover: the chip is isolated.',
      } satisfies Record<FaultLevel, string>,
      alsoIn: (p: { levels: string }) => `The table also lists it under ${p.levels}: the worst level counts, as the device plugin judges it.`,
      noMeaning: "The fault-diagnosis knowledge graph does not name this code: npu-smi info -t health prints the driver's own words for it.",
      sources: 'Sources:',
      license: 'Ascend/mind-cluster, Apache License 2.0 (NOTICE)',
      unknown: (p: { code: string; repo: string; path: string; ref: string }) =>
        `fault code ${p.code} is not in the fault-code table (${p.repo} ${p.path} @ ${p.ref}); the device plugin takes a chip with a code it does not know out of service unless the fault is minor`,
    },
    /** qprep explain model.fit --launch SCRIPT: the plan, one row per figure, as vLLM's start-up log prints them */
    plan: {
      heading: (p: { script: string; model: string; status: string }) => `model.fit plan of ${p.script} (vllm serve ${p.model}): ${p.status}`,
      onlyFit: (p: { id: string }) => `--launch explains the memory plan of model.fit, not ${p.id}: qprep explain model.fit --launch SCRIPT`,
      exact: 'exact',
      estimate: 'estimate',
      model: 'model',
      fromConfig: "config.json, the weights' own",
      fromBuiltin: (p: { model: string; keys: string }) => `qprep's table (${p.model})${p.keys ? `: ${p.keys}` : ''}`,
      lacking: (p: { keys: string }) => `lacks ${p.keys}`,
      release: 'vllm-ascend',
      notFound: 'not found (the newest rules are used)',
      formula: (p: { formula: string }) => `budget rules of ${p.formula}`,
      parallel: 'parallel plan',
      parallelValue: (p: { tp: number; pp: number; dp: number; dpLocal: number; ep: number }) =>
        `TP ${p.tp}${p.pp > 1 ? ` x PP ${p.pp}` : ''} x DP ${p.dp} (${p.dpLocal} on this node)${p.ep > 0 ? `, experts over EP ${p.ep}` : ''}`,
      npu: 'NPU',
      npuValue: (p: { device: number; total: number; used: number }) => `device ${p.device}: ${p.total} MB, ${p.used} MB in use (npu-smi)`,
      visible: 'torch_npu sees',
      visibleFrom: (p: { reserve: number; source: string | null; match: string }): string =>
        p.match === 'none' ? "npu-smi's total: no figure of this NPU model in qprep's table" : `npu-smi's total less ${p.reserve} MiB the driver keeps (${p.source ?? ''})`,
      requested: 'requested',
      requestedFrom: (p: { utilization: number }) => `--gpu-memory-utilization ${p.utilization} x what torch_npu sees`,
      weights: 'weights per NPU',
      weightsFrom: (p: { totalFrom: 'total_size' | 'shards' | 'shapes'; total: string; split: boolean; tp: number; ep: number; pp: number; mtp: boolean; derived: string | null }): string =>
        `${p.total} (${p.totalFrom === 'total_size' ? "the index's total_size" : p.totalFrom === 'shards' ? 'the shards on disk' : "the config's parameter count"}), ` +
        (p.split
          ? `split as vLLM shards each part: TP ${p.tp}${p.ep > 0 ? `, experts over EP ${p.ep}` : ''}${p.pp > 1 ? `, PP ${p.pp}` : ''}${p.mtp ? ', with the MTP layers' : ''}` +
            (p.derived !== null ? `, + ${p.derived} of MLA's 16-bit W_UK_T and W_UV` : '')
          : 'divided evenly (the config lacks the shapes)'),
      activationFrom: (p: { tokens: number; hidden: string }) => `max_num_batched_tokens ${p.tokens} x hidden ${p.hidden} x 2 B x 20, within 0.25-4 GiB`,
      nonTorchFrom: (p: { parts: string }) => p.parts,
      nonTorchPart: (p: { part: 'context' | 'tp' | 'ep' | 'dp' | 'mc2'; size: string }): string =>
        p.part === 'context' ? `${p.size} context` : p.part === 'mc2' ? `${p.size} for the mc2 group (2 x HCCL_BUFFSIZE)` : `${p.size} for the ${p.part.toUpperCase()} group`,
      valuesFromTable: (p: { count: number }) => `${p.count} values`,
      activation: 'activation peak',
      nonTorch: 'outside torch',
      graph: 'ACL graphs',
      others: 'other processes',
      othersFrom: 'what the device holds already, which this release takes off the cache',
      kv: 'KV cache',
      kvFrom: (p: { halved: boolean; kvCacheMemory: boolean }) =>
        p.kvCacheMemory ? '--kv-cache-memory' : `requested - weights - activations - outside torch${p.halved ? ', halved (310P)' : ''}`,
      perToken: 'KV per token',
      perTokenFrom: (p: { layers: number; heads: number }) => `${p.layers} layers that hold per-token KV, ${p.heads} KV heads per NPU`,
      state: 'state per sequence',
      stateFrom: 'the conv and SSM state of every linear-attention layer',
      block: 'block',
      blockValue: (p: { block: number; page: string; groupSize: number; groups: string }) => `${p.block} tokens, ${p.page} per layer, ${p.groupSize} layers per block id (${p.groups})`,
      tokens: (p: { tokens: string }) => `GPU KV cache size: ${p.tokens} tokens`,
      concurrency: (p: { maxModelLen: string; concurrency: string }) => `Maximum concurrency for ${p.maxModelLen} tokens per request: ${p.concurrency}x`,
      notSized: 'KV cache not sized',
      mc2: 'MC2 HCCL buffer',
      mc2Value: (p: { needed: number; buffsize: number }) => `needs ${p.needed} MB, HCCL_BUFFSIZE is ${p.buffsize} MB`,
      mc2From: (p: { maxBs: number; ep: number; local: number }) => `CANN MoeDistributeDispatchV2: maxBs ${p.maxBs}, ${p.ep} EP ranks, ${p.local} experts each`,
      streams: 'graph streams',
      streamsValue: (p: { streams: number; sizes: number; max: number }) => `${p.streams} (${p.sizes} capture sizes; vllm-ascend up to v0.20 keeps ${p.max})`,
      streamsFrom: (p: { piecewise: boolean }): string => (p.piecewise ? 'piecewise capture: sizes x (layers + 1) x communication factor, of 1800' : 'full graphs: one per size'),
      verdict: 'verdict',
    },
  },

  // tune and rollback: src/report/tune.ts, src/core/tune/*
  tune: {
    /** the status column of the change rows; the JSON keeps planned, applied, ... */
    statuses: {
      planned: 'planned',
      applied: 'applied',
      restored: 'restored',
      unchanged: 'unchanged',
      reverted: 'reverted',
      failed: 'failed',
      'revert-failed': 'revert-failed',
      refused: 'refused',
      skipped: 'skipped',
      drifted: 'drifted',
      missing: 'missing',
    } as Record<string, string>,
    /** the width the status column is padded to, in terminal columns */
    statusWidth: 13,
    noFile: '(no file)',
    unread: '(unread)',
    settings: (p: { count: number }) => plural(p.count, 'setting'),
    files: (p: { count: number }) => ` (${p.count} files)`,
    changes: (p: { count: number }) => plural(p.count, 'change'),
    changesWrites: (p: { changes: number; writes: number }) => `${plural(p.changes, 'change')} (${p.writes} writes)`,
    newFile: (p: { content: string }) => `new file, ${p.content}`,
    rewritten: (p: { content: string }) => `rewritten, ${p.content}`,
    snapshot: (p: { file: string }) => `snapshot ${p.file}`,
    liveHost: 'live host',
    hostTree: (p: { root: string }) => `host tree ${p.root}`,
    kernel: (p: { kernel: string }) => `kernel ${p.kernel}`,
    inContainer: (p: { runtime: string | null }) => ` · in a container (${p.runtime ?? 'unknown runtime'})`,
    profile: (p: { name: string; source: string }) => ` · profile ${p.name} (${p.source})`,
    /** the hint after an interrupted tune */
    interruptedAdvice: 'what was written is journaled: run qprep rollback, then tune again',
    earlierUnfinished: 'An earlier tune did not finish:',
    unfinishedRun: (p: { command: string; startedAt: string; changes: number }) =>
      `  "${p.command}" started ${p.startedAt}: ${plural(p.changes, 'change')} may be half applied`,
    nothingToChange: 'Plan: nothing to change',
    plan: (p: { size: string; dryRun: boolean }) => `Plan: ${p.size}${p.dryRun ? '' : ', old values journaled before the first write'}`,
    alreadyRight: (p: { targets: string }) => `  already right: ${p.targets}`,
    result: 'Result:',
    conflicts: 'Conflicts (reported, not changed):',
    notFixed: 'Not fixed by tune:',
    fixLabel: 'fix:',
    noteLabel: 'note:',
    /** between a verdict's label and its text: "DRY RUN: ..." */
    labelSeparator: ': ',
    dryRun: 'DRY RUN',
    ok: 'OK',
    changed: 'CHANGED',
    refusedLabel: 'REFUSED',
    failedLabel: 'FAILED',
    wouldBeMade: (p: { size: string }) => `${p.size} would be made; nothing was written`,
    nothingWouldChange: 'nothing would change; nothing was written',
    unchangedVerdict: 'nothing to change (changed: false)',
    appliedVerdict: (p: { size: string; journal: string | null; rollback: string }) => `${p.size} applied and verified; journal ${p.journal}; undo with: ${p.rollback}`,
    aChangeWasRefused: 'a change was refused',
    refusedVerdict: (p: { why: string }) => `nothing was changed: ${p.why}`,
    aChangeFailed: 'a change failed',
    rolledBackVerdict: (p: { why: string }) => `${p.why}; every change was rolled back`,
    revertFailedVerdict: (p: { journal: string | null; rollback: string }) =>
      `a change failed and some old values could not be put back; see ${p.journal} and run: ${p.rollback}`,
    // the notes tune adds to its document (src/core/tune/engine.ts, persist.ts)
    tookOverLock: (p: { from: string }) => `took over the lock left by ${p.from}, which is no longer running`,
    /** how a verification note starts: the verdict of a rolled-back tune quotes it */
    verificationPrefix: 'verification',
    stillFailing: (p: { id: string; status: string; message: string }) => `verification: ${p.id} is still ${p.status} after the changes: ${p.message}`,
    notRetired: (p: { problem: string }) => `the journal could not be retired: ${p.problem}`,
    notUpdated: (p: { problem: string }) => `the journal could not be updated: ${p.problem}`,
    notPutBack: (p: { rollback: string; journal: string }) =>
      `some old values could not be put back: run "${p.rollback}" once the cause is fixed, or restore them by hand from ${p.journal}`,
    notMarkedComplete: (p: { problem: string; rollback: string }) =>
      `the changes are applied, but the journal could not be marked complete (${p.problem}); "${p.rollback}" still works from it`,
    noSysctlD: (p: { keys: string }) => `/etc/sysctl.d does not exist: ${p.keys} not made persistent (add them to /etc/sysctl.conf)`,
    noTmpfilesD: (p: { paths: string }) => `/etc/tmpfiles.d does not exist (no systemd-tmpfiles): ${p.paths} not made persistent`,
    // the conflicts tune reports (src/core/tune/conflicts.ts)
    sysctlWins: (p: { where: string; key: string; value: string; wanted: string; file: string }) =>
      `${p.where} sets ${p.key} = ${p.value}, not ${p.wanted}; it is applied after ${p.file}, so it wins at every boot even with --persist: change or remove that line`,
    sysctlComesBack: (p: { where: string; key: string; value: string; wanted: string; file: string }) =>
      `${p.where} sets ${p.key} = ${p.value}, not ${p.wanted}; it comes back at the next boot or "sysctl --system" unless --persist writes ${p.file}, which is applied after it`,
    tmpfilesWrites: (p: { where: string; value: string; path: string; wanted: string }) =>
      `${p.where} writes "${p.value}" to ${p.path} at every boot, not ${p.wanted}: change or remove that line`,
    tuned: (p: { running: boolean; profile: string }) =>
      `tuned ${p.running ? 'is running' : 'is configured'} with the profile "${p.profile}": it sets its own CPU governor and sysctls ` +
      'when it starts and may undo these settings; put them in a custom tuned profile, or stop it (systemctl disable --now tuned)',
    cpupower: (p: { path: string; value: string; wanted: string; service: string }) =>
      `${p.path} sets the governor "${p.value}", not ${p.wanted}: the ${p.service} service applies it at boot; change it there or disable the service`,
    cannotLookForConflicts: (p: { problem: string }) => `cannot look for conflicting configuration: ${p.problem}`,
  },
  rollback: {
    interruptedAdvice: 'the journal keeps what was not restored yet: run qprep rollback again',
    removeFile: 'remove the file',
    restoreFile: (p: { content: string }) => `restore the old file, ${p.content}`,
    nothing: 'no tune journal here; qprep has no changes in effect (changed: false)',
    heading: (p: { dryRun: boolean }) => `${p.dryRun ? 'Would restore' : 'Restore'}, newest change first:`,
    restored: 'RESTORED',
    incomplete: 'INCOMPLETE',
    wouldRestore: (p: { count: number; journal: string | null }) => `${plural(p.count, 'value')} would be restored from ${p.journal}; nothing was written`,
    putBack: (p: { count: number; journal: string | null }) => `${plural(p.count, 'value')} put back; journal kept as ${p.journal}`,
    incompleteVerdict: (p: { count: number }) => `${plural(p.count, 'value')} put back, the others are listed above; the journal is kept, run rollback again once fixed`,
    tookOverLock: (p: { from: string }) => `took over the lock left by ${p.from}, which is no longer running`,
    notRestored: (p: { incomplete: number; total: number; journal: string }) =>
      `${p.incomplete} of ${p.total} values were not restored; ${p.journal} is kept so that rollback can be run again`,
    notRetired: (p: { problem: string; journal: string }) => `every value is restored, but the journal could not be retired: ${p.problem}; move ${p.journal} aside by hand`,
  },
  // the notes of qprep env (src/app/env.ts, src/app/launch-env.ts), on standard error and in its document
  envNotes: {
    jemallocNotFound: (p: { library: string; problem: string | null; searched: number }) =>
      `${p.library} not found here (${p.problem ?? `searched ${p.searched} places`}): LD_PRELOAD is left as it is; install jemalloc (qprep explain mem.jemalloc)`,
    droppedFromPreload: (p: { entry: string }) => `${p.entry} dropped from LD_PRELOAD: no such file on this host`,
    fromProfile: (p: { name: string; value: string; computed: string }) => `${p.name} comes from the profile (${p.value}), not from this host (${p.computed})`,
    noHostAddress: (p: { source: string }) => `${p.source} gives no host address for this node: using the default route`,
    ipOverrides: (p: { ip: string; host: string; node: string; file: string }) => `--ip ${p.ip} overrides the host address ${p.host} of node ${p.node} in ${p.file}`,
    nicOverrides: (p: { nic: string; ifname: string; node: string; file: string }) => `--nic ${p.nic} overrides the ifname ${p.ifname} of node ${p.node} in ${p.file}`,
  },
  // aggregate's human report: src/report/aggregate.ts (the findings' messages are the aggregation's own)
  aggregate: {
    nodesFrom: (p: { nodes: number; documents: number }) => `${plural(p.nodes, 'node')} from ${plural(p.documents, 'document')}`,
    cluster: (p: { file: string; nodes: number }) => `cluster ${p.file} (${plural(p.nodes, 'node')})`,
    noCluster: 'no cluster file',
    noMaxAge: 'no max age',
    maxAge: (p: { age: string }) => `max age ${p.age}`,
    columns: { node: 'NODE', verdict: 'VERDICT', age: 'AGE', npus: 'NPUS', driver: 'DRIVER', firmware: 'FIRMWARE', cann: 'CANN', vllmAscend: 'VLLM-ASCEND', failing: 'FAILING' },
    verdicts: { ready: 'ready', 'not-ready': 'NOT READY', 'no-verdict': 'NO VERDICT', missing: 'MISSING' },
    noReport: 'no report',
    errorCode: 'error',
    odd: '* differs from most nodes (or older than --max-age)',
    notReady: 'Not ready',
    /** the status column of the failing checks: as wide as each other */
    statuses: { error: '? error', warn: '! warn ', fail: '✗ fail ' },
    launchLayout: 'Launch layout',
    singleNode: (p: { count: number; nodes: string }) => `  ${plural(p.count, 'single-node instance')}: ${p.nodes}`,
    instance: 'instance',
    roleInstance: (p: { role: string }) => `${p.role} instance`,
    master: (p: { master: string; address: string | null }) => `master ${p.master}${p.address ? ` at ${p.address}` : ''}`,
    noMaster: 'no master',
    ranks: (p: { node: string; ranks: string; script: string }) => `${p.node} ranks ${p.ranks || 'none'} (${p.script})`,
    layout: (p: { role: string; dp: number; tp: number; pp: number; master: string; nodes: string }) =>
      `  ${p.role}, DP ${p.dp} x TP ${p.tp}${p.pp > 1 ? ` x PP ${p.pp}` : ''}, ${p.master}: ${p.nodes}`,
    pairsRolling: 'NPU pairs (plan: rolling)',
    pairsOnce: 'NPU pairs (pairs: once)',
    pairs: (p: { total: number; reports: number; ok: number; failed: number; notVerified: number }) =>
      `  ${p.total} pairs joined from ${plural(p.reports, 'report')}: ${p.ok} ok, ${p.failed} failed, ${p.notVerified} not verified`,
    noProof: 'no proof within the bound',
    oldestProof: (p: { age: number }) => `oldest valid proof ${p.age} s`,
    coverage: (p: { percent: number; oldest: string; bound: number; never: number; stale: number }) =>
      `  rolling coverage ${p.percent}%: ${p.oldest} (bound ${p.bound} s), ${p.never} never proven, ${p.stale} older than the bound`,
    across: 'Across the cluster',
    severities: { fail: 'fail', warn: 'warn', note: 'note' },
    fixLabel: 'fix:',
    ready: 'CLUSTER READY',
    notReadyLabel: 'CLUSTER NOT READY',
    labelSeparator: ': ',
    readyVerdict: (p: { ready: number; nodes: number; warnings: number; strict: boolean }) =>
      `${p.ready} of ${plural(p.nodes, 'node')} ready${p.warnings > 0 && !p.strict ? ` (${plural(p.warnings, 'warning')}; --strict would refuse them)` : ''}`,
    partsSeparator: '; ',
    nodesNotReady: (p: { count: number; nodes: number }) => `${p.count} of ${plural(p.nodes, 'node')} not ready`,
    withoutVerdict: (p: { count: number }) => `${p.count} without a verdict`,
    missing: (p: { count: number }) => `${p.count} missing`,
    stale: (p: { count: number }) => `${p.count} stale`,
    differs: (p: { labels: string }) => `differs: ${p.labels}`,
    collisions: (p: { count: number }) => plural(p.count, 'device IP collision'),
    launchProblems: (p: { count: number }) => plural(p.count, 'launch script problem'),
    notInCluster: (p: { count: number }) => `${p.count} not in the cluster file`,
    pairsFailed: (p: { count: number }) => `${plural(p.count, 'NPU pair')} failed`,
    pairsNotVerified: (p: { count: number }) => `${plural(p.count, 'NPU pair')} not verified`,
    loadTime: 'Weights load time (model.load-time)',
    loadTimeRow: (p: { node: string; seconds: number; storage: string }) => `  ${p.node}  ~${p.seconds} s  ${p.storage}`,
    loadTimeMore: (p: { count: number }) => `  ... and ${plural(p.count, 'more node')}`,
    loadSpread: (p: { spread: number; slowest: string; fastest: string }) => `  ${p.spread} s between the slowest (${p.slowest}) and the fastest (${p.fastest})`,
    loadSkew: (p: { spread: number }) => `load times ${p.spread} s apart`,
  },
  // serve: the line /readyz answers (src/serve/readiness.ts); the JSON log keeps its fields as they are
  serve: {
    firstRunPending: 'not ready: the first run has not finished yet',
    ago: (p: { age: string }) => `${p.age} ago`,
    stale: (p: { age: string; intervals: number; interval: string }) =>
      `not ready: the last report is stale: it finished ${p.age}, more than ${p.intervals} × the ${p.interval} interval`,
    noReport: 'the run produced no report',
    noVerdict: (p: { problem: string; age: string }) => `no verdict: ${p.problem} (${p.age})`,
    run: (p: { runId: string; age: string }) => `run ${p.runId}, ${p.age}`,
    ready: (p: { checks: number; warnings: number; run: string }) =>
      `ready: ${plural(p.checks, 'check')}, none blocking${p.warnings > 0 ? `, ${plural(p.warnings, 'warning')}` : ''} (${p.run})`,
    notReady: (p: { count: number; blocking: string; run: string }) => `not ready: ${plural(p.count, 'blocking check')}: ${p.blocking} (${p.run})`,
    reloadFailed: (p: { error: string }) => `; profile reload failed, still using the previous profile: ${p.error}`,
    /** the other one-line answers of the HTTP side (src/serve/http.ts); the paths, methods and formats as they are */
    http: {
      badTarget: 'bad request: the request target is not a URL path',
      notFound: (p: { path: string }) => `not found: ${p.path} (see GET /)`,
      methodNotAllowed: (p: { method: string; path: string; allowed: readonly string[] }) => `method ${p.method} not allowed on ${p.path}; use ${p.allowed.join(' or ')}`,
      triggerOff: 'POST /run is off: start qprep serve with --allow-trigger to allow it',
      runGoing: 'a run is already going on; GET /report when it has finished',
      runStarted: 'run started; GET /report when it has finished',
      unknownFormat: (p: { format: string; formats: string }) => `unknown format "${p.format}"; formats: ${p.formats}`,
      noReportYet: 'no report yet: the first run has not finished',
    },
    /** 421 for a Host header the agent does not answer for (DNS rebinding) */
    misdirected: (p: { host: string }) =>
      `misdirected request: this agent does not answer for host "${p.host}"; reach it by its address or localhost, or start qprep serve with --allow-host NAME`,
    /** GET /agentz: whether the agent does its job, whatever the node's verdict */
    agent: {
      firstRunPending: 'agent starting: the first run has not finished yet',
      stale: (p: { age: string; intervals: number; interval: string }) =>
        `agent stuck: its last run finished ${p.age}, more than ${p.intervals} × the ${p.interval} interval`,
      misconfigured: (p: { code: string; problem: string }) => `agent misconfigured: its last run had no verdict (${p.code}): ${p.problem}`,
      publishFailed: (p: { problem: string }) => `agent cannot publish the verdict: ${p.problem}`,
      works: (p: { verdict: string; age: string }) => `agent works: last run ${p.age}, verdict ${p.verdict}`,
    },
    /** the page GET / answers: what each route does */
    index: {
      healthz: '200 while the agent runs',
      agentz: "200 while the agent works (its runs finish and what it publishes is written), whatever the node's verdict: a pod's readiness",
      readyz: '200 when the last report is ready and recent, 503 otherwise; one line saying why',
      report: 'the last report as JSON; ?format=junit or ?format=prometheus',
      metrics: "Prometheus metrics: the last report and the agent's runs",
      run: 'start a run now (202, or 409 while one runs); needs --allow-trigger',
    },
  },
  // facts: the problems a facts document records (src/facts/); its fields are never translated
  facts: {
    noAddresses: (p: { problem: string }) => `cannot list the host addresses: ${p.problem}`,
    internalError: (p: { problem: string }) => `internal error: ${p.problem}`,
    noHccnTool: (p: { searched: string }) => `hccn_tool not found (searched ${p.searched}): no device IPs`,
    noRoceAddress: (p: { devices: string }) => `no RoCE address on dev${p.devices} (hccn_tool -i N -ip -g printed none): left out of devices`,
    unreadableIps: (p: { count: number; first: string }) => `cannot read the device IP of ${p.count} devices: ${p.first}`,
    superPodsDiffer: 'the dies report different Super Pod IDs (hccn.spod names them)',
  },
};
