import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { davinciIds, devicesBeforeNpuSmi } from '../parsers/device-nodes.js';
import { parseHccnConf } from '../parsers/hccn-conf.js';
import { parseIdRanges } from '../parsers/id-ranges.js';
import { locateExecutableSync } from './commands.js';
import { runCommand } from './exec.js';
import { HCCN_TOOL_DIRS, NPU_SMI_DIRS } from './tool-dirs.js';
import type { CommandOptions, CommandResult } from './types.js';

/**
 * The first tool calls of `qprep check` and `qprep snapshot` on a live host, started by the
 * process's first lines (src/main.ts), before the rest of qprep is compiled: `npu-smi info`, and
 * hccn_tool's questions about the devices known without it (src/parsers/device-nodes.ts), one at
 * a time, each as the previous one ends. On a node, npu-smi takes 0.4 to 1 s to answer and
 * hccn_tool's queue is the run's critical path: neither should wait for the ~300 modules of the
 * checks to load.
 *
 * An early call is a call the run makes anyway, made sooner, through the same seam: the same
 * runCommand as every call (its own process group, the run's token, the sweep, the timeout of
 * --timeout). The run takes it over when it makes the same call (LiveHost.run gives its result,
 * so a recording host records it like any other), and its limiter counts it from the moment it
 * is created (LimitedHost): no other call of the tool starts while an early one runs, and the
 * early queue stops asking once the run's own queue takes over. A call nobody takes over is
 * killed with the run's other commands at its end.
 */

export interface EarlyCallPlan {
  /** --root, absolute: where the device nodes and /etc/hccn.conf are read */
  root: string;
  /** the run's probe timeout (--timeout) */
  timeoutMs: number;
  /** hccn_tool is asked too (the HCCN checks were not skipped) */
  hccn: boolean;
  /** the environment the commands run with: the live host's */
  env: NodeJS.ProcessEnv;
}

interface Claimant {
  onExit?: () => void;
  onLingering?: (gone: Promise<void>) => void;
}

interface EarlyCall {
  readonly argv: readonly string[];
  readonly timeoutMs: number;
  readonly abort: AbortController;
  result: Promise<CommandResult>;
  /** the call holds its tool until this resolves: its process ended, or it is gone after lingering */
  released: Promise<void>;
  holding: boolean;
  /** its process ended by itself (onExit came) */
  ended: boolean;
  lingering?: Promise<void>;
  claimant?: Claimant;
  /** a limiter counts it already */
  counted: boolean;
  /** killed at its timeout: known before the call releases its tool */
  timedOut: boolean;
}

const early = new Map<string, EarlyCall>();
let queue: { tool: string; devices: number[]; next: number; open: boolean; env: Record<string, string>; timeoutMs: number } | undefined;

const keyOf = (argv: readonly string[], timeoutMs: number) => `${timeoutMs}\0${argv.join('\0')}`;

/** The environment as the live host passes it to commands: defined values only. */
function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value;
  return defined;
}

function start(argv: string[], timeoutMs: number, env: Record<string, string>, afterExit?: () => void): void {
  let release: () => void = () => undefined;
  const call: EarlyCall = {
    argv,
    timeoutMs,
    abort: new AbortController(),
    result: Promise.resolve() as unknown as Promise<CommandResult>,
    released: new Promise<void>((resolve) => {
      release = resolve;
    }),
    holding: true,
    ended: false,
    counted: false,
    timedOut: false,
  };
  void call.released.then(() => {
    call.holding = false;
  });
  call.result = runCommand(argv, {
    timeoutMs,
    env,
    signal: call.abort.signal,
    onExit: () => {
      call.ended = true;
      release();
      call.claimant?.onExit?.();
      afterExit?.();
    },
    onLingering: (gone) => {
      call.lingering = gone;
      call.claimant?.onLingering?.(gone);
    },
  });
  // killed or never started: the tool is free once the result is in, or once a lingering process is gone
  void call.result.then((result) => {
    call.timedOut = result.timedOut;
    return call.lingering ? call.lingering.then(release) : release();
  });
  early.set(keyOf(argv, timeoutMs), call);
}

/** A directory or file under --root, not through a link (the run's confined reads judge those); under / as the live host reads it. */
function plainPath(root: string, ...parts: string[]): string | undefined {
  if (root === '/') return join(root, ...parts);
  let path = root;
  for (const part of parts) {
    path = join(path, part);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return undefined;
  }
  return path;
}

/** hccn.conf is a few KiB: a larger one is not read here (the check reads and judges it). */
const MAX_EARLY_CONF_BYTES = 1024 * 1024;

