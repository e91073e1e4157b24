import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregate, type AggregateOptions } from '../../../src/aggregate/analyze.js';
import { readNodeDocuments, type NodeDocument } from '../../../src/aggregate/documents.js';
import { aggregateDocumentSchema, type AggregateDocument } from '../../../src/report/aggregate-schema.js';
import { parseClusterText } from '../../../src/cluster/load.js';
import type { Report } from '../../../src/report/schema.js';
import { clusterNode, demoReport } from '../../helpers/node-reports.js';

const NOW = new Date('2026-12-01T08:10:00.000Z');
const healthy = demoReport('a2-healthy');

function documentsOf(reports: readonly unknown[]): NodeDocument[] {
  return reports.flatMap((report, i) => readNodeDocuments({ source: `reports/r${i}.json`, text: JSON.stringify(report) }));
}

function run(reports: readonly unknown[], options: Partial<AggregateOptions> = {}): AggregateDocument {
  const document = aggregate(documentsOf(reports), { now: NOW, ...options });
  expect(aggregateDocumentSchema.safeParse(document).success).toBe(true);
  return document;
}

function cluster(size: number, plant?: (report: ReturnType<typeof clusterNode>, index: number) => void) {
  return Array.from({ length: size }, (_, i) => {
    const report = clusterNode(healthy, i);
    plant?.(report, i);
    return report;
  });
}

