import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateSelf, parseClusterText } from '../../src/cluster/load.js';
import { describeResult, summarizePings } from '../../src/cluster/ping-summary.js';
import { planPings, type PlannedPing } from '../../src/cluster/plan.js';
import type { Cluster } from '../../src/cluster/schema.js';
import { createContext } from '../../src/core/runner.js';
import { DEFAULT_TOOL_LIMITS, LimitedHost } from '../../src/host/limited.js';
import type { CheckContext } from '../../src/core/types.js';
import { hccnIp, hccnLink, hccnTls, hccnVnic, runHccnTool, runPings, type PingRun } from '../../src/probes/hccn.js';
import { BIN } from '../helpers/cli.js';
import { NetnsCluster, netnsSupport, sweepLeftovers, withCluster } from '../helpers/netns-cluster.js';
import { profileWith } from '../helpers/run-check.js';

const support = await netnsSupport();
if (!support.ok) console.warn(`skipping the network-namespace cluster tests: ${support.reason}`);

/** A check context on one harness node: its commands run in its namespace, hccn_tool limited as in qprep. */
function contextFor(harness: NetnsCluster, node: string, hccnConcurrency = 1, profile = profileWith()): CheckContext {
  const host = new LimitedHost(harness.hostFor(node), 8, { ...DEFAULT_TOOL_LIMITS, hccn_tool: hccnConcurrency });
  return createContext({ host, profile, timeoutMs: 10_000 });
}

/** Every node runs its own plan, all nodes at once, as a cluster-wide qprep run would. */
async function pingEverything(harness: NetnsCluster, cluster: Cluster, plan: 'same-index' | 'full-mesh' = 'same-index') {
  const perNode = await Promise.all(
    harness.nodes.map(async (node) => {
      const ctx = contextFor(harness, node.name);
      const planned = planPings(cluster, node.name, { plan });
      const runs = await runPings(ctx, planned.pings);
      return { node: node.name, runs, summary: summarizePings(runs, planned.unplanned) };
    }),
  );
  const all: PingRun[] = perNode.flatMap((n) => n.runs);
  return { perNode, all };
}

const key = (p: PlannedPing) => `${p.localNode} dev${p.localDevice} -> ${p.peerNode} dev${p.peerDevice}`;

