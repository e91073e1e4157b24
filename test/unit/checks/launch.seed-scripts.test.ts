import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import type { FakeHostSpec, FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, filledIn, guideScript, imagePython, NODE_INTERFACES, nvmeRead, TCP_HEADER } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/**
 * The guides' scripts, as published or filled in as the guide asks, through every check that
 * reads a launch script, on a simulated host of the family the guide is for: exactly the
 * findings the scripts really have, and none they do not.
 */

const GiB = 1024 ** 3;
const LAUNCH_CHECKS = catalogue.filter((c) => c.category === 'launch');

/** config.json, the index and the shards of a model directory; with --quantization ascend's description file. */
function weights(dir: string, shardGiB: number[], quantized: boolean): Record<string, FakeNode> {
  const shards = shardGiB.map((_, i) => `model-${String(i + 1).padStart(5, '0')}-of-${String(shardGiB.length).padStart(5, '0')}.safetensors`);
  const files: Record<string, FakeNode> = {
    [`${dir}/config.json`]: '{"model_type": "qwen3_5"}',
    [`${dir}/model.safetensors.index.json`]: JSON.stringify({ weight_map: Object.fromEntries(shards.map((s, i) => [`w${i}`, s])) }),
  };
  shards.forEach((shard, i) => (files[`${dir}/${shard}`] = { kind: 'file', content: 'x', size: shardGiB[i]! * GiB }));
  if (quantized) files[`${dir}/quant_model_description.json`] = '{}';
  return files;
}

/** The image the Qwen3.5-397B guide starts (export IMAGE=...vllm-ascend:v0.20.2rc1), built for A3 like its -a3 tag. */
const GUIDE_IMAGE_A3 = imagePython('v0.20.2rc1', 'A3');

const W8A8_MODELSCOPE_DIR = '/root/.cache/modelscope/hub/models/Eco-Tech/Qwen3___5-397B-A17B-w8a8-mtp';
const W8A8_MODELSCOPE = weights(W8A8_MODELSCOPE_DIR, Array(94).fill(4.3), true);
const HF_ENTRY = '/root/.cache/huggingface/hub/models--Eco-Tech--Qwen3.5-397B-A17B-w8a8-mtp';
const W8A8_HF = { [`${HF_ENTRY}/refs/main`]: '0123abcd\n', ...weights(`${HF_ENTRY}/snapshots/0123abcd`, Array(94).fill(4.3), true) };

async function statuses(spec: FakeHostSpec, script: string, profile: Record<string, unknown> = {}) {
  const results: Record<string, { status: string; message: string; basis?: unknown }> = {};
  for (const check of LAUNCH_CHECKS) {
    const { outcome, result } = await runOn(check, spec, profile, { launch: script });
    expectRemediation(outcome);
    results[check.id] = { status: result.status, message: outcome.message, basis: (outcome.evidence as { basis?: unknown } | undefined)?.basis };
  }
  return results;
}

/**
 * The findings but model.fit's, which plans these weights from qprep's table: their config.json
 * holds its model_type alone, so the plan is an estimate and says so (the sizes of a real one are
 * judged in test/unit/checks/model.fit.test.ts and on the demo hosts).
 */
function notPassing(results: Record<string, { status: string; message: string; basis?: unknown }>): Array<[string, string, string]> {
  const fit = results['model.fit']!;
  expect(fit.status).toBe('warn');
  expect(fit.basis).toBe('builtin');
  expect(fit.message).toMatch(/GiB of weights per NPU, [\d.]+ GiB for the KV cache$/);
  return Object.entries(results)
    .filter(([id, r]) => r.status !== 'pass' && id !== 'model.fit')
    .map(([id, r]) => [id, r.status, r.message]);
}

