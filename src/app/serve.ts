import { createServer, type Server } from 'node:http';
import { RollingLedger } from '../cluster/rolling.js';
import { QprepError } from '../errors.js';
import type { LoadedProfile } from '../core/profile.js';
import { stopAllCommands } from '../host/exec.js';
import { exitProcess } from '../host/exit.js';
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
import { streamLogger, type Logger } from '../serve/log.js';
import { textFor } from '../i18n/index.js';
import { scheduleOf } from '../serve/policy.js';
import { formatDuration } from '../util/duration.js';
import { VERSION } from '../version.js';
import { toCheckOptions } from './check-options.js';
import type { CommandOptions } from './cli-options.js';
import { describeFailure } from '../report/error-document.js';
import { openHost, performCheck, profileFor, type CheckOptions } from './session.js';
import { takeSignals } from './signals.js';

export type ServeCliOptions = CommandOptions<'serve'>;

/** SIGTERM must end serve within 3 s (systemd's and the kubelet's grace periods are longer). */
export const STOP_DEADLINE_MS = 3000;

/**
 * One run of the checks on a host of its own that never writes, cut at the budget: then its
 * probes are killed with their process groups and the report says which checks did not finish.
 */
async function runWithinBudget(profile: LoadedProfile, options: CheckOptions, budgetMs: number, rolling: RollingLedger, toolSlots: ToolSlots): Promise<AnyReport> {
  // a host of its own for every run: a snapshot replays from its start (its recorded retries
  // included), and nothing a live host learnt in one run carries into the next
  const handle = await openHost(options);
  const host = new RunScopedHost(handle.host);
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<NodeJS.Signals>((resolve) => {
    timer = setTimeout(() => {
      host.end(`the run exceeded its budget of ${formatBudget(budgetMs)}`);
      resolve(BUDGET_MARKER);
    }, budgetMs);
  });
  try {
    const run = await performCheck({ ...handle, host }, profile, options, { interrupted: budget, rolling, toolSlots });
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
      const why = error.code === 'EADDRINUSE' ? 'the address is already in use' : error.code === 'EACCES' ? 'permission denied' : error.code === 'EADDRNOTAVAIL' ? 'no interface of this host has that address' : error.message;
      reject(new QprepError('usage', `cannot listen on ${formatListenAddress(host, port)}: ${why}`));
    });
    server.listen(port, host, () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** --nfd-features and --annotate, judged before serve listens: a bad one stops it with one line. */
function publishOptions(options: ServeCliOptions, intervalMs: number): PublishOptions {
  const publish: PublishOptions = { intervalMs };
  if (options.nfdFeatures !== undefined) {
    if (options.nfdFeatures === '-') throw new QprepError('usage', '--nfd-features takes the feature file to write, not standard output');
    publish.featureFile = options.nfdFeatures;
  }
  if (options.annotate !== undefined) {
    // a node's name is a DNS subdomain
    const problem = dnsSubdomainProblem(options.annotate);
    if (problem) throw new QprepError('usage', `--annotate ${JSON.stringify(options.annotate)}: not a node name: ${problem.replace('the prefix', 'the name')}`);
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
  const schedule = scheduleOf(options.interval, options.budget);
  if (options.launch?.includes('-')) throw new QprepError('usage', 'qprep serve cannot read --launch from standard input: it reads the script at every run; give its path');
  if (options.node !== undefined && options.cluster === undefined) throw new QprepError('usage', '--node needs --cluster FILE');
  const checkOptions = toCheckOptions(options);
  const publish = publishOptions(options, schedule.intervalMs);
  const logger: Logger = streamLogger(process.stderr);
  // opened once before listening, so that a missing or invalid snapshot stops serve at once
  const handle = await openHost(checkOptions);
  // a replay judges like the node did: the profile the snapshot recorded, unless --profile is given
  let profile = await profileFor(checkOptions.profile, handle, checkOptions.lang);

  // plan: rolling: each pair's last proof, kept for as long as serve runs
  const rolling = new RollingLedger();
  // one call of npu-smi at a time, and of hccn_tool as many as the run allows (one unless told),
  // across runs: a run never starts a tool while a call of the previous run (cut at its budget) runs
  const toolSlots = new ToolSlots({ ...DEFAULT_TOOL_LIMITS, 'npu-smi': 1, hccn_tool: checkOptions.hccnConcurrency ?? profile.profile.hccn.concurrency });
  const agent = new Agent({
    intervalMs: schedule.intervalMs,
    logger,
    execute: () => runWithinBudget(profile, checkOptions, schedule.budgetMs, rolling, toolSlots),
    publish: createPublisher(publish),
  });
  const server = createServer(createServeHandler(agent, { intervalMs: schedule.intervalMs, allowTrigger: options.allowTrigger ?? false, text: textFor(options.lang ?? 'en') }));
  // a client that opens a connection and sends nothing must not hold a socket for ever
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  const port = await listen(server, address.host, address.port);
  logger.log('info', 'listening', {
    version: VERSION,
    address: formatListenAddress(address.host, port),
    port,
    interval: formatDuration(schedule.intervalMs),
    budget: formatBudget(schedule.budgetMs),
    profile: profile.profile.name,
    profileSource: profile.source,
    source: handle.source.kind,
    root: handle.source.root,
    allowTrigger: options.allowTrigger ?? false,
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
