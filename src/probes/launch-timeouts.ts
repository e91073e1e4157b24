import type { CheckContext } from '../core/types.js';
import { defaultTimeout, type LaunchTimeoutRow, type TimeoutBound } from '../knowledge/launch-timeouts.js';
import { envDefault, fixedEngineReadyWaitMs, readsEnv } from '../parsers/vllm-source.js';
import type { LaunchView } from './launch.js';
import { pythonSite } from './python.js';
import { installedStack } from './stack.js';

/**
 * The timeouts of a launch as a plan: for each variable, the value in force (the script's, the
 * environment's, else the default) and where the default comes from. vLLM's own defaults are
 * read from the installed vLLM (its vllm/envs.py, as text), which is what the server will use;
 * the table of knowledge/launch-timeouts.json stands in where the installed source cannot be read.
 */

export type TimeoutOrigin =
  /** the script assigns it */
  | 'script'
  /** qprep's environment has it, and the script inherits it */
  | 'environment'
  /** unset: the default applies */
  | 'default';

export interface TimeoutSetting {
  variable: string;
  bounds: TimeoutBound;
  unit: 's' | 'ms';
  /** what is in force, in seconds; null when the script computes it or writes no whole number */
  seconds: number | null;
  /** as written, when the script or the environment sets it */
  written: string | null;
  from: TimeoutOrigin;
  /** the script's line; null for the environment and the default */
  line: number | null;
  /** set, but computed at run time (not evaluated) or not a whole number */
  unusable?: 'not-evaluated' | 'not-a-number';
  defaultSeconds: number;
  /** where the default comes from: the installed vLLM's source file, or the knowledge table's row */
  defaultFrom: { file: string } | { row: LaunchTimeoutRow['source'] };
  /** false when the installed vLLM does not read the variable: its wait is fixed at defaultSeconds */
  honoured: boolean;
}

export interface TimeoutPlan {
  settings: TimeoutSetting[];
  /** the vLLM of the Python the script runs, when found */
  vllm: { version: string | null; envsPy: string | null };
}

const VARIABLES = ['VLLM_ENGINE_READY_TIMEOUT_S', 'VLLM_RPC_TIMEOUT', 'HCCL_CONNECT_TIMEOUT', 'HCCL_EXEC_TIMEOUT', 'ASCEND_CONNECT_TIMEOUT', 'ASCEND_TRANSFER_TIMEOUT'] as const;
const MOONCAKE = new Set(['ASCEND_CONNECT_TIMEOUT', 'ASCEND_TRANSFER_TIMEOUT']);

interface InstalledVllm {
  version: string | null;
  envsPy: { path: string; text: string } | null;
  coreClientPy: { path: string; text: string } | null;
}

/**
 * The vllm package of the Python the script runs: its version (the installed stack's, from its
 * METADATA) and the two files that hold its timeouts, in site-packages or, for the editable
 * install of the official images, in its source tree (/vllm-workspace/vllm).
 */
function installedVllm(ctx: CheckContext, view: LaunchView): Promise<InstalledVllm> {
  return ctx.shared('launch:installed-vllm', async () => {
    const site = await pythonSite(ctx, view);
    const vllm = (await installedStack(ctx)).packages.vllm;
    const version = vllm?.version ?? null;
    for (const dir of vllm?.editable ? [vllm.editable, ...site.sitePackages] : site.sitePackages) {
      const envs = await ctx.host.readFile(`${dir}/vllm/envs.py`);
      if (!envs.ok) continue;
      const core = await ctx.host.readFile(`${dir}/vllm/v1/engine/core_client.py`);
      return {
        version,
        envsPy: { path: `${dir}/vllm/envs.py`, text: envs.value },
        coreClientPy: core.ok ? { path: `${dir}/vllm/v1/engine/core_client.py`, text: core.value } : null,
      };
    }
    // a vllm whose source is not here (a wheel's files not captured): its version still says which vLLM it is
    return { version, envsPy: null, coreClientPy: null };
  });
}

