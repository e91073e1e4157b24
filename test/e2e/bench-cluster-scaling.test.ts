import { describe, expect, it } from 'vitest';
// @ts-expect-error the benchmark is plain JavaScript without declarations
import { formatTable, scalingTable } from '../../bench/measurements/cluster-scaling.mjs';

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
