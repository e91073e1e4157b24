import type { PlannedPing } from '../cluster/plan.js';
import { outcomeOfReport, type PingResult } from '../cluster/ping-summary.js';
import type { CheckContext } from '../core/types.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import { describeProbeError, type CommandLocation, type CommandResult, type ProbeErrorCode } from '../host/types.js';
import { davinciIds, devicesBeforeNpuSmi } from '../parsers/device-nodes.js';
import { parseHccnConf, type HccnConf } from '../parsers/hccn-conf.js';
import {
  isHccnBusy,
  parseHccnGateway,
  parseHccnIp,
  parseHccnLink,
  parseHccnNetdetect,
  parseHccnNetHealth,
  parseHccnTls,
  parseHccnVnic,
} from '../parsers/hccn.js';
import { parseHccnLldp } from '../parsers/hccn-lldp.js';
import { parseHccnLinkStat } from '../parsers/hccn-diag.js';
import { parseHccnFec, parseHccnOptical, parseHccnSpeed, parseHccnStat } from '../parsers/hccn-link-health.js';
import { parseHccnPing } from '../parsers/hccn-ping.js';
import type { Parsed } from '../parsers/parsed.js';
import { isIPv4 } from '../util/ip.js';
import { commandLine } from '../host/command-line.js';
import { commandProblem } from './commands.js';
import { locateHccnTool, npuInventory, visibleDevices } from './npu.js';

/**
 * Runs `hccn_tool -i <device> <args...>` for the checks. The tool refuses concurrent use with
 * "hccn_tool is busy, please try again": qprep's own calls are already serialized per host by
 * LimitedHost (the hccn_tool limit, `--hccn-concurrency`), and the busy answers that remain come
 * from other users of the tool (an exporter, an operator's loop), so they are retried after a
 * short, doubling pause, a bounded number of times.
 */

export const HCCN_TOOL = 'hccn_tool';
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 1600;

export interface HccnRunOptions {
  /** retries after a busy answer; defaults to the profile's hccn.busyRetries */
  busyRetries?: number;
  /** per-call timeout; defaults to the run's probe timeout */
  timeoutMs?: number;
  /** the pause between attempts, injectable so tests do not wait */
  sleep?: (ms: number) => Promise<void>;
  /**
   * a budget: no call (nor retry) starts after `at` (performance.now() milliseconds); a call
   * whose turn comes later is not made, and `why` says so
   */
  startBy?: { at: number; why: string };
  /**
   * the answer is shared by every check of the run under its arguments; a later read of the same
   * arguments (a counter read again to see it grow) names itself here to be asked anew
   */
  read?: string;
  /** the tool prints some answers on standard error with a non-zero exit ("Optical module is not present."): parse both streams */
  withStderr?: boolean;
}

export type HccnProblemKind = 'not-found' | 'refused' | 'busy' | 'failed' | 'unparsable' | 'expired';

export type HccnRun =
  | { ok: true; result: CommandResult; argv: string[]; attempts: number }
  | { ok: false; kind: HccnProblemKind; problem: string; argv: string[]; attempts: number; result?: CommandResult; searched?: string[] };

export type HccnAnswer<T> =
  /** exitCode is kept: some answers (an unconfigured device's "no ip was preset") come with a non-zero one */
  | { ok: true; value: T; argv: string[]; attempts: number; exitCode: number | null }
  | { ok: false; kind: HccnProblemKind; problem: string; argv: string[]; attempts: number; searched?: string[] };

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The pause before retry n (1-based): 100, 200, 400, 800, 1600, 1600 ... ms. */
export function busyBackoffMs(retry: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** (retry - 1), MAX_BACKOFF_MS);
}

/** Where hccn_tool is, looked up once per run (the same lookup npu.tools reports). */
export function findHccnTool(ctx: CheckContext): Promise<CommandLocation> {
  return locateHccnTool(ctx);
}

function busyRetriesOf(ctx: CheckContext, options: HccnRunOptions): number {
  return Math.max(0, options.busyRetries ?? ctx.profile.hccn.busyRetries);
}

/** Device ids are small integers; anything else never reaches argv. */
export function isDeviceId(device: number): boolean {
  return Number.isInteger(device) && device >= 0 && device <= 63;
}

/**
 * A problem's `problem` is English: it is evidence (and facts), the same in every language. What a
 * person reads is this text, in the run's language, kept beside it.
 */
const problemTexts = new WeakMap<object, string>();

/** A failed call's problem as the run's language says it (its English problem when none was kept). */
export function hccnProblemText(failed: { problem: string }): string {
  return problemTexts.get(failed) ?? failed.problem;
}

