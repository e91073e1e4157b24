import { describe, expect, it } from 'vitest';
import { parseClusterText } from '../../../src/cluster/load.js';
import { pairOwnership, planPings } from '../../../src/cluster/plan.js';
import type { Cluster } from '../../../src/cluster/schema.js';

/** n nodes of d devices, plan: rolling. */
function cluster(nodes: number, devices: number, extra: string): Cluster {
  const lines = ['plan: rolling', extra, 'nodes:'];
  for (let k = 1; k <= nodes; k++) {
    lines.push(`  - name: node${k}`, `    host: 198.19.${Math.floor(k / 200)}.${10 + (k % 200)}`, '    devices:');
    for (let i = 0; i < devices; i++) lines.push(`      - { device: ${i}, ip: 198.${20 + Math.floor(k / 200)}.${k % 200}.${10 + i} }`);
  }
  return parseClusterText(lines.join('\n'), 'c.yaml');
}

const key = (local: string, ld: number, peer: string, pd: number) => `${local}:${ld}->${peer}:${pd}`;
const unordered = (a: string, ad: number, b: string, bd: number) => (a < b ? `${a}:${ad}|${b}:${bd}` : `${b}:${bd}|${a}:${ad}`);

describe('plan: rolling', () => {
  // every node of clusters up to 17; of 64 nodes the first, one in the middle, the last (a plan of 64 nodes is slow to run M times for each)
  const sizes = [2, 3, 5, 8, 17, 64];
  for (const pairs of ['both', 'once'] as const) {
    for (const [devices, rollingK, ringK] of [
      [1, 1, 1],
      [8, 5, 1],
      [16, 12, 1],
      [16, 7, 2],
    ] as const) {
      it(`pairs: ${pairs}, ${devices} devices, rollingK ${rollingK}, ringK ${ringK}: any M runs in a row cover the matrix, each within the budget`, () => {
        for (const n of sizes) {
          const c = cluster(n, devices, `pairs: ${pairs}\nrollingK: ${rollingK}\nringK: ${ringK}`);
          const clusterPairs = new Map<string, number>();
          for (const [index, node] of c.nodes.entries()) {
            const first = planPings(c, node.name, { rotation: 0 });
            const part = first.rolling!;
            expect(part.rotations).toBe(Math.max(1, Math.ceil(part.pool / rollingK)));
            expect(part.matrix).toHaveLength(part.ringPairs + part.pool);
            const matrix = new Set(part.matrix.map((m) => key(node.name, m.localDevice, m.peerNode, m.peerDevice)));
            expect(matrix.size).toBe(part.matrix.length);
            for (const m of part.matrix) {
              const id = unordered(node.name, m.localDevice, m.peerNode, m.peerDevice);
              clusterPairs.set(id, (clusterPairs.get(id) ?? 0) + 1);
            }
            if (n > 17 && ![0, 31, n - 1].includes(index)) continue;
            // start anywhere: 0, and a rotation far from it on the small clusters
            for (const start of n > 17 ? [0] : [0, 1_000_003]) {
              const seen = new Set<string>();
              for (let run = start; run < start + part.rotations; run++) {
                const plan = planPings(c, node.name, { rotation: run });
                expect(plan.pings.length).toBeLessThanOrEqual(part.ringPairs + rollingK);
                expect(plan.unplanned).toEqual([]);
                for (const p of plan.pings) {
                  expect(matrix.has(key(p.localNode, p.localDevice, p.peerNode, p.peerDevice))).toBe(true);
                  seen.add(key(p.localNode, p.localDevice, p.peerNode, p.peerDevice));
                }
              }
              expect(seen.size).toBe(matrix.size);
            }
          }
          // the nodes' matrices together are the whole same-index matrix: each pair once with pairs: once, twice with both
          const expected = (n * (n - 1) * devices) / 2;
          expect(clusterPairs.size).toBe(expected);
          expect(new Set(clusterPairs.values())).toEqual(new Set([pairs === 'once' ? 1 : 2]));
        }
      });
    }
  }

  it('pairs: once: a node only ever pings the pairs it owns, and lists the others by owner', () => {
    const c = cluster(8, 4, 'pairs: once\nrollingK: 3');
    const owner = pairOwnership(c);
    const plan = planPings(c, 'node3', { rotation: 5 });
    for (const p of plan.pings) expect(owner({ node: p.localNode, device: p.localDevice }, { node: p.peerNode, device: p.peerDevice })).toBe('node3');
    expect(plan.peerOwned.length + plan.rolling!.matrix.length).toBe(7 * 4);
  });

  it('the ring neighbours every run, the rotating window moves by rollingK pairs a run', () => {
    const c = cluster(6, 2, 'rollingK: 3');
    const a = planPings(c, 'node1', { rotation: 0 });
    const b = planPings(c, 'node1', { rotation: 1 });
    const ring = (p: { peerNode: string }) => p.peerNode === 'node2';
    expect(a.pings.filter(ring)).toHaveLength(2);
    expect(b.pings.filter(ring)).toHaveLength(2);
    // pool: node3..node6, 2 devices each = 8 pairs in cluster order from node1 on; 3 a run
    expect(a.rolling).toMatchObject({ rotations: 3, budget: 3, ringPairs: 2, pool: 8 });
    expect(a.pings.filter((p) => !ring(p)).map((p) => `${p.peerNode}:${p.peerDevice}`)).toEqual(['node3:0', 'node3:1', 'node4:0']);
    expect(b.pings.filter((p) => !ring(p)).map((p) => `${p.peerNode}:${p.peerDevice}`)).toEqual(['node4:1', 'node5:0', 'node5:1']);
    // the last window wraps around to the start of the pool
    const c3 = planPings(c, 'node1', { rotation: 2 });
    expect(c3.pings.filter((p) => !ring(p)).map((p) => `${p.peerNode}:${p.peerDevice}`)).toEqual(['node3:0', 'node6:0', 'node6:1']);
  });

  it('the cluster file defaults: rollingK 12, a proof counts for an hour', () => {
    const c = cluster(3, 1, '');
    expect([c.rollingK, c.rollingMaxAgeS]).toEqual([12, 3600]);
    expect(() => parseClusterText('plan: rolling\nrollingK: 0\nnodes: [{name: a, host: 10.0.0.1}]', 'c.yaml')).toThrow(/rollingK/);
  });
});
