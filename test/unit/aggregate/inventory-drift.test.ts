import { describe, expect, it } from 'vitest';
import { aggregate } from '../../../src/aggregate/analyze.js';
import { readNodeDocuments } from '../../../src/aggregate/documents.js';
import { aggregateDocumentSchema } from '../../../src/report/aggregate-schema.js';
import { clusterNode, demoReport } from '../../helpers/node-reports.js';

const NOW = new Date('2026-12-01T08:10:00.000Z');

interface Planted {
  model?: string;
  threads?: number;
  numaNodes?: number;
  memoryBytes?: number;
  mtu?: number;
}

/** A node whose report carries the inventory facts and net.host-nic's link evidence. */
function node(index: number, plant: Planted = {}) {
  const report = clusterNode(demoReport('a2-healthy'), index);
  report.facts.inventory = {
    source: 'systeminformation',
    system: { manufacturer: 'Huawei', model: plant.model ?? 'A800I A2', virtual: false },
    bios: { vendor: 'Huawei', version: '1.21' },
    cpu: { brand: 'HiSilicon Kunpeng-920', sockets: 4, cores: 192, threads: plant.threads ?? 192, numaNodes: plant.numaNodes ?? 8 },
    memoryBytes: plant.memoryBytes ?? 1_649_267_441_664 + index * 4096,
    os: { distro: 'openEuler', release: '22.03' },
    nics: [],
    redacted: ['serial', 'mac'],
    unknown: [],
  };
  const nic = report.checks.find((c) => c.id === 'net.host-nic')!;
  nic.evidence = { ...nic.evidence, links: { enp189s0f0: { state: 'up', speedMbps: 100000, mtu: plant.mtu ?? 9000, duplex: 'full' } } };
  return report;
}

function verdictOf(reports: unknown[]) {
  const documents = reports.flatMap((report, i) => readNodeDocuments({ source: `reports/r${i}.json`, text: JSON.stringify(report) }));
  const document = aggregate(documents, { now: NOW });
  expect(aggregateDocumentSchema.safeParse(document).success).toBe(true);
  return document;
}

describe('qprep aggregate: server model, CPU, memory and socket NIC MTU across nodes', () => {
  it('identical nodes (memory a few KiB apart) show no difference', () => {
    const verdict = verdictOf([0, 1, 2, 3].map((i) => node(i)));
    expect(verdict.drift).toEqual([]);
    expect(verdict.nodes[0]!.values).toMatchObject({ serverModel: 'Huawei A800I A2', cpu: 'HiSilicon Kunpeng-920 x4, 192 threads, 8 NUMA nodes', memory: '1536 GiB', nicMtu: '9000' });
  });

  it('names the node whose model, CPU, memory or MTU differs', () => {
    const verdict = verdictOf([node(0), node(1), node(2, { model: 'A800 9000 A2', threads: 96, numaNodes: 4, memoryBytes: 1024 * 2 ** 30, mtu: 1500 }), node(3)]);
    expect(verdict.drift.map((d) => [d.field, d.severity, d.odd])).toEqual([
      ['serverModel', 'warn', [{ node: 'node03', value: 'Huawei A800 9000 A2' }]],
      ['cpu', 'warn', [{ node: 'node03', value: 'HiSilicon Kunpeng-920 x4, 96 threads, 4 NUMA nodes' }]],
      ['memory', 'warn', [{ node: 'node03', value: '1024 GiB' }]],
      ['nicMtu', 'warn', [{ node: 'node03', value: '1500' }]],
    ]);
    expect(verdict.drift.find((d) => d.field === 'nicMtu')!.message).toBe('MTU of the HCCL/Gloo socket NIC differs on node03: 1500; the other 3 nodes have 9000');
    expect(verdict.ready).toBe(true);
  });

  it('reports of an older qprep without the inventory are not a difference', () => {
    const old = clusterNode(demoReport('a2-healthy'), 3);
    delete old.facts.inventory;
    const verdict = verdictOf([node(0), node(1), node(2), old]);
    expect(verdict.drift.filter((d) => ['serverModel', 'cpu', 'memory', 'nicMtu'].includes(d.field))).toEqual([]);
  });
});
