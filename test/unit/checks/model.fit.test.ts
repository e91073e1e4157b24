import { describe, expect, it } from 'vitest';
import check from '../../../checks/model.fit.js';
import type { FakeHostSpec, FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, NODE_INTERFACES, TCP_HEADER } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { runInBoth } from '../../helpers/both-languages.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { modelFitEvidenceSchema } from '../../../src/report/schema.js';

const GiB = 2 ** 30;
const PY = '/usr/local/python3.11.13';

/** Qwen3-8B's config.json values (knowledge/model-configs.json: a copy of the model's config.json at 478fb72). */
const QWEN3_8B = {
  architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', num_hidden_layers: 36, hidden_size: 4096, intermediate_size: 12288, num_attention_heads: 32,
  num_key_value_heads: 8, head_dim: 128, vocab_size: 151936, tie_word_embeddings: false, torch_dtype: 'bfloat16', max_position_embeddings: 40960,
};

function modelDir(dir: string, config: Record<string, unknown> | null, shardGiB: number[]): Record<string, FakeNode> {
  const files: Record<string, FakeNode> = {};
  if (config) files[`${dir}/config.json`] = JSON.stringify(config);
  shardGiB.forEach((gib, i) => (files[`${dir}/model-${String(i + 1).padStart(5, '0')}-of-${String(shardGiB.length).padStart(5, '0')}.safetensors`] = { kind: 'file', content: '', size: gib * GiB }));
  return files;
}

/** The Python of the vllm-ascend image with the given vllm-ascend release installed. */
function python(version: string): Record<string, FakeNode> {
  return {
    [`${PY}/bin/vllm`]: { kind: 'file', content: `#!${PY}/bin/python3.11\n`, mode: 0o755 },
    [`${PY}/bin/python3.11`]: { kind: 'file', content: 'ELF', mode: 0o755 },
    [`${PY}/lib/python3.11/site-packages/vllm_ascend-${version}.dist-info/METADATA`]: 'Name: vllm-ascend\n',
  };
}

/** An Atlas 800 A2 of 8 x 910B3 (vllm-ascend #5527's table), or another capture. */
function a2(files: Record<string, FakeNode>, capture = 'npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt'): FakeHostSpec {
  return { ...npuHost({ info: ascendFixture(capture), env: { PATH: `${PY}/bin:/usr/bin:/bin`, HOME: '/root' }, files: { '/proc/net/tcp': TCP_HEADER, ...files } }), interfaces: NODE_INTERFACES };
}

const serve = (flags: string, model = '/models/Qwen3-8B') => `vllm serve ${model} ${flags}\n`;

