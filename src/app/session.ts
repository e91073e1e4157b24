import type { LibraryAnswerCache } from '../host/inventory-cache.js';
import { jsonErrorReason } from '../util/position.js';
import { closest } from '../util/suggest.js';
import { prototypeKeyProblem } from '../util/prototype-keys.js';
import { randomUUID } from 'node:crypto';
import { catalogue as defaultCatalogue } from '../../checks/index.js';
import { openCluster, openClusterText, type LoadedCluster } from '../cluster/load.js';
import type { RollingLedger } from '../cluster/rolling.js';
import type { HealthLedger } from '../core/health-ledger.js';
import { DEFAULT_DEPTH, type Depth } from '../core/ids/depths.js';
import { QprepError } from '../errors.js';
import { buildFacts, factsContributorsFor } from '../facts/build.js';
import { builtinProfileNames, loadBuiltinProfile, parseProfileText, profileSchema, type LoadedProfile } from '../core/profile.js';
import { assertProfileCheckIds } from '../core/profile-checks.js';
import { createContext, runChecks } from '../core/runner.js';
import { DEFAULT_TOOL_LIMITS, LimitedHost, type ToolSlots } from '../host/limited.js';
import { resolveIgnore, selectChecks } from '../core/select.js';
import type { Check, CheckContext, CheckResult } from '../core/types.js';
import { blockingResults, summarize } from '../core/verdict.js';
import { MAX_SETTINGS_BYTES, MAX_SNAPSHOT_BYTES, namedCap, readInputFile, readInputFileSync, readStandardInput } from '../host/inputs.js';
import { LiveHost } from '../host/live.js';
import { processesLeftBehind } from '../host/strays.js';
import { ReplayHost, snapshotSchema, type Snapshot } from '../host/snapshot.js';
import type { Host } from '../host/types.js';
import { MAX_LAUNCH_SCRIPT_BYTES, overTokenCap, oversizedScript, TOKENS_CAP_TEXT, type LaunchInput } from '../core/launch-input.js';
import { launchView } from '../probes/launch.js';
import { installedStack } from '../probes/stack.js';
import { launchLayout } from '../probes/launch-layout.js';
import { osRelease } from '../probes/os.js';
import type { ClusterInfo, HostInfo, Report } from '../report/schema.js';
import { Redactor } from '../util/redact.js';
import { visibleLine } from '../util/text.js';
import { describeZodError } from '../util/zod-error.js';
import { minimalHostInfo, markInterrupted, unfinishedResult, untilInterrupted } from './interrupt.js';
import { VERSION } from '../version.js';
import type { Lang } from '../i18n/lang.js';
import { textFor } from '../i18n/index.js';
import { spokenError, type ErrorText } from '../i18n/spoken-error.js';
import { looksLikeProfileFile } from './path-options.js';
import { DEFAULT_TIMEOUT_MS } from './early-plan.js';

export { DEFAULT_TIMEOUT_MS };

/** The options every command that examines a host shares. */
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
  /**
   * --launch SCRIPT, repeatable: the launch script to judge ("-" for standard input) and the
   * scripts that run it with its arguments
   */
  launch?: readonly string[];
  /** the language of the report's text (resolved from --lang and the environment); English by default */
  lang?: Lang;
  /** false with --no-io-probe: the weights' storage is not read */
  ioProbe?: boolean;
  /** --depth: which checks run by what they cost; standard when not given */
  depth?: Depth;
}

export async function loadProfile(spec: string | undefined, lang: Lang = 'en'): Promise<LoadedProfile> {
  const name = spec ?? 'default';
  const looksLikeFile = looksLikeProfileFile(name);
  if (!looksLikeFile && builtinProfileNames().includes(name)) return loadBuiltinProfile(name);
  if (!looksLikeFile) {
    const words = textFor(lang).errors;
    const match = closest(name, builtinProfileNames());
    throw new QprepError('invalid-profile', `${words.unknownProfile({ name })}\n${match !== undefined ? words.didYouMean({ name: match }) : words.listShowsProfiles}`);
  }
  const text = await readInputFile(name, 'profile', 'invalid-profile', MAX_SETTINGS_BYTES);
  const loaded = parseProfileText(text, name);
  assertProfileCheckIds(loaded, defaultCatalogue);
  return loaded;
}

export async function loadSnapshot(file: string): Promise<Snapshot> {
  return validateSnapshot(readSnapshotDocument(file), file);
}

