import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, validateAgainstSchema } from '../helpers/cli.js';
import { ascendFixture } from '../helpers/fixtures.js';
import { NetnsCluster, netnsSupport } from '../helpers/netns-cluster.js';

/**
 * The multi-node test of the built CLI: three A2 nodes of 8 NPUs as network namespaces (each
 * device a namespace with its own RoCE port, a bridge as the switch), each with a fake npu-smi
 * printing a real A2 table and a fake hccn_tool whose -ping runs the real ping. `qprep check
 * --cluster` runs inside every node namespace, in its own UTS namespace so that each node has
 * its own hostname, as on real machines.
 */

const support = await netnsSupport();
if (!support.ok) console.warn(`skipping the multi-node CLI tests: ${support.reason}`);

const A2_TABLE = ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
const NODES = ['node1', 'node2', 'node3'];
const SELECTION = ['--only', 'hccn,net.host-nic,net.peer-ports'];

interface CheckLine {
  id: string;
  status: string;
  message: string;
  details?: string[];
}

interface NodeRun {
  node: string;
  exitCode: number;
  stderr: string;
  report: { ready: boolean; checks: CheckLine[]; cluster?: { self: string }; facts?: unknown };
}

/** Runs the built CLI inside a node's namespace, with the node's hostname; JSON on stdout. */
async function qprepOn(harness: NetnsCluster, node: string, args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const setHostname = 'echo "$0" > /proc/sys/kernel/hostname && exec "$@"';
  return harness.exec(node, ['unshare', '--uts', 'sh', '-c', setHostname, node, process.execPath, BIN, ...args]);
}

async function checkEveryNode(harness: NetnsCluster, clusterFile: string, extra: string[] = SELECTION): Promise<NodeRun[]> {
  return Promise.all(
    NODES.map(async (node) => {
      const run = await qprepOn(harness, node, ['check', '--cluster', clusterFile, '--root', harness.node(node).rootDir, ...extra, '--format', 'json']);
      let report: NodeRun['report'];
      try {
        report = JSON.parse(run.stdout);
      } catch {
        throw new Error(`${node}: no JSON report (exit ${run.exitCode}): ${run.stderr.slice(0, 400)}`);
      }
      return { node, exitCode: run.exitCode, stderr: run.stderr, report };
    }),
  );
}

const statusesOf = (run: NodeRun) => Object.fromEntries(run.report.checks.map((c) => [c.id, c.status]));
const checkOf = (run: NodeRun, id: string) => run.report.checks.find((c) => c.id === id)!;
/** The report lines that name a failing pair: `node1 dev3 -> node2 dev3 (198.18.2.13): 100% loss`. */
const failingPairs = (runs: NodeRun[]) =>
  runs
    .flatMap((run) => checkOf(run, 'hccn.peers').details ?? [])
    .filter((line) => /^\S+ dev\d+ -> \S+ dev\d+ \([\d.]+\): [\d.]+% loss$/.test(line))
    .sort();

