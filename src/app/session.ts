import { randomUUID } from 'node:crypto';
import { catalogue as defaultCatalogue } from '../../checks/index.js';
import { openCluster, type LoadedCluster } from '../cluster/load.js';
import type { RollingLedger } from '../cluster/rolling.js';
import { QprepError } from '../core/errors.js';
import { buildFacts, factsContributorsFor } from '../facts/build.js';
import { builtinProfileNames, loadBuiltinProfile, parseProfileText, type LoadedProfile } from '../core/profile.js';
import { assertProfileCheckIds } from '../core/profile-checks.js';
import { createContext, DEFAULT_TOOL_LIMITS, LimitedHost, runChecks } from '../core/runner.js';
import { resolveIgnore, selectChecks } from '../core/select.js';
import type { Check, CheckContext, CheckResult } from '../core/types.js';
import { blockingResults, summarize } from '../core/verdict.js';
import { readInputFile, readStandardInput } from '../host/inputs.js';
import { LiveHost } from '../host/live.js';
import { ReplayHost, snapshotSchema, type Snapshot } from '../host/snapshot.js';
import type { Host } from '../host/types.js';
import type { LaunchInput } from '../core/launch-input.js';
import { launchView } from '../probes/launch.js';
import { launchLayout } from '../probes/launch-layout.js';
import { osRelease } from '../probes/os.js';
import type { ClusterInfo, HostInfo, Report } from '../report/schema.js';
import { visibleLine } from '../util/text.js';
import { describeZodError } from '../util/zod-error.js';
import { minimalHostInfo, markInterrupted, unfinishedResult, untilInterrupted } from './interrupt.js';
import { VERSION } from '../version.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

/** The options every command that examines a host shares (DESIGN §2). */
export interface HostOptions {
  profile?: string;
  root?: string;
  snapshot?: string;
  timeoutMs?: number;
}

export interface CheckOptions extends HostOptions {
  only?: string[];
  skip?: string[];
  ignore?: string[];
  strict?: boolean;
  jobs?: number;
  /** --cluster FILE: the nodes of the deployment */
  cluster?: string;
  /** --node NAME: this host's node in the cluster, when neither address nor hostname tells */
  node?: string;
  /** --hccn-concurrency N: hccn_tool calls at once (default: the profile's hccn.concurrency) */
  hccnConcurrency?: number;
  /** --launch SCRIPT: the launch script to judge ("-" for standard input) */
  launch?: string;
}

export async function loadProfile(spec: string | undefined): Promise<LoadedProfile> {
  const name = spec ?? 'default';
  const looksLikeFile = /[/\\]/.test(name) || /\.(ya?ml|json)$/i.test(name);
  if (!looksLikeFile && builtinProfileNames().includes(name)) return loadBuiltinProfile(name);
  if (!looksLikeFile) {
    throw new QprepError('invalid-profile', `unknown profile "${name}"; built-in profiles: ${builtinProfileNames().join(', ')} (or give a YAML/JSON file)`);
  }
  const text = await readInputFile(name, 'profile', 'invalid-profile');
  const loaded = parseProfileText(text, name);
  assertProfileCheckIds(loaded, defaultCatalogue);
  return loaded;
}

