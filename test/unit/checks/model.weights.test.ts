import { describe, expect, it } from 'vitest';
import check from '../../../checks/model.weights.js';
import type { FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, filledIn, guideScript, NODE_INTERFACES } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const GiB = 1024 ** 3;
const MODEL = '/models/Qwen3.5-397B-A17B-w8a8';
const SHARDS = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];

/** A model directory: config.json, the shard index, the shards (of `bytes` each) and the Ascend quantization description. */
function modelDir(dir: string, options: { bytes?: number; shards?: string[]; index?: boolean; quant?: boolean; config?: string } = {}): Record<string, FakeNode> {
  const files: Record<string, FakeNode> = { [`${dir}/config.json`]: options.config ?? '{"model_type": "qwen3_5_moe"}' };
  if (options.index ?? true) {
    files[`${dir}/model.safetensors.index.json`] = JSON.stringify({ weight_map: { 'a.weight': SHARDS[0], 'b.weight': SHARDS[1] } });
  }
  for (const shard of options.shards ?? SHARDS) files[`${dir}/${shard}`] = { kind: 'file', content: 'x', size: options.bytes ?? 200 * GiB };
  if (options.quant ?? true) files[`${dir}/quant_model_description.json`] = '{}';
  return files;
}

/** run_p.sh, filled in, serving a local directory instead of the hub id. */
const RUN_P_LOCAL = edited(filledIn('run_p.sh'), [['vllm serve Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp', `vllm serve ${MODEL}`]]);

/*
 * model.weights reports "error" only on a snapshot replay that did not record the weights: a
 * directory it cannot read on a live host fails (the server could not read it either), and NPU
 * memory it cannot read leaves the size out of the verdict.
 */
