import { describe, expect, it } from 'vitest';
import { aggregate } from '../../../src/aggregate/analyze.js';
import { readNodeDocuments } from '../../../src/aggregate/documents.js';
import { judgeLaunch, type LaunchNode } from '../../../src/aggregate/launch.js';
import { aggregateDocumentSchema } from '../../../src/report/aggregate-schema.js';
import { formatAggregateHuman } from '../../../src/report/aggregate.js';
import { createContext } from '../../../src/core/runner.js';
import { launchView } from '../../../src/probes/launch.js';
import { launchLayout } from '../../../src/probes/launch-layout.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { edited, filledIn, guideScript } from '../../helpers/launch.js';
import { clusterNode, demoReport } from '../../helpers/node-reports.js';
import { profileWith } from '../../helpers/run-check.js';

/** The three A3 nodes of the guide's 1P1D deployment: P at .11, the decode nodes at .12 (rank 0) and .13. */
const P = '10.0.0.11';
const D0 = '10.0.0.12';
const D1 = '10.0.0.13';

async function node(name: string, script: string, text: string, addresses: string[] = []): Promise<LaunchNode> {
  const ctx = createContext({ host: new FakeHost({}), profile: profileWith(), timeoutMs: 1000, now: () => new Date('2026-12-01T00:00:00Z'), launch: { file: script, text, from: 'file' } });
  const layout = launchLayout((await launchView(ctx))!)!;
  const declared = layout.nodeAddress?.known && /^\d+\.\d+\.\d+\.\d+$/.test(layout.nodeAddress.value) ? [layout.nodeAddress.value] : [];
  return { name, script, layout, addresses: [...new Set([...addresses, ...declared])] };
}

type Changes = ReadonlyArray<readonly [string, string]>;

/** The cluster with the guide's scripts filled in for these nodes, each with the changes a test plants. */
async function cluster(changes: { p?: Changes; d0?: Changes; d1?: Changes } = {}) {
  return [
    await node('a3-p', 'run_p.sh', edited(filledIn('run_p.sh', P), changes.p ?? []), [P]),
    await node('a3-d0', 'run_d0.sh', edited(filledIn('run_d0.sh', D0, D0), changes.d0 ?? []), [D0]),
    await node('a3-d1', 'run_d1.sh', edited(filledIn('run_d1.sh', D1, D0), changes.d1 ?? []), [D1]),
  ];
}

const failures = (nodes: LaunchNode[], without: string[] = []) => judgeLaunch(nodes, without).findings.filter((f) => f.severity === 'fail');

