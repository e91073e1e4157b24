import { describe, expect, it } from 'vitest';
import { parseClusterText } from '../../../src/cluster/load.js';
import { describeResult, formatLoss, formatPingSummary, summarizePings, type PingOutcome, type PingResult } from '../../../src/cluster/ping-summary.js';
import { pairOwnership, peersOf, planPings, type PlannedPing } from '../../../src/cluster/plan.js';
import type { Cluster } from '../../../src/cluster/schema.js';

/** n nodes of d devices; node k device i has 198.18.k.(10+i), vNIC 198.19.(128+k).(10+i). */
function cluster(nodes: number, devices: number, extra = ''): Cluster {
  const lines = [extra, 'nodes:'];
  for (let k = 1; k <= nodes; k++) {
    lines.push(`  - name: node${k}`, `    host: 198.19.0.${10 + k}`, '    devices:');
    for (let i = 0; i < devices; i++) lines.push(`      - { device: ${i}, ip: 198.18.${k}.${10 + i}, vnicIp: 198.19.${128 + k}.${10 + i} }`);
  }
  return parseClusterText(lines.join('\n'), 'c.yaml');
}

const pair = (p: PlannedPing) => `${p.localNode}:${p.localDevice}->${p.peerNode}:${p.peerDevice}`;

describe('ping plans', () => {
  it('same-index: device i to device i of every peer, RoCE to the device IP', () => {
    const plan = planPings(cluster(3, 2), 'node2');
    expect(plan.peers).toEqual(['node1', 'node3']);
    expect(plan.pings.map(pair)).toEqual(['node2:0->node1:0', 'node2:1->node1:1', 'node2:0->node3:0', 'node2:1->node3:1']);
    expect(plan.pings[0]).toEqual({ localNode: 'node2', localDevice: 0, peerNode: 'node1', peerDevice: 0, address: '198.18.1.10', method: 'roce' });
    expect(plan.unplanned).toEqual([]);
  });

  it('full-mesh: every local device to every peer device', () => {
    const plan = planPings(cluster(2, 3), 'node1', { plan: 'full-mesh' });
    expect(plan.pings).toHaveLength(9);
    expect(plan.pings.map(pair).slice(0, 4)).toEqual(['node1:0->node2:0', 'node1:0->node2:1', 'node1:0->node2:2', 'node1:1->node2:0']);
  });

  it('16 devices x 4 nodes: 48 same-index and 768 full-mesh pings per node', () => {
    const big = cluster(4, 16);
    expect(planPings(big, 'node1').pings).toHaveLength(48);
    expect(planPings(big, 'node1', { plan: 'full-mesh' }).pings).toHaveLength(768);
  });

  it('ring: each node pings only its next k nodes, wrapping around, so every node is pinged k times', () => {
    const ring = cluster(16, 2, 'plan: ring\nringK: 2');
    expect(peersOf(ring, 'node1', 'ring', 2).map((n) => n.name)).toEqual(['node2', 'node3']);
    expect(peersOf(ring, 'node16', 'ring', 2).map((n) => n.name)).toEqual(['node1', 'node2']);
    const all = ring.nodes.flatMap((n) => planPings(ring, n.name).pings);
    for (const node of ring.nodes) {
      expect(planPings(ring, node.name).pings).toHaveLength(4);
      expect(all.filter((p) => p.peerNode === node.name)).toHaveLength(4);
    }
    // k beyond the cluster size is every other node once
    expect(planPings(cluster(3, 1), 'node1', { plan: 'ring', ringK: 10 }).peers).toEqual(['node2', 'node3']);
  });

  it('never plans a ping inside one node, so the two dies of an A3 card are never paired', () => {
    const a3 = cluster(3, 16, 'family: a3');
    for (const kind of ['same-index', 'full-mesh', 'ring'] as const) {
      for (const node of a3.nodes) {
        for (const ping of planPings(a3, node.name, { plan: kind }).pings) expect(ping.peerNode).not.toBe(ping.localNode);
      }
    }
  });

  it('A3 inside one super pod: -hccs_ping to the vNIC IP; across super pods or undeclared: RoCE to the device IP', () => {
    const text = [
      'family: a3',
      'nodes:',
      '  - {name: a, host: 198.19.0.1, superPod: 1, devices: [{device: 0, ip: 198.18.1.10, vnicIp: 198.19.129.10}]}',
      '  - {name: b, host: 198.19.0.2, superPod: 1, devices: [{device: 0, ip: 198.18.2.10, vnicIp: 198.19.130.10}]}',
      '  - {name: c, host: 198.19.0.3, superPod: 2, devices: [{device: 0, ip: 198.18.3.10, vnicIp: 198.19.131.10}]}',
      '  - {name: d, host: 198.19.0.4, devices: [{device: 0, ip: 198.18.4.10, vnicIp: 198.19.132.10}]}',
    ].join('\n');
    const plan = planPings(parseClusterText(text, 'c.yaml'), 'a');
    expect(plan.pings.map((p) => [p.peerNode, p.method, p.address])).toEqual([
      ['b', 'hccs', '198.19.130.10'],
      ['c', 'roce', '198.18.3.10'],
      ['d', 'roce', '198.18.4.10'],
    ]);
    // the same cluster on A2 hardware is RoCE everywhere
    expect(planPings(parseClusterText(text, 'c.yaml'), 'a', { family: 'a2' }).pings.every((p) => p.method === 'roce')).toBe(true);
  });

  it('says which pairs it cannot ping: a device the peer lacks, a device without an address', () => {
    const text = [
      'nodes:',
      '  - {name: a, host: 198.19.0.1, devices: [{device: 0, ip: 198.18.1.10}, {device: 1, ip: 198.18.1.11}]}',
      '  - {name: b, host: 198.19.0.2, devices: [{device: 0}]}',
    ].join('\n');
    const plan = planPings(parseClusterText(text, 'c.yaml'), 'a');
    expect(plan.pings).toEqual([]);
    expect(plan.unplanned).toEqual([
      { localNode: 'a', localDevice: 0, peerNode: 'b', peerDevice: 0, reason: 'b dev0 has no device IP in the cluster file' },
      { localNode: 'a', localDevice: 1, peerNode: 'b', peerDevice: 1, reason: 'b has no device 1' },
    ]);
  });

  it('pings from the devices the inventory reports when given, not those the file lists', () => {
    const plan = planPings(cluster(2, 4), 'node1', { localDevices: [3, 1] });
    expect(plan.pings.map((p) => p.localDevice)).toEqual([1, 3]);
  });

  it('refuses, as a last guard, an address a caller put in a hand-built cluster', () => {
    const hand = cluster(2, 1);
    hand.nodes[1]!.devices[0]!.ip = '1.2.3.4; rm -rf /';
    const plan = planPings(hand, 'node1');
    expect(plan.pings).toEqual([]);
    expect(plan.unplanned[0]!.reason).toBe('node2 dev0 device IP "1.2.3.4; rm -rf /" is not an IPv4 address');
  });
});

