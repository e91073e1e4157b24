import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';
import { ascendFixture } from '../helpers/fixtures.js';
import { NetnsCluster, netnsSupport } from '../helpers/netns-cluster.js';

/**
 * pairs: once over real pings: four A2 nodes of 8 NPUs as network namespaces (each device a
 * namespace with its own RoCE port, a bridge as the switch), the built CLI's `qprep check
 * --cluster` inside every node, then `qprep aggregate` over the reports. With a cable cut, the
 * cluster verdict of pairs: once must be the verdict of pairs: both, and the pairs it names
 * must be the pairs through that cable.
 */

const support = await netnsSupport();
if (!support.ok) console.warn(`skipping the pairs: once network-namespace tests: ${support.reason}`);

const A2_TABLE = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
const NODES = ['node1', 'node2', 'node3', 'node4'];

interface PeersEvidence {
  pairs?: string;
  results: Array<{ localDevice: number; peerNode: string; peerDevice: number; outcome: { status: string } }>;
  peerOwned?: Array<{ peerNode: string; pairs: Array<[number, number]> }>;
}

interface Report {
  ready: boolean;
  cluster: { self: string };
  checks: Array<{ id: string; status: string; message: string; evidence: PeersEvidence }>;
}

interface MatrixPair {
  owner: string;
  ownerDevice: number;
  peer: string;
  peerDevice: number;
  detail: string;
}

interface Aggregate {
  ready: boolean;
  peerPairs?: { nodes: string[]; total: number; ok: number; failed: number; notVerified: number; failing: MatrixPair[]; unverified: MatrixPair[] };
  findings: Array<{ kind: string; severity: string; message: string; nodes: string[] }>;
}

async function qprepOn(harness: NetnsCluster, node: string, args: string[]) {
  const setHostname = 'echo "$0" > /proc/sys/kernel/hostname && exec "$@"';
  return harness.exec(node, ['unshare', '--uts', 'sh', '-c', setHostname, node, process.execPath, join(import.meta.dirname, '..', '..', 'bin', 'qprep.js'), ...args]);
}

/** `qprep check --only hccn.peers` on every node at once; each report saved under dir/<node>.json. */
async function checkEveryNode(harness: NetnsCluster, clusterFile: string, dir: string): Promise<Array<{ node: string; exitCode: number; report: Report }>> {
  mkdirSync(dir, { recursive: true });
  return Promise.all(
    NODES.map(async (node) => {
      const run = await qprepOn(harness, node, ['check', '--cluster', clusterFile, '--root', harness.node(node).rootDir, '--only', 'hccn.peers', '--format', 'json']);
      let report: Report;
      try {
        report = JSON.parse(run.stdout);
      } catch {
        throw new Error(`${node}: no JSON report (exit ${run.exitCode}): ${run.stderr.slice(0, 400)}`);
      }
      writeFileSync(join(dir, `${node}.json`), run.stdout);
      return { node, exitCode: run.exitCode, report };
    }),
  );
}

async function aggregateOf(dir: string, clusterFile?: string): Promise<{ exitCode: number; verdict: Aggregate }> {
  const run = await qprep(['aggregate', dir, ...(clusterFile ? ['--cluster', clusterFile] : []), '--format', 'json']);
  expect([0, 1], run.stderr).toContain(run.exitCode);
  const verdict = JSON.parse(run.stdout) as Aggregate;
  const { valid, errors } = await validateAgainstSchema('aggregate', verdict);
  expect(valid, errors).toBe(true);
  return { exitCode: run.exitCode, verdict };
}

/** `node1:3|node2:3`: an unordered device pair, the node whose name sorts first on the left. */
const unordered = (a: string, ad: number, b: string, bd: number) => (a < b ? `${a}:${ad}|${b}:${bd}` : `${b}:${bd}|${a}:${ad}`);
const peersOf = (report: Report) => report.checks.find((c) => c.id === 'hccn.peers')!;

/** pairs: both: the pairs some node did not get an ok for, from the reports themselves. */
function badPairsOfReports(reports: Report[]): string[] {
  const bad = new Set<string>();
  for (const report of reports) {
    for (const r of peersOf(report).evidence.results) if (r.outcome.status !== 'ok') bad.add(unordered(report.cluster.self, r.localDevice, r.peerNode, r.peerDevice));
  }
  return [...bad].sort();
}

const badPairsOfMatrix = (verdict: Aggregate) =>
  [...verdict.peerPairs!.failing, ...verdict.peerPairs!.unverified].map((p) => unordered(p.owner, p.ownerDevice, p.peer, p.peerDevice)).sort();