describe('model.fit', () => {
  it('skips without --launch and without a literal model', async () => {
    expect((await runOn(check, a3Node())).outcome.status).toBe('skip');
    const computed = await runOn(check, a3Node(), {}, { launch: 'vllm serve $(ls -d /models/*)\n' });
    expect(computed.outcome.status).toBe('skip');
    expectRemediation(computed.outcome);
    // "$MODEL_PATH" quoted and set nowhere (Dots3-Note tutorial): no plan for the model "", a skip naming the variable
    const unset = await runOn(check, a3Node(), {}, { launch: 'vllm serve "$MODEL_PATH" --tensor-parallel-size 16\n' });
    expect(unset.outcome.status).toBe('skip');
    expect(unset.outcome.message).toContain('"$MODEL_PATH"');
  });

  it("skips the encoder instance of disaggregated encoding: it keeps no KV cache (vllm-ascend's disagg_1e1pd_example.sh runs it at 0.01)", async () => {
    const host = a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.18.0') });
    const encoder = serve(`--gpu-memory-utilization 0.01 --enforce-eager --ec-transfer-config '{"ec_connector": "ECExampleConnector", "ec_role": "ec_producer"}'`);
    const { outcome } = await runOn(check, host, {}, { launch: encoder });
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toBe('the server is the encoder instance of disaggregated encoding (ec_role ec_producer, run.sh:1): it keeps no KV cache, so there is no memory plan to make');
    const consumer = await runOn(check, host, {}, { launch: encoder.replace('ec_producer', 'ec_consumer').replace('0.01', '0.9') });
    expect(consumer.outcome.status).not.toBe('skip');
  });

  it('plans Qwen3-8B at TP 1 on a 910B3 from its config.json and shards: weights, budget, tokens and concurrency as vLLM prints them', async () => {
    const host = a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.18.0') });
    const { outcome } = await runOn(check, host, {}, { launch: serve('--max-model-len 32768 --max-num-seqs 8') });
    expect(outcome.status).toBe('pass');
    const evidence = modelFitEvidenceSchema.parse(outcome.evidence);
    // 65536 MB in npu-smi, 65452113920 B for torch_npu (vllm-ascend #3800)
    expect(evidence.hbmVisibleBytesPerNpu).toBe(65452113920);
    expect(evidence.basis).toBe('config.json');
    expect(evidence.weightsBytesPerNpu).toBe(Math.round(15.25 * GiB));
    // 2 x 8 KV heads x 128 x 2 bytes x 36 layers
    expect(evidence.kvBytesPerToken).toBe(147456);
    expect(evidence.maxModelLen).toBe(32768);
    expect(evidence.plan.release).toEqual({ vllmAscend: '0.18.0', formula: 'v0.18+' });
    // 0.9 x 60.96 GiB - 15.25 - 0.31 (activations: 2048 tokens x 4096 x 2 B x 20) - 0.15 (context)
    const kv = 0.9 * 65452113920 - 15.25 * GiB - 2048 * 4096 * 2 * 20 - 0.15 * GiB;
    expect(evidence.kvBudgetBytesPerNpu).toBe(Math.round(kv));
    const blocks = Math.floor(kv / (128 * 4096) / 36);
    expect(evidence.kvTokens).toBe(blocks * 128);
    expect(evidence.maxConcurrency).toBeCloseTo(blocks / 256, 2);
    expect(outcome.message).toBe(
      `/models/Qwen3-8B (config.json): 15.3 GiB of weights per NPU, ${(kv / GiB).toFixed(1)} GiB for the KV cache (of 0.9 x 61.0 GiB on device 0): ` +
        `${(blocks * 128).toLocaleString('en-US')} tokens, ${(blocks / 256).toFixed(2)}x requests of 32,768 tokens`,
    );
  });

  it("fails what vLLM refuses: a max-model-len one request cannot fill, with the length that fits and the utilization that would hold it", async () => {
    const host = a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.18.0') });
    const { outcome, result } = await runOn(check, host, {}, { launch: serve('--max-model-len 262144 --gpu-memory-utilization 0.6 --hf-overrides {}') });
    expect(result.status).toBe('fail');
    expect(outcome.message).toMatch(/^one request of --max-model-len 262144 needs 36\.0 GiB of KV cache, more than the 20\.\d GiB left for it: vLLM refuses to start \(it estimates \d+ tokens fit\)$/);
    const fix = outcome.remediation!.split('\n');
    expect(fix[0]).toMatch(/^run\.sh line 1: --max-model-len \d+   # the longest one request fits in$/);
    expect(fix[1]).toMatch(/^or: run\.sh line 1: --gpu-memory-utilization 0\.\d\d   # the least that fits$/);
  });

  it('fails weights that do not fit, naming a TP that divides the heads', async () => {
    const host = a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [40, 40]) });
    const { outcome } = await runOn(check, host, {}, { launch: serve('--max-model-len 4096') });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('the weights do not fit: 80.0 GiB per NPU, more than the 54.9 GiB vLLM may use (0.9 x 61.0 GiB)');
    expect(outcome.remediation).toBe('run.sh line 1: --tensor-parallel-size 2   # 2 NPUs per node; the weights per NPU shrink with it');
  });

  it('fails on v0.18 when another process holds what --gpu-memory-utilization asks for; v0.13 starts, with less KV cache', async () => {
    // NPU 0 of this capture holds 8676 MB, 5175 of them a pytest process
    const capture = 'npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt';
    const files = modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]);
    const refused = await runOn(check, a2({ ...files, ...python('0.18.0') }, capture), {}, { launch: serve('--max-model-len 8192 --gpu-memory-utilization 0.95') });
    expect(refused.outcome.status).toBe('fail');
    expect(refused.outcome.message).toMatch(/^device 0 has 55\.5 GiB free of 61\.0 GiB, less than --gpu-memory-utilization 0\.95 asks \(57\.9 GiB\): vLLM refuses to start/);
    expect(refused.outcome.remediation).toBe('stop what holds 5.4 GiB on device 0 (npu-smi info lists it)\nor: run.sh line 1: --gpu-memory-utilization 0.91   # at most what is free; the KV cache shrinks with it');
    const old = await runOn(check, a2({ ...files, ...python('0.13.0') }, capture), {}, { launch: serve('--max-model-len 8192 --gpu-memory-utilization 0.95') });
    expect(old.outcome.status).toBe('pass');
    const evidence = modelFitEvidenceSchema.parse(old.outcome.evidence);
    expect(evidence.plan.release.formula).toBe('v0.9-v0.14');
    // the 5560 MiB in use are taken off the cache as well
    expect(evidence.plan.othersChargedBytes).toBe(5560 * 2 ** 20);
  });

  it('warns when the cache holds fewer requests of max-model-len than --max-num-seqs', async () => {
    const host = a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.18.0') });
    const { outcome } = await runOn(check, host, {}, { launch: serve('--max-model-len 40960 --max-num-seqs 64') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^the KV cache \([\d,]+ tokens\) holds \d\.\d\dx requests of 40,960 tokens, fewer than --max-num-seqs 64: long requests queue; 15\.3 GiB of weights per NPU, [\d.]+ GiB for the KV cache$/);
    expect(outcome.remediation).toMatch(/^run\.sh line 1: --max-model-len \d+   # 64 requests of that length fit at once\nor: run\.sh line 1: --max-num-seqs \d   # what the cache holds at the full length$/);
  });

  it("plans from qprep's table when the weights are not on the node, and says it is an estimate (basis builtin)", async () => {
    // FULL_DECODE_ONLY: no piecewise stream budget to judge on this old driver
    const { outcome } = await runOn(check, a3Node(), {}, { launch: serve(`-tp 2 --max-model-len 32768 --compilation-config '{"cudagraph_mode": "FULL_DECODE_ONLY"}'`, 'Qwen/Qwen3-8B') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^the weights are not on this node: the plan rests on qprep's table of model configs \(Qwen\/Qwen3-8B\) and the parameter count it gives, an estimate; ~7\.6 GiB of weights per NPU, [\d.]+ GiB for the KV cache$/);
    expect(outcome.remediation).toBe('download Qwen/Qwen3-8B to the node (its config.json and shard sizes replace the estimate), then check again');
    expect(outcome.actual).not.toContain('graph capture sizes');
    const evidence = modelFitEvidenceSchema.parse(outcome.evidence);
    expect(evidence.basis).toBe('builtin');
    expect(evidence.plan.weights.totalFrom).toBe('shapes');
    // 8.19 billion parameters of 2 bytes, half of them per rank at TP 2
    expect(evidence.plan.weights.totalBytes / 1e9).toBeCloseTo(16.38, 1);
    expect(evidence.kvBytesPerToken).toBe(2 * 4 * 128 * 2 * 36);
    expect(evidence.plan.model.builtinSources.num_hidden_layers).toBe('https://huggingface.co/thejaminator/qwen-hook-layer-9/commit/478fb720f1f3ced834fce0275b55b2732d438edc');
  });

  it("reads a config.json that nests its values in text_config (Qwen3.5's layout) before qprep's table, which only fills what it lacks", async () => {
    // a Qwen3.5-4B variant whose local config.json says 8 layers, where the table says 32
    const text = { model_type: 'qwen3_5_text', num_hidden_layers: 8, hidden_size: 2560, num_attention_heads: 16, num_key_value_heads: 4, head_dim: 256, intermediate_size: 9216, vocab_size: 248320, full_attention_interval: 4, linear_num_key_heads: 16, linear_key_head_dim: 128, linear_num_value_heads: 32, linear_value_head_dim: 128, linear_conv_kernel_dim: 4, mamba_ssm_dtype: 'float32' };
    const files = modelDir('/models/Qwen3.5-4B-pruned', { architectures: ['Qwen3_5ForConditionalGeneration'], model_type: 'qwen3_5', text_config: text }, [2]);
    const { outcome } = await runOn(check, a2({ ...files, ...python('0.18.0') }), {}, { launch: serve('--max-model-len 16384', '/models/Qwen3.5-4B-pruned') });
    const evidence = modelFitEvidenceSchema.parse(outcome.evidence);
    expect(evidence.basis).toBe('config.json');
    expect(evidence.plan.model.builtinSources).not.toHaveProperty('num_hidden_layers');
    // the 2 full-attention layers of 8: 2 x 4 KV heads x 256 x 2 bytes each
    expect(evidence.kvBytesPerToken).toBe(2 * 2 * 4 * 256 * 2);
  });

  it("loads a DeepSeek MTP module's own embedding and head on vllm-ascend v0.11, whose drafter does not yet take the target's (v0.12.0rc1 on)", async () => {
    const deepseek = {
      model_type: 'deepseek_v3', num_hidden_layers: 61, hidden_size: 7168, intermediate_size: 18432, num_attention_heads: 128, n_routed_experts: 256, n_shared_experts: 1, num_experts_per_tok: 8,
      moe_intermediate_size: 2048, first_k_dense_replace: 3, q_lora_rank: 1536, kv_lora_rank: 512, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128, vocab_size: 129280, num_nextn_predict_layers: 1,
    };
    const script = serve(`-tp 8 --enable-expert-parallel --max-model-len 4096 --speculative-config '{"method": "deepseek_mtp", "num_speculative_tokens": 1}'`, '/models/DeepSeek-V3');
    const weightsOn = async (release: string) => {
      const { outcome } = await runOn(check, a2({ ...modelDir('/models/DeepSeek-V3', deepseek, [300, 300]), ...python(release) }), {}, { launch: script });
      return modelFitEvidenceSchema.parse(outcome.evidence).weightsBytesPerNpu;
    };
    const own = await weightsOn('0.11.0');
    const shared = await weightsOn('0.12.0rc1');
    // the copies are 3.7 GB of the 1.37 TB the shapes count for this bf16 checkpoint: of its 600 GiB, that share, an eighth per rank
    const expected = (600 * GiB * (2 * 129280 * 7168 * 2)) / 1.37e12 / 8;
    expect(own - shared).toBeGreaterThan(0.95 * expected);
    expect(own - shared).toBeLessThan(1.05 * expected);
  });

  it('says the cache is not sized when neither config.json nor the table gives the layers', async () => {
    const { outcome } = await runOn(check, a3Node({ files: modelDir('/models/mystery', { model_type: 'mystery' }, [1]) }), {}, { launch: serve('', '/models/mystery') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('the KV cache of /models/mystery is not sized: config.json lacks num_hidden_layers, num_attention_heads, head_dim; ~1.0 GiB of weights per NPU, 53.7 GiB for the KV cache');
    expect(modelFitEvidenceSchema.parse(outcome.evidence).kvTokens).toBeNull();
  });

  it('halves the budget on 310P from v0.18 and charges what other processes hold (vllm_ascend/_310p/worker_310p.py)', async () => {
    const duo = { ...npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'), env: { PATH: `${PY}/bin:/usr/bin:/bin`, HOME: '/root' }, files: { ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.22.1rc1') } }), interfaces: NODE_INTERFACES };
    const { outcome } = await runOn(check, duo, {}, { launch: serve('--max-model-len 8192 --dtype float16') });
    const evidence = modelFitEvidenceSchema.parse(outcome.evidence);
    expect(evidence.plan.release.formula).toBe('310p-v0.18+');
    expect(evidence.plan.halved).toBe(true);
    // the chip's total as npu-smi prints it: torch_npu sees all of a 310P3's DDR (vllm-ascend #14004)
    expect(evidence.hbmVisibleBytesPerNpu).toBe(evidence.plan.device.npuSmiTotalMB * 2 ** 20);
    const { device, requestedBytes, weights, activation, nonTorch } = evidence.plan;
    expect(evidence.kvBudgetBytesPerNpu).toBe(Math.floor((requestedBytes - weights.bytes - activation.bytes - nonTorch.bytes - device.inUseBytes) / 2));
  });

  it('takes --kv-cache-memory as the budget', async () => {
    const host = a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.23.0') });
    const { outcome } = await runOn(check, host, {}, { launch: serve(`--max-model-len 8192 --kv-cache-memory ${8 * GiB}`) });
    const evidence = modelFitEvidenceSchema.parse(outcome.evidence);
    expect(evidence.kvBudgetBytesPerNpu).toBe(8 * GiB);
    expect(evidence.kvTokens).toBe(Math.floor((8 * GiB) / (128 * 4096) / 36) * 128);
  });

  it('warns about a piecewise graph capture over the stream budget on a release that no longer drops sizes', async () => {
    const host = a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.23.0') });
    const { outcome } = await runOn(check, host, {}, { launch: serve('-tp 4 --max-model-len 8192 --max-num-seqs 128') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^\d+ graph capture sizes x 37 streams x 3 \(FFTS\+\) = \d+ streams, over the 1800 of 2048 per device vllm-ascend budgets/);
    expect(outcome.remediation).toContain(`--compilation-config '{"cudagraph_mode": "FULL_DECODE_ONLY"}'`);
    // up to v0.20 vllm-ascend drops the sizes itself
    const older = await runOn(check, a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.20.2rc1') }), {}, { launch: serve('-tp 4 --max-model-len 8192 --max-num-seqs 128') });
    expect(older.outcome.status).toBe('pass');
  });
});

describe('model.fit in Chinese', () => {
  it('says the plan and its refusals in Chinese; evidence and commands are the same', async () => {
    const host = a2({ ...modelDir('/models/Qwen3-8B', QWEN3_8B, [7.6, 7.65]), ...python('0.18.0') });
    const fits = await runInBoth(check, host, {}, { launch: serve('--max-model-len 32768 --max-num-seqs 8') });
    expect(fits.zh.outcome.message).toMatch(/^\/models\/Qwen3-8B（config\.json）：每个 NPU 权重 15\.3 GiB，KV 缓存 [\d.]+ GiB（设备 0 的 0\.9 x 61\.0 GiB）：[\d,]+ 个 token，可同时容纳 [\d.]+ 个 32,768 token 的请求$/);
    expect(fits.zh.outcome.evidence).toEqual(fits.en.outcome.evidence);
    const over = await runInBoth(check, a2(modelDir('/models/Qwen3-8B', QWEN3_8B, [40, 40])), {}, { launch: serve('--max-model-len 4096') });
    expect(over.zh.outcome.message).toBe('权重放不下：每个 NPU 80.0 GiB，超过 vLLM 可用的 54.9 GiB（0.9 x 61.0 GiB）');
    expect(over.zh.outcome.actual).toBe(over.en.outcome.actual);
    expect(over.zh.outcome.remediation).toBe('run.sh 第 1 行：--tensor-parallel-size 2   # 每节点 2 个 NPU；每个 NPU 的权重随之减少');
  });
});