function results(plan: PlannedPing[], outcomeFor: (p: PlannedPing) => PingOutcome): PingResult[] {
  return plan.map((ping) => ({ ping, outcome: outcomeFor(ping) }));
}

const ok: PingOutcome = { status: 'ok', received: 3, transmitted: 3 };
const lost: PingOutcome = { status: 'loss', lossPercent: 100, received: 0, transmitted: 3 };

/** An unordered device pair: `a:0|b:0`, the node whose name sorts first on the left. */
const unordered = (a: string, ad: number, b: string, bd: number) => (a < b ? `${a}:${ad}|${b}:${bd}` : `${b}:${bd}|${a}:${ad}`);

describe('pairs: once', () => {
  const kinds = [
    { plan: 'same-index', ringK: 1 },
    { plan: 'full-mesh', ringK: 1 },
    { plan: 'ring', ringK: 1 },
    { plan: 'ring', ringK: 2 },
  ] as const;

  it('the cluster file says pairs: once; without it every node pings its whole plan (pairs: both)', () => {
    expect(cluster(2, 1).pairs).toBe('both');
    expect(cluster(2, 1, 'pairs: once').pairs).toBe('once');
    expect(() => cluster(2, 1, 'pairs: half')).toThrow(/invalid cluster c\.yaml: pairs: .*"both"\|"once"/);
    expect(planPings(cluster(2, 1), 'node1').peerOwned).toEqual([]);
  });

  for (const { plan, ringK } of kinds) {
    for (const [nodes, devices] of [[2, 16], [5, 3], [6, 2], [9, 1]] as const) {
      it(`${plan}${plan === 'ring' ? ` k=${ringK}` : ''}, ${nodes} nodes x ${devices} devices: every pair of pairs: both is pinged exactly once, by the node the others say owns it`, () => {
        const c = cluster(nodes, devices);
        const both = new Set(c.nodes.flatMap((n) => planPings(c, n.name, { plan, ringK }).pings.map((p) => unordered(p.localNode, p.localDevice, p.peerNode, p.peerDevice))));
        const onceByNode = c.nodes.map((n) => planPings(c, n.name, { plan, ringK, pairs: 'once' }));
        const pinged = onceByNode.flatMap((p) => p.pings.map((q) => unordered(q.localNode, q.localDevice, q.peerNode, q.peerDevice)));
        expect(new Set(pinged).size, 'no pair pinged twice').toBe(pinged.length);
        expect([...pinged].sort()).toEqual([...both].sort());
        // what a node says its peers own is exactly what those peers ping towards it
        for (const node of c.nodes) {
          const mine = planPings(c, node.name, { plan, ringK, pairs: 'once' });
          const claimed = mine.peerOwned.map((p) => `${p.peerNode}:${p.peerDevice}->${node.name}:${p.localDevice}`).sort();
          const actual = onceByNode.flatMap((p) => p.pings).filter((p) => p.peerNode === node.name).map((p) => `${p.localNode}:${p.localDevice}->${node.name}:${p.peerDevice}`).sort();
          expect(claimed).toEqual(actual);
          const ownerOf = pairOwnership(c);
          for (const ping of mine.pings) expect(ownerOf({ node: ping.localNode, device: ping.localDevice }, { node: ping.peerNode, device: ping.peerDevice })).toBe(node.name);
        }
      });
    }
  }

  it('halves same-index and full mesh per node, exactly, with 16 devices: 8 of 16 and 128 of 256 pairs of each peer', () => {
    const c = cluster(5, 16);
    for (const node of c.nodes) {
      const sameIndex = planPings(c, node.name, { pairs: 'once' });
      expect(sameIndex.pings).toHaveLength(4 * 8);
      expect(sameIndex.peerOwned).toHaveLength(4 * 8);
      const mesh = planPings(c, node.name, { plan: 'full-mesh', pairs: 'once' });
      for (const peer of mesh.peers) expect(mesh.pings.filter((p) => p.peerNode === peer)).toHaveLength(128);
    }
  });

  it('ring: a node shares pairs with the k nodes before it as well as the k after it; small rings are not pinged twice', () => {
    const ring = cluster(6, 2, 'plan: ring\nringK: 2\npairs: once');
    expect(peersOf(ring, 'node1', 'ring', 2, 'once').map((n) => n.name)).toEqual(['node2', 'node3', 'node6', 'node5']);
    expect(planPings(ring, 'node1').pings).toHaveLength(4);
    // 3 nodes, k = 2: with pairs: both every pair is pinged from both ends (12 pings), once: 6
    const small = cluster(3, 2, 'plan: ring\nringK: 2');
    const count = (pairs: 'both' | 'once') => small.nodes.reduce((sum, n) => sum + planPings(small, n.name, { pairs }).pings.length, 0);
    expect([count('both'), count('once')]).toEqual([12, 6]);
  });

  it('both ends compute the same owner; on a ring with pairs: once each node still pings k x devices pairs', () => {
    const c = cluster(4, 4);
    const ownerOf = pairOwnership(c);
    for (const [a, b] of [['node1', 'node2'], ['node1', 'node3'], ['node4', 'node1']]) {
      for (const d of [0, 1]) expect(ownerOf({ node: a!, device: d }, { node: b!, device: d })).toBe(ownerOf({ node: b!, device: d }, { node: a!, device: d }));
    }
    const ring = cluster(9, 3, 'plan: ring\nringK: 2\npairs: once');
    for (const node of ring.nodes) expect(planPings(ring, node.name).pings).toHaveLength(2 * 3);
  });

  for (const nodes of [2, 3, 8, 16, 63, 64]) {
    it(`one device per node, ${nodes} nodes: each node owns half of its pairs, within one`, () => {
      const c = cluster(nodes, 1);
      const owned = c.nodes.map((n) => planPings(c, n.name, { pairs: 'once' }).pings.length);
      expect(owned.reduce((a, b) => a + b, 0)).toBe((nodes * (nodes - 1)) / 2);
      for (const count of owned) expect(Math.abs(count - (nodes - 1) / 2)).toBeLessThanOrEqual(0.5);
    });
  }
});

