import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';

const SNAPSHOT = ['--snapshot', 'examples/snapshots/a2-healthy.json'];
const PAIR = 'examples/cluster/a2-pair.yaml';

describe('qprep env --cluster', () => {
  it('takes HCCL_IF_IP from the node\'s host address and the socket interfaces from its ifname', async () => {
    const run = await qprep(['env', ...SNAPSHOT, '--cluster', PAIR, '--format', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const document = JSON.parse(run.stdout);
    expect((await validateAgainstSchema('env', document)).valid).toBe(true);
    expect(document.node).toEqual({ ip: '10.20.0.11', nic: 'enp189s0f0', source: `cluster file ${PAIR} (node a2-node1)` });
    const exported = Object.fromEntries(document.exports.map((v: { name: string; value: string }) => [v.name, v.value]));
    expect(exported).toMatchObject({ HCCL_IF_IP: '10.20.0.11', GLOO_SOCKET_IFNAME: 'enp189s0f0', TP_SOCKET_IFNAME: 'enp189s0f0', HCCL_SOCKET_IFNAME: 'enp189s0f0' });
    const sh = await qprep(['env', ...SNAPSHOT, '--cluster', PAIR]);
    expect(sh.stdout).toContain('export HCCL_IF_IP=10.20.0.11\n');
  });

  it('--ip and --nic win over the file, with a note; a node whose address is not here is exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-env-cluster-'));
    const file = join(dir, 'moved.yaml');
    writeFileSync(file, 'nodes:\n  - {name: a2-node1, host: 10.20.0.50, ifname: eth9}\n  - {name: a2-node2, host: 10.20.0.12}\n');
    const run = await qprep(['env', ...SNAPSHOT, '--cluster', file, '--node', 'a2-node1', '--ip', '10.20.0.11', '--nic', 'enp189s0f0']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('export HCCL_IF_IP=10.20.0.11\n');
    expect(run.stderr).toContain(`qprep: note: --ip 10.20.0.11 overrides the host address 10.20.0.50 of node a2-node1 in ${file}`);
    expect(run.stderr).toContain(`qprep: note: --nic enp189s0f0 overrides the ifname eth9 of node a2-node1 in ${file}`);

    const elsewhere = await qprep(['env', ...SNAPSHOT, '--cluster', PAIR, '--node', 'a2-node2', '--format', 'json']);
    expect(elsewhere.exitCode).toBe(2);
    expect(JSON.parse(elsewhere.stdout).error.message).toBe(`cluster file ${PAIR} (node a2-node2): 10.20.0.12 is not an address of this host (its addresses: 10.20.0.11 (enp189s0f0))`);
    const noCluster = await qprep(['env', ...SNAPSHOT, '--node', 'a2-node1']);
    expect(noCluster.exitCode).toBe(2);
    expect(noCluster.stderr).toContain('--node needs --cluster FILE');
  });
});