/** `say(en)` is the problem in the evidence; `say(ctx.text)` what a person reads. */
function worded<T extends { problem: string }>(ctx: CheckContext, make: (problem: string) => T, say: (text: Catalogue) => string): T {
  const value = make(say(en));
  if (ctx.text !== en) problemTexts.set(value, say(ctx.text));
  return value;
}

/** The same problem in another object (a copy without the raw result): its words go with it. */
function carried<T extends { problem: string }>(from: { problem: string }, to: T): T {
  const text = problemTexts.get(from);
  if (text !== undefined) problemTexts.set(to, text);
  return to;
}

/** Runs the tool, retrying busy answers; the caller judges the result it returns. */
export async function runHccnTool(ctx: CheckContext, device: number, args: readonly string[], options: HccnRunOptions = {}): Promise<HccnRun> {
  const shown = [HCCN_TOOL, '-i', String(device), ...args];
  if (!isDeviceId(device)) {
    const id = String(device).slice(0, 20);
    return worded(ctx, (problem): Extract<HccnRun, { ok: false }> => ({ ok: false, kind: 'refused', problem, argv: shown, attempts: 0 }), (t) => t.probes.hccn.notADevice({ device: id }));
  }
  const location = await findHccnTool(ctx);
  if (!location.path) {
    const searched = location.searched.join(', ');
    return worded(
      ctx,
      (problem): Extract<HccnRun, { ok: false }> => ({ ok: false, kind: 'not-found', problem, argv: shown, attempts: 0, searched: location.searched }),
      (t) => t.probes.hccn.notFound({ tool: HCCN_TOOL, searched }),
    );
  }
  const argv = [location.path, '-i', String(device), ...args];
  const timeoutMs = options.timeoutMs ?? ctx.timeoutMs;
  const retries = busyRetriesOf(ctx, options);
  const sleep = options.sleep ?? defaultSleep;
  let waitedMs = 0;
  for (let attempt = 1; ; attempt++) {
    const result = await ctx.host.run(argv, options.startBy ? { timeoutMs, startBy: options.startBy.at } : { timeoutMs });
    if (result.expired) return { ok: false, kind: 'expired', problem: options.startBy?.why ?? 'not started: its time budget was spent', argv, attempts: attempt - 1, result };
    if (!isHccnBusy(`${result.stdout}\n${result.stderr}`)) return { ok: true, result, argv, attempts: attempt };
    if (attempt > retries) {
      const busy = { command: commandLine(argv), attempts: attempt, seconds: (waitedMs / 1000).toFixed(1) };
      return worded(ctx, (problem): Extract<HccnRun, { ok: false }> => ({ ok: false, kind: 'busy', problem, argv, attempts: attempt, result }), (t) => t.probes.hccn.busy(busy));
    }
    const pause = busyBackoffMs(attempt);
    waitedMs += pause;
    await sleep(pause);
  }
}

/**
 * Runs `hccn_tool -i <device> <args>` once per run (several checks read the same answer) and
 * parses it. A timeout, a missing binary, or a non-zero exit whose output the parser cannot read
 * is a structured problem; a non-zero exit with a readable answer is that answer, since the
 * tool also exits non-zero to say "this device has no address".
 */
export function queryHccn<T>(ctx: CheckContext, device: number, args: readonly string[], parse: (text: string) => Parsed<T>, options: HccnRunOptions = {}): Promise<HccnAnswer<T>> {
  return ctx.shared(`hccn_tool:${device}:${args.join(' ')}${options.read === undefined ? '' : `#${options.read}`}`, async (): Promise<HccnAnswer<T>> => {
    const run = await runHccnTool(ctx, device, args, options);
    if (!run.ok) {
      const { result: _result, ...problem } = run;
      return carried(run, problem);
    }
    const { result } = run;
    const timeoutMs = options.timeoutMs ?? ctx.timeoutMs;
    const failed = commandProblem(result, timeoutMs);
    const didNotRun = result.timedOut || result.notFound || result.failure !== undefined || result.signal !== null;
    const callFailed = () =>
      worded(ctx, (problem): Extract<HccnAnswer<T>, { ok: false }> => ({ ok: false, kind: 'failed', problem, argv: run.argv, attempts: run.attempts }), (t) => commandProblem(result, timeoutMs, t)!);
    const printed = options.withStderr ? `${result.stdout}\n${result.stderr}` : result.stdout;
    if (failed && (didNotRun || printed.trim() === '')) return callFailed();
    const parsed = parse(printed);
    if (!parsed.ok) {
      if (failed) return callFailed();
      // the parser's reason is quoted as it gave it
      const unparsable = { command: commandLine(run.argv), reason: parsed.reason };
      return worded(ctx, (problem): Extract<HccnAnswer<T>, { ok: false }> => ({ ok: false, kind: 'unparsable', problem, argv: run.argv, attempts: run.attempts }), (t) => t.probes.hccn.unparsable(unparsable));
    }
    return { ok: true, value: parsed.value, argv: run.argv, attempts: run.attempts, exitCode: result.exitCode };
  });
}