describe.skipIf(!support.ok)('pairs: once on four A2 nodes of network namespaces, joined by qprep aggregate', { timeout: 240_000 }, () => {
  let harness: NetnsCluster;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    harness = await NetnsCluster.create({ nodes: NODES.map((name) => ({ name, devices: 8, npuSmi: A2_TABLE })) });
    for (const plan of ['same-index', 'ring'] as const) {
      for (const pairs of ['both', 'once'] as const) {
        const file = join(harness.dir, `cluster-${plan}-${pairs}.yaml`);
        writeFileSync(file, toYaml(harness.clusterDocument({ name: 'netns-a2x4', plan, pairs })));
        files[`${plan}/${pairs}`] = file;
      }
    }
  });

  afterAll(async () => {
    await harness?.destroy();
  });

  it('healthy: every node pings half its same-index pairs; aggregate joins all 48 pairs and the cluster is ready', async () => {
    const dir = join(harness.dir, 'healthy-once');
    const runs = await checkEveryNode(harness, files['same-index/once']!, dir);
    for (const run of runs) {
      expect(run.exitCode, run.node).toBe(0);
      const peers = peersOf(run.report);
      expect(peers.evidence.pairs).toBe('once');
      // 3 peers x 8 devices = 24 pairs: 12 pinged here, 12 by the peers
      expect(peers.evidence.results, run.node).toHaveLength(12);
      expect(peers.evidence.peerOwned!.flatMap((o) => o.pairs), run.node).toHaveLength(12);
      expect(peers.message).toMatch(/^all 12 pings to node\d, node\d, node\d ok \(same-index, RoCE, pairs once: 12 more pinged by the peers\)$/);
    }
    const { exitCode, verdict } = await aggregateOf(dir, files['same-index/once']);
    expect(exitCode).toBe(0);
    expect(verdict.peerPairs).toMatchObject({ nodes: NODES, total: (4 * 3 * 8) / 2, ok: 48, failed: 0, notVerified: 0 });
  });

  for (const plan of ['same-index', 'ring'] as const) {
    it(`${plan}: a cut cable gives pairs: once the verdict of pairs: both, and the same pairs through it`, async () => {
      await harness.setLink('node2', 'roce', 3, false);
      let both: Awaited<ReturnType<typeof checkEveryNode>>;
      let once: Awaited<ReturnType<typeof checkEveryNode>>;
      const bothDir = join(harness.dir, `cut-${plan}-both`);
      const onceDir = join(harness.dir, `cut-${plan}-once`);
      try {
        both = await checkEveryNode(harness, files[`${plan}/both`]!, bothDir);
        once = await checkEveryNode(harness, files[`${plan}/once`]!, onceDir);
      } finally {
        await harness.setLink('node2', 'roce', 3, true);
      }
      const bothVerdict = await aggregateOf(bothDir, files[`${plan}/both`]);
      const onceVerdict = await aggregateOf(onceDir, files[`${plan}/once`]);
      expect([bothVerdict.exitCode, onceVerdict.exitCode]).toEqual([1, 1]);
      expect([bothVerdict.verdict.ready, onceVerdict.verdict.ready]).toEqual([false, false]);

      // the pairs through node2 dev3, whichever end pinged them
      const expected = NODES.filter((n) => n !== 'node2')
        .filter((n) => plan === 'same-index' || n === 'node1' || n === 'node3')
        .map((n) => unordered('node2', 3, n, 3))
        .sort();
      expect(badPairsOfReports(both.map((r) => r.report))).toEqual(expected);
      expect(badPairsOfMatrix(onceVerdict.verdict)).toEqual(expected);
      // a pair pinged by its far end is a real loss; one owned by node2 was not run from its DOWN port
      for (const pair of onceVerdict.verdict.peerPairs!.failing) expect(pair).toMatchObject({ detail: '100% loss' });
      for (const pair of onceVerdict.verdict.peerPairs!.unverified) expect(pair).toMatchObject({ owner: 'node2', detail: 'skipped: local dev3 link is DOWN (hccn.link)' });
      expect(onceVerdict.verdict.findings.filter((f) => f.kind.startsWith('pair-')).length).toBeGreaterThan(0);

      // pairs: once pinged half as much over the cluster (the ring is one-sided already)
      const pings = (runs: typeof both) => runs.reduce((sum, r) => sum + peersOf(r.report).evidence.results.length, 0);
      expect(pings(once)).toBe(plan === 'same-index' ? pings(both) / 2 : pings(both));
    });
  }

  it('a node whose report is missing: the pairs it owns are not verified, the cluster is not ready (pairs: both still is, without --cluster)', async () => {
    const onceDir = join(harness.dir, 'missing-once');
    const bothDir = join(harness.dir, 'missing-both');
    const [onceRuns] = await Promise.all([checkEveryNode(harness, files['same-index/once']!, onceDir)]);
    await checkEveryNode(harness, files['same-index/both']!, bothDir);
    const { rmSync } = await import('node:fs');
    rmSync(join(onceDir, 'node4.json'));
    rmSync(join(bothDir, 'node4.json'));
    const node4Owns = onceRuns.find((r) => r.node === 'node4')!.report;
    const owned = peersOf(node4Owns).evidence.results.length;

    const { exitCode, verdict } = await aggregateOf(onceDir);
    expect(exitCode).toBe(1);
    expect(verdict.peerPairs).toMatchObject({ total: 48, notVerified: owned, failed: 0 });
    expect(verdict.peerPairs!.unverified.every((p) => p.owner === 'node4' && p.detail === 'not verified: node4 has no report')).toBe(true);
    expect(verdict.findings.find((f) => f.kind === 'pair-not-verified')!.message).toMatch(new RegExp(`^${owned} NPU pairs owned by node4 are not verified: node4 has no report: `));
    expect((await aggregateOf(bothDir)).verdict.ready).toBe(true);
    // with the cluster file both say the node is missing
    expect((await aggregateOf(bothDir, files['same-index/both'])).verdict.ready).toBe(false);
  });
});