describe('model.weights', () => {
  it('skips without --launch, and without a model', async () => {
    expect((await runOn(check, a3Node())).outcome.status).toBe('skip');
    expect((await runOn(check, a3Node(), {}, { launch: guideScript('proxy.sh') })).outcome.status).toBe('skip');
  });

  it('passes complete w8a8 weights for run_p.sh on an A3 (whether they fit the memory is model.fit\'s)', async () => {
    const { outcome } = await runOn(check, a3Node({ files: modelDir(MODEL) }), {}, { launch: RUN_P_LOCAL });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe(`${MODEL}: 2 safetensors shards (400.0 GiB), all 2 in model.safetensors.index.json, quant_model_description.json`);
    // far too large for these NPUs, still complete: not this check's verdict
    const huge = await runOn(check, a3Node({ files: modelDir(MODEL, { bytes: 4000 * GiB }) }), {}, { launch: RUN_P_LOCAL });
    expect(huge.outcome.status).toBe('pass');
  });

  it('fails a shard the index lists but the directory lacks (an interrupted download)', async () => {
    const { outcome, result } = await runOn(check, a3Node({ files: modelDir(MODEL, { shards: [SHARDS[0]!] }) }), {}, { launch: RUN_P_LOCAL });
    expect(result.status).toBe('fail');
    expect(outcome.message).toBe(`${MODEL} lacks 1 shard its index lists: model-00002-of-00002.safetensors`);
    expect(outcome.remediation).toBe(`copy the missing shards into ${MODEL}, or download the model again`);
  });

  it('fails --quantization ascend on weights that are not Ascend-quantized', async () => {
    const { outcome } = await runOn(check, a3Node({ files: modelDir(MODEL, { quant: false }) }), {}, { launch: RUN_P_LOCAL });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(`--quantization ascend, but ${MODEL} has no quant_model_description*.json: these are not Ascend-quantized weights`);
    expect(outcome.remediation).toBe('use the quantized weights (e.g. the -w8a8 model), or drop --quantization ascend at run.sh:50');
  });

  it('fails a directory that does not exist, and one without config.json', async () => {
    const missing = await runOn(check, a3Node(), {}, { launch: RUN_P_LOCAL });
    expect(missing.outcome.status).toBe('fail');
    expect(missing.outcome.message).toBe(`the model directory ${MODEL} (run.sh:32) does not exist`);
    expectRemediation(missing.outcome);
    const files = modelDir(MODEL);
    delete files[`${MODEL}/config.json`];
    const noConfig = await runOn(check, a3Node({ files }), {}, { launch: RUN_P_LOCAL });
    expect(noConfig.outcome.message).toBe(`${MODEL}: no config.json`);
  });

  it("warns when the guide's hub id is not in the local cache, and fails when the hub is offline", async () => {
    const published = await runOn(check, a3Node(), {}, { launch: guideScript('run_p.sh') });
    expect(published.outcome.status).toBe('warn');
    expect(published.outcome.message).toBe(
      'Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp (run.sh:32) is a Hugging Face id that is not in the local cache (/root/.cache/huggingface/hub/models--Eco-Tech--Qwen3.5-397B-A17B-w8a8-mtp): vllm downloads it at start, which takes long for large models and fails without internet',
    );
    expect(published.outcome.remediation).toContain('huggingface-cli download Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp');
    const offline = await runOn(check, a3Node(), {}, { launch: `export HF_HUB_OFFLINE=1\n${guideScript('run_p.sh')}` });
    expect(offline.outcome.status).toBe('fail');
  });

  it('finds a hub id in the Hugging Face cache through refs/main, shards as symlinks into blobs', async () => {
    const entry = '/root/.cache/huggingface/hub/models--Eco-Tech--Qwen3.5-397B-A17B-w8a8-mtp';
    const snapshot = `${entry}/snapshots/0123abcd`;
    const files: Record<string, FakeNode> = { ...modelDir(snapshot, { shards: [] }), [`${entry}/refs/main`]: '0123abcd\n' };
    for (const [i, shard] of SHARDS.entries()) {
      files[`${entry}/blobs/b${i}`] = { kind: 'file', content: 'x', size: 200 * GiB };
      // the hub writes relative links (../../blobs/...); the fake host follows absolute ones
      files[`${snapshot}/${shard}`] = { kind: 'symlink', target: `${entry}/blobs/b${i}` };
    }
    const { outcome } = await runOn(check, a3Node({ files }), {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toMatch(/^Eco-Tech\/Qwen3\.5-397B-A17B-w8a8-mtp \(cached at .*\/snapshots\/0123abcd\): 2 safetensors shards \(400\.0 GiB\)/);
  });

  it("finds the 310P guide's ModelScope id in the ModelScope cache, where \".\" is written \"___\"", async () => {
    const dir = '/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-2B';
    const files = modelDir(dir, { bytes: 2 * GiB, quant: false });
    const duo = { ...npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'), files }), interfaces: NODE_INTERFACES };
    const { outcome } = await runOn(check, duo, {}, { launch: guideScript('qwen3.5-2b-310p.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toMatch(/^Qwen\/Qwen3\.5-2B \(cached at \/root\/\.cache\/modelscope\/hub\/models\/Qwen\/Qwen3___5-2B\)/);
  });

  it('warns about a model computed at run time, and a relative path', async () => {
    const dynamic = await runOn(check, a3Node(), {}, { launch: 'vllm serve $(ls -d /models/*)\n' });
    expect(dynamic.outcome.status).toBe('warn');
    const relative = await runOn(check, a3Node(), {}, { launch: 'vllm serve ./weights\n' });
    expect(relative.outcome.status).toBe('warn');
    expect(relative.outcome.remediation).toBe('run.sh line 1: vllm serve /absolute/path/to/weights');
    // after cd to an absolute directory, the relative path is known
    const afterCd = await runOn(check, a3Node({ files: modelDir(MODEL) }), {}, { launch: `cd /models && vllm serve ./Qwen3.5-397B-A17B-w8a8 --quantization ascend -tp 16\n` });
    expect(afterCd.outcome.status).toBe('pass');
    expect(afterCd.outcome.message).toMatch(/^\/models\/Qwen3\.5-397B-A17B-w8a8: 2 safetensors shards/);
  });

  it('a quoted "$MODEL_PATH" set nowhere is an unknown model, not the relative path "" (Dots3-Note tutorial)', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: 'vllm serve "$MODEL_PATH" \\\n    --tensor-parallel-size 16\n' });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('the model of run.sh (run.sh:1) is computed at run time ($MODEL_PATH (set nowhere in the script or its environment)): the weights cannot be checked');
  });

  it('is an error, not a missing model, when a snapshot replay did not record the cache', async () => {
    const entry = '/root/.cache/huggingface/hub/models--Eco-Tech--Qwen3.5-397B-A17B-w8a8-mtp';
    const host = a3Node({ files: { [`${entry}/refs/main`]: { error: 'ENOTCAPTURED' }, [`${entry}/snapshots`]: { error: 'ENOTCAPTURED' } } });
    const { outcome } = await runOn(check, host, {}, { launch: filledIn('run_p.sh') });
    expect(outcome.status).toBe('error');
    expect(outcome.message).toMatch(/^the cache entries of Eco-Tech\/Qwen3\.5-397B-A17B-w8a8-mtp were not captured in the snapshot/);
    expect(outcome.remediation).toBe('record the snapshot with this script: qprep snapshot -o host.json --launch run.sh');
  });

  it('checks the files without npu-smi', async () => {
    const { outcome } = await runOn(check, { files: modelDir(MODEL), interfaces: NODE_INTERFACES }, {}, { launch: RUN_P_LOCAL });
    expect(outcome.status).toBe('pass');
  });
});

describe('model.weights in Chinese', () => {
  it('without --launch: the skip says what launch.* say, in each language', async () => {
    const { en, zh } = await runInBoth(check, a3Node());
    expect(en.outcome.message).toBe('no launch script given (--launch SCRIPT)');
    expect(en.outcome.remediation).toBe('qprep check --launch /path/to/run.sh   # the bash script that starts vllm serve on this node');
    expect(zh.outcome.message).toBe('未给出启动脚本（--launch SCRIPT）');
    expect(zh.outcome.remediation).toBe('qprep check --launch /path/to/run.sh   # 在本节点启动 vllm serve 的 bash 脚本');
  });

  it('passes in Chinese', async () => {
    const { zh } = await runInBoth(check, a3Node({ files: modelDir(MODEL) }), {}, { launch: RUN_P_LOCAL });
    expect(zh.result.title).toBe('模型权重完整');
    expect(zh.outcome.message).toBe(`${MODEL}：2 个 safetensors 分片（400.0 GiB），model.safetensors.index.json 中的 2 个分片齐全，quant_model_description.json`);
  });

  it('fails missing shards, no config.json and unquantized weights in Chinese; actual stays English', async () => {
    const files = modelDir(MODEL, { shards: [SHARDS[0]!], quant: false });
    delete files[`${MODEL}/config.json`];
    const { en, zh } = await runInBoth(check, a3Node({ files }), {}, { launch: RUN_P_LOCAL });
    expect(zh.outcome.message).toBe(`${MODEL}：没有 config.json（另有 2 个问题）`);
    expect(en.outcome.actual).toBe(`${MODEL}: no config.json, ${MODEL} lacks 1 shard its index lists: model-00002-of-00002.safetensors and 1 more`);
    expect(zh.outcome.remediation!.split('\n')).toEqual([
      `将该模型的 config.json 复制到 ${MODEL}（它随权重一起发布）`,
      `将缺失的分片复制到 ${MODEL}，或重新下载模型`,
      '使用量化权重（例如 -w8a8 模型），或删除 run.sh:50 处的 --quantization ascend',
    ]);
  });

  it('a hub id not in the cache, offline, in Chinese, with the download command byte for byte', async () => {
    const { en, zh } = await runInBoth(check, a3Node(), {}, { launch: `export HF_HUB_OFFLINE=1\n${guideScript('run_p.sh')}` });
    expect(zh.outcome.message).toMatch(/^Eco-Tech\/Qwen3\.5-397B-A17B-w8a8-mtp（run\.sh:33）是 Hugging Face 的模型 id，但不在本地缓存中（.*），且 hub 处于离线模式（HF_HUB_OFFLINE）：vllm 无法加载$/);
    expect(zh.outcome.remediation!.split('\n')[0]).toBe('huggingface-cli download Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp   # 下载到 vllm 读取的 Hugging Face 缓存');
    expectSameCommands(en.outcome, zh.outcome);
  });

  it('a missing directory, a run-time model, a relative path and an uncaptured cache in Chinese', async () => {
    const missing = await runInBoth(check, a3Node(), {}, { launch: RUN_P_LOCAL });
    expect(missing.zh.outcome.message).toBe(`模型目录 ${MODEL}（run.sh:32）不存在`);
    const dynamic = await runInBoth(check, a3Node(), {}, { launch: 'vllm serve $(ls -d /models/*)\n' });
    expect(dynamic.zh.outcome.remediation).toBe('run.sh 第 1 行：vllm serve /path/to/weights   # 直接写出路径');
    const relative = await runInBoth(check, a3Node(), {}, { launch: 'vllm serve ./weights\n' });
    expect(relative.zh.outcome.message).toBe('模型 "./weights"（run.sh:1）是相对路径：取决于启动脚本时所在的目录');
    const entry = '/root/.cache/huggingface/hub/models--Eco-Tech--Qwen3.5-397B-A17B-w8a8-mtp';
    const uncaptured = a3Node({ files: { [`${entry}/refs/main`]: { error: 'ENOTCAPTURED' }, [`${entry}/snapshots`]: { error: 'ENOTCAPTURED' } } });
    const replay = await runInBoth(check, uncaptured, {}, { launch: filledIn('run_p.sh') });
    expect(replay.zh.outcome.remediation).toBe('用这个启动脚本录制快照：qprep snapshot -o host.json --launch run.sh');
  });
});
