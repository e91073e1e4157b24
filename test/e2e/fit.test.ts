import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';

/** The built CLI: model.fit's plan through qprep explain, its evidence through the published schema. */
describe('qprep explain model.fit', () => {
  it('prints the plan of a recorded host, one row per figure with its source, and exits 0', async () => {
    const run = await qprep(['explain', 'model.fit', '--snapshot', 'examples/snapshots/a2-w8a8-node0.json'], { env: { PATH: '/nonexistent' } });
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('model.fit plan of qwen3.5-397b-w8a8-a2-node0.sh (vllm serve Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp): pass');
    expect(run.stdout).toMatch(/^ {2}torch_npu sees +61\.0 GiB +exact: npu-smi's total less 3116 MiB the driver keeps \(https:\/\/github\.com\/vllm-project\/vllm-ascend\/issues\/3800\)$/m);
    expect(run.stdout).toMatch(/^ {2}weights per NPU +[\d.]+ GiB +exact: [\d.]+ GiB \(the shards on disk\), split as vLLM shards each part: TP 8, experts over EP 16, with the MTP layers$/m);
    expect(run.stdout).toMatch(/^ {2}MC2 HCCL buffer +needs \d+ MB, HCCL_BUFFSIZE is 1024 MB/m);
    // the hybrid layout of config.json: 15 full-attention layers and the MTP layer hold per-token KV, the 45 linear ones a state per sequence
    expect(run.stdout).toMatch(/^ {2}KV per token +16\.0 KiB +exact: 16 layers that hold per-token KV, 1 KV heads per NPU$/m);
    expect(run.stdout).toMatch(/^ {2}state per sequence +[\d.]+ MiB +exact: the conv and SSM state of every linear-attention layer$/m);
    expect(run.stdout).toMatch(/^ +GPU KV cache size: [\d,]+ tokens$/m);
    expect(run.stdout).toMatch(/^ +Maximum concurrency for 32,768 tokens per request: [\d.]+x$/m);
    expect(run.stdout).toMatch(/^ {2}verdict +Eco-Tech\/Qwen3\.5-397B-A17B-w8a8-mtp \(config\.json\): [\d.]+ GiB of weights per NPU/m);
  });

  it('plans a launch script on a host tree, in Chinese too, and -f json gives the evidence the schema describes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-fit-'));
    const model = join(root, 'models', 'Qwen3-8B');
    mkdirSync(model, { recursive: true });
    writeFileSync(join(model, 'config.json'), JSON.stringify({ model_type: 'qwen3', num_hidden_layers: 36, hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, vocab_size: 151936, intermediate_size: 12288, max_position_embeddings: 40960 }));
    const script = join(root, 'run.sh');
    writeFileSync(script, `vllm serve ${model} --max-model-len 32768\n`);
    // no npu-smi on this machine: the plan cannot be made, and the check says why
    const json = await qprep(['explain', 'model.fit', '--launch', script, '-f', 'json'], { env: { PATH: '/nonexistent' } });
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ id: 'model.fit', status: 'error' });
    expect(result.message).toMatch(/npu-smi/);
    const zh = await qprep(['explain', 'model.fit', '--launch', script, '--lang', 'zh'], { env: { PATH: '/nonexistent' } });
    expect(zh.stdout).toMatch(/^error: /);
  });

  it('publishes the evidence schema, which every demo report with a launch script satisfies', async () => {
    const run = await qprep(['check', '--snapshot', 'examples/snapshots/a3-pd-prefill.json', '--only', 'model.fit', '--format', 'json'], { env: { PATH: '/nonexistent' } });
    const report = JSON.parse(run.stdout);
    const evidence = report.checks.find((c: { id: string }) => c.id === 'model.fit').evidence;
    const { valid, errors } = await validateAgainstSchema('fit-evidence', evidence);
    expect(valid, errors).toBe(true);
    expect(Object.keys(evidence)).toEqual(expect.arrayContaining(['weightsBytesPerNpu', 'kvBudgetBytesPerNpu', 'kvBytesPerToken', 'kvTokens', 'maxConcurrency', 'maxModelLen', 'hbmVisibleBytesPerNpu', 'basis']));
  });

  it('refuses a host option for another check', async () => {
    const run = await qprep(['explain', 'npu.idle', '--snapshot', 'examples/snapshots/a2-healthy.json']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('qprep: error: --launch explains the memory plan of model.fit, not npu.idle: qprep explain model.fit --launch SCRIPT\n');
  });
});
