import { spokenError, type ErrorText } from '../i18n/spoken-error.js';
import { createServer, type Server } from 'node:http';
import { RollingLedger } from '../cluster/rolling.js';
import { HealthLedger } from '../core/health-ledger.js';
import { DEFAULT_DEPTH, type Depth } from '../core/ids/depths.js';
import { DepthSchedule } from '../serve/depth-schedule.js';
import type { LoadedProfile } from '../core/profile.js';
import { stopAllCommands } from '../host/exec.js';
import { exitProcess } from '../host/exit.js';
import { LibraryAnswerCache } from '../host/inventory-cache.js';
import { DEFAULT_TOOL_LIMITS, ToolSlots } from '../host/limited.js';
import { RunScopedHost } from '../host/run-scoped.js';
import { reportSchema, type AnyReport } from '../report/schema.js';
import { Agent } from '../serve/agent.js';
import { BUDGET_MARKER, formatBudget, overBudgetReport } from '../serve/budget.js';
import { createServeHandler } from '../serve/http.js';
import { createPublisher, type PublishOptions } from '../serve/publish.js';
import { inClusterConfig } from '../host/kube-api.js';
import { dnsSubdomainProblem } from '../util/k8s-labels.js';
import { DEFAULT_LISTEN, formatListenAddress, parseListenAddress } from '../serve/listen.js';
import { hostPolicy, type HostPolicy } from '../serve/hosts.js';
import { streamLogger, throttledLog, type Logger } from '../serve/log.js';
import { textFor } from '../i18n/index.js';
import { scheduleOf } from '../serve/policy.js';
import { formatDuration } from '../util/duration.js';
import { clampTimerMs } from '../util/timeout.js';
import { VERSION } from '../version.js';
import { toCheckOptions } from './check-options.js';
import type { CommandOptions } from './cli-options.js';
import { describeFailure } from '../report/error-document.js';
import { openHost, performCheck, profileFor, type CheckOptions } from './session.js';
import { takeSignals } from './signals.js';

export type ServeCliOptions = CommandOptions<'serve'>;

/** SIGTERM must end serve within 3 s (systemd's and the kubelet's grace periods are longer). */
export const STOP_DEADLINE_MS = 3000;

/** What serve keeps from one run to the next. */
interface ServeMemory {
  rolling: RollingLedger;
  history: HealthLedger;
  toolSlots: ToolSlots;
  libraryCache: LibraryAnswerCache;
}

/**
 * Plan: rolling's last proof of each pair; the counters and link events of the link checks; the
 * tools' slots (one call of npu-smi at a time, and of hccn_tool as many as the run allows, one
 * unless told), so that a run never starts a tool while a call of the previous run, cut at its
 * budget, still runs; the inventory process's answer (the server model, CPU, memory size, OS), asked
 * again after an hour or a reboot.
 */
function serveMemory(checkOptions: CheckOptions, profile: LoadedProfile): ServeMemory {
  return {
    rolling: new RollingLedger(),
    history: new HealthLedger(),
    toolSlots: new ToolSlots({ ...DEFAULT_TOOL_LIMITS, 'npu-smi': 1, hccn_tool: checkOptions.hccnConcurrency ?? profile.profile.hccn.concurrency }),
    libraryCache: new LibraryAnswerCache(),
  };
}

/**
 * One run of the checks on a host of its own that never writes, cut at the budget: then its
 * probes are killed with their process groups and the report says which checks did not finish.
 */
