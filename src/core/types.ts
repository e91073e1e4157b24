import type { LoadedCluster } from '../cluster/load.js';
import type { ContainerInfo } from '../host/container.js';
import type { Host } from '../host/types.js';
import type { Catalogue, Lang } from '../i18n/index.js';
import type { Change } from './change.js';
import type { Action } from './ids/actions.js';
import type { Category } from './ids/categories.js';
import type { Depth } from './ids/depths.js';
import type { CheckId } from './ids/checks.js';
import type { HealthLedger } from './health-ledger.js';
import type { LaunchInput } from './launch-input.js';
import type { Profile } from './profile.js';

export type Status = 'pass' | 'warn' | 'fail' | 'skip' | 'error';
export const STATUSES: readonly Status[] = ['pass', 'warn', 'fail', 'skip', 'error'];

/** required: a fail or error makes the node not ready. recommended: a fail is reported as warn. */
export type Level = 'required' | 'recommended';


/** What a check concludes. `fail` of a recommended check is turned into `warn` by the runner. */
export interface Outcome {
  status: Status;
  /** one line that stands alone in a log */
  message: string;
  expected?: string;
  actual?: string;
  /** the exact command, file edit or `docker run` flag that fixes it */
  remediation?: string;
  /** what was observed, for the JSON report */
  evidence?: Record<string, unknown>;
  /**
   * Lines a person needs when one line cannot say it all (every failing pair of a 4-node ping
   * plan, one line per peer); the human report prints them indented under the check.
   */
  details?: string[];
  /**
   * The id of the check that reports the cause of this one's problem (npu.smi when the NPU
   * table could not be read): the human report names the cause once and lists this check under it.
   */
  causedBy?: CheckId;
  /**
   * What to do about this outcome, when it is not what the check's `action` rule says for its
   * status (npu.health: the handling level of the worst fault code). Ignored on a pass.
   */
  action?: Action;
}

/**
 * The action of a check's non-pass outcomes that name none of their own. One action stands for
 * its fails and warnings; an `error` (it could not assess: a tool missing, a file unreadable) is
 * `reconfigure` and a `skip` is `none` unless the rule says otherwise.
 */
export type ActionRule = Action | { fail: Action; warn?: Action; error?: Action; skip?: Action };

/** An hccn_tool query a check makes of every device it examines (`-link -g`). */
export interface HccnToolQuery {
  /** the arguments after `-i N` */
  args: string;
  /** the families it is asked on; every family with an NPU network when not given */
  families?: ReadonlyArray<'a2' | 'a3'>;
  /** how many times per device (the error counters are read twice); 1 when not given */
  reads?: number;
  /** asked only for the devices whose earlier answer calls for it (-speed -g after "no FEC mode"): not counted in a budget */
  onlyWhen?: string;
}

/**
 * What one run of a check costs the host beyond what every check shares (the `npu-smi info`
 * table, files, the environment), as `qprep list` shows it and the depth budgets sum it. A query
 * several checks make is made once per run: the budgets count distinct queries. The benchmark
 * measures the real calls (bench/measurements/depth.mjs).
 */
export interface CheckCost {
  /** the hccn_tool queries it makes of each device */
  hccnTool?: readonly HccnToolQuery[];
  /** it pings each device of each peer node from the same device here (hccn.peers) */
  pings?: boolean;
  /** npu-smi queries per NPU die or card beyond the shared table (-t spod-info per die on A3) */
  npuSmiPerDie?: number;
  /** how long the check waits on purpose (between the two reads of the error counters), milliseconds */
  waitMs?: number;
  /** it reads the weights' storage to time it */
  readsStorage?: boolean;
  /** it connects to TCP ports of other nodes */
  connects?: boolean;
}