describe("the Qwen3.5-397B guide's single-node script on a simulated Atlas 800 A3", () => {
  const SINGLE_NODE = guideScript('qwen3.5-397b-w8a8-a3-single-node.sh');

  it('on an openEuler A3 (jemalloc in /usr/lib64) with the guide\'s v0.20.2rc1 image: its three real findings, each at its line, and nothing else', async () => {
    const host = a3Node({ identity: { arch: 'aarch64' }, env: GUIDE_IMAGE_A3.env, files: { '/usr/lib64/libjemalloc.so.2': 'ELF', ...GUIDE_IMAGE_A3.files, ...W8A8_MODELSCOPE }, readProbes: nvmeRead(W8A8_MODELSCOPE_DIR) });
    expect(notPassing(await statuses(host, SINGLE_NODE))).toEqual([
      ['launch.script', 'warn', 'run.sh: line 35 ends a command with a backslash before a blank line or the end of the file'],
      ['launch.env', 'warn', 'LD_PRELOAD entry /usr/lib/aarch64-linux-gnu/libjemalloc.so.2 does not exist on this host: ld.so prints "cannot be preloaded" and runs without it'],
      ['launch.mooncake', 'skip', 'run.sh uses no Mooncake KV connector'],
      [
        'launch.cpu-binding',
        'skip',
        "run.sh: the cpuset (Cpus_allowed_list of /proc/self/status) or the NPUs of this node could not be read: the CPUs per NPU of vllm-ascend's binding are not judged",
      ],
      // the tutorials of v0.18.0rc1 to v0.21.0rc1 ask for it; later releases set align themselves
      ['launch.model-rules', 'warn', '--enable-prefix-caching (run.sh:32) on the hybrid Qwen3.5 without --mamba-cache-mode align (rule qwen35.prefix-caching-align, vllm-ascend v0.20.2rc1)'],
      ['python.triton-ascend', 'skip', 'only a 310P must be without triton, and this is not one (npu-smi shows a3; profile npu.family any)'],
    ]);
  });

  it('on an Ubuntu A3, where the LD_PRELOAD path exists: TP 16 x DP 1 fits the 16 dies, only the two script findings', async () => {
    const host = a3Node({ identity: { arch: 'aarch64' }, env: GUIDE_IMAGE_A3.env, files: { '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2': 'ELF', ...GUIDE_IMAGE_A3.files, ...W8A8_MODELSCOPE }, readProbes: nvmeRead(W8A8_MODELSCOPE_DIR) });
    const results = await statuses(host, SINGLE_NODE, { name: 'qwen3.5-397b-w8a8-a3', npu: { family: 'a3' } });
    expect(notPassing(results).map(([id, status]) => [id, status])).toEqual([
      ['launch.script', 'warn'],
      ['launch.mooncake', 'skip'],
      ['launch.cpu-binding', 'skip'],
      ['launch.model-rules', 'warn'],
      ['python.triton-ascend', 'skip'],
    ]);
    expect(results['model.supported']!.message).toBe(
      'Qwen3.5 (model_type qwen3_5 of config.json) is supported by vllm-ascend v0.20.2rc1: supported from v0.17.0rc1 (vllm-project/vllm-ascend docs/source/user_guide/release_notes.md:866 @ 182b75ea84ff)',
    );
  });

  it('on a later release the prefix-caching rule no longer holds: the same script keeps every rule of v0.23.0', async () => {
    const image = imagePython('v0.23.0', 'A3');
    const host = a3Node({ identity: { arch: 'aarch64' }, env: image.env, files: { '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2': 'ELF', ...image.files, ...W8A8_MODELSCOPE }, readProbes: nvmeRead(W8A8_MODELSCOPE_DIR) });
    const results = await statuses(host, SINGLE_NODE, { name: 'qwen3.5-397b-w8a8-a3', npu: { family: 'a3' } });
    expect(results['launch.model-rules']).toEqual({ status: 'pass', message: 'no rule of knowledge/rules.json applies to this model and NPU on vllm-ascend 0.23.0' });
    expect(results['launch.devices']!.message).toBe('TP 16 x DP 1 = 16 NPUs fit all 16 NPUs this host sees');
  });
});