describe('qprep aggregate: the cluster verdict', () => {
  it('nodes that agree on everything and are all ready: a ready cluster, nothing to say', () => {
    const verdict = run(cluster(4));
    expect(verdict.ready).toBe(true);
    expect(verdict.findings).toEqual([]);
    expect(verdict.drift).toEqual([]);
    expect(verdict.nodes.map((n) => [n.name, n.verdict, n.ageSeconds])).toEqual([
      ['node01', 'ready', 600],
      ['node02', 'ready', 600],
      ['node03', 'ready', 600],
      ['node04', 'ready', 600],
    ]);
    expect(verdict.nodes[0]!.values).toMatchObject({ driver: '25.5.1', firmware: '7.8.0.7.220', cann: '8.3.RC2', npuCount: '8', npuModel: '910B3', tls: 'off', 'sysctl:vm.swappiness': '0' });
    expect(verdict.summary).toEqual({ documents: 4, nodes: 4, ready: 4, notReady: 0, noVerdict: 0, missing: 0, stale: 0, duplicates: 0 });
  });

  it('names exactly the planted odd node and field, for any cluster size, node and field', () => {
    const plants = {
      driver: { severity: 'fail', apply: (r: ReturnType<typeof clusterNode>) => (r.facts.versions.driver = '25.2.1'), value: '25.2.1' },
      kernel: { severity: 'warn', apply: (r: ReturnType<typeof clusterNode>) => (r.host.kernel = '5.10.0-182.0.0.95.oe2203sp3.aarch64'), value: '5.10.0-182.0.0.95.oe2203sp3.aarch64' },
      tls: { severity: 'fail', apply: (r: ReturnType<typeof clusterNode>) => r.facts.devices.forEach((d) => (d.tls = true)), value: 'on' },
      firmware: { severity: 'fail', apply: (r: ReturnType<typeof clusterNode>) => (r.facts.versions.firmware = '7.7.0.6.201'), value: '7.7.0.6.201' },
      npuCount: { severity: 'fail', apply: (r: ReturnType<typeof clusterNode>) => (r.facts.npus = r.facts.npus.slice(0, 7)), value: '7' },
    } as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 16 }).chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 }))),
        fc.constantFrom(...(Object.keys(plants) as Array<keyof typeof plants>)),
        ([size, odd], field) => {
          const plant = plants[field];
          const verdict = run(cluster(size, (report, i) => (i === odd ? plant.apply(report) : undefined)));
          const oddName = `node${String(odd + 1).padStart(2, '0')}`;
          expect(verdict.drift.map((d) => [d.field, d.odd])).toEqual([[field, [{ node: oddName, value: plant.value }]]]);
          expect(verdict.drift[0]!.majority).toEqual({ value: expect.any(String), nodes: size - 1 });
          expect(verdict.findings).toEqual([{ severity: plant.severity, kind: 'drift', message: expect.stringContaining(`differs on ${oddName}: ${plant.value}`), nodes: [oddName] }]);
          expect(verdict.ready).toBe(plant.severity !== 'fail');
        },
      ),
      { numRuns: 60 },
    );
  });

  describe('the Python stack the launch runs (the report\'s stack)', () => {
    /** the healthy node with the stack of a node that ran the launch checks: the installed vllm-ascend, vllm, torch, torch_npu */
    const launched: Report = { ...healthy, stack: demoReport('a2-w8a8-node0').stack! };
    type Stacked = ReturnType<typeof clusterNode> & { stack: NonNullable<Report['stack']> };
    const stacked = (size: number, plant?: (report: Stacked, index: number) => void) =>
      Array.from({ length: size }, (_, i) => {
        const report = clusterNode(launched, i) as Stacked;
        plant?.(report, i);
        return report;
      });

    it('the same stack on every node: nothing differs, and each node carries its versions', () => {
      const verdict = run(stacked(3));
      expect(verdict.drift).toEqual([]);
      expect(verdict.nodes[0]!.values).toMatchObject({ vllmAscend: '0.23.0', vllm: '0.23.0+empty', torch: '2.10.0+cpu', torchNpu: '2.10.0.post4', transformers: null });
    });

    it.each([
      { field: 'vllmAscend', label: 'vllm-ascend version', value: '0.22.0rc1', severity: 'fail' },
      { field: 'vllm', label: 'vllm version', value: '0.22.0+empty', severity: 'fail' },
      { field: 'torch', label: 'torch version', value: '2.9.0+cpu', severity: 'fail' },
      { field: 'torchNpu', label: 'torch_npu version', value: '2.9.0.post1', severity: 'fail' },
    ] as const)('a node with another $label is named, and the cluster is not ready', ({ field, label, value, severity }) => {
      const verdict = run(stacked(3, (r, i) => (i === 1 ? (r.stack.packages[field]!.version = value) : undefined)));
      expect(verdict.drift.map((d) => [d.field, d.severity, d.odd])).toEqual([[field, severity, [{ node: 'node02', value }]]]);
      expect(verdict.findings).toEqual([expect.objectContaining({ severity: 'fail', kind: 'drift', message: expect.stringContaining(`${label} differs on node02: ${value}`) })]);
      expect(verdict.ready).toBe(false);
    });

    it('another transformers (a library under the serving code) is a warning: ready, but not under --strict', () => {
      const plant = (r: Stacked, i: number) => {
        r.stack.packages.transformers = { version: i === 0 ? '4.57.1' : '4.57.3', path: '/usr/local/lib/python3.11/site-packages/transformers-4.57.3.dist-info', versionFrom: 'METADATA', editable: null };
      };
      const verdict = run(stacked(3, plant));
      expect(verdict.drift.map((d) => [d.field, d.severity, d.odd])).toEqual([['transformers', 'warn', [{ node: 'node01', value: '4.57.1' }]]]);
      expect(verdict.ready).toBe(true);
      expect(run(stacked(3, plant), { strict: true }).ready).toBe(false);
    });

    it('between nodes that each serve an instance of their own (single-node launch scripts, no KV role), another torch_npu is a warning', () => {
      // the 300I Duo demo: vllm serve on one node, no data-parallel peers, no KV connector
      const alone = demoReport('300i-duo-4b');
      const reports = [0, 1, 2].map((i) => {
        const report = clusterNode(alone, i) as Stacked;
        if (i === 2) report.stack.packages.torchNpu!.version = '2.9.0.post1';
        return report;
      });
      const verdict = run(reports);
      expect(verdict.launch?.instances.map((instance) => [instance.role, instance.nodes.length])).toEqual([
        ['serve', 1],
        ['serve', 1],
        ['serve', 1],
      ]);
      expect(verdict.drift.map((d) => [d.field, d.severity])).toEqual([['torchNpu', 'warn']]);
      expect(verdict.findings.find((f) => f.kind === 'drift')!.message).toBe(
        'torch_npu version differs on node03: 2.9.0.post1; the other 2 nodes have 2.10.0.post4 (each of these nodes serves an instance of its own, as the launch scripts show)',
      );
      expect(verdict.ready).toBe(true);
      // a node whose script serves part of a larger instance (its peers did not report) is not alone: a fail
      const partOf = structuredClone(reports);
      const layout = partOf[2]!.launch!.serve!.layout!;
      Object.assign(layout, { dp: 2, dpLocal: 1 });
      expect(run(partOf).drift.map((d) => [d.field, d.severity])).toEqual([['torchNpu', 'fail']]);
      // a node whose report has no launch layout could be a rank of any instance: the difference stays a fail
      delete (reports[2] as Partial<Report>).launch;
      expect(run(reports).drift.map((d) => [d.field, d.severity])).toEqual([['torchNpu', 'fail']]);
    });

    it('a node whose report found no vllm-ascend is left out of that comparison, not counted as another version', () => {
      const verdict = run(stacked(3, (r, i) => (i === 2 ? (r.stack.packages.vllmAscend = null) : undefined)));
      expect(verdict.drift).toEqual([]);
      expect(verdict.nodes.map((n) => n.values.vllmAscend)).toEqual(['0.23.0', '0.23.0', null]);
    });
  });

  it('two values and no majority: split, every node named, no odd one', () => {
    const verdict = run(cluster(4, (r, i) => (i >= 2 ? (r.facts.versions.cann = '8.2.RC1') : undefined)));
    expect(verdict.drift).toEqual([
      expect.objectContaining({
        field: 'cann',
        majority: null,
        odd: [],
        groups: [
          { value: '8.2.RC1', nodes: ['node03', 'node04'] },
          { value: '8.3.RC2', nodes: ['node01', 'node02'] },
        ],
        message: 'CANN version is split: 8.2.RC1 on node03, node04; 8.3.RC2 on node01, node02',
      }),
    ]);
    expect(verdict.ready).toBe(false);
  });

  it('warnings (kernel, sysctl values, profile) leave the cluster ready unless --strict; a super pod split is a note', () => {
    const reports = cluster(5, (r, i) => {
      if (i === 1) (r.checks.find((c) => c.id === 'sysctl.swappiness')!.evidence as { value: number }).value = 1;
      if (i === 2) r.profile.name = 'default';
      r.facts.superPod = i < 3 ? 0 : 1;
    });
    const lenient = run(reports);
    expect(lenient.ready).toBe(true);
    expect(lenient.drift.map((d) => [d.field, d.severity, d.odd.map((o) => o.node)])).toEqual([
      ['superPod', 'note', ['node04', 'node05']],
      ['profile', 'warn', ['node03']],
      ['sysctl:vm.swappiness', 'warn', ['node02']],
    ]);
    expect(lenient.drift[2]!.message).toBe('vm.swappiness differs on node02: 1; the other 4 nodes have 0');
    expect(run(reports, { strict: true }).ready).toBe(false);
  });

  it('the migration cost read from debugfs is the same setting as the sysctl', () => {
    const verdict = run(
      cluster(3, (r, i) => {
        if (i !== 0) return;
        const evidence = r.checks.find((c) => c.id === 'sched.migration-cost')!.evidence as { path: string; value: number };
        evidence.path = '/sys/kernel/debug/sched/migration_cost_ns';
        evidence.value = 100000;
      }),
    );
    expect(verdict.drift.map((d) => [d.field, d.odd])).toEqual([['sysctl:kernel.sched_migration_cost_ns', [{ node: 'node01', value: '100000' }]]]);
  });

  it('a TLS switch that differs inside one node is its own value', () => {
    const verdict = run(cluster(3, (r, i) => (i === 2 ? r.facts.devices.forEach((d) => (d.tls = d.device >= 4)) : undefined)));
    expect(verdict.drift[0]).toMatchObject({ field: 'tls', odd: [{ node: 'node03', value: 'mixed (on: dev 4,5,6,7; off: dev 0,1,2,3)' }] });
  });

  it('device IPs held by two devices, RoCE or vNIC, across nodes or inside one', () => {
    const reports = cluster(3, (r, i) => {
      if (i === 1) r.facts.devices[3]!.ip = '198.18.0.13';
      if (i === 2) (r.facts.devices[0] as { vnicIp?: string }).vnicIp = '198.18.2.11';
    });
    const verdict = run(reports);
    expect(verdict.collisions).toEqual([
      { ip: '198.18.0.13', owners: [{ node: 'node01', device: 3, field: 'ip' }, { node: 'node02', device: 3, field: 'ip' }], message: 'device IP 198.18.0.13 is held by node01 dev3 and node02 dev3' },
      { ip: '198.18.2.11', owners: [{ node: 'node03', device: 0, field: 'vnicIp' }, { node: 'node03', device: 1, field: 'ip' }], message: 'device IP 198.18.2.11 is held by node03 dev0 (vNIC) and node03 dev1' },
    ]);
    expect(verdict.findings.filter((f) => f.kind === 'ip-collision').map((f) => f.nodes)).toEqual([['node01', 'node02'], ['node03']]);
    expect(verdict.ready).toBe(false);
  });

  it('not-ready nodes carry their failing checks; the report of the broken demo host is one', () => {
    const broken = clusterNode(demoReport('a2-broken'), 2);
    const verdict = run([...cluster(2), broken]);
    const node = verdict.nodes.find((n) => n.name === 'node03')!;
    expect(node.verdict).toBe('not-ready');
    expect(node.failing.map((f) => [f.id, f.status])).toEqual([
      ['npu.driver-files', 'fail'],
      ['npu.health', 'fail'],
      ['npu.ecc', 'fail'],
      ['npu.idle', 'fail'],
    ]);
    expect(node.failing[3]).toEqual({ id: 'npu.idle', status: 'fail', message: '1 of 8 NPU devices in use: NPU 0: pid 485946 pytest (5175 MB)', remediation: expect.stringContaining('kill 485946') });
    expect(verdict.findings[0]).toEqual({ severity: 'fail', kind: 'not-ready', message: 'node03 is not ready: npu.driver-files, npu.health, npu.ecc, npu.idle', nodes: ['node03'] });
  });

  it('two reports of one host: the newest is kept, whatever the order, and it is said', () => {
    const older = clusterNode(healthy, 0, { startedAt: '2026-12-01T07:00:00.000Z' });
    const newer = clusterNode(demoReport('a2-broken'), 0, { startedAt: '2026-12-01T08:05:00.000Z' });
    for (const order of [[older, newer], [newer, older]]) {
      const verdict = run([...order, clusterNode(healthy, 1)]);
      expect(verdict.nodes.map((n) => [n.name, n.verdict])).toEqual([
        ['node01', 'not-ready'],
        ['node02', 'ready'],
      ]);
      expect(verdict.summary.duplicates).toBe(1);
      const finding = verdict.findings.find((f) => f.kind === 'duplicate')!;
      expect(finding.severity).toBe('note');
      expect(finding.message).toMatch(/^node01 has 2 reports: kept the newest, reports\/r\d\.json \(2026-12-01T08:05:00.000Z\); ignored reports\/r\d\.json \(2026-12-01T07:00:00.000Z\)$/);
    }
  });

  it('reports older than --max-age are stale; the cluster is not ready', () => {
    const verdict = run([clusterNode(healthy, 0), clusterNode(healthy, 1, { startedAt: '2026-12-01T05:00:00.000Z' })], { maxAgeMs: 30 * 60_000 });
    expect(verdict.nodes.map((n) => [n.name, n.stale, n.ageSeconds])).toEqual([
      ['node01', false, 600],
      ['node02', true, 11400],
    ]);
    expect(verdict.findings).toEqual([{ severity: 'fail', kind: 'stale', message: "node02's report is 3h10m old, more than --max-age 30m (reports/r1.json)", nodes: ['node02'] }]);
    expect(verdict.maxAgeSeconds).toBe(1800);
    expect(verdict.ready).toBe(false);
  });

  it('an error document is a node without a verdict, named after its file', () => {
    const error = { schemaVersion: 1, tool: { name: 'qprep', version: '0.1.0' }, ready: false, error: { code: 'invalid-cluster', message: 'invalid cluster c.json: no such file' } };
    const documents = [...documentsOf(cluster(2)), ...readNodeDocuments({ source: 'reports/node03.json', text: JSON.stringify(error) })];
    const verdict = aggregate(documents, { now: NOW });
    expect(verdict.nodes.map((n) => [n.name, n.nameFrom, n.verdict])).toEqual([
      ['node01', 'report', 'ready'],
      ['node02', 'report', 'ready'],
      ['node03', 'file', 'no-verdict'],
    ]);
    expect(verdict.findings).toEqual([
      { severity: 'fail', kind: 'no-verdict', message: 'node03 has no verdict: invalid-cluster: invalid cluster c.json: no such file (reports/node03.json)', nodes: ['node03'] },
    ]);
    expect(verdict.summary.noVerdict).toBe(1);
    // a file named like a node that did report keeps its path as its name: the two are not merged
    const clash = aggregate([...documents, ...readNodeDocuments({ source: 'old/node01.json', text: JSON.stringify(error) })], { now: NOW });
    expect(clash.nodes.map((n) => n.name)).toEqual(['node01', 'node02', 'node03', 'old/node01.json']);
  });

  it('with a cluster file: missing nodes, nodes it does not list, and nodes found by address', () => {
    const reports = cluster(3);
    const facts = reports.map((r) => structuredClone(r.facts));
    // node02's machine calls itself differently; its address says who it is
    reports[1]!.host.hostname = 'localhost';
    reports[1]!.facts.hostname = 'localhost';
    const file = parseClusterText(JSON.stringify([...facts.slice(0, 2), { hostname: 'node09', hostAddresses: ['10.30.0.99'] }]), 'cluster.json');
    const verdict = run(reports, { cluster: { file: 'cluster.json', cluster: file } });
    expect(verdict.nodes.map((n) => [n.name, n.nameFrom, n.verdict])).toEqual([
      ['node01', 'cluster', 'ready'],
      ['node02', 'cluster', 'ready'],
      ['node09', 'cluster', 'missing'],
      ['node03', 'report', 'ready'],
    ]);
    expect(verdict.missing).toEqual([{ name: 'node09', host: '10.30.0.99' }]);
    expect(verdict.unexpected).toEqual(['node03']);
    expect(verdict.findings).toEqual([
      { severity: 'fail', kind: 'missing', message: 'node09 has no report (a node of cluster.json)', nodes: ['node09'] },
      { severity: 'warn', kind: 'unexpected-node', message: 'node03 reported, but cluster.json does not list it', nodes: ['node03'] },
    ]);
    expect(verdict.cluster).toEqual({ file: 'cluster.json', nodes: ['node01', 'node02', 'node09'] });
  });

  it('a report that ran with --cluster is the node it found itself to be', () => {
    const report = clusterNode(healthy, 0) as Report;
    report.cluster = { file: 'c.json', name: null, self: 'gpu-rack1-n1', matchedBy: 'node-option', evidence: '--node gpu-rack1-n1', nodes: ['gpu-rack1-n1'], plan: 'same-index' };
    expect(run([report]).nodes[0]).toMatchObject({ name: 'gpu-rack1-n1', nameFrom: 'report', hostname: 'node01' });
  });

  it('orders nodes naturally: node2 before node10', () => {
    const reports = [9, 1, 0].map((i) => clusterNode(healthy, i));
    expect(run(reports).nodes.map((n) => n.name)).toEqual(['node01', 'node02', 'node10']);
  });
});

