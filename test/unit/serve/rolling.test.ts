import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { performCheck } from '../../../src/app/session.js';
import check from '../../../checks/hccn.peers.js';
import { aggregate } from '../../../src/aggregate/analyze.js';
import { readNodeDocuments } from '../../../src/aggregate/documents.js';
import { aggregateDocumentSchema, type AggregateDocument } from '../../../src/report/aggregate-schema.js';
import { parseClusterText } from '../../../src/cluster/load.js';
import { planPings, type PlannedPing } from '../../../src/cluster/plan.js';
import { RollingLedger } from '../../../src/cluster/rolling.js';
import { formatAggregateHuman } from '../../../src/report/aggregate.js';
import type { Report } from '../../../src/report/schema.js';
import { syntheticFixture } from '../../helpers/fixtures.js';
import { captureLines, hccnHost, runHccn } from '../../helpers/hccn-host.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { clusterNode, demoReport } from '../../helpers/node-reports.js';
import { profileWith } from '../../helpers/run-check.js';

/**
 * plan: rolling as qprep serve runs it: one ledger for the life of the agent, handed to every
 * run (performCheck puts it into the run's cluster), on fake A2 hosts of 8 NPUs answering with
 * real hccn_tool captures. 5 nodes, rollingK 4: the ring pairs (8 a run) and 24 more pairs in
 * 6 runs.
 */

const NODES = ['node1', 'node2', 'node3', 'node4', 'node5'];
const DEVICES = [0, 1, 2, 3, 4, 5, 6, 7];
const T0 = Date.parse('2026-12-01T08:00:00.000Z');

function clusterText(pairs: 'both' | 'once' = 'both', extra = ''): string {
  const lines = ['plan: rolling', `pairs: ${pairs}`, 'rollingK: 4', extra, 'nodes:'];
  NODES.forEach((name, k) => {
    lines.push(`  - name: ${name}`, `    host: 10.0.0.${k + 1}`, `    devices: [${DEVICES.map((d) => `{device: ${d}, ip: 198.18.${k + 1}.${10 + d}}`).join(', ')}]`);
  });
  return `${lines.join('\n')}\n`;
}

const ok = (d: number, address: string) => captureLines('hccn-ping-success-a2x8-mindie-dsv3doc.txt', d * 5, 5).replace('11.12.165.80', address);
const lost = (d: number, address: string) => syntheticFixture('hccn-ping-no-reply.txt').replace('device 3', `device ${d}`).replace('198.18.2.13', address);
type Cut = { node: string; device: number } | null;
const through = (cut: Cut, p: PlannedPing) => cut !== null && ((p.localNode === cut.node && p.localDevice === cut.device) || (p.peerNode === cut.node && p.peerDevice === cut.device));

/** One serve run on `node`: the fake host answers the pings this rotation plans. */
async function serveRun(text: string, node: string, ledger: RollingLedger | undefined, atMs: number, cut: Cut = null) {
  const rotation = ledger?.nextRotation() ?? Math.floor(atMs / 60_000);
  const plan = planPings(parseClusterText(text, 'cluster.yaml'), node, { rotation });
  const spec = hccnHost({ pings: plan.pings.map((p) => ({ device: p.localDevice, address: p.address, answer: (through(cut, p) ? lost : ok)(p.localDevice, p.address) })) });
  const { result } = await runHccn(check, spec, { cluster: text, node, now: new Date(atMs), ...(ledger ? { rolling: ledger } : {}) });
  return result;
}

function reportWith(result: Awaited<ReturnType<typeof serveRun>>, node: string, text: string): Report {
  const index = NODES.indexOf(node);
  const report = clusterNode(demoReport('a2-healthy'), index);
  report.cluster = { file: 'cluster.yaml', name: null, self: node, matchedBy: 'node-option', evidence: `--node ${node}`, nodes: NODES, plan: 'rolling', pairs: parseClusterText(text, 'c').pairs };
  report.checks = [...report.checks.filter((c) => c.id !== 'hccn.peers'), { ...result, durationMs: 1 }];
  if (result.status === 'fail' || result.status === 'error') {
    report.ready = false;
    report.blocking = ['hccn.peers'];
  }
  return report;
}