describe.skipIf(!support.ok)('a 3-node cluster of network namespaces with a fake hccn_tool', () => {
  let harness: NetnsCluster;
  let cluster: Cluster;

  beforeAll(async () => {
    harness = await NetnsCluster.create({
      nodes: [{ name: 'node1' }, { name: 'node2' }, { name: 'node3', tls: 1 }],
    });
    cluster = parseClusterText(JSON.stringify(harness.clusterDocument()), harness.writeClusterFile());
  });

  afterAll(async () => {
    await harness?.destroy();
  });

  it('answers from the per-node fixture tree, inside the node, through the probe and the parsers', async () => {
    const ctx = contextFor(harness, 'node2');
    const ip = await hccnIp(ctx, 1);
    expect(ip.ok && ip.value.entries).toEqual([{ address: '198.18.2.11', netmask: '255.255.0.0' }]);
    const link = await hccnLink(ctx, 0);
    expect(link.ok && link.value.entries).toEqual([{ status: 'UP', up: true, vnic: false }]);
    const missing = await runHccnTool(ctx, 7, ['-ip', '-g']);
    expect(missing.ok && missing.result.stdout).toBe('Device id is invalid: 7\n');
  });

  it('the TLS answers can differ per node: node3 has its switch on', async () => {
    const switches = await Promise.all(
      harness.nodes.flatMap((node) =>
        node.devices.map(async (d) => {
          const tls = await hccnTls(contextFor(harness, node.name), d.device);
          return `${node.name}:${d.device}=${tls.ok ? tls.value.entries[0]!.switch : tls.problem}`;
        }),
      ),
    );
    expect(switches).toEqual(['node1:0=0', 'node1:1=0', 'node2:0=0', 'node2:1=0', 'node3:0=1', 'node3:1=1']);
  });

  it('every node finds itself by the address of its host NIC', async () => {
    for (const node of harness.nodes) {
      const found = await locateSelf(cluster, harness.hostFor(node.name), 'cluster.yaml');
      expect(found).toMatchObject({ self: { name: node.name }, matchedBy: 'address', evidence: `${node.hostAddress} on eth0` });
    }
  });

  it('the built CLI run inside a node namespace finds that node in the cluster file', async () => {
    const file = harness.writeClusterFile({ name: 'netns-lab' }, 'cli-cluster.yaml');
    const run = await harness.exec('node3', [process.execPath, BIN, 'check', '--cluster', file, '--only', 'net.proxy', '--format', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).cluster).toMatchObject({ self: 'node3', matchedBy: 'address', evidence: '198.19.0.13 on eth0', name: 'netns-lab' });
  });

  it('every planned ping of every node passes, one hccn_tool call at a time per node (never busy)', async () => {
    const { perNode, all } = await pingEverything(harness, cluster);
    expect(all).toHaveLength(12);
    expect(all.filter((r) => r.outcome.status !== 'ok').map((r) => describeResult(r))).toEqual([]);
    expect(all.map((r) => r.attempts)).toEqual(all.map(() => 1));
    expect(perNode.map((n) => n.summary.headline)).toEqual(['all 4 pings ok', 'all 4 pings ok', 'all 4 pings ok']);
    expect(perNode[0]!.summary.byPeer.map((p) => p.line)).toEqual(['node2: 2 of 2 ok', 'node3: 2 of 2 ok']);
  });

  it('cutting one RoCE cable fails exactly the pairs through it, -link -g says DOWN, and restoring it heals all', async () => {
    await harness.setLink('node2', 'roce', 1, false);
    try {
      const link = await hccnLink(contextFor(harness, 'node2'), 1);
      expect(link.ok && link.value.entries[0]).toEqual({ status: 'DOWN', up: false, vnic: false });

      const { perNode, all } = await pingEverything(harness, cluster, 'full-mesh');
      expect(all).toHaveLength(24);
      const failing = all.filter((r) => r.outcome.status !== 'ok').map((r) => key(r.ping)).sort();
      const expected = all
        .map((r) => r.ping)
        .filter((p) => (p.localNode === 'node2' && p.localDevice === 1) || (p.peerNode === 'node2' && p.peerDevice === 1))
        .map(key)
        .sort();
      expect(expected).toHaveLength(8);
      expect(failing).toEqual(expected);
      for (const result of all.filter((r) => r.outcome.status !== 'ok')) expect(result.outcome).toMatchObject({ status: 'loss', lossPercent: 100 });

      const node1 = perNode.find((n) => n.node === 'node1')!.summary;
      expect(node1.failures).toEqual(['node1 dev0 -> node2 dev1 (198.18.2.11): 100% loss', 'node1 dev1 -> node2 dev1 (198.18.2.11): 100% loss']);
      expect(node1.diagnoses).toEqual(['node2 dev1 answered none of the 2 local devices that pinged it: check that device on node2']);
      const node2 = perNode.find((n) => n.node === 'node2')!.summary;
      expect(node2.diagnoses[0]).toBe('node2 dev1 reached none of its 4 peer devices: check its link, cable and address (hccn_tool -i 1 -link -g; hccn_tool -i 1 -ip -g)');
    } finally {
      await harness.setLink('node2', 'roce', 1, true);
    }
    const healed = await pingEverything(harness, cluster);
    expect(healed.all.filter((r) => r.outcome.status !== 'ok').map((r) => describeResult(r))).toEqual([]);
  });

  it('a node whose host NIC is cut still pings over its NPU ports: the planes are separate', async () => {
    await harness.setLink('node1', 'host', null, false);
    try {
      const { all } = await pingEverything(harness, cluster);
      expect(all.filter((r) => r.outcome.status !== 'ok').map((r) => describeResult(r))).toEqual([]);
    } finally {
      await harness.setLink('node1', 'host', null, true);
    }
  });

  it('busy: a held tool lock exhausts the bounded retries; once released the call goes through', async () => {
    const release = harness.holdToolLock('node1');
    let busy;
    try {
      busy = await runHccnTool(contextFor(harness, 'node1', 1, profileWith({ hccn: { busyRetries: 2 } })), 0, ['-ip', '-g']);
    } finally {
      release();
    }
    expect(busy).toMatchObject({ ok: false, kind: 'busy', attempts: 3 });
    const after = await hccnIp(contextFor(harness, 'node1'), 0);
    expect(after).toMatchObject({ ok: true, attempts: 1 });
  });

  it('busy: with the limit raised to 4, four overlapping calls collide in the tool and the retries get every answer', async () => {
    // Four calls of ~0.3 s each fit well within the retry budget (3.1 s); many more would not:
    // raising the limit makes qprep compete with itself, which is why it defaults to 1.
    const ctx = contextFor(harness, 'node2', 4);
    const planned = planPings(cluster, 'node2').pings;
    const runs = await runPings(ctx, planned);
    expect(runs.filter((r) => r.outcome.status !== 'ok').map((r) => describeResult(r))).toEqual([]);
    expect(runs).toHaveLength(4);
    // the calls did overlap: some were answered "busy" first and got through on a retry
    expect(Math.max(...runs.map((r) => r.attempts))).toBeGreaterThan(1);
  });
});