describe('qprep aggregate: the launch rules across nodes (the PD scripts of the guide)', () => {
  it('run_p.sh, run_d0.sh, run_d1.sh filled in for three nodes: one prefill and one decode instance, nothing wrong', async () => {
    const verdict = judgeLaunch(await cluster(), []);
    expect(verdict.findings).toEqual([]);
    expect(verdict.launch.instances).toEqual([
      { role: 'prefill', master: 'a3-p', address: P, dp: 8, tp: 2, pp: 1, nodes: [{ node: 'a3-p', script: 'run_p.sh', startRank: 0, dpLocal: 8, ranks: '0-7' }] },
      {
        role: 'decode',
        master: 'a3-d0',
        address: D0,
        dp: 16,
        tp: 2,
        pp: 1,
        nodes: [
          { node: 'a3-d0', script: 'run_d0.sh', startRank: 0, dpLocal: 8, ranks: '0-7' },
          { node: 'a3-d1', script: 'run_d1.sh', startRank: 8, dpLocal: 8, ranks: '8-15' },
        ],
      },
    ]);
  });

  it('as published (placeholders): no cross-node failure, a note that the master address cannot be compared', async () => {
    const nodes = [await node('a3-p', 'run_p.sh', guideScript('run_p.sh')), await node('a3-d0', 'run_d0.sh', guideScript('run_d0.sh')), await node('a3-d1', 'run_d1.sh', guideScript('run_d1.sh'))];
    const { findings, launch } = judgeLaunch(nodes, []);
    expect(findings.filter((f) => f.severity !== 'note')).toEqual([]);
    expect(findings.map((f) => f.message)).toEqual([
      'a3-d0: the master address of decode instance cannot be compared: --data-parallel-address (run_d0.sh:44, node0_ip at line 10) is "xxxx", not an IP address (launch.placeholders and launch.network on a3-d0 say why)',
      'a3-d1: the master address of decode instance cannot be compared: --data-parallel-address (run_d1.sh:43, node0_ip at line 10) is "xxxx", not an IP address (launch.placeholders and launch.network on a3-d1 say why)',
    ]);
    expect(launch.instances.map((i) => [i.role, i.master, i.nodes.map((n) => n.ranks)])).toEqual([
      ['prefill', 'a3-p', ['0-7']],
      ['decode', 'a3-d0', ['0-7', '8-15']],
    ]);
  });

  it('a start rank off by one (run_d1.sh at 9) is caught at its line, with the rank it should be', async () => {
    const [finding, ...rest] = failures(await cluster({ d1: [['--data-parallel-start-rank 8', '--data-parallel-start-rank 9']] }));
    expect(rest).toEqual([]);
    expect(finding).toEqual({
      severity: 'fail',
      kind: 'launch',
      message: 'decode instance at 10.0.0.12: a3-d1 starts at rank 9 (run_d1.sh:42), leaving rank 8 to no node; ranks 0-7 are on a3-d0, so it should start at 8',
      nodes: ['a3-d1'],
      remediation: 'run_d1.sh line 42: --data-parallel-start-rank 8   # the ranks of the nodes before it (ranks 0-7 are on a3-d0)',
    });
  });

  it('a second node that also starts rank 0 serves ranks again; the master keeps them', async () => {
    const [finding, ...rest] = failures(await cluster({ d1: [['--data-parallel-start-rank 8', '--data-parallel-start-rank 0']] }));
    expect(rest).toEqual([]);
    expect(finding!.message).toBe('decode instance at 10.0.0.12: a3-d1 starts at rank 0 (run_d1.sh:42), serving again ranks 0-7; ranks 0-7 are on a3-d0, so it should start at 8');
  });

  it('a wrong master address on run_d1.sh is caught at the node0_ip line, with the master it should name', async () => {
    const [finding, ...rest] = failures(await cluster({ d1: [[`node0_ip="${D0}"`, 'node0_ip="10.0.0.99"']] }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      message: 'decode instance at 10.0.0.12: a3-d1 names master 10.0.0.99 (run_d1.sh:43, node0_ip at line 10), but rank 0 is on a3-d0 at 10.0.0.12',
      remediation: 'run_d1.sh line 10: node0_ip="10.0.0.12"   # a3-d0, which starts rank 0 (its local_ip)',
      nodes: ['a3-d1'],
    });
  });

  it('a rank-0 node whose master address is not its own: no node can be the master', async () => {
    const [finding, ...rest] = failures(await cluster({ d0: [[`node0_ip="${D0}"`, `node0_ip="${D1}"`]], d1: [[`node0_ip="${D0}"`, `node0_ip="${D1}"`]] }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      message: 'decode instance: a3-d0 starts rank 0 but names master 10.0.0.13 (run_d0.sh:44, node0_ip at line 10), which is not one of its addresses (10.0.0.12): no node can be the master',
      remediation: 'run_d0.sh line 10: node0_ip="10.0.0.12"   # a3-d0 starts rank 0: its own address',
    });
  });

  it("a wrong decode tp_size in run_p.sh's KV config is caught against the decode instance, at the line of the key", async () => {
    const planted: Changes = [['"dp_size": 16,\n              "tp_size": 2', '"dp_size": 16,\n              "tp_size": 4']];
    const [finding, ...rest] = failures(await cluster({ p: planted }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      message: 'decode.tp_size 4 in kv_connector_extra_config of run_p.sh:68 (a3-p), but the decode instance runs --tensor-parallel-size 2 (a3-d0, a3-d1)',
      remediation: 'run_p.sh line 68: "tp_size": 2   # in the decode block',
      nodes: ['a3-p', 'a3-d0', 'a3-d1'],
    });
  });

  it('the same wrong prefill dp_size on both decode nodes is one finding naming both lines', async () => {
    const planted: Changes = [['"prefill": {\n              "dp_size": 8', '"prefill": {\n              "dp_size": 4']];
    const [finding, ...rest] = failures(await cluster({ d0: planted, d1: planted }));
    expect(rest).toEqual([]);
    expect(finding!.message).toBe('prefill.dp_size 4 in kv_connector_extra_config of run_d0.sh:68 (a3-d0), run_d1.sh:67 (a3-d1), but the prefill instance runs --data-parallel-size 8 (a3-p)');
    expect(finding!.remediation).toBe('run_d0.sh line 68: "dp_size": 8   # in the prefill block\nrun_d1.sh line 67: "dp_size": 8   # in the prefill block');
  });

  it('a decode node that runs another TP than its instance is named, with the line of its flag', async () => {
    const found = failures(await cluster({ d1: [['--tensor-parallel-size 2', '--tensor-parallel-size 4']] }));
    expect(found.map((f) => f.message)).toEqual(['decode instance at 10.0.0.12: a3-d1 runs --tensor-parallel-size 4 (run_d1.sh:46), a3-d0 2: the nodes of one instance must agree']);
    expect(found[0]!.remediation).toBe('run_d1.sh line 46: --tensor-parallel-size 2');
  });

  it('ranks nobody reported: the decode node that did not report', async () => {
    const [p, d0] = await cluster();
    const found = failures([p!, d0!]);
    expect(found.map((f) => f.message)).toEqual([
      'decode instance at 10.0.0.12: ranks 8-15 of --data-parallel-size 16 are served by no node that reported (a3-d0 0-7): a node without a report, or a wrong start rank or local size',
    ]);
  });

  it('nodes reported without a launch layout are noted, not judged', async () => {
    const { findings } = judgeLaunch(await cluster(), ['a3-spare']);
    expect(findings).toEqual([
      { severity: 'note', kind: 'launch', message: 'a3-spare reported no launch layout (checked without --launch, or the script starts no server): the cross-node launch rules leave it out', nodes: [] },
    ]);
  });

  it('two instances of one role are told apart by their masters; a node naming neither joins none', async () => {
    const serve = (address: string, master: string, start: number) =>
      `export HCCL_IF_IP=${address}\nvllm serve /models/q \\\n  --data-parallel-size 16 --data-parallel-size-local 8 \\\n  --data-parallel-start-rank ${start} \\\n  --data-parallel-address ${master} --data-parallel-rpc-port 13389\n`;
    const nodes = [
      await node('n1', 'run.sh', serve('10.1.0.1', '10.1.0.1', 0)),
      await node('n2', 'run.sh', serve('10.1.0.2', '10.1.0.1', 8)),
      await node('n3', 'run.sh', serve('10.1.0.3', '10.1.0.3', 0)),
      await node('n4', 'run.sh', serve('10.1.0.4', '10.1.0.3', 8)),
      await node('n5', 'run.sh', serve('10.1.0.5', '10.1.0.9', 8)),
    ];
    const { launch, findings } = judgeLaunch(nodes, []);
    expect(launch.instances.map((i) => [i.master, i.nodes.map((n) => n.node)])).toEqual([
      ['n1', ['n1', 'n2']],
      ['n3', ['n3', 'n4']],
    ]);
    expect(findings.map((f) => f.message)).toEqual(['n5 names master 10.1.0.9 (run.sh:5), which is none of the 2 instances (rank 0 on n1 at 10.1.0.1, n3 at 10.1.0.3): its ranks join no instance']);
    expect(findings[0]!.remediation).toBe('run.sh line 5: --data-parallel-address 10.1.0.1   # the master of the instance this node belongs to');
  });

  it('nodes of one instance must agree on the RPC port (vLLM default 29550 where not given)', async () => {
    const found = failures(await cluster({ d1: [['--data-parallel-rpc-port 6884 \\\n', '']] }));
    expect(found.map((f) => f.message)).toEqual(['decode instance at 10.0.0.12: a3-d1 runs --data-parallel-rpc-port 29550 (run_d1.sh:34), a3-d0 6884: the nodes of one instance must agree']);
  });
});