export interface CheckContext {
  readonly host: Host;
  readonly profile: Profile;
  /** default timeout of one probe, in milliseconds */
  readonly timeoutMs: number;
  /**
   * Runs `compute` once per run and shares its promise: several checks read the same
   * `npu-smi info` table or mountinfo, and the host is asked only once.
   */
  shared<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** is the examined tree a container (see detectContainer) */
  container(): Promise<ContainerInfo>;
  /** the clock, injectable for waiver expiry and tests */
  now(): Date;
  /** the cluster of --cluster and this node's place in it; absent on a single-node run */
  readonly cluster?: LoadedCluster;
  /** the script of --launch (or the one recorded in the snapshot); absent when none was given */
  readonly launch?: LaunchInput;
  /** false with --no-io-probe: no check reads the weights to time the storage */
  readonly ioProbe?: boolean;
  /**
   * qprep serve: what the agent remembers of earlier runs (error counters, link-down events), for
   * the checks that judge growth between runs and events within a window; absent on a one-shot run
   */
  readonly history?: HealthLedger;
  /** the language of the run's text: titles, messages, remediations (never ids, statuses or evidence) */
  readonly lang: Lang;
  /** the catalogue of that language: `ctx.text.checks['npu.idle']` holds that check's messages */
  readonly text: Catalogue;
}

export interface Check {
  /** `category.name`, stable API: CLI flags, JSON report, journal; the name of the check's file */
  readonly id: CheckId;
  readonly title: string;
  readonly category: Category;
  /**
   * Its place among its category's checks, in the report and in the order the run starts them:
   * lower first. The built-in checks count in tens, which leaves room for one between two.
   */
  readonly order: number;
  readonly level: Level;
  /**
   * the shallowest depth of run that runs it (`--depth`); standard when not given. Named so as not
   * to be taken for `level` (required or recommended)
   */
  readonly depth?: Depth;
  /** what a run of it costs the host, for `qprep list` and the depth budgets; nothing beyond the shared probes when not given */
  readonly cost?: CheckCost;
  /** what its non-pass results tell the operator to do, unless an outcome says otherwise */
  readonly action: ActionRule;
  /** one paragraph: why this matters for a vllm-ascend deployment */
  readonly why: string;
  /** the files and commands the check reads, for `qprep explain` */
  readonly reads: readonly string[];
  /** how a failure is fixed, in general; each result carries the exact remediation */
  readonly fix: string;
  /** observes only; never changes the host */
  run(ctx: CheckContext): Promise<Outcome>;
  /** the longest the check may take when that is more than the default watchdog */
  budgetMs?(ctx: CheckContext): number;
  /**
   * Starts memoized probes the check will need as soon as the run starts, before the check
   * waits for a free slot: for a tool that runs one call at a time, an idle moment is lost for
   * good. Must return at once (a promise it returns is not awaited; its failure is ignored): the
   * check still asks for its probes itself.
   */
  prefetch?(ctx: CheckContext): void | Promise<void>;
  /**
   * The changes that would make this check pass, as data, for `qprep tune`. Called only after
   * `run` reported a problem, with what it reported; observes only, like `run`. An empty list
   * means tune cannot fix it (the check's remediation says what can).
   */
  plan?(ctx: CheckContext, outcome: Outcome): Promise<Change[]>;
}

export interface Waiver {
  reason: string;
  expires?: string;
}

/** One line of the report. */
export interface CheckResult {
  id: string;
  title: string;
  category: Category;
  level: Level;
  status: Status;
  message: string;
  expected?: string;
  actual?: string;
  remediation?: string;
  evidence: Record<string, unknown>;
  details?: string[];
  /** the waiver that turned this result into a warning, and what the check had found */
  waived?: Waiver & { found?: 'fail' | 'warn' };
  /** --ignore or a profile waiver named this check, but it ended in error: a waiver cannot stand for an assessment */
  waiverRefused?: string;
  /** a profile waiver of this check whose date has passed: it no longer applies */
  waiverExpired?: Required<Waiver>;
  /** the id of the check whose problem this one's follows from; set only when that check did not pass */
  causedBy?: string;
  /** what to do about it: present on every non-pass result (a skip: none) */
  action?: Action;
  /** qprep serve: the result was carried from the last deeper run, which observed it at this time (ISO) */
  observedAt?: string;
  durationMs: number;
}