describe("the 1P1D guide's scripts filled in, each on its simulated A3 node", () => {
  const cases = [
    ['run_p.sh', filledIn('run_p.sh', '10.0.0.11')],
    ['run_d0.sh', filledIn('run_d0.sh', '10.0.0.11', '10.0.0.11')],
    ['run_d1.sh', filledIn('run_d1.sh', '10.0.0.11', '10.0.0.12')],
  ] as const;
  for (const [name, script] of cases) {
    it(`${name}: every launch check passes${name === 'run_p.sh' ? ' but the kv_port warning' : ''}`, async () => {
      const role = name === 'run_p.sh' ? 'prefill' : 'decode';
      const results = await statuses(a3Node({ env: GUIDE_IMAGE_A3.env, files: { ...GUIDE_IMAGE_A3.files, ...W8A8_HF }, readProbes: nvmeRead(HF_ENTRY) }), script, { deployment: { role, nodes: 3 } });
      // run_p.sh's kv_port 23010 is inside 20000-35999, which the multi-node PD guide reserves on a 16-NPU node; the decode scripts' 36010 is not
      const expected = name === 'run_p.sh' ? [['launch.ports', 'warn'], ['python.triton-ascend', 'skip']] : [['python.triton-ascend', 'skip']];
      expect(notPassing(results).map(([id, status]) => [id, status])).toEqual(expected);
    });
  }
});

describe("vllm-ascend's two-node Atlas 800 A2 script (node 0) filled in, on a simulated A2 node", () => {
  it('every launch check passes; HCCL_BUFFSIZE 1024 covers what MC2 dispatch needs at DP 2 x TP 8 with EP', async () => {
    const script = edited(guideScript('qwen3.5-397b-w8a8-a2-node0.sh'), [
      ['nic_name="xxxx"', 'nic_name="enp189s0f0"'],
      ['local_ip="xxxx"', 'local_ip="10.0.0.11"'],
    ]);
    // the documentation at that commit fills its image tag with v0.23.0 (mkdocs.yml vllm_ascend_version)
    const image = imagePython('v0.23.0', 'A2');
    const a2: FakeHostSpec = {
      ...npuHost({ info: ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt'), devices: [...Array(8).keys()], env: image.env, files: { '/proc/net/tcp': TCP_HEADER, '/proc/net/tcp6': TCP_HEADER, ...image.files, ...W8A8_MODELSCOPE } }),
      interfaces: NODE_INTERFACES,
      readProbes: nvmeRead(W8A8_MODELSCOPE_DIR),
    };
    const results = await statuses(a2, script, { name: 'qwen3.5-397b-w8a8-a2', npu: { family: 'a2' }, deployment: { nodes: 2 } });
    expect(notPassing(results).map(([id, status]) => [id, status])).toEqual([
      ['launch.mooncake', 'skip'],
      ['python.triton-ascend', 'skip'],
    ]);
    expect(results['launch.env']!.message).toMatch(/HCCL_BUFFSIZE 1024 \(MC2 needs \d+ MB\)/);
  });
});

describe("the Qwen3.5 dense guide's scripts on a simulated Atlas 300I Duo", () => {
  // the guide's image: vllm-ascend:v0.23.0-310p
  const image = imagePython('v0.23.0', '_310P', { vllm: '0.23.0' });
  const duo = (files: Record<string, FakeNode>): FakeHostSpec => ({
    ...npuHost({
      info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'),
      env: image.env,
      files: { ...image.files, '/proc/net/tcp': TCP_HEADER, '/proc/net/tcp6': TCP_HEADER, ...files },
    }),
    interfaces: NODE_INTERFACES,
  });
  for (const [size, gib] of [['2b', 4.3], ['4b', 8.5], ['9b', 18]] as const) {
    it(`qwen3.5-${size}-310p.sh: no finding (float16, npugraph_ex off, capture sizes multiples of 2; no KV connector for launch.mooncake)`, async () => {
      const dir = `/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-${size.toUpperCase()}`;
      const results = await statuses({ ...duo(weights(dir, [gib], false)), readProbes: nvmeRead(dir) }, guideScript(`qwen3.5-${size}-310p.sh`), { npu: { family: '310p' } });
      expect(notPassing(results)).toEqual([['launch.mooncake', 'skip', 'run.sh uses no Mooncake KV connector']]);
    });
  }
});