/**
 * The snapshot's JSON, its text already out of reach when this returns: zod copies the whole
 * document, and the text, the parsed tree and the copy together would hold 3 to 4 times the file.
 */
function readSnapshotDocument(file: string): unknown {
  return parseSnapshotJson(readInputFileSync(file, 'snapshot', 'invalid-snapshot', MAX_SNAPSHOT_BYTES, namedCap(MAX_SNAPSHOT_BYTES, 'snapshot')), file);
}

/** A snapshot document read from `file`: every problem is a QprepError naming the file and the field. */
export function parseSnapshotText(text: string, file: string): Snapshot {
  return validateSnapshot(parseSnapshotJson(text, file), file);
}

function parseSnapshotJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = visibleLine(jsonErrorReason(error, text));
    throw spokenError('invalid-snapshot', (t) => t.inputs.snapshotNotJson({ file, reason }));
  }
}

function validateSnapshot(document: unknown, file: string): Snapshot {
  // the snapshot's records (files, env, the embedded report) take any key: __proto__ would set their prototype
  const prototypeKey = prototypeKeyProblem(document);
  if (prototypeKey) throw spokenError('invalid-snapshot', (t) => t.inputs.invalidSnapshot({ file, detail: prototypeKey }));
  const parsed = snapshotSchema.safeParse(document);
  if (!parsed.success) {
    const detail = describeZodError(parsed.error);
    throw spokenError('invalid-snapshot', (t) => t.inputs.invalidSnapshot({ file, detail }));
  }
  return parsed.data;
}

export interface HostHandle {
  host: Host;
  source: Report['source'];
  /** the launch script a snapshot recorded */
  launch?: LaunchInput;
  /** the profile a snapshot recorded, resolved */
  profile?: LoadedProfile;
  /** the cluster file and --node a snapshot recorded */
  cluster?: { file: string; text: string; node?: string };
  /** the --depth a snapshot recorded */
  depth?: Depth;
}

/** The source a report gives a profile that a snapshot recorded: the header says `(recorded)`. */
export const RECORDED_PROFILE_SOURCE = 'recorded';

/**
 * The profile a snapshot was judged with on its node. Snapshots of qprep before it recorded the
 * profile still name it in their report: a built-in name is loaded again.
 */
function recordedProfile(snapshot: Snapshot, file: string): LoadedProfile | undefined {
  if (snapshot.profile) {
    const parsed = profileSchema.safeParse(snapshot.profile.resolved);
    if (!parsed.success) {
      const detail = `profile.resolved.${describeZodError(parsed.error)}`;
      throw spokenError('invalid-snapshot', (t) => t.inputs.invalidSnapshot({ file, detail }));
    }
    assertProfileCheckIds({ profile: parsed.data, source: file }, defaultCatalogue);
    return { profile: parsed.data, source: RECORDED_PROFILE_SOURCE };
  }
  const named = (snapshot.report?.profile as { name?: unknown } | undefined)?.name;
  if (typeof named === 'string' && builtinProfileNames().includes(named)) return { ...loadBuiltinProfile(named), source: RECORDED_PROFILE_SOURCE };
  return undefined;
}

/** --profile when given; else the one the snapshot recorded; else default. */
export async function profileFor(spec: string | undefined, handle: HostHandle, lang: Lang = 'en'): Promise<LoadedProfile> {
  if (spec === undefined && handle.profile) return handle.profile;
  return loadProfile(spec, lang);
}

/** What a snapshot records of the run besides the host: the resolved profile, the cluster file and --node. */
export function runSettingsRecord(loaded: LoadedProfile, cluster: LoadedCluster | undefined, nodeOption: string | undefined, depth?: Depth): Pick<Snapshot, 'profile' | 'cluster' | 'depth'> {
  const record: Pick<Snapshot, 'profile' | 'cluster' | 'depth'> = {
    profile: { name: loaded.profile.name, source: loaded.source, resolved: loaded.profile as unknown as Record<string, unknown> },
  };
  if (cluster?.text !== undefined) record.cluster = { file: cluster.file, text: cluster.text, ...(nodeOption !== undefined ? { node: nodeOption } : {}) };
  if (depth !== undefined && depth !== DEFAULT_DEPTH) record.depth = depth;
  return record;
}