async function runWithinBudget(profile: LoadedProfile, options: CheckOptions, budgetMs: number, memory: ServeMemory): Promise<AnyReport> {
  // a host of its own for every run: a snapshot replays from its start (its recorded retries
  // included), and nothing a live host learnt in one run carries into the next
  const handle = await openHost(options, { libraryCache: memory.libraryCache });
  const host = new RunScopedHost(handle.host);
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<NodeJS.Signals>((resolve) => {
    timer = setTimeout(() => {
      host.end(`the run exceeded its budget of ${formatBudget(budgetMs)}`);
      resolve(BUDGET_MARKER);
    }, clampTimerMs(budgetMs));
  });
  try {
    const run = await performCheck({ ...handle, host }, profile, options, { interrupted: budget, rolling: memory.rolling, history: memory.history, toolSlots: memory.toolSlots });
    const report = run.report.interrupted?.signal === BUDGET_MARKER ? overBudgetReport(run.report, budgetMs) : run.report;
    const valid = reportSchema.safeParse(report);
    if (!valid.success) throw new Error(`report does not match its schema: ${valid.error.issues[0]?.message ?? ''}`);
    return report;
  } finally {
    clearTimeout(timer);
    // what a check still has going in the background must not run into the next run
    host.end('the run is over');
  }
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const why = (t: ErrorText) =>
        error.code === 'EADDRINUSE' ? t.usage.addressInUse : error.code === 'EACCES' ? t.inputs.permissionDenied : error.code === 'EADDRNOTAVAIL' ? t.usage.addressNotHere : error.message;
      reject(spokenError('usage', (t) => t.usage.cannotListen({ address: formatListenAddress(host, port), reason: why(t) })));
    });
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** A client can make these happen at will: one log line a minute at most, with how many came. */
const REFUSAL_LOG_PERIOD_MS = 60_000;

/**
 * The HTTP server of the agent, bounded: at most --max-connections open at once (one more is
 * closed as it comes: idle clients must not take the descriptors a run needs), a client that
 * sends nothing dropped after 10 s, and only the Host headers of the policy answered.
 */
function agentServer(agent: Agent, options: ServeCliOptions, intervalMs: number, hosts: HostPolicy, logger: Logger): Server {
  const refusedHost = throttledLog(logger, 'warn', 'host-refused', REFUSAL_LOG_PERIOD_MS);
  const server = createServer(
    createServeHandler(agent, {
      intervalMs,
      allowTrigger: options.allowTrigger ?? false,
      text: textFor(options.lang ?? 'en'),
      hosts,
      onRefusedHost: (host) => refusedHost({ host, note: 'a Host header this agent does not answer for (DNS rebinding, or a name to give --allow-host)' }),
    }),
  );
  // a client that opens a connection and sends nothing must not hold a socket for ever
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  server.maxConnections = options.maxConnections;
  const dropped = throttledLog(logger, 'warn', 'connection-limit', REFUSAL_LOG_PERIOD_MS);
  server.on('drop', () => dropped({ maxConnections: options.maxConnections, note: 'connections beyond --max-connections are closed as they come' }));
  return server;
}

/** The options serve refuses, with one line each, before it does anything. */
function refuseOptions(options: ServeCliOptions): void {
  if (options.launch?.includes('-')) throw spokenError('usage', (t) => t.usage.serveLaunchStdin);
  if (options.node !== undefined && options.cluster === undefined) throw spokenError('usage', (t) => t.usage.nodeNeedsCluster);
  if (options.deepEvery !== undefined && options.depth === 'deep') throw spokenError('usage', (t) => t.usage.deepEveryWithDeep);
}

/**
 * The runs of serve at their depths: --deep-every makes a deep run at start and then at most once
 * per that time, and the runs between carry its results (DepthSchedule).
 */
function scheduledRuns(depths: DepthSchedule, run: (depth: Depth) => Promise<AnyReport>): () => Promise<AnyReport> {
  return async () => {
    const startedAtMs = Date.now();
    const depth = depths.depthFor(startedAtMs);
    return depths.afterRun(await run(depth), depth, startedAtMs);
  };
}

/** --nfd-features and --annotate, judged before serve listens: a bad one stops it with one line. */
function publishOptions(options: ServeCliOptions, intervalMs: number): PublishOptions {
  const publish: PublishOptions = { intervalMs };
  if (options.nfdFeatures !== undefined) {
    if (options.nfdFeatures === '-') throw spokenError('usage', (t) => t.usage.nfdFeaturesStdout);
    publish.featureFile = options.nfdFeatures;
  }
  if (options.annotate !== undefined) {
    // a node's name is a DNS subdomain
    const problem = dnsSubdomainProblem(options.annotate);
    if (problem) {
      const value = JSON.stringify(options.annotate);
      throw spokenError('usage', (t) => t.usage.annotateNotNode({ value, problem: problem.replace('the prefix', 'the name') }));
    }
    publish.annotate = { node: options.annotate, api: inClusterConfig(process.env) };
  }
  return publish;
}

/**
 * `qprep serve`: the check at start and every interval, the last report over HTTP. Resolves
 * with the exit code when SIGTERM or SIGINT stops it.
 */
