import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateSelf, parseClusterText } from '../../../src/cluster/load.js';
import { QprepError } from '../../../src/errors.js';
import type { NetInterface } from '../../../src/host/types.js';
import { FakeHost } from '../../helpers/fake-host.js';

const YAML = `
name: qwen-a2x2
plan: same-index
master: node1
ports:
  - 13389
  - { port: 6379, name: ray, on: all }
nodes:
  - name: node1
    host: 198.19.0.11
    devices:
      - { device: 0, ip: 198.18.1.10 }
      - { device: 1, ip: 198.18.1.11 }
  - name: node2
    host: 198.19.0.12
    hostname: ai-node-02.lab
    ifname: enp189s0f0
    devices:
      - { device: 1, ip: 198.18.2.11 }
      - { device: 0, ip: 198.18.2.10 }
`;

function problemOf(text: string, file = 'c.yaml'): string {
  try {
    parseClusterText(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(QprepError);
    expect((error as QprepError).code).toBe('invalid-cluster');
    expect((error as Error).message).not.toContain('\n');
    return (error as Error).message;
  }
  throw new Error('expected the cluster to be refused');
}

function iface(name: string, ...addresses: string[]): NetInterface {
  return {
    name,
    adminUp: true,
    operState: 'up',
    running: true,
    mtu: 1500,
    mac: null,
    loopback: name === 'lo',
    addresses: addresses.map((address) => ({ family: address.includes(':') ? 'IPv6' : 'IPv4', address, netmask: '255.255.255.0', prefix: 24 })),
  };
}

describe('the cluster file, YAML or JSON', () => {
  it('reads nodes, devices, plan, master and ports into one normalized cluster', () => {
    const cluster = parseClusterText(YAML, 'c.yaml');
    expect(cluster).toMatchObject({ form: 'nodes', name: 'qwen-a2x2', plan: 'same-index', ringK: 1, master: 'node1', family: null });
    expect(cluster.ports).toEqual([
      { port: 13389, name: null, on: 'master' },
      { port: 6379, name: 'ray', on: 'all' },
    ]);
    expect(cluster.nodes[1]).toMatchObject({ name: 'node2', host: '198.19.0.12', addresses: ['198.19.0.12'], hostname: 'ai-node-02.lab', ifname: 'enp189s0f0', superPod: null });
    expect(cluster.nodes[0]!.ifname).toBeNull();
    expect(cluster.nodes[1]!.devices.map((d) => [d.device, d.ip])).toEqual([
      [1, '198.18.2.11'],
      [0, '198.18.2.10'],
    ]);
  });

  it('reads the same cluster written as JSON, with defaults for what it leaves out', () => {
    const cluster = parseClusterText(JSON.stringify({ nodes: [{ name: 'a', host: '198.19.0.1', devices: [{ device: 0, ip: '198.18.0.10' }] }] }), 'c.json');
    expect(cluster).toMatchObject({ plan: 'same-index', ringK: 1, master: 'a', ports: [] });
  });

  it('reads A3 fields: super pod and vNIC addresses', () => {
    const cluster = parseClusterText(
      'family: a3\nplan: full-mesh\nnodes:\n  - {name: a, host: 198.19.0.1, superPod: 3, devices: [{device: 0, ip: 198.18.1.10, vnicIp: 198.19.129.10}]}\n',
      'c.yaml',
    );
    expect(cluster.family).toBe('a3');
    expect(cluster.nodes[0]).toMatchObject({ superPod: 3, family: 'a3', devices: [{ device: 0, ip: '198.18.1.10', vnicIp: '198.19.129.10', tls: null }] });
  });

  it('accepts a JSON array of qprep facts documents, leniently, with the fields it does not need', () => {
    const facts = [1, 2].map((n) => ({
      schemaVersion: 1,
      hostname: `node${n}`,
      hostAddresses: [`198.19.0.1${n}/24`, { address: '172.17.0.1', iface: 'docker0' }, 'fe80::1'],
      family: 'a2',
      npus: [{ card: 0, chip: 0, device: 0, name: '910B3', health: 'OK' }],
      devices: [{ device: 0, ip: `198.18.${n}.10`, netmask: '255.255.0.0', tls: 0 }, { device: 1, ip: null }],
      versions: { npuSmi: '25.3.rc1' },
      somethingNew: { nested: true },
    }));
    const cluster = parseClusterText(JSON.stringify(facts), 'facts.json');
    expect(cluster.form).toBe('facts');
    expect(cluster.family).toBe('a2');
    expect(cluster.master).toBe('node1');
    // docker0's address is on every node: it identifies none of them
    expect(cluster.nodes[0]).toMatchObject({ name: 'node1', host: '198.19.0.11', addresses: ['198.19.0.11'] });
    expect(cluster.nodes[0]!.devices).toEqual([
      { device: 0, ip: '198.18.1.10', vnicIp: null, tls: 0 },
      { device: 1, ip: null, vnicIp: null, tls: null },
    ]);
  });

  it('reads tls as qprep facts writes it (a boolean) and superPod, and a declared tls in a node list', () => {
    const facts = [1, 2].map((n) => ({ hostname: `node${n}`, hostAddresses: [`198.19.0.1${n}`], superPod: n === 1 ? 4 : null, devices: [{ device: 0, ip: `198.18.${n}.10`, tls: n === 2 }] }));
    const cluster = parseClusterText(JSON.stringify(facts), 'facts.json');
    expect(cluster.nodes.map((node) => [node.superPod, node.devices[0]!.tls])).toEqual([
      [4, 0],
      [null, 1],
    ]);
    expect(cluster.tls).toBeNull();
    expect(parseClusterText(`tls: 0\nnodes: [{name: a, host: 198.19.0.11}]\n`, 'c.yaml').tls).toBe(0);
    expect(() => parseClusterText(`tls: 2\nnodes: [{name: a, host: 198.19.0.11}]\n`, 'c.yaml')).toThrow(/tls/);
  });
});

describe('an invalid cluster file is one line naming the file and the problem', () => {
  it('a peer address that is not an IP never gets further than the schema', () => {
    expect(problemOf(YAML.replace('198.18.2.11', '"1.2.3.4; rm -rf /"'))).toBe(
      'invalid cluster c.yaml: nodes.1.devices.0.ip: expected an IPv4 address such as 198.18.1.10 (no leading zeros), got "1.2.3.4; rm -rf /"',
    );
    expect(problemOf(YAML.replace('198.19.0.12', '$(reboot)'))).toBe('invalid cluster c.yaml: nodes.1.host: expected an IPv4 or IPv6 address, got "$(reboot)"');
    expect(problemOf(YAML.replace('198.18.1.10', '010.18.1.10'))).toContain('nodes.0.devices.0.ip: expected an IPv4 address');
    expect(problemOf(YAML.replace('198.18.1.10', '198.18.1.256'))).toContain('got "198.18.1.256"');
    expect(problemOf(YAML.replace('enp189s0f0', '"eth0; reboot"'))).toBe('invalid cluster c.yaml: nodes.1.ifname: expected a network interface name (at most 15 characters), got "eth0; reboot"');
  });

  it('duplicate names, duplicate device IPs, duplicate host addresses, a device listed twice', () => {
    expect(problemOf(YAML.replace('name: node2', 'name: node1'))).toBe('invalid cluster c.yaml: nodes.1.name: duplicate node name "node1" (also entry 0)');
    expect(problemOf(YAML.replace('198.18.2.11', '198.18.1.11'))).toBe('invalid cluster c.yaml: nodes.1.devices.0.ip: duplicate device IP 198.18.1.11: node2 dev1 and node1 dev1');
    expect(problemOf(YAML.replace('198.19.0.12', '198.19.0.11'))).toBe('invalid cluster c.yaml: nodes.1.host: host address 198.19.0.11 is also the host of node1');
    expect(problemOf(YAML.replace('{ device: 0, ip: 198.18.2.10 }', '{ device: 1, ip: 198.18.2.10 }'))).toBe('invalid cluster c.yaml: nodes.1.devices.1.device: device 1 is listed twice for node2');
  });

  it('a master that is not a node, an unknown field, an unknown plan', () => {
    expect(problemOf(YAML.replace('master: node1', 'master: node9'))).toBe('invalid cluster c.yaml: master: "node9" is not the name of a node (nodes: node1, node2)');
    expect(problemOf(YAML.replace('plan: same-index', 'plan: same-index\nringk: 2'))).toContain('invalid cluster c.yaml: (top level): Unrecognized key: "ringk"');
    expect(problemOf(YAML.replace('plan: same-index', 'plan: star'))).toContain('invalid cluster c.yaml: plan:');
  });

  it('not YAML, a single facts document, an empty list, a facts entry with a bad address', () => {
    expect(problemOf('nodes: [\n')).toMatch(/^invalid cluster c\.yaml: not valid YAML or JSON: /);
    expect(problemOf('{"hostname": "node1", "devices": []}')).toBe(
      'invalid cluster c.yaml: this is one qprep facts document; a cluster is a JSON array of the facts of every node, or {nodes: [...]}',
    );
    expect(problemOf('[]')).toBe('invalid cluster c.yaml: an empty list: expected qprep facts documents, one per node');
    expect(problemOf(JSON.stringify([{ hostname: 'n1', devices: [{ device: 0, ip: '1.2.3.4 && id' }] }]))).toBe(
      'invalid cluster c.yaml: 0.devices.0.ip: expected an IPv4 address such as 198.18.1.10 (no leading zeros), got "1.2.3.4 && id"',
    );
  });

  it('never throws anything but an invalid-cluster error, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          parseClusterText(text, 'x');
        } catch (error) {
          expect((error as QprepError).code).toBe('invalid-cluster');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('lets no string that is not an IPv4 address through as a device address', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (candidate) => {
        const doc = JSON.stringify({ nodes: [{ name: 'a', host: '198.19.0.1', devices: [{ device: 0, ip: candidate }] }] });
        let accepted: string | null | undefined;
        try {
          accepted = parseClusterText(doc, 'x').nodes[0]!.devices[0]!.ip;
        } catch {
          accepted = undefined;
        }
        if (accepted !== undefined) expect(accepted).toMatch(/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('a node finds itself', () => {
  const cluster = parseClusterText(YAML, 'c.yaml');

  it('by one of its addresses, whatever its hostname', async () => {
    const host = new FakeHost({ identity: { hostname: 'whatever' }, interfaces: [iface('lo', '127.0.0.1'), iface('eth0', '198.19.0.12')] });
    expect(await locateSelf(cluster, host, 'c.yaml')).toMatchObject({ self: { name: 'node2' }, matchedBy: 'address', evidence: '198.19.0.12 on eth0' });
  });

  it('by hostname, short or fully qualified, when no address matches', async () => {
    const byName = new FakeHost({ identity: { hostname: 'node1' }, interfaces: [iface('eth0', '10.0.0.5')] });
    expect(await locateSelf(cluster, byName, 'c.yaml')).toMatchObject({ self: { name: 'node1' }, matchedBy: 'hostname' });
    const byFqdn = new FakeHost({ identity: { hostname: 'ai-node-02' }, interfaces: { error: 'ENOTCAPTURED' } });
    expect(await locateSelf(cluster, byFqdn, 'c.yaml')).toMatchObject({ self: { name: 'node2' }, matchedBy: 'hostname' });
  });

  it('prefers the address when the hostname names another node, and says so', async () => {
    const host = new FakeHost({ identity: { hostname: 'node1' }, interfaces: [iface('eth0', '198.19.0.12')] });
    const found = await locateSelf(cluster, host, 'c.yaml');
    expect(found.self.name).toBe('node2');
    expect(found.note).toBe("hostname node1 names node node1, but address 198.19.0.12 is node2's; using node2");
  });

  it('by --node, which must name a node', async () => {
    const host = new FakeHost({ identity: { hostname: 'x' } });
    expect((await locateSelf(cluster, host, 'c.yaml', 'node2')).matchedBy).toBe('node-option');
    await expect(locateSelf(cluster, host, 'c.yaml', 'node7')).rejects.toThrow('invalid cluster c.yaml: --node node7: no such node (nodes: node1, node2)');
  });

  it('cannot find itself: exit-2 error naming what it looked at; loopback never counts', async () => {
    const host = new FakeHost({ identity: { hostname: 'stranger' }, interfaces: [iface('lo', '127.0.0.1', '::1'), iface('eth0', '10.1.1.1')] });
    await expect(locateSelf(cluster, host, 'c.yaml')).rejects.toThrow(
      'invalid cluster c.yaml: this host (hostname stranger, addresses 10.1.1.1) is none of its nodes (node1, node2); add it, fix its host address, or pass --node NAME',
    );
    const loopbackCluster = parseClusterText('nodes: [{name: a, host: 127.0.0.1}]', 'l.yaml');
    await expect(locateSelf(loopbackCluster, host, 'l.yaml')).rejects.toThrow('is none of its nodes (a)');
  });

  it('addresses of two nodes on one host are ambiguous', async () => {
    const host = new FakeHost({ identity: { hostname: 'x' }, interfaces: [iface('eth0', '198.19.0.11', '198.19.0.12')] });
    await expect(locateSelf(cluster, host, 'c.yaml')).rejects.toThrow('this host has the addresses of several nodes: node1 (198.19.0.11), node2 (198.19.0.12); pass --node NAME');
  });
});

describe('docs/cluster.md', () => {
  const readme = readFileSync(new URL('../../../docs/cluster.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Cluster file'));
  const example = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

  it('shows a cluster file that parses, and the error it quotes for a duplicate device IP', () => {
    const cluster = parseClusterText(example, 'cluster.yaml');
    expect(cluster.nodes.map((n) => n.name)).toEqual(['node1', 'node2']);
    expect(cluster.ports).toHaveLength(2);
    const quoted = /`(qprep: error: invalid cluster cluster\.yaml: [^`]+)`/.exec(section)?.[1];
    expect(`qprep: error: ${problemOf(example.replace('198.18.2.10', '198.18.1.10'), 'cluster.yaml')}`).toBe(quoted);
  });
});

describe('the facts of every node with the plan and the ports ({plan, ports, facts: [...]})', () => {
  const facts = [
    { hostname: 'node1', hostAddresses: ['198.19.0.11'], family: 'a2', devices: [{ device: 0, ip: '198.18.0.10' }] },
    { hostname: 'node2', hostAddresses: ['198.19.0.12'], family: 'a2', devices: [{ device: 0, ip: '198.18.0.20' }] },
  ];

  it('reads the nodes as from a facts array, and the plan, ringK, master and ports as written', () => {
    const cluster = parseClusterText(JSON.stringify({ plan: 'ring', ringK: 1, master: 'node2', ports: [13389, { port: 6379, name: 'ray', on: 'all' }], facts }), 'c.json');
    expect(cluster.nodes.map((n) => [n.name, n.host])).toEqual([
      ['node1', '198.19.0.11'],
      ['node2', '198.19.0.12'],
    ]);
    expect(cluster).toMatchObject({ plan: 'ring', ringK: 1, master: 'node2', ports: [{ port: 13389, name: null, on: 'master' }, { port: 6379, name: 'ray', on: 'all' }] });
  });

  it('a node named by its hostname alone (no facts were gathered) is a member without addresses', () => {
    const cluster = parseClusterText(JSON.stringify({ facts: [facts[0], { hostname: 'node9' }] }), 'c.json');
    expect(cluster.nodes.map((n) => [n.name, n.host, n.devices.length])).toEqual([
      ['node1', '198.19.0.11', 1],
      ['node9', null, 0],
    ]);
    expect(cluster.plan).toBe('same-index');
  });

  it('an unknown key or a bad plan is one line naming the field', () => {
    expect(() => parseClusterText(JSON.stringify({ plan: 'star', facts }), 'c.json')).toThrow(/^invalid cluster c\.json: plan: /);
    expect(() => parseClusterText(JSON.stringify({ facts, extra: 1 }), 'c.json')).toThrow(/^invalid cluster c\.json: /);
  });
});
