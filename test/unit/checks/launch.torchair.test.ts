import { describe, expect, it } from 'vitest';
import check from '../../../checks/launch.flags.js';
import type { FakeNode } from '../../helpers/fake-host.js';
import { a3Node, edited, guideScript } from '../../helpers/launch.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/**
 * torchair_graph_config on the real node-0 block of multi_node_kimi.md at vllm-ascend v0.11.0
 * (test/fixtures/launch/kimi-k2-torchair-node0.sh, byte for byte). The rule is v0.11.0's
 * vllm_ascend/ascend_config.py: TORCHAIR_MODEL_LIST and check_ascend_config.
 */

const KIMI = guideScript('kimi-k2-torchair-node0.sh');
const WEIGHTS = '/home/cache/weights/Kimi-K2-Instruct-W8A8';

/** the weights directory of the block with a config.json of the given model_type */
function weightsOf(modelType: string): Record<string, FakeNode> {
  return {
    [`${WEIGHTS}/config.json`]: JSON.stringify({ model_type: modelType, num_attention_heads: 64, num_key_value_heads: 64 }),
    [`${WEIGHTS}/model.safetensors.index.json`]: JSON.stringify({ weight_map: { a: 'model-00001-of-00001.safetensors' } }),
    [`${WEIGHTS}/model-00001-of-00001.safetensors`]: { kind: 'file', content: 'x', size: 1024 },
    [`${WEIGHTS}/quant_model_description.json`]: '{}',
  };
}

const torchairFinding = (message: string, remediation: string) => /torchair/i.test(message) || /torchair/i.test(remediation);

describe('launch.flags: torchair_graph_config', () => {
  it('the Kimi-K2 block as published: TorchAir supports kimi_k2, no torchair finding (by the name, and by config.json)', async () => {
    for (const spec of [a3Node(), a3Node({ files: weightsOf('kimi_k2') })]) {
      const { outcome } = await runOn(check, spec, {}, { launch: KIMI });
      expect(outcome.status).toBe('pass');
      expect(torchairFinding(outcome.message, outcome.remediation ?? '')).toBe(false);
    }
  });

  it('the same block on weights whose config.json says another model_type (glm4_moe): a fail naming the source', async () => {
    const { outcome } = await runOn(check, a3Node({ files: weightsOf('glm4_moe') }), {}, { launch: KIMI });
    expectRemediation(outcome);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain(
      "torchair_graph_config is enabled (run.sh:38) for model_type glm4_moe (the weights' config.json), and TorchAir graph mode supports only the model types deepseek, pangu, kimi_k2, qwen " +
        '(vllm-ascend v0.11.0 vllm_ascend/ascend_config.py, TORCHAIR_MODEL_LIST): vllm-ascend raises NotImplementedError at start',
    );
    expect(outcome.remediation).toContain('run.sh line 38: "torchair_graph_config": {"enabled": false}');
  });

  it('another model by its name only, without the weights on this host: a warning', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: edited(KIMI, [[WEIGHTS, '/home/cache/weights/GLM-4.5-W8A8']]) });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^torchair_graph_config is enabled \(run.sh:38\) for \/home\/cache\/weights\/GLM-4.5-W8A8 \(by its name; the weights are not on this host to tell its model_type\)/);
  });

  it('TorchAir with --enforce-eager: a fail, whatever the model', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: edited(KIMI, [['--gpu-memory-utilization 0.9 \\', '--gpu-memory-utilization 0.9 \\\n--enforce-eager \\']]) });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^torchair_graph_config is enabled \(run.sh:39\) together with --enforce-eager: vllm-ascend refuses to start/);
  });
});