/** Reads the script of --launch (a file, or standard input for "-"); it is never executed. */
export async function loadLaunchScript(spec: string): Promise<LaunchInput> {
  // read no further than the cap: a 200 MB file given by mistake costs 1 MiB, not 200 MB
  const overCap = namedCap(MAX_LAUNCH_SCRIPT_BYTES, 'launch script');
  if (spec === '-') {
    if (process.stdin.isTTY) throw spokenError('invalid-input', (t) => t.inputs.launchFromTerminal);
    const text = await readStandardInput('invalid-input', MAX_LAUNCH_SCRIPT_BYTES, overCap, 'launch script from standard input');
    return withinLaunchCap({ file: '-', text: refuseBinaryScript(text, '-'), from: 'stdin' });
  }
  const text = await readInputFile(spec, 'launch script', 'invalid-input', MAX_LAUNCH_SCRIPT_BYTES, overCap);
  return withinLaunchCap({ file: spec, text: refuseBinaryScript(text, spec), from: 'file' });
}

/** The scripts of a repeated --launch: the first carries the others as its launchers (which one starts the server is the launch view's to tell). */
export async function loadLaunchScripts(specs: readonly string[]): Promise<LaunchInput | undefined> {
  if (specs.length === 0) return undefined;
  if (specs.filter((spec) => spec === '-').length > 1) throw spokenError('usage', (t) => t.usage.launchStdinTwice);
  const inputs: LaunchInput[] = [];
  for (const spec of specs) inputs.push(await loadLaunchScript(spec));
  const [first, ...launchers] = inputs;
  return launchers.length > 0 ? { ...first!, launchers } : first;
}

/**
 * A launch script over 1 MiB, or of more words than any launch script has, is no launch script:
 * refused before it is read as one.
 */
function withinLaunchCap(input: LaunchInput): LaunchInput {
  const name = (t: ErrorText) => (input.file === '-' ? t.inputs.fromStandardInput : input.file);
  const bytes = oversizedScript(input.text);
  if (bytes !== undefined) throw spokenError('invalid-input', (t) => t.inputs.launchOverBytes({ name: name(t), bytes, max: MAX_LAUNCH_SCRIPT_BYTES }));
  if (overTokenCap(input.text)) throw spokenError('invalid-input', (t) => t.inputs.launchOverTokens({ name: name(t), cap: TOKENS_CAP_TEXT }));
  return input;
}

/**
 * A launch script is bash text: an executable, an archive or a model file given by mistake
 * would be judged as an empty script (no serve command) or as noise.
 */
function refuseBinaryScript(text: string, file: string): string {
  const what = text.startsWith('\x7fELF') ? 'elfExecutable' : text.includes('\0') ? 'binaryFile' : undefined;
  if (what) {
    throw spokenError('invalid-input', (t) => t.inputs.launchNotBash({ name: file === '-' ? t.inputs.names['standard input'] : file, what: t.inputs[what] }));
  }
  return text;
}

function recordedLaunch(recorded: NonNullable<Snapshot['launch']>): LaunchInput {
  const launchers = (recorded.launchers ?? []).map((l) => ({ file: l.file, text: l.text, from: 'snapshot' as const }));
  return { file: recorded.file, text: recorded.text, from: 'snapshot', ...(launchers.length > 0 ? { launchers } : {}) };
}

/** What a resident agent keeps for the live host from one run to the next. */
export interface KeptAcrossRuns {
  libraryCache?: LibraryAnswerCache;
}

/** The live host (under --root) or the replay of a snapshot; never both. */
export async function openHost(options: HostOptions, kept: KeptAcrossRuns = {}): Promise<HostHandle> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (options.snapshot) {
    if (options.root) throw spokenError('usage', (t) => t.usage.rootAndSnapshot);
    const snapshot = await loadSnapshot(options.snapshot);
    const profile = recordedProfile(snapshot, options.snapshot);
    return {
      ...(snapshot.launch ? { launch: recordedLaunch(snapshot.launch) } : {}),
      ...(profile ? { profile } : {}),
      ...(snapshot.cluster ? { cluster: snapshot.cluster } : {}),
      ...(snapshot.depth ? { depth: snapshot.depth } : {}),
      host: new ReplayHost(snapshot, options.snapshot),
      source: {
        kind: 'snapshot',
        root: snapshot.root,
        snapshot: { file: options.snapshot, createdAt: snapshot.createdAt, toolVersion: snapshot.tool.version },
      },
    };
  }
  const host = new LiveHost({ root: options.root ?? '/', timeoutMs, ...(kept.libraryCache ? { libraryCache: kept.libraryCache } : {}) });
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
  /** secrets redacted */
  report: Report;
  results: CheckResult[];
  ctx: CheckContext;
  /** what hid the secrets of the report, to hide them in whatever else the run stores */
  redactor: Redactor;
}

