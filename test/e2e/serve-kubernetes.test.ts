import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { labelKeyProblem, labelValueProblem } from '../../src/util/k8s-labels.js';
import { qprep } from '../helpers/cli.js';
import { fixturePath } from '../helpers/fixtures.js';
import { httpGet, startServe, switchableNpuSmi, type ServeProcess } from '../helpers/serve.js';
import { writeUntunedTree } from '../helpers/untuned-tree.js';

/**
 * qprep serve --nfd-features: the built CLI writes node-feature-discovery's feature file after
 * every run, its labels valid Kubernetes labels that follow the verdict; and --root says plainly
 * that the commands are qprep's own.
 */

const started: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

/** The labels of a feature file as NFD's local source reads it (source/local/local.go): `key[=value]`, `#` comments. */
function featureLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    labels[eq === -1 ? line : line.slice(0, eq)] = eq === -1 ? 'true' : line.slice(eq + 1);
  }
  return labels;
}

function expectValidLabels(labels: Record<string, string>): void {
  expect(Object.keys(labels).length).toBeGreaterThan(0);
  for (const [key, value] of Object.entries(labels)) {
    expect(labelKeyProblem(key), key).toBeUndefined();
    expect(labelValueProblem(value), `${key}=${value}`).toBeUndefined();
  }
}