export const hccnIp = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-ip', '-g'], parseHccnIp);
export const hccnVnic = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-vnic', '-g'], parseHccnVnic);
export const hccnLink = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-link', '-g'], parseHccnLink);
export const hccnNetHealth = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-net_health', '-g'], parseHccnNetHealth);
export const hccnNetdetect = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-netdetect', '-g'], parseHccnNetdetect);
export const hccnGateway = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-gateway', '-g'], parseHccnGateway);
export const hccnLldp = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-lldp', '-g'], parseHccnLldp);
export const hccnTls = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-tls', '-g'], parseHccnTls);
export const hccnLinkStat = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-link_stat', '-g'], parseHccnLinkStat);
export const hccnOptical = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-optical', '-g'], parseHccnOptical, { withStderr: true });
export const hccnFec = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-fec', '-g'], parseHccnFec, { withStderr: true });
export const hccnSpeed = (ctx: CheckContext, device: number) => queryHccn(ctx, device, ['-speed', '-g'], parseHccnSpeed);
/** `-stat -g`; `options.read` names a later read of the same counters (the first read is shared with the rest of the run) */
export const hccnStat = (ctx: CheckContext, device: number, options: HccnRunOptions = {}) => queryHccn(ctx, device, ['-stat', '-g'], parseHccnStat, options);

/**
 * Keeps hccn_tool's queue busy while `npu-smi info` lists the devices: hccn_tool runs one call at
 * a time, so on a node with 16 devices its queue is the whole check's critical path, and npu-smi
 * takes 0.4 to 1 s on a real node. Until its table is in, the devices known without it (the
 * device nodes under /dev, /etc/hccn.conf, the visible-devices setting: devicesBeforeNpuSmi) are
 * asked `-ip -g`, the first answer hccn.conf and hccn.ip need, in order, two on the queue at a
 * time so that the next question is waiting when one ends. The process may have asked the first
 * of them already, before the checks were loaded (src/host/early-calls.ts): the same questions,
 * whose answers the run takes over.
 *
 * When the table comes, the early list is reconciled with it: nothing more is asked about a
 * device it does not list (an answer asked already is never judged: the checks judge the
 * devices of the table), and the devices it lists that the early list missed are asked by the
 * checks' own prefetch (prefetchEvery), queued then. At most the one question waiting on the
 * queue is spent on a device the table does not have.
 */
export function prefetchDeviceIps(ctx: CheckContext): Promise<void> {
  return ctx.shared('hccn_tool:prefetch-ip', async () => {
    let inventoryKnown = false;
    const inventoryIn = () => {
      inventoryKnown = true;
    };
    // a failed inventory ends the head start too: the checks report it when they run
    void npuInventory(ctx).then(inventoryIn, inventoryIn);
    const waiting: Array<Promise<unknown>> = [];
    for (const device of await devicesToAskFirst(ctx)) {
      if (inventoryKnown) break;
      waiting.push(hccnIp(ctx, device));
      if (waiting.length >= 2) await waiting.shift();
    }
    await Promise.all(waiting);
  });
}

/** The devices of the host before npu-smi has listed them, as the first lines of the process found them; none when the visible-devices setting is not a list. */
async function devicesToAskFirst(ctx: CheckContext): Promise<number[]> {
  const visible = visibleDevices(ctx);
  if (visible.invalid !== undefined) return [];
  const [listing, conf] = await Promise.all([ctx.host.readDir('/dev'), hccnConf(ctx)]);
  return devicesBeforeNpuSmi({
    nodes: listing.ok ? davinciIds(listing.value.map((entry) => entry.name)) : [],
    configured: conf.ok ? conf.value.devices.map((d) => d.device) : [],
    visible: visible.ids,
  });
}

/**
 * The hccn_tool arguments of one planned ping, or undefined when the address is not an IPv4
 * address: the last guard before argv, whatever built the ping.
 */