function aggregated(reports: readonly Report[], now: Date): AggregateDocument {
  const documents = reports.flatMap((report, i) => readNodeDocuments({ source: `r${i}.json`, text: JSON.stringify(report) }));
  const document = aggregate(documents, { now });
  expect(aggregateDocumentSchema.safeParse(document).success).toBe(true);
  return document;
}

interface RollingEvidence {
  rotation: number;
  rotations: number;
  coverage: { total: number; ok: number; never: number; stale: number; failed: number };
  proofs: Array<{ peerNode: string; localDevice: number; state: string; ageS: number | null }>;
}
const rollingOf = (result: { evidence?: Record<string, unknown> }) => result.evidence!.rolling as RollingEvidence;

describe('plan: rolling under qprep serve', () => {
  it('a one-shot check pings one rotation and warns of partial coverage, never a pass', async () => {
    const text = clusterText();
    const result = await serveRun(text, 'node1', undefined, T0);
    expect(result.status).toBe('warn');
    expect(result.message).toMatch(/^all 12 pings of this run ok; 12 of 32 pairs of the matrix proven \(rolling, rotation \d of 6\): partial coverage: a one-shot run pings one rotation/);
    expect(rollingOf(result).coverage).toMatchObject({ total: 32, ok: 12, never: 20 });
  });

  it('kept across runs: partial until M runs, then every pair proven, each with its age', async () => {
    const text = clusterText();
    const ledger = new RollingLedger();
    const statuses: string[] = [];
    let last: Awaited<ReturnType<typeof serveRun>> | undefined;
    for (let run = 0; run < 6; run++) {
      last = await serveRun(text, 'node1', ledger, T0 + run * 60_000);
      statuses.push(last.status);
    }
    expect(statuses).toEqual(['warn', 'warn', 'warn', 'warn', 'warn', 'pass']);
    expect(last!.message).toBe('all 32 pairs of the matrix proven within 3600 s (rolling, rotation 6 of 6: 12 pings this run)');
    const rolling = rollingOf(last!);
    expect(rolling.coverage).toMatchObject({ total: 32, ok: 32, never: 0, stale: 0, failed: 0 });
    // the ring pairs are pinged every run: age 0; the first window's pairs are 5 minutes old
    expect(rolling.proofs.filter((p) => p.peerNode === 'node2').every((p) => p.ageS === 0)).toBe(true);
    expect(rolling.proofs.find((p) => p.peerNode === 'node3' && p.localDevice === 0)!.ageS).toBe(300);
  });

  it('a proof older than rollingMaxAgeS no longer verifies its pair', async () => {
    const text = clusterText('both', 'rollingMaxAgeS: 240');
    const ledger = new RollingLedger();
    let last: Awaited<ReturnType<typeof serveRun>> | undefined;
    for (let run = 0; run < 6; run++) last = await serveRun(text, 'node1', ledger, T0 + run * 60_000);
    expect(last!.status).toBe('warn');
    expect(rollingOf(last!).coverage).toMatchObject({ stale: 4, never: 0 });
    expect(last!.details!.join('\n')).toMatch(/matrix coverage: 28 of 32 pairs proven within 240 s, 4 older than that; oldest proof 300 s/);
  });

  it('a cut cable: the run that pings it fails, and so do the runs after it while the failed proof stands', async () => {
    const text = clusterText();
    const ledger = new RollingLedger();
    const cut = { node: 'node3', device: 2 };
    const statuses: string[] = [];
    for (let run = 0; run < 3; run++) statuses.push((await serveRun(text, 'node1', ledger, T0 + run * 60_000, cut)).status);
    // rotation 0 pings node3 dev0..3: its dev2 pair fails; rotations 1 and 2 do not ping it again
    expect(statuses).toEqual(['fail', 'fail', 'fail']);
    const third = await serveRun(text, 'node1', ledger, T0 + 3 * 60_000, cut);
    expect(third.message).toMatch(/^1 pair of the matrix failed at its last ping \(rolling, rotation 4 of 6\)$/);
  });

  it('qprep aggregate judges the kept proofs by their age at aggregate time', async () => {
    const text = clusterText('once');
    const ledgers = new Map(NODES.map((n) => [n, new RollingLedger()]));
    const latest = new Map<string, Report>();
    const rotations = rollingOf(await serveRun(text, 'node1', undefined, T0)).rotations;
    for (let run = 0; run < rotations; run++) {
      for (const node of NODES) latest.set(node, reportWith(await serveRun(text, node, ledgers.get(node), T0 + run * 60_000), node, text));
    }
    const endMs = T0 + (rotations - 1) * 60_000;
    const fresh = aggregated([...latest.values()], new Date(endMs + 1000));
    expect(fresh.findings.filter((f) => f.severity === 'fail').map((f) => f.message)).toEqual([]);
    expect(fresh.ready).toBe(true);
    expect(fresh.peerPairs).toMatchObject({ total: 80, ok: 80, notVerified: 0, rolling: { nodes: NODES, maxAgeS: 3600, never: 0, stale: 0 } });
    expect(formatAggregateHuman(fresh, { color: false })).toMatch(/NPU pairs \(plan: rolling\)\n {2}80 pairs joined from 5 reports: 80 ok, 0 failed, 0 not verified\n {2}rolling coverage 100%: oldest valid proof \d+ s \(bound 3600 s\), 0 never proven, 0 older than the bound/);

    // the same reports read two hours later: every proof is too old, the cluster is not ready
    const late = aggregated([...latest.values()], new Date(endMs + 2 * 3600_000));
    expect(late.ready).toBe(false);
    expect(late.peerPairs).toMatchObject({ ok: 0, notVerified: 80, rolling: { stale: 80, oldestAgeS: null } });
    expect(late.peerPairs!.unverified[0]!.ageS).toBeGreaterThanOrEqual(7200);

    // one node's first run only: its unproven pairs are not verified
    const partial = [...latest.values()];
    partial[2] = reportWith(await serveRun(text, 'node3', new RollingLedger(), endMs), 'node3', text);
    const document = aggregated(partial, new Date(endMs + 1000));
    expect(document.ready).toBe(false);
    expect(document.peerPairs!.rolling!.never).toBeGreaterThan(0);
    expect(document.findings.some((f) => f.kind === 'pair-not-verified' && /never proven/.test(f.message))).toBe(true);
  });

  it('performCheck hands serve\'s ledger to the run: the runs of one agent add up, a run without it starts over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-rolling-'));
    try {
      const file = join(dir, 'cluster.yaml');
      const text = clusterText();
      writeFileSync(file, text);
      const ledger = new RollingLedger();
      const runOnce = async (rolling?: RollingLedger) => {
        const rotation = rolling?.nextRotation() ?? 0;
        const plan = planPings(parseClusterText(text, 'cluster.yaml'), 'node1', { rotation });
        const host = new FakeHost(hccnHost({ pings: plan.pings.map((p) => ({ device: p.localDevice, address: p.address, answer: ok(p.localDevice, p.address) })) }));
        const run = await performCheck({ host, source: { kind: 'live', root: '/' } }, { profile: profileWith(), source: 'builtin' }, { cluster: file, node: 'node1' }, { catalogue: [check], ...(rolling ? { rolling } : {}) });
        return run.results[0]!;
      };
      const statuses: string[] = [];
      for (let run = 0; run < 6; run++) statuses.push((await runOnce(ledger)).status);
      expect(statuses).toEqual(['warn', 'warn', 'warn', 'warn', 'warn', 'pass']);
      expect(ledger.nextRotation()).toBe(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