function configuredDevices(root: string): number[] {
  const path = plainPath(root, 'etc', 'hccn.conf');
  if (!path) return [];
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > MAX_EARLY_CONF_BYTES) return [];
    const parsed = parseHccnConf(readFileSync(path, 'utf8'));
    return parsed.ok ? parsed.value.devices.map((d) => d.device) : [];
  } catch {
    return [];
  }
}

function deviceNodes(root: string): number[] {
  const path = plainPath(root, 'dev');
  if (!path) return [];
  try {
    return davinciIds(readdirSync(path));
  } catch {
    return [];
  }
}

/** The devices to ask hccn_tool about before npu-smi has answered; none when the visible-devices variable cannot be read. */
export function earlyDevices(root: string, visibleText: string | undefined): number[] {
  let visible: number[] | null = null;
  if (visibleText !== undefined && visibleText.trim() !== '') {
    const parsed = parseIdRanges(visibleText, 1000);
    if (!parsed.ok || parsed.ids.length === 0) return [];
    visible = parsed.ids;
  }
  return devicesBeforeNpuSmi({ nodes: deviceNodes(root), configured: configuredDevices(root), visible });
}

function askNext(): void {
  if (!queue?.open || queue.next >= queue.devices.length) return;
  const device = queue.devices[queue.next++]!;
  start([queue.tool, '-i', String(device), '-ip', '-g'], queue.timeoutMs, queue.env, askNext);
}

/**
 * Starts the early calls of a run, at once (synchronously: the rest of qprep compiles next, and
 * the event loop is blocked meanwhile). A tool not found starts nothing: the run's own lookup
 * reports it.
 */
export function startEarlyCalls(plan: EarlyCallPlan): void {
  const env = definedOnly(plan.env);
  // hccn_tool first: its queue is the run's critical path, npu-smi's answer is not
  const hccnTool = plan.hccn ? locateExecutableSync('hccn_tool', env.PATH, HCCN_TOOL_DIRS) : null;
  if (hccnTool) {
    queue = { tool: hccnTool, devices: earlyDevices(plan.root, env.ASCEND_RT_VISIBLE_DEVICES), next: 0, open: true, env, timeoutMs: plan.timeoutMs };
    askNext();
  }
  const npuSmi = locateExecutableSync('npu-smi', env.PATH, NPU_SMI_DIRS);
  if (npuSmi) start([npuSmi, 'info'], plan.timeoutMs, env);
}

/** Whether `argv` with this timeout was started early and not yet taken over. */
export function isEarlyCall(argv: readonly string[], timeoutMs: number | undefined): boolean {
  return timeoutMs !== undefined && early.has(keyOf(argv, timeoutMs));
}

/**
 * The run makes a call that was started early: it gets that call's result (once: a second call
 * of the same argv, a retry, runs anew), its onExit and onLingering as if it had started it,
 * and the run's end (`signal`) kills it like its own.
 */
export function takeEarlyCall(argv: readonly string[], options: CommandOptions & { timeoutMs: number }): Promise<CommandResult> | undefined {
  const key = keyOf(argv, options.timeoutMs);
  const call = early.get(key);
  if (!call) return undefined;
  early.delete(key);
  const claimant: Claimant = {};
  if (options.onExit) claimant.onExit = options.onExit;
  if (options.onLingering) claimant.onLingering = options.onLingering;
  call.claimant = claimant;
  if (call.ended) queueMicrotask(() => options.onExit?.());
  if (call.lingering) options.onLingering?.(call.lingering);
  const { signal } = options;
  if (signal) {
    if (signal.aborted) call.abort.abort();
    else signal.addEventListener('abort', () => call.abort.abort(), { once: true });
  }
  return call.result;
}

/** An early call a limiter must count: its tool (the executable's name), and when it frees it and whether it hung. */
export interface HeldByEarlyCall {
  tool: string;
  argv: readonly string[];
  timeoutMs: number;
  released: Promise<void>;
  /** killed at its timeout: read once `released` has resolved */
  timedOut(): boolean;
}

/**
 * The run's limiter takes over: the early queue asks nothing more (the run's own queue goes on
 * from the answers it finds), and the calls still running are returned, each once, for the
 * limiter to count against their tool until they end.
 */
export function adoptEarlyCalls(): HeldByEarlyCall[] {
  if (queue) queue.open = false;
  const held: HeldByEarlyCall[] = [];
  for (const call of early.values()) {
    if (call.counted || !call.holding) continue;
    call.counted = true;
    held.push({ tool: (call.argv[0] ?? '').replace(/^.*\//, ''), argv: call.argv, timeoutMs: call.timeoutMs, released: call.released, timedOut: () => call.timedOut });
  }
  return held;
}

/** The run is over: the early calls nobody took over are killed with their groups (their results are not used). */
export function abandonEarlyCalls(): void {
  if (queue) queue.open = false;
  for (const call of early.values()) call.abort.abort();
  early.clear();
}
