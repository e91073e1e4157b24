import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EarlyCallPlan } from '../host/early-calls.js';
import { judgeDuration } from '../util/duration.js';
import { rawOption, rawOptions } from './raw-argv.js';

/** The probe timeout of a run without --timeout: the option's default (10s). */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The commands that examine the live host with npu-smi and hccn_tool from their first moment. */
const EARLY_COMMANDS: readonly string[] = ['check', 'snapshot'];

/** Options after which nothing runs early: help, a replay. */
const NOT_EARLY = ['-h', '--help', '--snapshot'];

function given(argv: readonly string[], flag: string): boolean {
  return argv.slice(3).some((arg) => arg === flag || arg.startsWith(`${flag}=`));
}

/** The selectors of --only or --skip (`--skip hccn`, `--only npu.smi,hccn`). */
function selectors(argv: readonly string[], flag: string): string[] {
  return rawOptions(argv, flag).flatMap((value) => value.split(',').map((token) => token.trim()));
}

/** Whether a selector names checks of this category (`hccn`, `hccn.ip`, `hccn.`). */
const within = (category: string) => (token: string) => token === category || token.startsWith(`${category}.`);

/** Which tools the selected checks ask early: the HCCN checks need npu-smi's table too. */
function toolsOf(argv: readonly string[]): { npuSmi: boolean; hccn: boolean } {
  const only = selectors(argv, '--only');
  const skip = selectors(argv, '--skip');
  const selects = (category: string) => (only.length === 0 || only.some(within(category))) && !skip.includes(category);
  const hccn = selects('hccn');
  return { npuSmi: hccn || selects('npu'), hccn };
}

/**
 * What the process may ask the host before its command line is parsed: `qprep check` or
 * `qprep snapshot` of the live host (under --root too), the command named first, without a
 * replay or --help, with a --timeout and a --root that the command line will accept, and a
 * selection (--only, --skip) that keeps NPU or HCCN checks: npu-smi for either, hccn_tool for
 * the HCCN checks.
 * Anything else gets no early call: the command runs as it would have, only later. An early
 * call is a call the run makes anyway (npu-smi's table, hccn_tool's first question), through
 * the same seam; what the plan gets wrong costs time, never a verdict.
 */
export function earlyCallPlan(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): EarlyCallPlan | undefined {
  if (!EARLY_COMMANDS.includes(argv[2] ?? '')) return undefined;
  if (NOT_EARLY.some((flag) => given(argv, flag))) return undefined;
  const timeoutText = rawOption(argv, '--timeout');
  const timeout = timeoutText === undefined ? { ms: DEFAULT_TIMEOUT_MS } : judgeDuration(timeoutText);
  if (!('ms' in timeout)) return undefined;
  const root = resolve(cwd, rawOption(argv, '--root') ?? '/');
  try {
    if (!statSync(root).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const tools = toolsOf(argv);
  if (!tools.npuSmi) return undefined;
  return { root, timeoutMs: timeout.ms, hccn: tools.hccn, env };
}
