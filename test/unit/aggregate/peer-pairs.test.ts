import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.peers.js';
import { aggregate } from '../../../src/aggregate/analyze.js';
import { readNodeDocuments } from '../../../src/aggregate/documents.js';
import { peersEvidenceSchema } from '../../../src/aggregate/peer-pairs.js';
import { aggregateDocumentSchema, type AggregateDocument } from '../../../src/report/aggregate-schema.js';
import { parseClusterText } from '../../../src/cluster/load.js';
import { planPings, type PlannedPing } from '../../../src/cluster/plan.js';
import { formatAggregateHuman } from '../../../src/report/aggregate.js';
import type { Report } from '../../../src/report/schema.js';
import { syntheticFixture } from '../../helpers/fixtures.js';
import { captureLines, hccnHost, runHccn } from '../../helpers/hccn-host.js';
import { clusterNode, demoReport } from '../../helpers/node-reports.js';

/**
 * pairs: once end to end below the CLI: hccn.peers runs on a fake A2 host of 8 NPUs for every
 * node of a 3-node cluster file, its results go into that node's report, and aggregate joins the
 * reports. The same faults with pairs: both must give the same cluster verdict.
 */

const NODES = ['node1', 'node2', 'node3'];
const DEVICES = [0, 1, 2, 3, 4, 5, 6, 7];
const NOW = new Date('2026-12-01T08:10:00.000Z');

function clusterText(pairs: 'both' | 'once', plan = 'same-index'): string {
  const lines = [`plan: ${plan}`, `pairs: ${pairs}`, 'nodes:'];
  NODES.forEach((name, k) => {
    lines.push(`  - name: ${name}`, `    host: 10.0.0.${k + 1}`, `    devices: [${DEVICES.map((d) => `{device: ${d}, ip: 198.18.${k + 1}.${10 + d}}`).join(', ')}]`);
  });
  return `${lines.join('\n')}\n`;
}

const ok = (d: number, address: string) => captureLines('hccn-ping-success-a2x8-mindie-dsv3doc.txt', d * 5, 5).replace('11.12.165.80', address);
const lost = (d: number, address: string) => syntheticFixture('hccn-ping-no-reply.txt').replace('device 3', `device ${d}`).replace('198.18.2.13', address);

/** A ping through the cut cable of `cut` (node and device): both ends of the pair fail. */
type Cut = { node: string; device: number } | null;
const through = (cut: Cut, p: PlannedPing) => cut !== null && ((p.localNode === cut.node && p.localDevice === cut.device) || (p.peerNode === cut.node && p.peerDevice === cut.device));

async function reportOf(text: string, node: string, index: number, cut: Cut): Promise<Report> {
  const plan = planPings(parseClusterText(text, 'cluster.yaml'), node);
  const spec = hccnHost({ pings: plan.pings.map((p) => ({ device: p.localDevice, address: p.address, answer: (through(cut, p) ? lost : ok)(p.localDevice, p.address) })) });
  const { result } = await runHccn(check, spec, { cluster: text, node });
  const report = clusterNode(demoReport('a2-healthy'), index);
  report.cluster = { file: 'cluster.yaml', name: null, self: node, matchedBy: 'node-option', evidence: `--node ${node}`, nodes: NODES, plan: plan.plan, pairs: plan.pairs };
  report.checks = [...report.checks.filter((c) => c.id !== 'hccn.peers'), { ...result, durationMs: 1 }];
  if (result.status === 'fail' || result.status === 'error') {
    report.ready = false;
    report.blocking = ['hccn.peers'];
  }
  return report;
}

async function clusterRun(pairs: 'both' | 'once', cut: Cut = null, plan = 'same-index'): Promise<Report[]> {
  const text = clusterText(pairs, plan);
  return Promise.all(NODES.map((node, index) => reportOf(text, node, index, cut)));
}

function aggregated(reports: readonly Report[]): AggregateDocument {
  const documents = reports.flatMap((report, i) => readNodeDocuments({ source: `r${i}.json`, text: JSON.stringify(report) }));
  const document = aggregate(documents, { now: NOW });
  expect(aggregateDocumentSchema.safeParse(document).success).toBe(true);
  return document;
}

const peers = (report: Report) => report.checks.find((c) => c.id === 'hccn.peers')!;