export interface RunHooks {
  onStart?: (total: number) => void;
  onCheckDone?: (result: CheckResult, done: number, total: number) => void;
  catalogue?: readonly Check[];
  now?: () => Date;
  /** a signal: the run stops there and the report is partial, marked interrupted */
  interrupted?: Promise<NodeJS.Signals>;
  /** every check has finished (and the facts are in): what is reported from here on is complete */
  onSettled?: () => void;
  /** qprep serve: the pair proofs plan: rolling keeps from run to run */
  rolling?: RollingLedger;
  /** qprep serve: the error counters and link events earlier runs observed */
  history?: HealthLedger;
  /** qprep serve: the tools' slots, kept from run to run (no run starts a tool while an earlier run's call of it runs) */
  toolSlots?: ToolSlots;
}

/** Selects, runs and judges the checks on an opened host; the readiness report. */
/**
 * What the report carries beside the results: the facts when NPU or HCCN checks ran (their probes
 * are memoized, so the facts cost no extra command) and the installed stack when NPU or launch
 * checks ran (files, most of them read by the checks that judge it). A signal stops both.
 */
async function gatherDocuments(
  ctx: CheckContext,
  checks: readonly Check[],
  interrupted: Promise<NodeJS.Signals> | undefined,
): Promise<{ facts: Report['facts']; stack: Report['stack']; signal?: NodeJS.Signals }> {
  const ran = (...categories: Array<Check['category']>) => checks.some((c) => categories.includes(c.category));
  let facts: Report['facts'];
  if (ran('npu', 'hccn')) {
    const built = await untilInterrupted(buildFacts(ctx, factsContributorsFor(checks)), interrupted);
    if (!('value' in built)) return { facts, stack: undefined, signal: built.signal };
    facts = built.value;
  }
  if (!ran('npu', 'launch')) return { facts, stack: undefined };
  const read = await untilInterrupted(installedStack(ctx), interrupted);
  return 'value' in read ? { facts, stack: read.value } : { facts, stack: undefined, signal: read.signal };
}