describe('ping report lines', () => {
  it('names the failing pair with its address and loss', () => {
    const [ping] = planPings(cluster(2, 4), 'node1').pings.filter((p) => p.localDevice === 3);
    expect(describeResult({ ping: ping!, outcome: lost })).toBe('node1 dev3 -> node2 dev3 (198.18.2.13): 100% loss');
    expect(describeResult({ ping: ping!, outcome: { status: 'loss', lossPercent: 33.33, received: 2, transmitted: 3 } })).toBe('node1 dev3 -> node2 dev3 (198.18.2.13): 33.33% loss');
    expect(describeResult({ ping: ping!, outcome: { status: 'skipped', reason: 'link of dev3 is DOWN' } })).toBe('node1 dev3 -> node2 dev3 (198.18.2.13): skipped: link of dev3 is DOWN');
    expect(formatLoss(0)).toBe('0%');
    expect(formatLoss(66.666)).toBe('66.67%');
  });

  it('all good: one headline, one line per peer', () => {
    const summary = summarizePings(results(planPings(cluster(4, 16), 'node1').pings, () => ok));
    expect(summary.headline).toBe('all 48 pings ok');
    expect(summary.byPeer.map((p) => p.line)).toEqual(['node2: 16 of 16 ok', 'node3: 16 of 16 ok', 'node4: 16 of 16 ok']);
    expect(summary.failures).toEqual([]);
    expect(summary.diagnoses).toEqual([]);
  });

  it('16 devices x 4 nodes with one local port down: readable lines and the diagnosis', () => {
    const plan = planPings(cluster(4, 16), 'node1').pings;
    const summary = summarizePings(results(plan, (p) => (p.localDevice === 3 ? lost : ok)));
    expect(summary.headline).toBe(
      '3 of 48 pings failed: node1 dev3 -> node2 dev3 (198.18.2.13): 100% loss, node1 dev3 -> node3 dev3 (198.18.3.13): 100% loss, node1 dev3 -> node4 dev3 (198.18.4.13): 100% loss',
    );
    expect(summary.byPeer[0]!.line).toBe('node2: 15 of 16 ok; failing dev3 (100% loss)');
    expect(summary.diagnoses).toEqual([
      'node1 dev3 reached none of its 3 peer devices: check its link, cable and address (hccn_tool -i 3 -link -g; hccn_tool -i 3 -ip -g)',
    ]);
    expect(formatPingSummary(summary)).toHaveLength(3 + 1 + 3);
    for (const line of formatPingSummary(summary)) expect(line.length).toBeLessThan(160);
  });

  it('a peer that answers nobody, and a peer device that answers no local device (full mesh)', () => {
    const mesh = planPings(cluster(3, 2), 'node1', { plan: 'full-mesh' }).pings;
    const down = summarizePings(results(mesh, (p) => (p.peerNode === 'node3' ? lost : ok)));
    expect(down.diagnoses).toEqual(['node3 answered none of 4 pings: the node is down or off the NPU network, or its device IPs in the cluster file are wrong']);
    const oneDevice = summarizePings(results(mesh, (p) => (p.peerNode === 'node2' && p.peerDevice === 1 ? { status: 'unreachable' } : ok)));
    expect(oneDevice.diagnoses).toEqual(['node2 dev1 answered none of the 2 local devices that pinged it: check that device on node2']);
    expect(oneDevice.byPeer[0]!.line).toBe('node2: 2 of 4 ok; failing dev0->dev1 (destination host unreachable), dev1 (destination host unreachable)');
  });

  it('keeps pings that could not be judged, skipped pings and unplanned pairs apart from failures', () => {
    const plan = planPings(cluster(2, 3), 'node1').pings;
    const summary = summarizePings(
      results(plan, (p) => (p.localDevice === 0 ? { status: 'error', problem: 'hccn_tool stayed busy after 5 attempts' } : p.localDevice === 1 ? { status: 'skipped', reason: 'link of dev1 is DOWN' } : ok)),
      [{ localNode: 'node1', localDevice: 5, peerNode: 'node2', peerDevice: 5, reason: 'node2 has no device 5' }],
    );
    expect(summary).toMatchObject({ total: 3, ok: 1, failed: 0, errors: 1, skipped: 2 });
    expect(summary.headline).toBe('1 of 3 could not be assessed: node1 dev0 -> node2 dev0 (198.18.2.10): not assessed: hccn_tool stayed busy after 5 attempts');
    expect(summary.byPeer[0]!.line).toBe('node2: 1 of 4 ok; not assessed dev0; 2 skipped');
    expect(summary.skippedLines).toEqual([
      'node1 dev1 -> node2 dev1 (198.18.2.11): skipped: link of dev1 is DOWN',
      'node1 dev5 -> node2 dev5: not planned: node2 has no device 5',
    ]);
  });
});
