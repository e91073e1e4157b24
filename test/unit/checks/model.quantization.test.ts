import { describe, expect, it } from 'vitest';
import check from '../../../checks/model.quantization.js';
import type { FakeHostSpec, FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { edited, guideScript, imagePython } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

// the tutorial's Qwen3.6-27B-w8a8 block for Atlas inference products, at v0.23.0rc1 (float16, TP 4)
const SCRIPT = guideScript('qwen3.6-27b-w8a8-310p-float16.sh');
const WEIGHTS = '/root/.cache/modelscope/hub/models/Eco-Tech/Qwen3___6-27B-w8a8';

function weights(type: string | null, extra: Record<string, FakeNode> = {}): Record<string, FakeNode> {
  return {
    [`${WEIGHTS}/config.json`]: '{"model_type": "qwen3_5", "torch_dtype": "bfloat16"}',
    [`${WEIGHTS}/model-00001-of-00001.safetensors`]: { kind: 'file', content: 'x', size: 1024 },
    [`${WEIGHTS}/quant_model_description.json`]: type === null ? '{"version": "1.0.0"}' : JSON.stringify({ model_quant_type: type, version: '1.0.0' }),
    ...extra,
  };
}

function node(capture: string, version: string | null, files: Record<string, FakeNode>, deviceType: 'A2' | '_310P' = 'A2'): FakeHostSpec {
  const image = version === null ? { env: { PATH: '/usr/bin:/bin', HOME: '/root' }, files: {} } : imagePython(version, deviceType);
  return npuHost({ info: ascendFixture(capture), env: image.env, files: { ...image.files, ...files } });
}

const A2 = 'npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt';
const DUO = 'npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt';

describe('model.quantization', () => {
  it('fails float16 with W8A8_DYNAMIC weights on an A2 on the releases the failure was reported on, a warning on others', async () => {
    const failed = await runOn(check, node(A2, 'v0.23.0rc1', weights('W8A8_DYNAMIC')), {}, { launch: SCRIPT });
    expectRemediation(failed.outcome);
    expect(failed.result.status).toBe('fail');
    expect(failed.outcome.message).toContain('"Tensor scale not implemented for DT_FLOAT16, should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT]" (rule w8a8.fp16-a2a3, vllm-ascend v0.23.0rc1)');
    expect(failed.outcome.remediation).toBe('run.sh line 18: --dtype bfloat16 --mamba-ssm-cache-dtype bfloat16');
    const later = await runOn(check, node(A2, 'v0.25.1rc1', weights('W8A8')), {}, { launch: SCRIPT });
    expect(later.outcome.status).toBe('warn');
    const unknown = await runOn(check, node(A2, null, weights('W8A8')), {}, { launch: SCRIPT });
    expect(unknown.outcome.status).toBe('warn');
    expect(unknown.outcome.message).toMatch(/\(rule w8a8\.fp16-a2a3; no vllm-ascend version found here, a warning \(it fails on v0\.17\.0rc1 to v0\.23\.0rc1\)\)$/);
  });

  it('takes the dtype from config.json when --dtype is auto or absent, and passes bfloat16', async () => {
    const noFlag = edited(SCRIPT, [['--dtype float16 \\\n', '']]);
    const bf16 = await runOn(check, node(A2, 'v0.23.0rc1', weights('W8A8')), {}, { launch: noFlag });
    expect(bf16.outcome.status).toBe('pass');
    expect(bf16.outcome.message).toBe(`msModelSlim W8A8 weights (${WEIGHTS}/quant_model_description.json) fit this launch (vllm-ascend 0.23.0rc1)`);
    const fp16Config = await runOn(check, node(A2, 'v0.23.0rc1', weights('W8A8', { [`${WEIGHTS}/config.json`]: '{"model_type": "qwen3_5", "torch_dtype": "float16"}' })), {}, { launch: noFlag });
    expect(fp16Config.outcome.status).toBe('fail');
    expect(fp16Config.outcome.message).toContain('with torch_dtype float16 of config.json (no --dtype) on A2');
  });

  it('float16 is the 310P\'s dtype: the same script passes on the 300I Duo it was written for', async () => {
    const { outcome } = await runOn(check, node(DUO, 'v0.23.0rc1', weights('W8A8'), '_310P'), {}, { launch: SCRIPT });
    expect(outcome.status).toBe('pass');
  });

  it('fails W8A8SC weights compressed for TP 1 served with TP 4 on the 310P, naming the rank files', async () => {
    const sc = {
      [`${WEIGHTS}/config.json`]: '{"model_type": "qwen3"}',
      [`${WEIGHTS}/quant_model_description.json`]: '{"model_quant_type": "W8A8SC", "version": "1.0.0"}',
      [`${WEIGHTS}/model-rank-0-part-0.safetensors`]: { kind: 'file' as const, content: 'x', size: 1024 },
    };
    const { outcome } = await runOn(check, node(DUO, 'v0.18.0', sc, '_310P'), {}, { launch: SCRIPT });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      `msModelSlim W8A8SC weights (${WEIGHTS}/quant_model_description.json) were compressed for TP 1 (model-rank-0..0 files), and the server runs --tensor-parallel-size 4 (run.sh:11): W8A8SC weights are tied to their TP size (rule w8a8sc.tp, vllm-ascend v0.18.0)`,
    );
    expect(outcome.remediation).toMatch(/^run\.sh line 11: --tensor-parallel-size 1   # /);
  });

  it('passes weights without a description or without model_quant_type, and skips weights not on this host', async () => {
    const plain = await runOn(check, node(A2, 'v0.23.0rc1', { [`${WEIGHTS}/config.json`]: '{"model_type": "qwen3_5"}' }), {}, { launch: SCRIPT });
    expect(plain.outcome.status).toBe('pass');
    const untyped = await runOn(check, node(A2, 'v0.23.0rc1', weights(null)), {}, { launch: SCRIPT, lang: 'zh' });
    expect(untyped.outcome.status).toBe('pass');
    expect(untyped.outcome.message).toBe(`${WEIGHTS}/quant_model_description.json 没有给出 model_quant_type：没有适用的量化规则`);
    const absent = await runOn(check, node(A2, 'v0.23.0rc1', {}), {}, { launch: edited(SCRIPT, [['export MODEL_PATH=Eco-Tech/Qwen3.6-27B-w8a8', 'export MODEL_PATH=Eco-Tech/Qwen3.6-27B']]) });
    expect(absent.outcome.status).toBe('skip');
    expectRemediation(absent.outcome);
  });

  it('by the name alone (no weights here), a W8A8 model with float16 on A2 is a warning', async () => {
    const { outcome } = await runOn(check, node(A2, 'v0.23.0rc1', {}), {}, { launch: SCRIPT });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^weights named Eco-Tech\/Qwen3\.6-27B-w8a8 \(W8A8 by their name; no quant_model_description\.json here to tell\) with --dtype float16/);
  });
});