export async function performCheck(handle: HostHandle, loaded: LoadedProfile, options: CheckOptions, hooks: RunHooks = {}): Promise<CheckRun> {
  const catalogue = hooks.catalogue ?? defaultCatalogue;
  const started = new Date();
  const startedMs = performance.now();
  const only = options.only ?? [];
  const skip = [...(options.skip ?? []), ...loaded.profile.skip];
  const ignoreTokens = options.ignore ?? [];
  // a replay runs what its recording answered, unless --depth says otherwise
  const depth = options.depth ?? handle.depth ?? DEFAULT_DEPTH;
  const checks = selectChecks(catalogue, { only, skip, depth });
  if (checks.length === 0) throw noCheckSelected(only, options.skip ?? [], loaded.profile.skip);
  const ignore = resolveIgnore(catalogue, ignoreTokens);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (options.node !== undefined && options.cluster === undefined && !handle.cluster) throw spokenError('usage', (t) => t.usage.nodeNeedsCluster);
  // a replay is the node of the cluster it was recorded in, unless --cluster names another
  const recorded = options.cluster === undefined ? handle.cluster : undefined;
  const cluster = recorded
    ? await openClusterText(recorded.text, recorded.file, handle.host, options.node ?? recorded.node)
    : options.cluster === undefined
      ? undefined
      : await openCluster(options.cluster, handle.host, options.node);
  if (cluster && hooks.rolling) cluster.rolling = hooks.rolling;
  const toolLimits = { ...DEFAULT_TOOL_LIMITS, hccn_tool: options.hccnConcurrency ?? loaded.profile.hccn.concurrency };
  const host = new LimitedHost(handle.host, 8, toolLimits, hooks.toolSlots);
  // --launch wins over the script a snapshot recorded: support can replay a host with a corrected script
  const launch = options.launch !== undefined && options.launch.length > 0 ? await loadLaunchScripts(options.launch) : handle.launch;
  if (!launch && checks.every((c) => c.category === 'launch')) {
    throw spokenError('usage', (t) => t.usage.launchNeeded);
  }
  const ctx = createContext({ host, profile: loaded.profile, timeoutMs, now: hooks.now, cluster, launch, lang: options.lang ?? 'en', ...(options.ioProbe === false ? { ioProbe: false } : {}), ...(hooks.history ? { history: hooks.history } : {}) });
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
  const gathered = signal ? { facts: undefined, stack: undefined } : await gatherDocuments(ctx, checks, hooks.interrupted);
  const { facts, stack } = gathered;
  if ('signal' in gathered) signal = gathered.signal;
  if (!signal) hooks.onSettled?.();
  // nothing the checks started outlives the report: a probe of a check whose watchdog fired
  host.stop();
  const strict = options.strict ?? false;
  const blocking = blockingResults(results, strict);
  const report: Report = {
    schemaVersion: 1,
    tool: { name: 'qprep', version: VERSION },
    lang: ctx.lang,
    runId: randomUUID(),
    host: hostInfo,
    source: handle.source,
    profile: { name: loaded.profile.name, source: loaded.source, nodes: loaded.profile.deployment.nodes },
    startedAt: started.toISOString(),
    durationMs: Math.round(performance.now() - startedMs),
    ready: blocking.length === 0,
    strict,
    selection: { only, skip, ignore: ignoreTokens, depth },
    summary: summarize(results),
    blocking: blocking.map((r) => r.id),
    checks: results,
  };
  if (cluster) report.cluster = clusterInfo(cluster, loaded);
  const leftProcesses = processesLeftBehind();
  if (leftProcesses.length > 0) report.leftProcesses = leftProcesses;
  const launchReport = await launchInfo(ctx);
  if (launchReport) report.launch = launchReport;
  if (facts) report.facts = facts;
  if (stack) report.stack = stack;
  // Every format is made from this one document: secrets are hidden here, once, for all of them.
  const redactor = redactorFor(ctx);
  const judged = signal ? markInterrupted(report, signal, unfinished) : markNothingAssessed(report);
  return { report: redactor.deep(judged), results, ctx, redactor };
}

/** A Redactor that knows the secrets of this run's environment and launch script. */
export function redactorFor(ctx: CheckContext): Redactor {
  const redactor = new Redactor();
  redactor.env(ctx.host.env());
  if (ctx.launch) for (const script of [ctx.launch, ...(ctx.launch.launchers ?? [])]) redactor.script(script.text);
  return redactor;
}

/** `--only npu --skip npu`: a run that would judge nothing has no verdict to give. */
function noCheckSelected(only: readonly string[], skip: readonly string[], profileSkip: readonly string[]): QprepError {
  const words = [...only.map((t) => `--only ${t}`), ...skip.map((t) => `--skip ${t}`)];
  return spokenError('usage', (t) => t.usage.noCheckSelected({ flags: words.join(' '), profileSkip: profileSkip.join(', ') }));
}

/**
 * Every selected check skipped: nothing was assessed, and silence is not "ready". The report
 * keeps every skip with its reason; it carries no verdict (exit code 2, nothing-assessed).
 */
export function markNothingAssessed(report: Report): Report {
  if (report.checks.length === 0 || !report.checks.every((c) => c.status === 'skip')) return report;
  const t = textFor(report.lang === 'zh' ? 'zh' : 'en').errors;
  return {
    ...report,
    ready: false,
    error: { code: 'nothing-assessed', message: t.nothingAssessed({ count: report.checks.length }), hint: t.nothingAssessedHint },
  };
}

/** What the report says about the cluster: which file, which node this is, and how it knew. */
export function clusterInfo(loaded: LoadedCluster, profile?: LoadedProfile): ClusterInfo {
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
  const notes = loaded.note ? [loaded.note] : [];
  // a cluster file of another deployment than the profile's judges the wrong peers
  const expected = profile?.profile.deployment.nodes ?? 1;
  const listed = loaded.cluster.nodes.length;
  if (profile && expected >= 2 && listed !== expected) {
    notes.push(`warning: ${loaded.file} lists ${listed} ${listed === 1 ? 'node' : 'nodes'}, but the deployment of profile ${profile.profile.name} spans ${expected}`);
  }
  if (notes.length > 0) info.note = notes.join('; ');
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
