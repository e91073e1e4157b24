/**
 * How deep a run looks, as DCGM's run levels (`dcgmi diag -r 1/2/3`): each check has a depth, and
 * a run at a depth runs the checks of that depth and the shallower ones. Like the other ids of
 * this folder they are never translated; `qprep list` and the docs say what each costs.
 *
 * - `quick`: files, the environment and the one `npu-smi info` table: no per-device tool call
 * - `standard` (the default): what a preflight reads of every device and peer: the hccn_tool
 *   configuration queries, the pings, the health and board queries, the weights' storage
 * - `deep`: the link diagnostics of every port: its link history, its optical module, its error
 *   counters read twice
 */
export const DEPTHS = ['quick', 'standard', 'deep'] as const;

export type Depth = (typeof DEPTHS)[number];

/** The depth of `qprep check` and `qprep serve` when none is given, and of a check that names none. */
export const DEFAULT_DEPTH: Depth = 'standard';

/** Whether a run at `run` depth runs a check of depth `check`. */
export function runsAt(run: Depth, check: Depth): boolean {
  return DEPTHS.indexOf(check) <= DEPTHS.indexOf(run);
}
