import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import { DEPTH_BUDGETS, fitsBudget, hccnReadsPerDevice } from '../../../src/core/depth.js';
import { DEPTHS, runsAt } from '../../../src/core/ids/depths.js';
import { depthOf, selectChecks } from '../../../src/core/select.js';

/** The hccn_tool queries of the standard preflight on an A3 device before the link checks came. */
const PREFLIGHT_A3 = ['-ip -g', '-vnic -g', '-link -g', '-net_health -g', '-netdetect -g', '-gateway -g', '-lldp -g', '-tls -g'];

describe('depths and their budgets', () => {
  it('every check fits the budget of its depth', () => {
    const over = catalogue.filter((check) => !fitsBudget(check.cost, DEPTH_BUDGETS[depthOf(check)])).map((c) => c.id);
    expect(over).toEqual([]);
  });

  it('each depth reads at most its budget of hccn_tool calls per device, on A2 and A3', () => {
    for (const depth of DEPTHS) {
      for (const family of ['a2', 'a3'] as const) expect(hccnReadsPerDevice(catalogue, depth, family), `${depth} on ${family}`).toBeLessThanOrEqual(DEPTH_BUDGETS[depth].hccnToolPerDevice);
    }
    expect(hccnReadsPerDevice(catalogue, 'quick', 'a3')).toBe(0);
  });

  it('the default depth on A3 grows by no more than 10 % of the preflight hccn_tool calls (it does not grow at all)', () => {
    const queries = new Set(catalogue.filter((c) => runsAt('standard', depthOf(c))).flatMap((c) => (c.cost?.hccnTool ?? []).filter((q) => !q.onlyWhen && (!q.families || q.families.includes('a3'))).map((q) => q.args)));
    expect([...queries].sort()).toEqual([...PREFLIGHT_A3].sort());
    expect(hccnReadsPerDevice(catalogue, 'standard', 'a3')).toBeLessThanOrEqual(Math.floor(PREFLIGHT_A3.length * 1.1));
    // deep adds the link history, the optical module and the counters read twice
    expect(hccnReadsPerDevice(catalogue, 'deep', 'a3') - hccnReadsPerDevice(catalogue, 'standard', 'a3')).toBe(4);
  });

  it('the link diagnostics run at deep, hccn.fec at standard; a check that names no depth is standard', () => {
    const depth = (id: string) => depthOf(catalogue.find((c) => c.id === id)!);
    expect(['hccn.link-stability', 'hccn.optics', 'hccn.counters'].map(depth)).toEqual(['deep', 'deep', 'deep']);
    expect(depth('hccn.fec')).toBe('standard');
    expect(depthOf({ ...catalogue[0]!, depth: undefined })).toBe('standard');
  });

  it('a run at a depth selects its checks and the shallower ones; --only by id runs a deeper check anyway', () => {
    const ids = (depth: (typeof DEPTHS)[number], only: string[] = []) => selectChecks(catalogue, { only, skip: [], depth }).map((c) => c.id);
    expect(ids('standard')).not.toContain('hccn.optics');
    expect(ids('deep')).toContain('hccn.optics');
    expect(ids('quick')).not.toContain('hccn.link');
    expect(ids('quick').length).toBeGreaterThan(20);
    expect(ids('standard', ['hccn.optics'])).toEqual(['hccn.optics']);
    expect(ids('standard', ['hccn'])).not.toContain('hccn.optics');
  });
});