describe('qprep serve --nfd-features', () => {
  it('on a demo snapshot: a feature file of valid labels under qprep.io/, with an expiry of 2 intervals, written without a temporary file left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-nfd-'));
    const file = join(dir, 'qprep');
    const agent = await startServe(['--snapshot', 'examples/snapshots/a3-healthy.json', '--interval', '1m', '--nfd-features', file]);
    started.push(agent);
    await agent.waitForLog((l) => l.event === 'run');
    const text = readFileSync(file, 'utf8');
    const labels = featureLabels(text);
    expectValidLabels(labels);
    expect(labels).toMatchObject({ 'qprep.io/ready': 'true', 'qprep.io/npu.family': 'a3', 'qprep.io/npu.count': '16', 'qprep.io/superpod.server-index': '40' });
    const expiry = Date.parse(/^# \+expiry-time=(\S+)$/m.exec(text)![1]!);
    const finished = Date.parse(/^# run \S+ finished (\S+)$/m.exec(text)![1]!);
    expect(Math.abs(expiry - finished - 120_000)).toBeLessThan(1000);
    expect(readdirSync(dir)).toEqual(['qprep']);
    expect(agent.logs[0]).toMatchObject({ event: 'listening', nfdFeatures: file });
  });

  it('the labels change when the verdict does: a fake npu-smi flipped from a healthy table to one with an NPU in Warning between two runs', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-nfd-root-'));
    writeUntunedTree(root);
    const smi = switchableNpuSmi();
    copyFileSync(fixturePath('synthetic', 'npu-smi-info-910b3-a2x8-25.5.1-derived.txt'), smi.current);
    const file = join(mkdtempSync(join(tmpdir(), 'qprep-nfd-')), 'qprep');
    const agent = await startServe(['--root', root, '--only', 'npu.smi,npu.health', '--interval', '1m', '--allow-trigger', '--nfd-features', file], {
      env: { PATH: `${smi.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
    started.push(agent);
    await agent.waitForLog((l) => l.event === 'run');
    const before = featureLabels(readFileSync(file, 'utf8'));
    expectValidLabels(before);
    expect(before).toMatchObject({ 'qprep.io/ready': 'true', 'qprep.io/verdict': 'ready', 'qprep.io/npu.family': 'a2', 'qprep.io/npu.count': '8', 'qprep.io/driver.version': '25.5.1' });

    copyFileSync(fixturePath('synthetic', 'npu-smi-info-910b3-a2x8-25.3.rc1-npu3-warning-derived.txt'), smi.current);
    const seen = agent.logs.length;
    expect((await httpGet(`${agent.base}/run`, { method: 'POST' })).status).toBe(202);
    const second = await agent.waitForLog((l) => l.event === 'run', { after: seen });
    expect(second).toMatchObject({ verdict: 'not-ready', blocking: ['npu.health'] });
    const after = featureLabels(readFileSync(file, 'utf8'));
    expectValidLabels(after);
    expect(after).toMatchObject({ 'qprep.io/ready': 'false', 'qprep.io/verdict': 'not-ready', 'qprep.io/worst-action': expect.stringMatching(/^(reset-npu|isolate-npu|replace-part|restart-workload|monitor)$/), 'qprep.io/driver.version': '25.3.rc1' });
    // the pod stays Ready: the agent works; the node is not
    expect((await httpGet(`${agent.base}/agentz`)).status).toBe(200);
    expect((await httpGet(`${agent.base}/readyz`)).status).toBe(503);
  });

  it('a feature file it cannot write makes /agentz 503 and logs why; the verdict is still served; a directory missing at start stops serve', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'qprep-nfd-')), 'features.d');
    mkdirSync(dir);
    const file = join(dir, 'qprep');
    const agent = await startServe(['--snapshot', 'examples/snapshots/a2-healthy.json', '--interval', '1m', '--allow-trigger', '--nfd-features', file]);
    started.push(agent);
    await agent.waitForLog((l) => l.event === 'run');
    expect((await httpGet(`${agent.base}/agentz`)).status).toBe(200);
    rmSync(dir, { recursive: true });
    expect((await httpGet(`${agent.base}/run`, { method: 'POST' })).status).toBe(202);
    const failed = await agent.waitForLog((l) => l.event === 'publish-failed');
    expect(failed.error).toBe(`cannot write ${file}: directory ${dir} does not exist`);
    await agent.waitForLog((l) => l.event === 'run', { after: agent.logs.indexOf(failed) });
    expect(await httpGet(`${agent.base}/agentz`)).toMatchObject({ status: 503, body: `agent cannot publish the verdict: cannot write ${file}: directory ${dir} does not exist\n` });
    expect((await httpGet(`${agent.base}/readyz`)).status).toBe(200);
    const refused = await qprep(['serve', '--snapshot', 'examples/snapshots/a2-healthy.json', '--nfd-features', file, '--listen', '127.0.0.1:0']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(`qprep: error: --nfd-features ${file}: directory ${dir} does not exist\n`);
  });

  it('--annotate outside a pod stops serve before it listens, naming what is missing', async () => {
    const run = await qprep(['serve', '--snapshot', 'examples/snapshots/a2-healthy.json', '--annotate', 'node1', '--listen', '127.0.0.1:0']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('qprep: error: --annotate needs the in-cluster API server: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (run qprep serve in a pod with a ServiceAccount)\n');
    const bad = await qprep(['serve', '--snapshot', 'examples/snapshots/a2-healthy.json', '--annotate', 'Node_1', '--listen', '127.0.0.1:0']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^qprep: error: --annotate "Node_1": not a node name: /);
  });
});

describe('--root: the files are the host tree\'s, the commands qprep\'s own', () => {
  it('the header says so, and a missing npu-smi names the mounts that bring the host\'s into qprep\'s container', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-root-tools-'));
    writeUntunedTree(root);
    // the host tree has its npu-smi; qprep's own PATH has none
    mkdirSync(join(root, 'usr/local/bin'), { recursive: true });
    writeFileSync(join(root, 'usr/local/bin/npu-smi'), '#!/bin/sh\n', { mode: 0o755 });
    const run = await qprep(['check', '--root', root, '--only', 'npu.tools', '--format', 'json'], { env: { PATH: '/usr/bin:/bin' } });
    expect(run.exitCode).toBe(1);
    const check = JSON.parse(run.stdout).checks[0];
    expect(check.message).toBe(
      `not found: npu-smi (not on PATH, not in /usr/local/sbin or /usr/local/bin); hccn_tool (not on PATH, not in /usr/local/Ascend/driver/tools); the host under ${root} has /usr/local/bin/npu-smi, but commands run from qprep's own environment`,
    );
    expect(check.remediation).toMatch(new RegExp(`^with --root ${root} the commands run from qprep's own environment \\(its PATH, libraries and /dev\\), not from ${root}: bring the host's tools into qprep's container with `));
    for (const mount of ['-v /usr/local/bin/npu-smi:/usr/local/bin/npu-smi', '-v /usr/local/dcmi:/usr/local/dcmi', '-v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/', '-v /etc/ascend_install.info:/etc/ascend_install.info', '--device /dev/davinci_manager', '--device /dev/devmm_svm', '--device /dev/hisi_hdc', '-v /usr/local/Ascend/driver/tools/hccn_tool:/usr/local/Ascend/driver/tools/hccn_tool'])
      expect(check.remediation).toContain(mount);
    expect(check.evidence).toMatchObject({ commandsFrom: 'qprep-environment', root, inRootTree: ['/usr/local/bin/npu-smi'] });
    const human = await qprep(['check', '--root', root, '--only', 'npu.tools'], { env: { PATH: '/usr/bin:/bin' } });
    expect(human.stdout).toContain(`live host, files under ${root}; commands (npu-smi, hccn_tool) run from qprep's own environment, not from ${root}`);
    const zh = await qprep(['check', '--root', root, '--only', 'npu.tools', '--lang', 'zh'], { env: { PATH: '/usr/bin:/bin' } });
    expect(zh.stdout).toContain(`命令（npu-smi、hccn_tool）在 qprep 自身的环境中运行，而不是在 ${root} 中`);
    expect(zh.stdout).toContain('把主机的工具挂进 qprep 的容器');
  });
});