describe('pairs: once, joined by aggregate', () => {
  it('each node pings half of its pairs and lists the other half by owner, valid against the published evidence schema', async () => {
    const reports = await clusterRun('once');
    for (const report of reports) {
      const result = peers(report);
      expect(result.status).toBe('pass');
      expect(result.message).toMatch(/^all 8 pings to node\d, node\d ok \(same-index, RoCE, pairs once: 8 more pinged by the peers\)$/);
      const evidence = peersEvidenceSchema.parse(result.evidence);
      expect(evidence.pairs).toBe('once');
      expect(evidence.results).toHaveLength(8);
      expect(evidence.peerOwned!.flatMap((o) => o.pairs)).toHaveLength(8);
    }
    // node1 says node2 owns [node1 device, node2 device]; node2 pinged exactly those
    const node1Says = peersEvidenceSchema.parse(peers(reports[0]!).evidence).peerOwned!.find((o) => o.peerNode === 'node2')!.pairs;
    const node2Did = peersEvidenceSchema.parse(peers(reports[1]!).evidence).results.filter((r) => r.peerNode === 'node1').map((r) => [r.peerDevice, r.localDevice]);
    expect(node2Did).toEqual(node1Says);

    const document = aggregated(reports);
    expect(document.ready).toBe(true);
    expect(document.peerPairs).toMatchObject({ nodes: NODES, total: 24, ok: 24, failed: 0, notVerified: 0, failing: [], unverified: [] });
  });

  it('a report without pairs: once has no matrix: the aggregate of pairs: both is unchanged', async () => {
    const document = aggregated(await clusterRun('both'));
    expect(document.ready).toBe(true);
    expect(document.peerPairs).toBeUndefined();
  });

  it('a cut cable: the same verdict as pairs: both, and every pair through it named once, by the node that pinged it', async () => {
    const cut = { node: 'node2', device: 3 };
    const both = aggregated(await clusterRun('both', cut));
    const once = aggregated(await clusterRun('once', cut));
    expect([both.ready, once.ready]).toEqual([false, false]);
    const named = [...once.peerPairs!.failing, ...once.peerPairs!.unverified].map((p) => [p.owner, p.ownerDevice, p.peer, p.peerDevice].join(':'));
    expect(named).toHaveLength(2);
    expect(named.map((n) => n.split(':').filter((_, i) => i % 2 === 0).sort().join('+'))).toEqual(['node1+node2', 'node2+node3']);
    expect(once.peerPairs!.failed).toBe(2);
    expect(once.peerPairs!.failing.map((p) => p.detail)).toEqual(['100% loss', '100% loss']);
    expect(once.findings.find((f) => f.kind === 'pair-failed')).toMatchObject({ severity: 'fail', message: expect.stringMatching(/^2 of 24 NPU pairs failed: node\d dev3 -> node\d dev3: 100% loss, node\d dev3 -> node\d dev3: 100% loss$/) });
  });

  it('a missing owner report leaves its pairs not verified: not ready, each owner named', async () => {
    const reports = await clusterRun('once');
    const document = aggregated(reports.filter((r) => r.cluster!.self !== 'node3'));
    expect(document.ready).toBe(false);
    expect(document.peerPairs!.notVerified).toBe(8);
    const finding = document.findings.find((f) => f.kind === 'pair-not-verified')!;
    expect(finding.message).toMatch(/^8 NPU pairs owned by node3 are not verified: node3 has no report: node3 dev\d -> node\d dev\d, /);
    expect(finding.nodes.sort()).toEqual(NODES);
    const text = formatAggregateHuman(document, { color: false });
    expect(text).toContain('\nNPU pairs (pairs: once)\n  24 pairs joined from 2 reports: 16 ok, 0 failed, 8 not verified\n');
    expect(text).toContain('  ✗ fail  8 NPU pairs owned by node3 are not verified: node3 has no report: ');
    expect(text.trimEnd().split('\n').at(-1)).toBe('CLUSTER NOT READY: 8 NPU pairs not verified');
    // with pairs: both the two remaining nodes pinged node3 themselves: ready, as before
    const both = await clusterRun('both');
    expect(aggregated(both.filter((r) => r.cluster!.self !== 'node3')).ready).toBe(true);
  });

  it('an owner that did not run hccn.peers verifies nothing', async () => {
    const reports = await clusterRun('once');
    reports[1]!.checks = reports[1]!.checks.filter((c) => c.id !== 'hccn.peers');
    const document = aggregated(reports);
    expect(document.ready).toBe(false);
    expect(document.findings.filter((f) => f.kind === 'pair-not-verified').map((f) => f.message.replace(/: node2 dev.*$/, ''))).toEqual([
      "8 NPU pairs owned by node2 are not verified: node2's report has no hccn.peers (run it without --only or --skip hiding it)",
    ]);
  });

  it('full mesh with pairs: once: 192 pairs, each pinged once, all joined', async () => {
    const reports = await clusterRun('once', null, 'full-mesh');
    expect(reports.map((r) => (peers(r).evidence.results as unknown[]).length)).toEqual([64, 64, 64]);
    expect(aggregated(reports).peerPairs).toMatchObject({ total: 3 * 64, ok: 3 * 64 });
  });
});