export async function loadSnapshot(file: string): Promise<Snapshot> {
  const text = await readInputFile(file, 'snapshot', 'invalid-snapshot');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new QprepError('invalid-snapshot', `invalid snapshot ${file}: not JSON: ${visibleLine((error as Error).message)}`);
  }
  const parsed = snapshotSchema.safeParse(document);
  if (!parsed.success) throw new QprepError('invalid-snapshot', `invalid snapshot ${file}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

export interface HostHandle {
  host: Host;
  source: Report['source'];
  /** the launch script a snapshot recorded */
  launch?: LaunchInput;
}

/** Reads the script of --launch (a file, or standard input for "-"); it is never executed. */
export async function loadLaunchScript(spec: string): Promise<LaunchInput> {
  if (spec === '-') {
    if (process.stdin.isTTY) throw new QprepError('invalid-input', 'cannot read the launch script from standard input: it is a terminal (pipe the script in, or give its path)');
    return { file: '-', text: await readStandardInput('invalid-input'), from: 'stdin' };
  }
  return { file: spec, text: await readInputFile(spec, 'launch script', 'invalid-input'), from: 'file' };
}

/** The live host (under --root) or the replay of a snapshot; never both. */
export async function openHost(options: HostOptions): Promise<HostHandle> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (options.snapshot) {
    if (options.root) throw new QprepError('usage', '--root and --snapshot cannot be combined: a snapshot carries its own root');
    const snapshot = await loadSnapshot(options.snapshot);
    return {
      ...(snapshot.launch ? { launch: { file: snapshot.launch.file, text: snapshot.launch.text, from: 'snapshot' as const } } : {}),
      host: new ReplayHost(snapshot, options.snapshot),
      source: {
        kind: 'snapshot',
        root: snapshot.root,
        snapshot: { file: options.snapshot, createdAt: snapshot.createdAt, toolVersion: snapshot.tool.version },
      },
    };
  }
  const host = new LiveHost({ root: options.root ?? '/', timeoutMs });
  return { host, source: { kind: 'live', root: host.root } };
}

export async function describeHost(ctx: CheckContext): Promise<HostInfo> {
  const [identity, os, container] = await Promise.all([ctx.host.identity(), osRelease(ctx), ctx.container()]);
  return {
    hostname: identity.hostname,
    arch: identity.arch,
    kernel: identity.kernel,
    os: os.prettyName ?? ([os.name, os.versionId].filter(Boolean).join(' ') || 'unknown'),
    inContainer: container.inContainer,
    containerRuntime: container.runtime,
  };
}

export interface CheckRun {
  report: Report;
  results: CheckResult[];
  ctx: CheckContext;
}

export interface RunHooks {
  onStart?: (total: number) => void;
  onCheckDone?: (result: CheckResult, done: number, total: number) => void;
  catalogue?: readonly Check[];
  now?: () => Date;
  /** a signal: the run stops there and the report is partial, marked interrupted */
  interrupted?: Promise<NodeJS.Signals>;
  /** qprep serve: the pair proofs plan: rolling keeps from run to run */
  rolling?: RollingLedger;
}

/** Selects, runs and judges the checks on an opened host; the report of DESIGN §3. */
export async function performCheck(handle: HostHandle, loaded: LoadedProfile, options: CheckOptions, hooks: RunHooks = {}): Promise<CheckRun> {
  const catalogue = hooks.catalogue ?? defaultCatalogue;
  const started = new Date();
  const startedMs = performance.now();
  const only = options.only ?? [];
  const skip = [...(options.skip ?? []), ...loaded.profile.skip];
  const ignoreTokens = options.ignore ?? [];
  const checks = selectChecks(catalogue, { only, skip });
  const ignore = resolveIgnore(catalogue, ignoreTokens);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (options.node !== undefined && options.cluster === undefined) throw new QprepError('usage', '--node needs --cluster FILE');
  const cluster = options.cluster === undefined ? undefined : await openCluster(options.cluster, handle.host, options.node);
  if (cluster && hooks.rolling) cluster.rolling = hooks.rolling;
  const toolLimits = { ...DEFAULT_TOOL_LIMITS, hccn_tool: options.hccnConcurrency ?? loaded.profile.hccn.concurrency };
  const host = new LimitedHost(handle.host, 8, toolLimits);
  // --launch wins over the script a snapshot recorded: support can replay a host with a corrected script
  const launch = options.launch !== undefined ? await loadLaunchScript(options.launch) : handle.launch;
  const ctx = createContext(host, loaded.profile, timeoutMs, hooks.now, cluster, launch);
  hooks.onStart?.(checks.length);
  const finished = new Map<string, CheckResult>();
  let describedHost: HostInfo | undefined;
  const checked = await untilInterrupted(
    Promise.all([
      runChecks(checks, ctx, {
        concurrency: options.jobs ?? 8,
        commandConcurrency: 8,
        toolLimits,
        timeoutMs,
        ignore,
        ...(hooks.now ? { now: hooks.now } : {}),
        onCheckDone: (result, done, total) => {
          finished.set(result.id, result);
          hooks.onCheckDone?.(result, done, total);
        },
      }),
      describeHost(ctx).then((info) => (describedHost = info)),
    ]),
    hooks.interrupted,
  );
  let signal = 'signal' in checked ? checked.signal : undefined;
  const elapsed = Math.round(performance.now() - startedMs);
  // taken at the signal: a check the killed probes let finish afterwards stays unfinished
  const unfinished = 'value' in checked ? [] : checks.filter((c) => !finished.has(c.id)).map((c) => c.id);
  const results = 'value' in checked ? checked.value[0] : checks.map((c) => finished.get(c.id) ?? unfinishedResult(c, ctx, checked.signal, elapsed));
  const hostInfo = 'value' in checked ? checked.value[1] : (describedHost ?? (await minimalHostInfo(ctx)));
  // The NPU and HCCN probes are memoized: embedding the facts costs no extra command then.
  let facts: Report['facts'];
  if (!signal && checks.some((c) => c.category === 'npu' || c.category === 'hccn')) {
    const built = await untilInterrupted(buildFacts(ctx, factsContributorsFor(checks)), hooks.interrupted);
    if ('value' in built) facts = built.value;
    else signal = built.signal;
  }
  const strict = options.strict ?? false;
  const blocking = blockingResults(results, strict);
  const report: Report = {
    schemaVersion: 1,
    tool: { name: 'qprep', version: VERSION },
    runId: randomUUID(),
    host: hostInfo,
    source: handle.source,
    profile: { name: loaded.profile.name, source: loaded.source },
    startedAt: started.toISOString(),
    durationMs: Math.round(performance.now() - startedMs),
    ready: blocking.length === 0,
    strict,
    selection: { only, skip, ignore: ignoreTokens },
    summary: summarize(results),
    blocking: blocking.map((r) => r.id),
    checks: results,
  };
  if (cluster) report.cluster = clusterInfo(cluster);
  const launchReport = await launchInfo(ctx);
  if (launchReport) report.launch = launchReport;
  if (facts) report.facts = facts;
  if (signal) return { report: markInterrupted(report, signal, unfinished), results, ctx };
  return { report, results, ctx };
}

/** What the report says about the cluster: which file, which node this is, and how it knew. */
export function clusterInfo(loaded: LoadedCluster): ClusterInfo {
  const info: ClusterInfo = {
    file: loaded.file,
    name: loaded.cluster.name,
    self: loaded.self.name,
    matchedBy: loaded.matchedBy,
    evidence: loaded.evidence,
    nodes: loaded.cluster.nodes.map((n) => n.name),
    plan: loaded.cluster.plan,
    pairs: loaded.cluster.pairs,
  };
  if (loaded.note) info.note = loaded.note;
  return info;
}

/** What the report says about the launch script: which one, and the server command qprep found in it. */
export async function launchInfo(ctx: CheckContext): Promise<Report['launch']> {
  const view = await launchView(ctx);
  if (!view) return undefined;
  const serve = view.serve;
  return {
    file: view.input.file,
    from: view.input.from,
    lines: view.script.parsed.lines,
    serve: serve ? { line: serve.line, form: serve.form, model: serve.parsed.model?.text ?? null, layout: launchLayout(view)! } : null,
  };
}