describe.skipIf(!support.ok)('an A3 cluster: two nodes in one super pod, one outside', () => {
  it('pings the vNICs with -hccs_ping inside the pod and the RoCE ports across; a cut vNIC fails only its HCCS pairs', async () => {
    await withCluster(
      { nodes: [{ name: 'a3n1', superPod: 7 }, { name: 'a3n2', superPod: 7 }, { name: 'a3n3', superPod: 8 }] },
      async (harness) => {
        const cluster = parseClusterText(JSON.stringify(harness.clusterDocument({ family: 'a3' })), 'a3.yaml');
        const vnic = await hccnVnic(contextFor(harness, 'a3n2'), 1);
        expect(vnic.ok && vnic.value.entries).toEqual([{ linkStatus: 'UP', address: '198.19.130.11', netmask: '255.255.128.0' }]);

        const methods = planPings(cluster, 'a3n1').pings.map((p) => `${p.peerNode}:${p.method}:${p.address}`);
        expect(methods).toEqual(['a3n2:hccs:198.19.130.10', 'a3n2:hccs:198.19.130.11', 'a3n3:roce:198.18.3.10', 'a3n3:roce:198.18.3.11']);
        expect((await pingEverything(harness, cluster)).all.filter((r) => r.outcome.status !== 'ok').map((r) => describeResult(r))).toEqual([]);

        await harness.setLink('a3n2', 'vnic', 0, false);
        const { all } = await pingEverything(harness, cluster);
        expect(all.filter((r) => r.outcome.status !== 'ok').map((r) => `${key(r.ping)} ${r.ping.method}`).sort()).toEqual([
          'a3n1 dev0 -> a3n2 dev0 hccs',
          'a3n2 dev0 -> a3n1 dev0 hccs',
        ]);
      },
    );
  });
});

describe.skipIf(!support.ok)('tear-down', () => {
  it('removes every namespace and cable, also when the test body throws', async () => {
    let id = '';
    await expect(
      withCluster({ nodes: [{ name: 'x1', devices: 1 }, { name: 'x2', devices: 1 }] }, async (harness) => {
        id = harness.id;
        expect(await harness.remaining()).toHaveLength(5);
        throw new Error('the test failed half-way');
      }),
    ).rejects.toThrow('the test failed half-way');
    const { execFileSync } = await import('node:child_process');
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })).not.toContain(id);
  });

  it('sweeps namespaces that a dead test process left behind, and nothing of a live one', async () => {
    const { execFileSync } = await import('node:child_process');
    // pid 2^22 + 1 is above the kernel's pid_max: no process can have it
    const stale = `qp4194305xdead-n1`;
    const live = `qp${process.pid}xlive-n1`;
    execFileSync('ip', ['netns', 'add', stale]);
    execFileSync('ip', ['netns', 'add', live]);
    try {
      const removed = await sweepLeftovers();
      expect(removed).toContain(stale);
      expect(removed).not.toContain(live);
    } finally {
      execFileSync('ip', ['netns', 'del', live]);
    }
  });
});
