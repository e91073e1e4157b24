import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';
import { ascendFixture } from '../helpers/fixtures.js';
import { NetnsCluster, netnsSupport } from '../helpers/netns-cluster.js';

/**
 * plan: rolling over real pings: four A2 nodes of 8 NPUs as network namespaces, the built CLI's
 * one-shot `qprep check --cluster` in every node, then `qprep aggregate`. With a budget that
 * holds the whole pool (M = 1) a one-shot run proves the matrix, and a cut cable fails the
 * pairs through it; with a smaller budget a one-shot run warns of partial coverage and
 * aggregate counts the pairs it did not ping as never proven: not ready, never a false green.
 */

const support = await netnsSupport();
if (!support.ok) console.warn(`skipping the plan: rolling network-namespace tests: ${support.reason}`);

const A2_TABLE = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
const NODES = ['node1', 'node2', 'node3', 'node4'];

interface PeersEvidence {
  pairs?: string;
  rolling?: { rotations: number; coverage: { total: number; ok: number; never: number; failed: number } };
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
  peerPairs?: { rolling?: { never: number }; nodes: string[]; total: number; ok: number; failed: number; notVerified: number; failing: MatrixPair[]; unverified: MatrixPair[] };
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

const badPairsOfMatrix = (verdict: Aggregate) =>
  [...verdict.peerPairs!.failing, ...verdict.peerPairs!.unverified].map((p) => unordered(p.owner, p.ownerDevice, p.peer, p.peerDevice)).sort();

describe.skipIf(!support.ok)('plan: rolling on four A2 nodes of network namespaces', { timeout: 240_000 }, () => {
  let harness: NetnsCluster;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    harness = await NetnsCluster.create({ nodes: NODES.map((name) => ({ name, devices: 8, npuSmi: A2_TABLE })) });
    // pairs: once, ring k 1: each node owns 4 pairs to each neighbour and 4 pool pairs (the node opposite)
    for (const rollingK of [4, 2]) {
      const file = join(harness.dir, `cluster-rolling-${rollingK}.yaml`);
      writeFileSync(file, toYaml(harness.clusterDocument({ name: 'netns-a2x4', plan: 'rolling', pairs: 'once', rollingK })));
      files[rollingK] = file;
    }
  });

  afterAll(async () => {
    await harness?.destroy();
  });

  it('a budget that holds the pool: one run proves all 48 pairs; a cut cable fails the pairs through it', async () => {
    const dir = join(harness.dir, 'rolling-full');
    const runs = await checkEveryNode(harness, files[4]!, dir);
    for (const run of runs) {
      expect(run.exitCode, run.node).toBe(0);
      const peers = peersOf(run.report);
      expect(peers.status, peers.message).toBe('pass');
      expect(peers.evidence.rolling).toMatchObject({ rotations: 1, coverage: { total: 12, ok: 12, never: 0 } });
    }
    const healthy = await aggregateOf(dir, files[4]);
    expect(healthy.exitCode).toBe(0);
    expect(healthy.verdict.peerPairs).toMatchObject({ total: 48, ok: 48, notVerified: 0, failed: 0 });

    await harness.setLink('node2', 'roce', 3, false);
    const cutDir = join(harness.dir, 'rolling-cut');
    try {
      await checkEveryNode(harness, files[4]!, cutDir);
    } finally {
      await harness.setLink('node2', 'roce', 3, true);
    }
    const cut = await aggregateOf(cutDir, files[4]);
    expect(cut.exitCode).toBe(1);
    const expected = ['node1', 'node3', 'node4'].map((n) => unordered('node2', 3, n, 3)).sort();
    expect(badPairsOfMatrix(cut.verdict)).toEqual(expected);
  });

  it('a smaller budget: a one-shot run warns of partial coverage, and aggregate is not ready', async () => {
    const dir = join(harness.dir, 'rolling-partial');
    const runs = await checkEveryNode(harness, files[2]!, dir);
    for (const run of runs) {
      const peers = peersOf(run.report);
      expect(peers.status, peers.message).toBe('warn');
      expect(peers.message).toMatch(/partial coverage: a one-shot run pings one rotation/);
      expect(peers.evidence.rolling).toMatchObject({ rotations: 2, coverage: { total: 12, ok: 10, never: 2 } });
    }
    const { exitCode, verdict } = await aggregateOf(dir, files[2]);
    expect(exitCode).toBe(1);
    expect(verdict.ready).toBe(false);
    expect(verdict.peerPairs).toMatchObject({ total: 48, ok: 40, notVerified: 8, rolling: { never: 8 } });
  });
});