function toSeconds(value: number, unit: 's' | 'ms'): number {
  return unit === 'ms' ? value / 1000 : value;
}

/** The default of a vLLM variable from the installed source, when it can be read there. */
function installedDefault(vllm: InstalledVllm, row: LaunchTimeoutRow): Pick<TimeoutSetting, 'defaultSeconds' | 'defaultFrom' | 'honoured'> | undefined {
  if (row.component !== 'vllm' || !vllm.envsPy) return undefined;
  const text = envDefault(vllm.envsPy.text, row.variable);
  if (text !== undefined && /^\d+$/.test(text)) return { defaultSeconds: toSeconds(Number(text), row.unit), defaultFrom: { file: vllm.envsPy.path }, honoured: true };
  // a vLLM from before VLLM_ENGINE_READY_TIMEOUT_S (vllm-project/vllm PR #27444) waits a fixed 600 s
  if (row.variable === 'VLLM_ENGINE_READY_TIMEOUT_S' && !readsEnv(vllm.envsPy.text, row.variable) && vllm.coreClientPy) {
    const fixed = fixedEngineReadyWaitMs(vllm.coreClientPy.text);
    if (fixed !== undefined) return { defaultSeconds: fixed / 1000, defaultFrom: { file: vllm.coreClientPy.path }, honoured: false };
  }
  return undefined;
}

function setting(view: LaunchView, row: LaunchTimeoutRow, vllm: InstalledVllm, inherited: Readonly<Record<string, string>>): TimeoutSetting {
  const fromInstalled = installedDefault(vllm, row);
  const defaults = fromInstalled ?? { defaultSeconds: toSeconds(row.default, row.unit), defaultFrom: { row: row.source }, honoured: true };
  const base = { variable: row.variable, bounds: row.bounds, unit: row.unit, ...defaults };
  const variable = view.env.get(row.variable);
  const text = variable ? (variable.value.known ? variable.value.text.trim() : null) : (inherited[row.variable]?.trim() ?? undefined);
  if (variable === undefined && text === undefined) return { ...base, seconds: defaults.defaultSeconds, written: null, from: 'default', line: null };
  const from: TimeoutOrigin = variable && variable.line !== null ? 'script' : 'environment';
  const line = variable?.line ?? null;
  if (text === null) return { ...base, seconds: null, written: variable!.value.text, from, line, unusable: 'not-evaluated' };
  if (!/^\d+$/.test(text ?? '')) return { ...base, seconds: null, written: text ?? '', from, line, unusable: 'not-a-number' };
  // a variable the installed vLLM does not read changes nothing
  const seconds = defaults.honoured ? toSeconds(Number(text), row.unit) : defaults.defaultSeconds;
  return { ...base, seconds, written: text!, from, line };
}

/** Whether the script runs a Mooncake connector, whose Ascend transport reads the ASCEND_* timeouts. */
function usesMooncake(view: LaunchView): boolean {
  return view.serve?.args.some((arg) => /Mooncake/i.test(arg.text)) ?? false;
}

/** The timeouts in force for the judged script, once per run. */
export function timeoutPlan(ctx: CheckContext, view: LaunchView): Promise<TimeoutPlan> {
  return ctx.shared('launch:timeouts', async () => {
    const vllm = await installedVllm(ctx, view);
    const inherited = ctx.host.env();
    const valueOf = (name: string) => {
      const variable = view.env.get(name);
      return variable?.value.known ? variable.value.text : undefined;
    };
    const mooncake = usesMooncake(view);
    const settings: TimeoutSetting[] = [];
    for (const variable of VARIABLES) {
      if (MOONCAKE.has(variable) && !mooncake && !view.env.has(variable)) continue;
      const row = defaultTimeout(variable, valueOf);
      if (row) settings.push(setting(view, row, vllm, inherited));
    }
    return { settings, vllm: { version: vllm.version, envsPy: vllm.envsPy?.path ?? null } };
  });
}