export function pingArgs(ping: Pick<PlannedPing, 'method' | 'address'>): string[] | undefined {
  if (!isIPv4(ping.address)) return undefined;
  return ping.method === 'hccs' ? ['-hccs_ping', '-g', 'address', ping.address] : ['-ping', '-g', 'address', ping.address];
}

export interface PingRun extends PingResult {
  attempts: number;
  argv: string[];
  /** an error outcome's problem in the run's language (the outcome, evidence, keeps the English) */
  shown?: string;
}

/**
 * Runs one planned ping and judges it from what the tool printed: a loss summary counts even when
 * the tool exits non-zero (it does on Destination Host Unreachable); a failed run without a
 * readable summary could not be assessed.
 */
export async function runPing(ctx: CheckContext, ping: PlannedPing, options: HccnRunOptions = {}): Promise<PingRun> {
  const args = pingArgs(ping);
  if (!args) {
    const address = ping.address.slice(0, 40);
    const say = (t: Catalogue) => t.probes.hccn.notAnAddress({ address });
    return { ping, outcome: { status: 'error', problem: say(en) }, attempts: 0, argv: [], shown: say(ctx.text) };
  }
  const run = await runHccnTool(ctx, ping.localDevice, args, options);
  if (!run.ok && run.kind === 'expired') return { ping, outcome: { status: 'skipped', reason: run.problem }, attempts: run.attempts, argv: run.argv };
  if (!run.ok) return { ping, outcome: { status: 'error', problem: run.problem }, attempts: run.attempts, argv: run.argv, shown: hccnProblemText(run) };
  const timeoutMs = options.timeoutMs ?? ctx.timeoutMs;
  const parsed = parseHccnPing(run.result.stdout);
  const report = parsed.ok ? parsed.value.reports[0] : undefined;
  const failed = (t: Catalogue) => commandProblem(run.result, timeoutMs, t);
  const erred = (say: (t: Catalogue) => string): PingRun => ({ ping, outcome: { status: 'error', problem: say(en) }, attempts: run.attempts, argv: run.argv, shown: say(ctx.text) });
  if (run.result.timedOut || run.result.notFound || run.result.failure) return erred((t) => failed(t) ?? 'the command did not run');
  if (report && report.verdict !== 'incomplete') return { ping, outcome: outcomeOfReport(report), attempts: run.attempts, argv: run.argv };
  if (failed(en)) return erred((t) => failed(t)!);
  if (report) return { ping, outcome: outcomeOfReport(report), attempts: run.attempts, argv: run.argv };
  // the parser's reason is quoted as it gave it
  const command = commandLine(run.argv);
  return erred((t) => t.probes.hccn.noPingResult({ command, reason: parsed.ok ? null : parsed.reason }));
}

/**
 * Runs every planned ping. They are started together: LimitedHost lets the configured number of
 * hccn_tool calls through at a time, and other probes go on meanwhile. `skip` names a reason not
 * to run a ping (the local device's link is DOWN). Results come back in plan order.
 */
export async function runPings(
  ctx: CheckContext,
  pings: readonly PlannedPing[],
  options: HccnRunOptions & { skip?: (ping: PlannedPing) => string | undefined } = {},
): Promise<PingRun[]> {
  return Promise.all(
    pings.map(async (ping): Promise<PingRun> => {
      const reason = options.skip?.(ping);
      if (reason !== undefined) return { ping, outcome: { status: 'skipped', reason }, attempts: 0, argv: [] };
      return runPing(ctx, ping, options);
    }),
  );
}

export const HCCN_CONF = '/etc/hccn.conf';

export type HccnConfRead =
  | { ok: true; path: string; value: HccnConf }
  | { ok: false; path: string; code: ProbeErrorCode | 'EPARSE'; problem: string };

/** /etc/hccn.conf of the examined tree (under --root), read and parsed once per run. */
export function hccnConf(ctx: CheckContext): Promise<HccnConfRead> {
  return ctx.shared('hccn.conf', async (): Promise<HccnConfRead> => {
    const read = await ctx.host.readFile(HCCN_CONF);
    // the problem is only ever read by a person (code is what programs read): in the run's language
    if (!read.ok) return { ok: false, path: HCCN_CONF, code: read.code, problem: describeProbeError(HCCN_CONF, read, ctx.text.probes.file) };
    const parsed = parseHccnConf(read.value);
    if (!parsed.ok) return { ok: false, path: HCCN_CONF, code: 'EPARSE', problem: `${HCCN_CONF}: ${parsed.reason}` };
    return { ok: true, path: HCCN_CONF, value: parsed.value };
  });
}
