import { describe, expect, it } from 'vitest';
// @ts-expect-error the benchmark is plain JavaScript without declarations
import { formatSuperPodRows, formatTable, scalingTable, superPodRows } from '../../bench/measurements/cluster-scaling.mjs';

/**
 * The scaling table of `npm run bench` (cluster-scaling) is what the built plan code plans for
 * generated clusters of 16-device nodes. The figures the docs quote come from it, so it must
 * count what hccn.peers pings: (N-1) x 16 same-index, (N-1) x 256 full mesh, 16 on a ring of k = 1.
 */

interface Cell {
  n: number;
  max: number;
  min: number;
  total: number;
}
interface Row {
  label: string;
  pairs: 'both' | 'once';
  cells: Cell[];
}

describe('bench: cluster-scaling', () => {
  it('counts the pings of the plan code, and pairs: once halves same-index and full mesh on every node', async () => {
    const rows = (await scalingTable([2, 3, 8])) as Row[];
    const row = (label: string, pairs: string) => rows.find((r) => r.label === label && r.pairs === pairs)!.cells;
    expect(row('same-index', 'both').map((c) => c.max)).toEqual([16, 32, 112]);
    expect(row('full-mesh', 'both').map((c) => c.max)).toEqual([256, 512, 1792]);
    expect(row('ring k=1', 'both').map((c) => c.max)).toEqual([16, 16, 16]);
    expect(row('same-index', 'once').map((c) => [c.max, c.min])).toEqual([[8, 8], [16, 16], [56, 56]]);
    expect(row('full-mesh', 'once').map((c) => c.total)).toEqual([256, 768, 7168]);
    // a ring of 2 nodes with k = 1 pings each pair from both ends with pairs: both; once does not
    expect(row('ring k=1', 'once').map((c) => c.total)).toEqual([16, 48, 128]);
    const lines = formatTable(rows, 2000) as string[];
    expect(lines).toContain('  same-index  both        16      32     112');
    expect(lines).toContain('  full-mesh   once     4 min   9 min  30 min');
  });
});

interface SuperPodRow {
  rollingK: number;
  defaultK: boolean;
  costs: { pingMs: number };
  plan: { nodes: number; rotations: number; maxPings: number; hccs: number; allPairs: number; owned: number; duplicates: number; sampledOk: boolean };
  time: { runS: number; budgetS: number; expectedS: number; worstS: number };
}

describe('bench: cluster-scaling, a 48-node A3 super pod with plan: rolling, pairs: once', () => {
  it('every same-index pair in one node\'s matrix, all over HCCS, proven over M runs of the plan code; every run within its budget', async () => {
    const rows = (await superPodRows(2000, { npuSmiMs: 400, hccnToolMs: 100, pingMs: 100 }, [1])) as SuperPodRow[];
    const byDefault = rows.find((r) => r.defaultK && r.costs.pingMs === 100)!;
    // pairs: once, ring k = 1: a pool of (48 - 1 - 2) x 16 / 2 = 360 pairs, 12 a run: 30 runs of 16 ring pairs and 12 more
    expect(byDefault.plan).toEqual({ nodes: 48, budget: 12, rotations: 30, maxPings: 28, hccs: 28, allPairs: 18048, owned: 18048, duplicates: 0, sampledOk: true });
    // 128 queries and 28 pings of 0.1 s; 29 intervals of 5 minutes and a run
    expect(byDefault.time.runS).toBeCloseTo(15.6, 5);
    expect(byDefault.time.budgetS).toBe(240);
    expect(byDefault.time.expectedS).toBeCloseTo(29 * 300 + 15.6, 5);
    for (const row of rows) {
      expect(row.time.runS).toBeLessThanOrEqual(row.time.budgetS / (row.defaultK ? 1 : 2));
      expect([row.plan.owned, row.plan.duplicates, row.plan.sampledOk]).toEqual([18048, 0, true]);
    }
    expect((formatSuperPodRows(rows) as string[]).some((line) => /^\s+48 {2}model \(query 100 ms, ping 100 ms\)\s+12\*\s+30\s+28\s+16 s\s+4 min\s+2\.4 h/.test(line))).toBe(true);
  });
});
