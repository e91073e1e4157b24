import { runsAt, type Depth } from './ids/depths.js';
import { depthOf } from './select.js';
import type { Check, CheckCost, HccnToolQuery } from './types.js';

/**
 * What a run at each depth may cost the host, the way DCGM gives each run level its duration:
 * the catalogue's declared costs are held to these (test/unit/core/depth.test.ts), `qprep list`
 * shows them, and the benchmark measures what a run really calls (bench/measurements/depth.mjs).
 *
 * The standard budget is the preflight before the link diagnostics: the eight hccn_tool queries
 * an A3 device answers (-ip, -vnic, -link, -net_health, -netdetect, -gateway, -lldp, -tls), and
 * no more: on a 16-die A3 node a standard run may not grow by more than 10 % of those calls, and
 * one more query per device would be 12.5 %. An A2 has no vNIC: its eighth is -fec -g, which the
 * A3's hccn_tool cannot answer. The deep budget adds the link diagnostics: the link history, the
 * optical module and the error counters read twice.
 */
export interface DepthBudget {
  /** distinct hccn_tool reads per device, the calls made only for some devices aside */
  hccnToolPerDevice: number;
  pings: boolean;
  npuSmiPerDie: number;
  /** the longest deliberate wait of one check, milliseconds */
  waitMs: number;
  readsStorage: boolean;
  connects: boolean;
}

export const DEPTH_BUDGETS: Readonly<Record<Depth, DepthBudget>> = {
  quick: { hccnToolPerDevice: 0, pings: false, npuSmiPerDie: 0, waitMs: 0, readsStorage: false, connects: false },
  standard: { hccnToolPerDevice: 8, pings: true, npuSmiPerDie: 1, waitMs: 0, readsStorage: true, connects: true },
  deep: { hccnToolPerDevice: 12, pings: true, npuSmiPerDie: 1, waitMs: 5000, readsStorage: true, connects: true },
};

export type NetworkFamily = 'a2' | 'a3';

function asksOn(query: HccnToolQuery, family: NetworkFamily): boolean {
  return query.families === undefined || query.families.includes(family);
}

/**
 * The hccn_tool reads per device that the checks of a run at `depth` make on `family`: a query
 * several checks make counts once (the run shares its answer), a query read twice counts twice,
 * and one asked only for some devices is left out.
 */
export function hccnReadsPerDevice(checks: readonly Check[], depth: Depth, family: NetworkFamily): number {
  const reads = new Map<string, number>();
  for (const check of checks) {
    if (!runsAt(depth, depthOf(check))) continue;
    for (const query of check.cost?.hccnTool ?? []) {
      if (query.onlyWhen !== undefined || !asksOn(query, family)) continue;
      reads.set(query.args, Math.max(reads.get(query.args) ?? 0, query.reads ?? 1));
    }
  }
  return [...reads.values()].reduce((a, b) => a + b, 0);
}

/** Whether a check's declared cost fits the budget of a depth (the hccn_tool reads are summed over the catalogue, not here). */
export function fitsBudget(cost: CheckCost | undefined, budget: DepthBudget): boolean {
  if (!cost) return true;
  if (cost.pings && !budget.pings) return false;
  if (cost.readsStorage && !budget.readsStorage) return false;
  if (cost.connects && !budget.connects) return false;
  if ((cost.npuSmiPerDie ?? 0) > budget.npuSmiPerDie) return false;
  if ((cost.waitMs ?? 0) > budget.waitMs) return false;
  return (cost.hccnTool ?? []).length === 0 || budget.hccnToolPerDevice > 0;
}
