import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { qprep, REPO, validateAgainstSchema } from '../helpers/cli.js';
import { edited, guideScript } from '../helpers/launch.js';

/**
 * The 1P1D deployment of the Qwen3.5-397B guide on a simulated three-node A3 cluster: the demo
 * snapshots a3-pd-prefill, a3-pd-decode0 and a3-pd-decode1 are three A3 hosts recorded with the
 * guide's run_p.sh, run_d0.sh and run_d1.sh filled in for them. Each node's report comes from
 * the built CLI replaying its snapshot (optionally with another --launch script), and
 * `qprep aggregate` judges the three reports together, as Ansible's controller would.
 */

interface PdNode {
  demo: string;
  hostname: string;
  profile: string;
  script: 'run_p.sh' | 'run_d0.sh' | 'run_d1.sh';
}

const NODES: PdNode[] = [
  { demo: 'a3-pd-prefill', hostname: 'a3-pd-node1', profile: 'qwen3.5-397b-pd-prefill-a3', script: 'run_p.sh' },
  { demo: 'a3-pd-decode0', hostname: 'a3-pd-node2', profile: 'qwen3.5-397b-pd-decode-a3', script: 'run_d0.sh' },
  { demo: 'a3-pd-decode1', hostname: 'a3-pd-node3', profile: 'qwen3.5-397b-pd-decode-a3', script: 'run_d1.sh' },
];

const REPLAY = { env: { PATH: '/nonexistent' } };

interface Report {
  ready: boolean;
  blocking: string[];
  checks: Array<{ id: string; status: string; message: string; remediation?: string }>;
}

interface Finding {
  severity: string;
  kind: string;
  message: string;
  nodes: string[];
  remediation?: string;
}

/** The script a demo node was recorded with: the guide's, filled in for that node. */
function recordedScript(node: PdNode): string {
  return (JSON.parse(readFileSync(join(REPO, 'examples/snapshots', `${node.demo}.json`), 'utf8')) as { launch: { text: string } }).launch.text;
}

/** qprep check of one node into `dir`; `script` replaces the recorded one (a file named like the guide's). */
async function checkNode(node: PdNode, dir: string, script?: string): Promise<Report> {
  const args = ['check', '--snapshot', `examples/snapshots/${node.demo}.json`, '--profile', node.profile, '--format', 'json', '--output', join(dir, `${node.demo}.json`)];
  if (script !== undefined) {
    const scriptDir = mkdtempSync(join(tmpdir(), `qprep-${node.demo}-`));
    writeFileSync(join(scriptDir, node.script), script);
    args.push('--launch', join(scriptDir, node.script));
  }
  const run = await qprep(args, REPLAY);
  expect([0, 1], run.stderr).toContain(run.exitCode);
  return JSON.parse(readFileSync(join(dir, `${node.demo}.json`), 'utf8')) as Report;
}

async function aggregateDir(dir: string) {
  const json = await qprep(['aggregate', dir, '--format', 'json']);
  const document = JSON.parse(json.stdout);
  const { valid, errors } = await validateAgainstSchema('aggregate', document);
  expect(valid, errors).toBe(true);
  const human = await qprep(['aggregate', dir, '--no-color']);
  expect(human.exitCode).toBe(json.exitCode);
  return { exitCode: json.exitCode, document, human: human.stdout, launchFailures: (document.findings as Finding[]).filter((f) => f.kind === 'launch' && f.severity === 'fail') };
}

/** Reports of the three nodes in a fresh directory: the recorded ones, except the node given another script. */
async function cluster(base: string, replaced?: { node: PdNode; script: string }): Promise<{ dir: string; planted?: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'qprep-pd-'));
  for (const node of NODES) if (node !== replaced?.node) copyFileSync(join(base, `${node.demo}.json`), join(dir, `${node.demo}.json`));
  if (!replaced) return { dir };
  return { dir, planted: await checkNode(replaced.node, dir, replaced.script) };
}

let base: string;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'qprep-pd-base-'));
  mkdirSync(base, { recursive: true });
  await Promise.all(NODES.map((node) => checkNode(node, base)));
});

