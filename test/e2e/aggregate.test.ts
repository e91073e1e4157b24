import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, qprep, validateAgainstSchema } from '../helpers/cli.js';
import { clusterNode } from '../helpers/node-reports.js';

const PROFILE = 'qwen3.5-397b-w8a8-a2';
const DEMOS = { 'a2-node1': 'a2-healthy', 'a2-node3': 'a2-healthy-node3', 'a2-node7': 'a2-broken' } as const;

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-${prefix}-`));
}

/** Runs the built CLI with `input` on standard input. */
async function withInput(args: string[], input: string) {
  const result = await execa(process.execPath, [BIN, ...args], { input, reject: false, extendEnv: false, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

describe('qprep aggregate', () => {
  let dir: string;
  const reports: Record<string, string> = {};

  beforeAll(async () => {
    // the reports `qprep check --format json` prints for the three A2 demo hosts
    dir = tmp('aggregate');
    for (const [node, demo] of Object.entries(DEMOS)) {
      const run = await qprep(['check', '--snapshot', `examples/snapshots/${demo}.json`, '--profile', PROFILE, '--format', 'json'], { env: { PATH: '/nonexistent' } });
      expect(run.exitCode, run.stderr).toBe(node === 'a2-node7' ? 1 : 0);
      reports[node] = run.stdout;
      writeFileSync(join(dir, `${node}.json`), run.stdout);
    }
  });

  it('a directory of reports: every node, the odd one out, the verdict; JSON valid against qprep schema aggregate; exit 1', async () => {
    const run = await qprep(['aggregate', dir, '--format', 'json']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe('');
    const verdict = JSON.parse(run.stdout);
    const { valid, errors } = await validateAgainstSchema('aggregate', verdict);
    expect(valid, errors).toBe(true);
    expect(verdict.ready).toBe(false);
    expect(verdict.nodes.map((n: { name: string; verdict: string; source: string }) => [n.name, n.verdict, n.source])).toEqual([
      ['a2-node1', 'ready', join(dir, 'a2-node1.json')],
      ['a2-node3', 'ready', join(dir, 'a2-node3.json')],
      ['a2-node7', 'not-ready', join(dir, 'a2-node7.json')],
    ]);
    expect(verdict.nodes[2].failing.map((f: { id: string }) => f.id)).toEqual(['npu.driver-files', 'npu.health', 'npu.ecc', 'npu.idle']);
    expect(verdict.drift.map((d: { field: string; odd: unknown }) => [d.field, d.odd])).toEqual([
      ['driver', [{ node: 'a2-node7', value: '26.1.0' }]],
      ['npuSmi', [{ node: 'a2-node7', value: '26.1.0' }]],
    ]);
  });

  it('the human table: one row per node, the failing checks, the verdict', async () => {
    const run = await qprep(['aggregate', dir]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/^a2-node7 +NOT READY +\S+ +8×910B3 +26\.1\.0\* .*npu\.driver-files, npu\.health, npu\.ecc, npu\.idle$/m);
    expect(run.stdout).toContain('\nNot ready\n  a2-node7  ✗ fail   npu.driver-files  1 of 6 driver paths the guide mounts is not usable: /etc/ascend_install.info missing\n');
    expect(run.stdout).toMatch(/^ {12}✗ fail {3}npu\.idle {10}1 of 8 NPU devices in use: NPU 0: pid 485946 pytest \(5175 MB\)$/m);
    expect(run.stdout).toContain('  ✗ fail  driver version differs on a2-node7: 26.1.0; the other 2 nodes have 25.5.1');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('CLUSTER NOT READY: 1 of 3 nodes not ready; differs: driver version, npu-smi version');
  });

  it('the healthy nodes alone: a ready cluster, exit 0', async () => {
    const run = await qprep(['aggregate', join(dir, 'a2-node1.json'), join(dir, 'a2-node3.json')]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('CLUSTER READY: 2 of 2 nodes ready');
  });

  it('standard input: a JSON array, concatenated documents, or one per line', async () => {
    const [a, b, c] = Object.values(reports).map((text) => JSON.parse(text));
    const inputs = [JSON.stringify([a, b, c]), `${reports['a2-node1']}${reports['a2-node3']}${reports['a2-node7']}`, [a, b, c].map((r) => JSON.stringify(r)).join('\n')];
    for (const input of inputs) {
      const run = await withInput(['aggregate', '-', '--format', 'json'], input);
      expect(run.exitCode, run.stderr).toBe(1);
      const verdict = JSON.parse(run.stdout);
      expect(verdict.nodes.map((n: { name: string; source: string }) => [n.name, n.source])).toEqual([
        ['a2-node1', 'stdin#1'],
        ['a2-node3', 'stdin#2'],
        ['a2-node7', 'stdin#3'],
      ]);
    }
  });

  it('names exactly the planted odd node: 12 nodes, one of them with another driver, kernel or TLS switch', async () => {
    const template = JSON.parse(reports['a2-node1']!);
    const plants = [
      { field: 'driver', node: 4, value: '25.2.1', apply: (r: ReturnType<typeof clusterNode>) => (r.facts.versions.driver = '25.2.1') },
      { field: 'kernel', node: 9, value: '5.10.0-182.0.0.95.oe2203sp3.aarch64', apply: (r: ReturnType<typeof clusterNode>) => (r.host.kernel = '5.10.0-182.0.0.95.oe2203sp3.aarch64') },
      { field: 'tls', node: 11, value: 'on', apply: (r: ReturnType<typeof clusterNode>) => r.facts.devices.forEach((d) => (d.tls = true)) },
    ];
    for (const plant of plants) {
      const planted = tmp('planted');
      for (let i = 0; i < 12; i++) {
        const report = clusterNode(template, i);
        if (i === plant.node) plant.apply(report);
        writeFileSync(join(planted, `node${i + 1}.json`), JSON.stringify(report));
      }
      const run = await qprep(['aggregate', planted, '--format', 'json']);
      const verdict = JSON.parse(run.stdout);
      const odd = `node${String(plant.node + 1).padStart(2, '0')}`;
      expect(verdict.drift.map((d: { field: string; odd: unknown }) => [d.field, d.odd]), plant.field).toEqual([[plant.field, [{ node: odd, value: plant.value }]]]);
      expect(verdict.findings.map((f: { nodes: string[] }) => f.nodes)).toEqual([[odd]]);
      // a kernel difference is a warning: the cluster stays ready, unless --strict
      expect(run.exitCode, plant.field).toBe(plant.field === 'kernel' ? 0 : 1);
      if (plant.field === 'kernel') expect((await qprep(['aggregate', planted, '--strict'])).exitCode).toBe(1);
    }
  });

  it('--cluster names the nodes without a report; --max-age the stale ones', async () => {
    const facts = await Promise.all(
      Object.values(DEMOS).map(async (demo) => JSON.parse((await qprep(['facts', '--snapshot', `examples/snapshots/${demo}.json`])).stdout)),
    );
    const work = tmp('aggregate-cluster');
    const cluster = join(work, 'cluster.json');
    writeFileSync(cluster, JSON.stringify([...facts, { hostname: 'a2-node9', hostAddresses: ['10.20.0.19'] }]));
    const old = JSON.parse(reports['a2-node3']!);
    old.startedAt = new Date(Date.now() - 3 * 3600_000).toISOString();
    const oldFile = join(work, 'a2-node3.json');
    writeFileSync(oldFile, JSON.stringify(old));
    const run = await qprep(['aggregate', join(dir, 'a2-node1.json'), oldFile, '--cluster', cluster, '--max-age', '2h', '--format', 'json']);
    expect(run.exitCode).toBe(1);
    const verdict = JSON.parse(run.stdout);
    expect(verdict.nodes.map((n: { name: string; verdict: string; stale: boolean }) => [n.name, n.verdict, n.stale])).toEqual([
      ['a2-node1', 'ready', false],
      ['a2-node3', 'ready', true],
      ['a2-node7', 'missing', false],
      ['a2-node9', 'missing', false],
    ]);
    expect(verdict.findings.map((f: { kind: string; nodes: string[] }) => [f.kind, f.nodes])).toEqual([
      ['stale', ['a2-node3']],
      ['missing', ['a2-node7']],
      ['missing', ['a2-node9']],
    ]);
  });

  it('an error document (exit 2 of check) is a node without a verdict; a duplicate report is said and dropped', async () => {
    const work = tmp('aggregate-error');
    const failed = await qprep(['check', '--profile', join(work, 'missing.yaml'), '--format', 'json', '--output', join(work, 'a2-node9.json')]);
    expect(failed.exitCode).toBe(2);
    writeFileSync(join(work, 'a2-node1.json'), reports['a2-node1']!);
    const run = await qprep(['aggregate', work, join(dir, 'a2-node1.json'), '--format', 'json']);
    const verdict = JSON.parse(run.stdout);
    expect(verdict.nodes.map((n: { name: string; verdict: string }) => [n.name, n.verdict])).toEqual([
      ['a2-node1', 'ready'],
      ['a2-node9', 'no-verdict'],
    ]);
    expect(verdict.nodes[1].error.code).toBe('invalid-profile');
    expect(verdict.duplicates).toHaveLength(1);
    expect(run.exitCode).toBe(1);
  });

  it('--output writes the verdict atomically; the file says why when there is none', async () => {
    const work = tmp('aggregate-output');
    const output = join(work, 'verdict.json');
    const run = await qprep(['aggregate', dir, '--format', 'json', '--output', output]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`qprep: wrote ${output}\n`);
    expect(JSON.parse(readFileSync(output, 'utf8')).command).toBe('aggregate');
    const broken = await qprep(['aggregate', join(work, 'nope.json'), '--format', 'json', '--output', output]);
    expect(broken.exitCode).toBe(2);
    expect(JSON.parse(readFileSync(output, 'utf8')).error.code).toBe('invalid-input');
  });

  it('unreadable input is exit 2 with one line naming the file; with --format json, an error document', async () => {
    const work = tmp('aggregate-bad');
    mkdirSync(join(work, 'empty'));
    writeFileSync(join(work, 'garbage.json'), '{"schemaVersion": 1, "checks": [');
    writeFileSync(join(work, 'facts.json'), JSON.stringify({ schemaVersion: 1, hostname: 'x', hostAddresses: [], family: 'a2', npus: [], devices: [], versions: {}, problems: [] }));
    const cases: Array<[string[], string]> = [
      [[join(work, 'missing.json')], `qprep: error: cannot read ${join(work, 'missing.json')}: no such file or directory\n`],
      [[join(work, 'garbage.json')], `qprep: error: invalid report ${join(work, 'garbage.json')}: the JSON document starting on line 1 is cut short\n`],
      [[join(work, 'facts.json')], `qprep: error: invalid report ${join(work, 'facts.json')}: this is a qprep facts document, not a report of "qprep check --format json"\n`],
      [[join(work, 'empty')], `qprep: error: cannot read reports from ${join(work, 'empty')}: no *.json file in it\n`],
      [[dir, '--max-age', 'soon'], 'qprep: error: --max-age expects a duration such as 10s, 500ms or 2m, got "soon"\n'],
      [[dir, '--cluster', join(work, 'garbage.json')], expect.stringMatching(/^qprep: error: invalid cluster .*garbage\.json: /)],
    ];
    for (const [args, stderr] of cases) {
      const run = await qprep(['aggregate', ...args]);
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toEqual(stderr);
      expect(run.stdout).toBe('');
    }
    const json = await qprep(['aggregate', join(work, 'garbage.json'), '--format', 'json']);
    expect(json.exitCode).toBe(2);
    const document = JSON.parse(json.stdout);
    expect((await validateAgainstSchema('aggregate', document)).valid).toBe(true);
    expect(document.error.code).toBe('invalid-input');
    expect((await qprep(['aggregate'])).exitCode).toBe(2);
    expect(existsSync(join(work, 'empty'))).toBe(true);
  });
});
