import { execa } from 'execa';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ansiblePlaybook, type PlayRun } from '../helpers/ansible.js';
import { REPO, validateAgainstSchema } from '../helpers/cli.js';
import { ANSIBLE_PLAYBOOK, hasTool } from '../helpers/tools.js';
import { writeUntunedTree } from '../helpers/untuned-tree.js';

const PLAYBOOKS = join(REPO, 'examples', 'ansible');
const PROFILE = 'qwen3.5-397b-w8a8-a2';
/** Three nodes of one cluster: the demo snapshots of two healthy A2 and a broken one. */
const NODES = { 'a2-node1': 'a2-healthy', 'a2-node3': 'a2-healthy-node3', 'a2-node7': 'a2-broken' } as const;

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-${prefix}-`));
}

/** A YAML inventory (JSON is YAML) of hosts that Ansible reaches with the local connection. */
function inventory(work: string, hosts: Record<string, Record<string, unknown>>): string {
  const file = join(work, 'inventory.yml');
  writeFileSync(file, JSON.stringify({ all: { children: { npu_nodes: { vars: { ansible_connection: 'local' }, hosts } } } }, null, 2));
  return file;
}

function extraVars(work: string, vars: Record<string, unknown>): string {
  const file = join(work, 'extra-vars.json');
  writeFileSync(file, JSON.stringify(vars));
  return `@${file}`;
}

function taskStatuses(run: PlayRun, task: string): Record<string, string> {
  const statuses = run.tasks.get(`qprep : ${task}`);
  if (!statuses) throw new Error(`no task "${task}" ran; tasks: ${[...run.tasks.keys()].join(' | ')}\n${run.output}`);
  return Object.fromEntries(statuses);
}

/** Every regular file of a tree with its bytes, for byte-for-byte comparisons. */
function treeState(root: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (lstatSync(path).isDirectory()) walk(path);
      else state[relative(root, path)] = readFileSync(path).toString('base64');
    }
  };
  walk(root);
  return state;
}

/** The fresh-install host of test/helpers/untuned-tree.ts, as openEuler 22.03 LTS-SP4. */
function untunedTree(root: string): void {
  writeUntunedTree(root, { 'etc/os-release': 'ID=openEuler\nPRETTY_NAME="openEuler 22.03 (LTS-SP4)"\n' });
}

describe.skipIf(!hasTool(ANSIBLE_PLAYBOOK, 'ansible-core'))('examples/ansible with the real ansible-playbook, three hosts on the local connection', () => {
  let bundle: string;

  beforeAll(async () => {
    bundle = join(tmp('ansible-bundle'), 'qprep.mjs');
    await execa(process.execPath, [join(REPO, 'scripts', 'bundle.mjs'), '--outfile', bundle], { cwd: REPO });
  });

  it('preflight: the broken node fails naming its failing checks, the healthy ones pass, the controller holds the cluster verdict; a second run changes nothing', async () => {
    const work = tmp('ansible-preflight');
    const controller = join(work, 'controller');
    const hosts = Object.fromEntries(
      Object.entries(NODES).map(([node, demo]) => [
        node,
        {
          qprep_host_args: ['--snapshot', join(REPO, 'examples', 'snapshots', `${demo}.json`)],
          qprep_install_dir: join(work, node, 'opt'),
          qprep_state_dir: join(work, node, 'state'),
        },
      ]),
    );
    const args = [
      '-i',
      inventory(work, hosts),
      join(PLAYBOOKS, 'preflight.yml'),
      '-e',
      extraVars(work, {
        qprep_bundle: bundle,
        qprep_profile: PROFILE,
        qprep_node_executable: process.execPath,
        qprep_controller_node_executable: process.execPath,
        qprep_controller_dir: controller,
      }),
    ];

    const run = await ansiblePlaybook(args, work);
    expect(run.exitCode, run.output).toBe(2);
    expect(Object.fromEntries([...run.recap].map(([host, r]) => [host, r.failed]))).toEqual({ 'a2-node1': 0, 'a2-node3': 0, 'a2-node7': 1, localhost: 1 });
    expect(taskStatuses(run, 'Copy the single-file qprep to the node')).toEqual({ 'a2-node1': 'changed', 'a2-node3': 'changed', 'a2-node7': 'changed' });
    expect(taskStatuses(run, 'Run qprep check as a node of the cluster')).toEqual({ 'a2-node1': 'ok', 'a2-node3': 'ok', 'a2-node7': 'ok' });
    expect(taskStatuses(run, 'Fail the nodes that are not ready, naming their failing checks')).toEqual({ 'a2-node1': 'skipping', 'a2-node3': 'skipping', 'a2-node7': 'fatal', localhost: 'skipping' });
    for (const node of Object.keys(NODES)) expect(readFileSync(join(work, node, 'opt', 'qprep.mjs')).equals(readFileSync(bundle)), node).toBe(true);

    // the broken node's failure names each failing check with its message, as its report has them
    const broken = JSON.parse(readFileSync(join(controller, 'reports', 'a2-node7.json'), 'utf8'));
    const failing = broken.checks.filter((c: { id: string }) => broken.blocking.includes(c.id)).map((c: { id: string; message: string }) => `${c.id}: ${c.message}`);
    expect(run.failures.get('a2-node7')).toBe(`a2-node7 is not ready (4 failing): ${failing.join('; ')}`);
    expect(run.failures.get('a2-node7')).toContain('npu.idle: 1 of 8 NPU devices in use: NPU 0: pid 485946 pytest (5175 MB)');
    expect(run.failures.get('localhost')).toBe(
      'the cluster is not ready: a2-node7 is not ready: npu.driver-files, npu.health, npu.ecc, npu.idle; ' +
        'driver version differs on a2-node7: 26.1.0; the other 2 nodes have 25.5.1; ' +
        `npu-smi version differs on a2-node7: 26.1.0; the other 2 nodes have 25.5.1 (details: ${controller}/aggregate.txt)`,
    );

    // the cluster file: the gathered facts of the three nodes with the role's plan and ports, the same on the controller and the nodes
    const cluster = readFileSync(join(controller, 'cluster.json'), 'utf8');
    expect(JSON.parse(cluster)).toMatchObject({ plan: 'same-index', ringK: 1, ports: [] });
    expect(JSON.parse(cluster).facts.map((n: { hostname: string; hostAddresses: string[] }) => [n.hostname, n.hostAddresses])).toEqual([
      ['a2-node1', ['10.20.0.11']],
      ['a2-node3', ['10.20.0.13']],
      ['a2-node7', ['10.20.0.17']],
    ]);
    for (const node of Object.keys(NODES)) expect(readFileSync(join(work, node, 'state', 'cluster.json'), 'utf8')).toBe(cluster);

    // every report fetched: each node found itself in the cluster file by its address
    expect(readdirSync(join(controller, 'reports')).sort()).toEqual(['a2-node1.json', 'a2-node3.json', 'a2-node7.json']);
    for (const node of Object.keys(NODES)) {
      const report = JSON.parse(readFileSync(join(controller, 'reports', `${node}.json`), 'utf8'));
      expect(report.cluster, node).toMatchObject({ self: node, matchedBy: 'address', nodes: Object.keys(NODES) });
      expect(report.ready, node).toBe(node !== 'a2-node7');
    }

    // the cluster verdict on the controller
    const verdict = JSON.parse(readFileSync(join(controller, 'aggregate.json'), 'utf8'));
    const { valid, errors } = await validateAgainstSchema('aggregate', verdict);
    expect(valid, errors).toBe(true);
    expect(verdict).toMatchObject({ ready: false, maxAgeSeconds: 1800, cluster: { nodes: ['a2-node1', 'a2-node3', 'a2-node7'] }, missing: [], unexpected: [] });
    expect(verdict.nodes.map((n: { name: string; verdict: string }) => [n.name, n.verdict])).toEqual([
      ['a2-node1', 'ready'],
      ['a2-node3', 'ready'],
      ['a2-node7', 'not-ready'],
    ]);
    expect(verdict.drift.map((d: { field: string; odd: unknown }) => [d.field, d.odd])).toEqual([
      ['driver', [{ node: 'a2-node7', value: '26.1.0' }]],
      ['npuSmi', [{ node: 'a2-node7', value: '26.1.0' }]],
    ]);
    const table = readFileSync(join(controller, 'aggregate.txt'), 'utf8');
    expect(table.trimEnd().split('\n').at(-1)).toBe('CLUSTER NOT READY: 1 of 3 nodes not ready; differs: driver version, npu-smi version');
    expect(run.output).toContain('"CLUSTER NOT READY: 1 of 3 nodes not ready; differs: driver version, npu-smi version"');

    // idempotent: run again in check mode, nothing would change, the same verdict
    const again = await ansiblePlaybook([...args, '--check'], work);
    expect(again.exitCode, again.output).toBe(2);
    expect(Object.fromEntries([...again.recap].map(([host, r]) => [host, [r.changed, r.failed]]))).toEqual({
      'a2-node1': [0, 0],
      'a2-node3': [0, 0],
      'a2-node7': [0, 1],
      localhost: [0, 1],
    });
    expect(again.failures.get('a2-node7')).toMatch(/^a2-node7 is not ready \(4 failing\): npu\.driver-files: /);
  }, 600_000);

  /** The preflight playbook over the given hosts (name -> demo snapshot, or host variables of their own). */
  async function preflight(work: string, hosts: Record<string, Record<string, unknown>>, vars: Record<string, unknown> = {}) {
    const controller = join(work, 'controller');
    // Node.js is a host variable: a host may lack it (extra variables would win over a host's own)
    const withDirs = Object.fromEntries(
      Object.entries(hosts).map(([node, extra]) => [
        node,
        { qprep_install_dir: join(work, node, 'opt'), qprep_state_dir: join(work, node, 'state'), qprep_node_executable: process.execPath, ...extra },
      ]),
    );
    const args = [
      '-i',
      inventory(work, withDirs),
      join(PLAYBOOKS, 'preflight.yml'),
      '-e',
      extraVars(work, {
        qprep_bundle: bundle,
        qprep_profile: PROFILE,
        qprep_controller_node_executable: process.execPath,
        qprep_controller_dir: controller,
        ...vars,
      }),
    ];
    return { run: await ansiblePlaybook(args, work), controller };
  }
  const snapshotArgs = (demo: string) => ({ qprep_host_args: ['--snapshot', join(REPO, 'examples', 'snapshots', `${demo}.json`)] });

  it('a node that cannot be reached is MISSING: the cluster is not ready; the ping plan and peer ports come from role variables', async () => {
    const work = tmp('ansible-down');
    const { run, controller } = await preflight(
      work,
      {
        'a2-node1': snapshotArgs('a2-healthy'),
        'a2-node3': snapshotArgs('a2-healthy-node3'),
        // nothing listens on port 9 of the loopback: ssh is refused at once
        'a2-node2': { ansible_connection: 'ssh', ansible_host: '127.0.0.1', ansible_port: 9, ansible_ssh_common_args: '-o ConnectTimeout=5 -o BatchMode=yes' },
      },
      { qprep_cluster_plan: 'full-mesh', qprep_cluster_ports: [{ port: 13389, name: 'dp-rpc' }] },
    );
    expect(run.exitCode, run.output).not.toBe(0);
    const cluster = JSON.parse(readFileSync(join(controller, 'cluster.json'), 'utf8'));
    expect(cluster).toMatchObject({ plan: 'full-mesh', ports: [{ port: 13389, name: 'dp-rpc' }] });
    expect(cluster.facts.map((n: { hostname: string }) => n.hostname)).toEqual(['a2-node1', 'a2-node3', 'a2-node2']);
    const verdict = JSON.parse(readFileSync(join(controller, 'aggregate.json'), 'utf8'));
    expect(verdict.ready).toBe(false);
    expect(verdict.nodes.map((n: { name: string; verdict: string }) => [n.name, n.verdict])).toContainEqual(['a2-node2', 'missing']);
    expect(run.failures.get('localhost')).toContain('a2-node2 has no report');
    expect(run.failures.get('a2-node2')).toBe('qprep check did not run on a2-node2: the node was unreachable or failed before it');
    const report = JSON.parse(readFileSync(join(controller, 'reports', 'a2-node1.json'), 'utf8'));
    expect(report.cluster.plan).toBe('full-mesh');
  }, 600_000);

  it('a node where qprep cannot start (Node.js missing) is MISSING, never judged by the report an earlier run left on it', async () => {
    const work = tmp('ansible-stale');
    const hosts = { 'a2-node1': snapshotArgs('a2-healthy'), 'a2-node3': snapshotArgs('a2-healthy-node3') };
    const first = await preflight(work, hosts);
    expect(first.run.exitCode, first.run.output).toBe(0);
    const before = JSON.parse(readFileSync(join(first.controller, 'aggregate.json'), 'utf8'));
    expect(before.nodes.map((n: { name: string; verdict: string }) => [n.name, n.verdict])).toEqual([
      ['a2-node1', 'ready'],
      ['a2-node3', 'ready'],
    ]);
    expect(existsSync(join(work, 'a2-node3', 'state', 'report.json'))).toBe(true);

    // the same cluster again, but Node.js is gone from a2-node3: its ready report of the first run is still on it
    const { run, controller } = await preflight(work, { ...hosts, 'a2-node3': { ...hosts['a2-node3'], qprep_node_executable: join(work, 'no-node', 'bin', 'node') } });
    expect(run.exitCode, run.output).toBe(2);
    const verdict = JSON.parse(readFileSync(join(controller, 'aggregate.json'), 'utf8'));
    expect(verdict.ready).toBe(false);
    expect(verdict.nodes.map((n: { name: string; verdict: string }) => [n.name, n.verdict])).toEqual([
      ['a2-node1', 'ready'],
      ['a2-node3', 'missing'],
    ]);
    expect(readdirSync(join(controller, 'reports'))).toEqual(['a2-node1.json']);
    expect(existsSync(join(work, 'a2-node3', 'state', 'report.json'))).toBe(false);
    expect(run.failures.get('localhost')).toMatch(/^the cluster is not ready: .*a2-node3 has no report/);
    expect(readFileSync(join(controller, 'aggregate.txt'), 'utf8')).not.toMatch(/CLUSTER READY/);
    expect(run.failures.get('a2-node3')).toMatch(/^qprep could not start on a2-node3: .*no-node\/bin\/node/);
  }, 600_000);

  it('every node failed: the verdict play still runs and says why', async () => {
    const work = tmp('ansible-all-failed');
    const missing = { qprep_host_args: ['--snapshot', join(work, 'no-such-snapshot.json')] };
    const { run, controller } = await preflight(work, { 'a2-node1': missing, 'a2-node3': missing });
    expect(run.exitCode, run.output).toBe(2);
    // the nodes failed first, each with its reason; the controller then fails the cluster
    expect(taskStatuses(run, 'Fail when the cluster is not ready')).toEqual({ localhost: 'fatal' });
    expect(run.failures.get('localhost')).toMatch(/^the cluster is not ready: a2-node1 has no verdict: invalid-snapshot: /);
    expect(run.failures.get('a2-node1')).toMatch(/^qprep check gave no verdict on a2-node1 \(exit 2\): qprep: error: cannot read snapshot /);
    expect(JSON.parse(readFileSync(join(controller, 'aggregate.json'), 'utf8')).summary).toMatchObject({ nodes: 2, noVerdict: 2 });
  }, 600_000);

  it('a duplicate device IP ends in one readable line, not a raw JSON dump', async () => {
    const work = tmp('ansible-duplicate');
    // two nodes replaying one snapshot: the same host address and the same device addresses
    const { run } = await preflight(work, { 'a2-node1': snapshotArgs('a2-healthy'), 'a2-node9': snapshotArgs('a2-healthy') });
    expect(run.exitCode, run.output).toBe(2);
    expect(run.failures.get('localhost')).toMatch(/^qprep aggregate gave no cluster verdict \(exit 2\): qprep: error: invalid cluster .*cluster\.json: /);
    expect(run.failures.get('a2-node1')).toMatch(/^qprep check gave no verdict on a2-node1 \(exit 2\): qprep: error: invalid cluster /);
    expect(run.output).not.toContain('"cmd":');
  }, 600_000);

  it('tune: check mode says what would change and writes nothing; the first run changes, the second does not', async () => {
    const work = tmp('ansible-tune');
    const names = ['a2-node1', 'a2-node2', 'a2-node3'];
    const hosts = Object.fromEntries(
      names.map((node) => {
        untunedTree(join(work, node, 'root'));
        return [node, { qprep_host_args: ['--root', join(work, node, 'root')], qprep_install_dir: join(work, node, 'opt'), qprep_state_dir: join(work, node, 'state') }];
      }),
    );
    const args = ['-i', inventory(work, hosts), join(PLAYBOOKS, 'tune.yml'), '-e', extraVars(work, { qprep_bundle: bundle, qprep_node_executable: process.execPath })];
    const trees = () => Object.fromEntries(names.map((node) => [node, treeState(join(work, node, 'root'))]));
    const untuned = trees();

    // check mode does not install qprep, and says so
    const notInstalled = await ansiblePlaybook([...args, '--check'], work);
    expect(notInstalled.exitCode).toBe(2);
    expect(notInstalled.failures.get('a2-node1')).toBe(`qprep is not installed in ${join(work, 'a2-node1', 'opt')} yet and check mode does not install it: run once without --check (or with --tags qprep_install)`);
    expect(existsSync(join(work, 'a2-node1', 'opt', 'qprep.mjs'))).toBe(false);

    const install = await ansiblePlaybook([...args, '--tags', 'qprep_install'], work);
    expect(install.exitCode, install.output).toBe(0);
    expect(install.tasks.has('qprep : Tune the node with qprep (with --dry-run in check mode)')).toBe(false);

    // check mode: tune --dry-run, "changed" for what would change, not one byte written
    const dryRun = await ansiblePlaybook([...args, '--check'], work);
    expect(dryRun.exitCode, dryRun.output).toBe(0);
    expect(taskStatuses(dryRun, 'Tune the node with qprep (with --dry-run in check mode)')).toEqual({ 'a2-node1': 'changed', 'a2-node2': 'changed', 'a2-node3': 'changed' });
    expect(dryRun.output).toContain('vm.swappiness: 60 -> 0; kernel.numa_balancing: 1 -> 0; /sys/kernel/debug/sched/migration_cost_ns: 500000 -> 50000');
    expect(trees()).toEqual(untuned);

    const first = await ansiblePlaybook(args, work);
    expect(first.exitCode, first.output).toBe(0);
    expect(taskStatuses(first, 'Tune the node with qprep (with --dry-run in check mode)')).toEqual({ 'a2-node1': 'changed', 'a2-node2': 'changed', 'a2-node3': 'changed' });
    for (const node of names) {
      expect(readFileSync(join(work, node, 'root', 'proc/sys/vm/swappiness'), 'utf8'), node).toBe('0\n');
      expect(readFileSync(join(work, node, 'root', 'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor'), 'utf8'), node).toBe('performance\n');
      expect(existsSync(join(work, node, 'root', 'var/lib/qprep/journal.json')), node).toBe(true);
    }

    const second = await ansiblePlaybook(args, work);
    expect(second.exitCode, second.output).toBe(0);
    expect(taskStatuses(second, 'Tune the node with qprep (with --dry-run in check mode)')).toEqual({ 'a2-node1': 'ok', 'a2-node2': 'ok', 'a2-node3': 'ok' });
    expect([...second.recap.values()].map((r) => r.changed)).toEqual([0, 0, 0]);

    // a tune that cannot run fails the host with tune's own reason
    writeFileSync(join(work, 'a2-node3', 'root', '.dockerenv'), '');
    writeFileSync(join(work, 'a2-node3', 'root', 'proc/sys/vm/swappiness'), '60\n');
    const refused = await ansiblePlaybook([...args, '--limit', 'a2-node3'], work);
    expect(refused.exitCode).toBe(2);
    expect(refused.failures.get('a2-node3')).toMatch(/^qprep tune on a2-node3 exited 2: qprep tune runs inside a container \(docker: \/\.dockerenv exists\)/);
  }, 600_000);
});