describe.skipIf(!support.ok)('qprep check --cluster on three A2 nodes of network namespaces', { timeout: 180_000 }, () => {
  let harness: NetnsCluster;
  let clusterFile: string;

  beforeAll(async () => {
    harness = await NetnsCluster.create({ nodes: NODES.map((name) => ({ name, devices: 8, npuSmi: A2_TABLE })) });
    const document = harness.clusterDocument({ name: 'netns-a2x3', master: 'node1', ports: [{ port: 13389, name: 'dp-rpc' }, { port: 29500, name: 'master', on: 'all' }] });
    for (const node of document.nodes as Array<Record<string, unknown>>) node.ifname = 'eth0';
    clusterFile = join(harness.dir, 'cluster.yaml');
    writeFileSync(clusterFile, toYaml(document));
  });

  afterAll(async () => {
    await harness?.destroy();
  });

  it('every node passes every HCCN and host-network check (A2: no super pod) and exits 0', async () => {
    const runs = await checkEveryNode(harness, clusterFile);
    for (const run of runs) {
      const statuses = statusesOf(run);
      expect(run.exitCode, `${run.node}: ${run.stderr}`).toBe(0);
      expect(run.report.cluster?.self).toBe(run.node);
      expect(Object.entries(statuses).filter(([id, status]) => status !== 'pass' && id !== 'hccn.spod'), run.node).toEqual([]);
      expect(statuses['hccn.spod']).toBe('skip');
      expect(checkOf(run, 'hccn.peers').message).toBe(`all 16 pings to ${NODES.filter((n) => n !== run.node).join(', ')} ok (same-index, RoCE)`);
    }
    const { valid, errors } = await validateAgainstSchema('report', runs[0]!.report);
    expect(valid, errors).toBe(true);
  });

  it('a cut cable fails exactly the pairs through it, on every node that pings it, with exit code 1', async () => {
    await harness.setLink('node2', 'roce', 3, false);
    let runs: NodeRun[];
    try {
      runs = await checkEveryNode(harness, clusterFile);
    } finally {
      await harness.setLink('node2', 'roce', 3, true);
    }
    expect(runs.map((r) => [r.node, r.exitCode])).toEqual([
      ['node1', 1],
      ['node2', 1],
      ['node3', 1],
    ]);
    expect(failingPairs(runs)).toEqual(['node1 dev3 -> node2 dev3 (198.18.2.13): 100% loss', 'node3 dev3 -> node2 dev3 (198.18.2.13): 100% loss']);
    const [node1, node2, node3] = runs;
    expect(checkOf(node1!, 'hccn.peers').message).toBe('1 of 16 pings failed: node1 dev3 -> node2 dev3 (198.18.2.13): 100% loss');
    expect(checkOf(node3!, 'hccn.peers').status).toBe('fail');
    // node2's own dev3 is DOWN: it is not pinged from, and hccn.link names it
    expect(checkOf(node2!, 'hccn.link')).toMatchObject({ status: 'fail', message: '1 of 8 NPU ports not UP: dev3 DOWN' });
    expect(checkOf(node2!, 'hccn.peers').message).toBe('2 of 16 pings not run (local dev3 link is DOWN (hccn.link))');
    expect(checkOf(node2!, 'hccn.peers').details).toEqual(
      expect.arrayContaining(['node2 dev3 -> node1 dev3 (198.18.1.13): skipped: local dev3 link is DOWN (hccn.link)', 'node2 dev3 -> node3 dev3 (198.18.3.13): skipped: local dev3 link is DOWN (hccn.link)']),
    );
    for (const run of runs) {
      const others = Object.entries(statusesOf(run)).filter(([id, status]) => status !== 'pass' && !['hccn.spod', 'hccn.peers', 'hccn.link'].includes(id));
      expect(others, run.node).toEqual([]);
    }
    expect(statusesOf(node1!)['hccn.link']).toBe('pass');
  });

  it('TLS from the facts of every node: the same switch passes; one node with TLS on is caught on every node', async () => {
    const gather = async () => {
      const documents = await Promise.all(NODES.map(async (node) => JSON.parse((await qprepOn(harness, node, ['facts', '--root', harness.node(node).rootDir])).stdout)));
      const file = join(harness.dir, `facts-${Date.now()}.json`);
      writeFileSync(file, JSON.stringify(documents));
      return { documents, file };
    };
    const before = await gather();
    expect(before.documents.map((f: { hostname: string; devices: unknown[] }) => [f.hostname, f.devices.length])).toEqual(NODES.map((n) => [n, 8]));
    expect(before.documents[1].devices[3]).toEqual({ device: 3, ip: '198.18.2.13', netmask: '255.255.0.0', tls: false });
    const same = await checkEveryNode(harness, before.file, ['--only', 'hccn.tls']);
    expect(same.map((r) => [r.node, r.exitCode, checkOf(r, 'hccn.tls').message])).toEqual(
      NODES.map((n) => [n, 0, 'the TLS switch is 0 on all 8 devices and on the 2 peers whose facts carry it']),
    );

    const on = 'dev_id:DEV, tls switch[1](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), tls alarm time threshold[60]days\n';
    for (let device = 0; device < 8; device++) harness.setAnswer('node3', device, 'tls', on.replace('DEV', String(device)));
    try {
      const after = await gather();
      const runs = await checkEveryNode(harness, after.file, ['--only', 'hccn.tls']);
      expect(runs.map((r) => [r.node, r.exitCode, checkOf(r, 'hccn.tls').status])).toEqual(NODES.map((n) => [n, 1, 'fail']));
      expect(checkOf(runs[0]!, 'hccn.tls').message).toBe('the TLS switch is 0 here but node3 has 1: devices with TLS on and off cannot link');
      expect(checkOf(runs[2]!, 'hccn.tls').message).toBe('the TLS switch is 1 here but node1 has 0, node2 has 0: devices with TLS on and off cannot link');
    } finally {
      for (let device = 0; device < 8; device++) {
        harness.setAnswer('node3', device, 'tls', on.replace('DEV', String(device)).replace('switch[1]', 'switch[0]'));
      }
    }
  });
});