describe('qprep aggregate over reports that carry launch layouts', () => {
  async function reports(plantD1: Changes = []) {
    const nodes = await cluster({ d1: plantD1 });
    return nodes.map((n, i) => {
      const report = clusterNode(demoReport('a3-healthy'), i);
      report.host.hostname = n.name;
      report.facts.hostAddresses = [...n.addresses];
      report.launch = { file: `/opt/deploy/${n.script}`, from: 'file', lines: 80, serve: { line: n.layout.lines.serve, form: 'vllm serve', model: 'Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp', layout: n.layout } };
      return report;
    });
  }
  const run = (docs: unknown[]) => {
    const documents = docs.flatMap((d, i) => readNodeDocuments({ source: `r${i}.json`, text: JSON.stringify(d) }));
    const document = aggregate(documents, { now: new Date('2026-12-01T08:10:00Z') });
    expect(aggregateDocumentSchema.safeParse(document).success).toBe(true);
    return document;
  };

  it('a ready cluster lists its instances; the human verdict shows the layout', async () => {
    const document = run(await reports());
    expect(document.ready).toBe(true);
    expect(document.launch!.instances.map((i) => `${i.role}:${i.nodes.map((n) => `${n.node}=${n.ranks}`).join(',')}`)).toEqual(['prefill:a3-p=0-7', 'decode:a3-d0=0-7,a3-d1=8-15']);
    const human = formatAggregateHuman(document, { color: false });
    expect(human).toContain('\nLaunch layout\n  prefill instance, DP 8 x TP 2, master a3-p at 10.0.0.11: a3-p ranks 0-7 (run_p.sh)\n  decode instance, DP 16 x TP 2, master a3-d0 at 10.0.0.12: a3-d0 ranks 0-7 (run_d0.sh), a3-d1 ranks 8-15 (run_d1.sh)\n');
  });

  it('a planted start rank makes the cluster not ready, with the fix under the finding', async () => {
    const document = run(await reports([['--data-parallel-start-rank 8', '--data-parallel-start-rank 9']]));
    expect(document.ready).toBe(false);
    expect(document.findings.filter((f) => f.kind === 'launch').map((f) => f.nodes)).toEqual([['a3-d1']]);
    const human = formatAggregateHuman(document, { color: false });
    expect(human).toContain('  ✗ fail  decode instance at 10.0.0.12: a3-d1 starts at rank 9 (run_d1.sh:42), leaving rank 8 to no node; ranks 0-7 are on a3-d0, so it should start at 8\n          fix: run_d1.sh line 42: --data-parallel-start-rank 8');
    expect(human).toMatch(/CLUSTER NOT READY: .*1 launch script problem\n$/);
  });

  it('single-node servers (the A3 demo with the single-node script) are one line of the layout, and judge nothing', () => {
    const document = run(Array.from({ length: 3 }, (_, i) => clusterNode(demoReport('a3-healthy'), i)));
    expect(document.launch!.instances.map((i) => [i.role, i.master, i.nodes.length])).toEqual([
      ['serve', 'node01', 1],
      ['serve', 'node02', 1],
      ['serve', 'node03', 1],
    ]);
    expect(document.findings.filter((f) => f.kind === 'launch')).toEqual([]);
    expect(formatAggregateHuman(document, { color: false })).toContain('\nLaunch layout\n  3 single-node instances: node01, node02, node03\n');
  });

  it('reports without --launch: no launch section at all', () => {
    const document = run([clusterNode(demoReport('a2-healthy'), 0), clusterNode(demoReport('a2-healthy'), 1)]);
    expect(document.launch).toBeUndefined();
  });
});
