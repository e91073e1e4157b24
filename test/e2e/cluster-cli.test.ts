import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'qprep-cluster-'));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const CLUSTER = `
name: lab-a2
plan: same-index
master: node1
ports: [13389, {port: 6379, name: ray, on: all}]
nodes:
  - name: node1
    host: 198.19.0.11
    devices: [{device: 0, ip: 198.18.1.10}, {device: 1, ip: 198.18.1.11}]
  - name: node2
    host: 198.19.0.12
    devices: [{device: 0, ip: 198.18.2.10}, {device: 1, ip: 198.18.2.11}]
`;

describe('qprep check --cluster', () => {
  it('records the cluster and this node in the report (valid against the report schema)', async () => {
    const cluster = file('ok.yaml', CLUSTER);
    const run = await qprep(['check', '--cluster', cluster, '--node', 'node2', '--only', 'net.proxy', '--format', 'json']);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.cluster).toEqual({
      file: cluster,
      name: 'lab-a2',
      self: 'node2',
      matchedBy: 'node-option',
      evidence: '--node node2',
      nodes: ['node1', 'node2'],
      plan: 'same-index',
      pairs: 'both',
    });
    const { valid, errors } = await validateAgainstSchema('report', report);
    expect(valid, errors).toBe(true);
  });

  it('says in the human report which node this is and how it knew', async () => {
    const run = await qprep(['check', '--cluster', file('ok2.yaml', CLUSTER), '--node', 'node1', '--only', 'net.proxy']);
    expect(run.stdout).toContain(`cluster ${join(dir, 'ok2.yaml')}: node1, one of 2 nodes (found by --node node1) · plan same-index`);
  });

  it('an invalid cluster file is exit 2 with one line naming the file and the problem, before any check runs', async () => {
    const cases: Array<[string, string, string]> = [
      ['dup-name.yaml', CLUSTER.replace('name: node2', 'name: node1'), 'nodes.1.name: duplicate node name "node1" (also entry 0)'],
      ['dup-ip.yaml', CLUSTER.replace('198.18.2.11', '198.18.1.11'), 'nodes.1.devices.1.ip: duplicate device IP 198.18.1.11: node2 dev1 and node1 dev1'],
      ['not-ip.yaml', CLUSTER.replace('198.18.2.11', '"1.2.3.4; rm -rf /"'), 'nodes.1.devices.1.ip: expected an IPv4 address such as 198.18.1.10 (no leading zeros), got "1.2.3.4; rm -rf /"'],
      ['bad-yaml.yaml', 'nodes: [', 'not valid YAML or JSON'],
    ];
    for (const [name, content, problem] of cases) {
      const path = file(name, content);
      const run = await qprep(['check', '--cluster', path, '--format', 'json']);
      expect(run.exitCode, name).toBe(2);
      const lines = run.stderr.trim().split('\n');
      expect(lines, name).toHaveLength(1);
      expect(lines[0], name).toContain(`qprep: error: invalid cluster ${path}: ${problem}`);
      const document = JSON.parse(run.stdout);
      expect(document.error.code).toBe('invalid-cluster');
    }
  });

  it('a node that cannot find itself is exit 2 naming the hostname and addresses it tried', async () => {
    const run = await qprep(['check', '--cluster', file('stranger.yaml', CLUSTER)]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/^qprep: error: invalid cluster .*stranger\.yaml: this host \(hostname .*\) is none of its nodes \(node1, node2\); add it, fix its host address, or pass --node NAME\n$/);
  });

  it('a missing file, --node without --cluster, a bad --hccn-concurrency: exit 2', async () => {
    expect((await qprep(['check', '--cluster', join(dir, 'absent.yaml')])).stderr).toBe(`qprep: error: cannot read cluster ${join(dir, 'absent.yaml')}: no such file\n`);
    expect((await qprep(['check', '--node', 'node1'])).stderr).toBe('qprep: error: --node needs --cluster FILE\n');
    const bad = await qprep(['check', '--hccn-concurrency', 'two']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe('qprep: error: --hccn-concurrency expects a positive integer, got "two"\n');
  });

  it('accepts --hccn-concurrency and a JSON array of facts documents', async () => {
    const facts = [1, 2].map((n) => ({ schemaVersion: 1, hostname: `node${n}`, hostAddresses: [`198.19.0.1${n}`], family: 'a2', devices: [{ device: 0, ip: `198.18.${n}.10` }] }));
    const run = await qprep(['check', '--cluster', file('facts.json', JSON.stringify(facts)), '--node', 'node1', '--hccn-concurrency', '2', '--only', 'net.proxy', '--format', 'json']);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout).cluster.nodes).toEqual(['node1', 'node2']);
  });

  it('snapshot takes --cluster too, and the replay finds the same node', async () => {
    const cluster = file('snap.yaml', CLUSTER);
    const snapshot = join(dir, 'snap.json');
    expect((await qprep(['snapshot', '-o', snapshot, '--cluster', cluster, '--node', 'node1', '--only', 'net.proxy'])).exitCode).toBe(0);
    const replay = await qprep(['check', '--snapshot', snapshot, '--cluster', cluster, '--node', 'node1', '--only', 'net.proxy', '--format', 'json']);
    expect(JSON.parse(replay.stdout).cluster.self).toBe('node1');
  });
});

describe('qprep schema cluster', () => {
  it('validates the README example and a facts array, and rejects a bad address', async () => {
    const doc = parseYaml(CLUSTER);
    expect((await validateAgainstSchema('cluster', doc)).valid).toBe(true);
    expect((await validateAgainstSchema('cluster', [{ hostname: 'n1', hostAddresses: ['198.19.0.1'], devices: [{ device: 0, ip: '198.18.1.10' }], extra: 1 }])).valid).toBe(true);
    doc.nodes[0].devices[0].ip = '1.2.3.4; rm -rf /';
    expect((await validateAgainstSchema('cluster', doc)).valid).toBe(false);
  });
});