export async function runServeCommand(options: ServeCliOptions): Promise<number> {
  // serve owns SIGINT, SIGTERM and SIGHUP from its first line to its exit: they are its
  // lifecycle (stop with exit 0, reload), not the interruption of a one-shot run. A signal that
  // comes while serve starts waits for it to be up.
  const early: NodeJS.Signals[] = [];
  let onSignal = (signal: NodeJS.Signals): void => {
    if (signal !== 'SIGHUP' && !early.some((s) => s !== 'SIGHUP')) {
      // nothing to stop yet but the start itself: it must not outlive the deadline either
      setTimeout(() => void exitProcess(0), STOP_DEADLINE_MS - 1000).unref();
    }
    early.push(signal);
  };
  takeSignals((signal) => onSignal(signal));

  const address = parseListenAddress(options.listen ?? DEFAULT_LISTEN);
  const hosts = hostPolicy(address, options.allowHost);
  const schedule = scheduleOf(options.interval, options.budget);
  refuseOptions(options);
  const checkOptions = toCheckOptions(options);
  const publish = publishOptions(options, schedule.intervalMs);
  const logger: Logger = streamLogger(process.stderr);
  // opened once before listening, so that a missing or invalid snapshot stops serve at once
  const handle = await openHost(checkOptions);
  // a replay judges like the node did: the profile the snapshot recorded, unless --profile is given
  let profile = await profileFor(checkOptions.profile, handle, checkOptions.lang);
  const memory = serveMemory(checkOptions, profile);

  const depths = new DepthSchedule(checkOptions.depth ?? handle.depth ?? DEFAULT_DEPTH, options.deepEvery);
  const agent = new Agent({
    intervalMs: schedule.intervalMs,
    logger,
    lang: checkOptions.lang ?? 'en',
    execute: scheduledRuns(depths, (depth) => runWithinBudget(profile, { ...checkOptions, depth }, schedule.budgetMs, memory)),
    publish: createPublisher(publish),
  });
  const server = agentServer(agent, options, schedule.intervalMs, hosts, logger);
  const port = await listen(server, address.host, address.port);
  logger.log('info', 'listening', {
    version: VERSION,
    address: formatListenAddress(address.host, port),
    port,
    interval: formatDuration(schedule.intervalMs),
    budget: formatBudget(schedule.budgetMs),
    depth: checkOptions.depth ?? handle.depth ?? DEFAULT_DEPTH,
    deepEvery: options.deepEvery === undefined ? undefined : formatDuration(options.deepEvery),
    profile: profile.profile.name,
    profileSource: profile.source,
    source: handle.source.kind,
    root: handle.source.root,
    allowTrigger: options.allowTrigger ?? false,
    maxConnections: options.maxConnections,
    allowHost: hosts.anyHost ? '*' : [...hosts.names],
    nfdFeatures: publish.featureFile,
    annotate: publish.annotate?.node,
    note: address.loopback ? undefined : 'listening beyond loopback: whoever reaches this port reads the report (host name, NPUs, addresses, versions)',
  });

  const reload = async () => {
    try {
      profile = await profileFor(checkOptions.profile, handle, checkOptions.lang);
      agent.reloadError = undefined;
      logger.log('info', 'reload', { profile: profile.profile.name, profileSource: profile.source });
    } catch (error) {
      const { message } = describeFailure(error);
      agent.reloadError = message;
      logger.log('error', 'reload-failed', { error: message, kept: profile.profile.name });
    }
    // the cluster file and the launch script are read by every run: this one sees their new text
    agent.requestRun('reload');
  };

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      agent.stop();
      // a hung npu-smi or hccn_tool goes with its whole process group
      stopAllCommands();
      logger.log('info', 'stop', { signal, running: agent.running });
      setTimeout(() => {
        logger.log('error', 'stop-timeout', { deadlineMs: STOP_DEADLINE_MS });
        resolve(0);
      }, STOP_DEADLINE_MS - 1000).unref();
      server.close(() => resolve(0));
      server.closeAllConnections();
    };
    onSignal = (signal) => {
      if (signal === 'SIGHUP') {
        if (!stopping) void reload();
      } else stop(signal);
    };
    const earlyStop = early.find((signal) => signal !== 'SIGHUP');
    if (earlyStop) return stop(earlyStop);
    agent.start();
    // a SIGHUP during the start may have come for a profile changed after it was read
    if (early.includes('SIGHUP')) void reload();
  });
}