describe('reading the documents', () => {
  const text = (value: unknown) => JSON.stringify(value);

  it('an array of reports and a stream of them are several documents, each named', () => {
    const [a, b] = cluster(2);
    expect(readNodeDocuments({ source: '-', text: text([a, b]) }).map((d) => d.source)).toEqual(['stdin#1', 'stdin#2']);
    expect(readNodeDocuments({ source: 'all.ndjson', text: `${text(a)}\n${text(b)}\n` }).map((d) => d.source)).toEqual(['all.ndjson#1', 'all.ndjson#2']);
  });

  it('what is not a check report is exit 2 naming the input and what it is', () => {
    const facts = cluster(1)[0]!.facts;
    const cases: Array<[unknown, string]> = [
      [facts, 'invalid report f.json: this is a qprep facts document, not a report of "qprep check --format json"'],
      [{ schemaVersion: 1, tool: { name: 'qprep', version: '0.1.0' }, command: 'tune', changed: false }, 'invalid report f.json: this is a qprep tune document, not a report of "qprep check --format json"'],
      [{ ...healthy, schemaVersion: 2 }, 'invalid report f.json: schemaVersion 2: this qprep reads reports of schemaVersion 1'],
      [{ ...healthy, checks: [{ ...healthy.checks[0], status: 'green' }] }, 'invalid report f.json: checks.0.status: Invalid option: expected one of "pass"|"warn"|"fail"|"skip"|"error"'],
      [[], 'invalid report f.json: an empty list: no report in it'],
      [[[healthy]], 'invalid report f.json: expected a qprep check report (a JSON object), got an array inside an array'],
      [{ hello: 'world' }, 'invalid report f.json: not a report of "qprep check --format json" (no "checks")'],
    ];
    for (const [value, message] of cases) expect(() => readNodeDocuments({ source: 'f.json', text: text(value) }), message).toThrow(message);
    expect(() => readNodeDocuments({ source: 'f.json', text: `${text(healthy)}\nqprep: error: boom\n` })).toThrow(/^invalid report f\.json: line \d+: unexpected|the JSON document starting on line \d+ is not valid JSON/);
  });

  it('a field the report schema does not know yet is read from the document itself (super pod id)', () => {
    const report = clusterNode(healthy, 0, { superPod: 3 });
    const [record] = readNodeDocuments({ source: 'r.json', text: text(report) });
    expect(record).toMatchObject({ kind: 'report', values: { superPod: '3' } });
  });
});