describe('the PD scripts on a simulated three-node A3 cluster (qprep aggregate)', () => {
  it('filled in as the guide asks: every node ready, the cluster ready, one prefill and one decode instance, no launch finding but the prefill kv_port', async () => {
    for (const node of NODES) {
      const report = JSON.parse(readFileSync(join(base, `${node.demo}.json`), 'utf8')) as Report;
      expect(report.ready, node.demo).toBe(true);
      // run_p.sh's kv_port 23010 is inside 20000-35999, which the multi-node PD guide keeps free on 16 NPUs: a warning;
      // its KV cache holds 21 of its 64 requests of 16,384 tokens at once (model.fit): a warning; the decode nodes fit
      const expected = node.script === 'run_p.sh' ? [['launch.ports', 'warn'], ['model.fit', 'warn']] : [];
      expect(report.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => [c.id, c.status]), node.demo).toEqual(expected);
    }
    const { exitCode, document, human, launchFailures } = await aggregateDir(base);
    expect(exitCode).toBe(0);
    expect(document.ready).toBe(true);
    expect(launchFailures).toEqual([]);
    expect(document.launch.instances).toEqual([
      { role: 'prefill', master: 'a3-pd-node1', address: '10.20.3.41', dp: 8, tp: 2, pp: 1, nodes: [{ node: 'a3-pd-node1', script: 'run_p.sh', startRank: 0, dpLocal: 8, ranks: '0-7' }] },
      {
        role: 'decode',
        master: 'a3-pd-node2',
        address: '10.20.3.42',
        dp: 16,
        tp: 2,
        pp: 1,
        nodes: [
          { node: 'a3-pd-node2', script: 'run_d0.sh', startRank: 0, dpLocal: 8, ranks: '0-7' },
          { node: 'a3-pd-node3', script: 'run_d1.sh', startRank: 8, dpLocal: 8, ranks: '8-15' },
        ],
      },
    ]);
    // a prefill and a decode profile side by side are the design, not drift
    expect((document.findings as Finding[]).map((f) => [f.severity, f.kind])).toEqual([['note', 'drift']]);
    expect(human).toContain('  decode instance, DP 16 x TP 2, master a3-pd-node2 at 10.20.3.42: a3-pd-node2 ranks 0-7 (run_d0.sh), a3-pd-node3 ranks 8-15 (run_d1.sh)\n');
    expect(human).toMatch(/CLUSTER READY: 3 of 3 nodes ready\n$/);
  });

  it('as published: each node fails its placeholders only, and aggregate adds no cross-node failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-pd-published-'));
    const reports = await Promise.all(NODES.map((node) => checkNode(node, dir, guideScript(node.script))));
    for (const report of reports) expect(report.blocking).toEqual(['launch.placeholders', 'launch.network']);
    const { exitCode, document, launchFailures } = await aggregateDir(dir);
    expect(exitCode).toBe(1);
    expect(launchFailures).toEqual([]);
    expect((document.findings as Finding[]).filter((f) => f.kind === 'launch').map((f) => f.message)).toEqual([
      'a3-pd-node2: the master address of decode instance cannot be compared: --data-parallel-address (run_d0.sh:44, node0_ip at line 10) is "xxxx", not an IP address (launch.placeholders and launch.network on a3-pd-node2 say why)',
      'a3-pd-node3: the master address of decode instance cannot be compared: --data-parallel-address (run_d1.sh:43, node0_ip at line 10) is "xxxx", not an IP address (launch.placeholders and launch.network on a3-pd-node3 say why)',
    ]);
  });

  const planted: Array<{ what: string; node: number; change: [string, string]; message: string; remediation: string; local?: [string, string] }> = [
    {
      what: 'a start rank off by one (run_d1.sh)',
      node: 2,
      change: ['--data-parallel-start-rank 8', '--data-parallel-start-rank 9'],
      message: 'decode instance at 10.20.3.42: a3-pd-node3 starts at rank 9 (run_d1.sh:42), leaving rank 8 to no node; ranks 0-7 are on a3-pd-node2, so it should start at 8',
      remediation: 'run_d1.sh line 42: --data-parallel-start-rank 8   # the ranks of the nodes before it (ranks 0-7 are on a3-pd-node2)',
      local: ['launch.flags', 'this node would serve ranks 9-16, past the last rank 15 of --data-parallel-size 16 (--data-parallel-start-rank 9 at run_d1.sh:42)'],
    },
    {
      what: 'a wrong master address (run_d1.sh)',
      node: 2,
      change: ['node0_ip="10.20.3.42"', 'node0_ip="10.20.3.99"'],
      message: 'decode instance at 10.20.3.42: a3-pd-node3 names master 10.20.3.99 (run_d1.sh:43, node0_ip at line 10), but rank 0 is on a3-pd-node2 at 10.20.3.42',
      remediation: 'run_d1.sh line 10: node0_ip="10.20.3.42"   # a3-pd-node2, which starts rank 0 (its local_ip)',
    },
    {
      what: "a wrong decode tp_size in the prefill node's KV config (run_p.sh)",
      node: 0,
      change: ['"dp_size": 16,\n              "tp_size": 2', '"dp_size": 16,\n              "tp_size": 4'],
      message: 'decode.tp_size 4 in kv_connector_extra_config of run_p.sh:68 (a3-pd-node1), but the decode instance runs --tensor-parallel-size 2 (a3-pd-node2, a3-pd-node3)',
      remediation: 'run_p.sh line 68: "tp_size": 2   # in the decode block',
    },
    {
      what: "a wrong prefill dp_size in a decode node's KV config (run_d0.sh)",
      node: 1,
      change: ['"prefill": {\n              "dp_size": 8', '"prefill": {\n              "dp_size": 16'],
      message: 'prefill.dp_size 16 in kv_connector_extra_config of run_d0.sh:68 (a3-pd-node2), but the prefill instance runs --data-parallel-size 8 (a3-pd-node1)',
      remediation: 'run_d0.sh line 68: "dp_size": 8   # in the prefill block',
    },
  ];

  for (const plant of planted) {
    it(`catches ${plant.what} and points to the line`, async () => {
      const node = NODES[plant.node]!;
      const { dir, planted: report } = await cluster(base, { node, script: edited(recordedScript(node), [plant.change]) });
      if (plant.local) {
        const [id, message] = plant.local;
        expect(report!.checks.find((c) => c.id === id)).toMatchObject({ status: 'fail', message });
      }
      const { exitCode, document, human, launchFailures } = await aggregateDir(dir);
      expect(exitCode).toBe(1);
      expect(document.ready).toBe(false);
      expect(launchFailures.map((f) => f.message)).toEqual([plant.message]);
      expect(launchFailures[0]!.remediation).toBe(plant.remediation);
      expect(human).toContain(`${plant.message}\n          fix: ${plant.remediation.split('\n')[0]}\n`);
    });
  }
});
