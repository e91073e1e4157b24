import { describe, expect, it } from 'vitest';
import check from '../../../checks/model.supported.js';
import type { FakeHostSpec, FakeNode } from '../../helpers/fake-host.js';
import { a3Node, guideScript, imagePython } from '../../helpers/launch.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const SINGLE = guideScript('qwen3.5-397b-w8a8-a3-single-node.sh');
const WEIGHTS = '/root/.cache/modelscope/hub/models/Eco-Tech/Qwen3___5-397B-A17B-w8a8-mtp';

function host(version: string | null, files: Record<string, FakeNode> = {}): FakeHostSpec {
  if (version === null) return a3Node({ files });
  const image = imagePython(version, 'A3');
  return a3Node({ env: image.env, files: { ...image.files, ...files } });
}

describe('model.supported', () => {
  it('fails Qwen3.5 on vllm-ascend 0.13.0 with the first release that has it, from config.json', async () => {
    const { outcome, result } = await runOn(check, host('v0.13.0', { [`${WEIGHTS}/config.json`]: '{"model_type": "qwen3_5_moe"}' }), {}, { launch: SINGLE });
    expectRemediation(outcome);
    expect(result.status).toBe('fail');
    expect(outcome.message).toBe(
      'Qwen3.5 (model_type qwen3_5_moe of config.json) is not supported by vllm-ascend v0.13.0: it is supported from v0.17.0rc1 (vllm-project/vllm-ascend docs/source/user_guide/release_notes.md:866 @ 182b75ea84ff)',
    );
    expect(outcome.expected).toBe('vllm-ascend v0.17.0rc1 or later');
    expect(outcome.actual).toBe('vllm-ascend 0.13.0');
  });

  it('passes it on the releases that support it, and a source build between two tags is judged as the one below', async () => {
    const ok = await runOn(check, host('v0.18.0', { [`${WEIGHTS}/config.json`]: '{"model_type": "qwen3_5_moe"}' }), {}, { launch: SINGLE });
    expect(ok.outcome.status).toBe('pass');
    const dev = await runOn(check, host('v0.16.0rc2.dev902+gf355e4673', { [`${WEIGHTS}/config.json`]: '{"model_type": "qwen3_5_moe"}' }), {}, { launch: SINGLE });
    expect(dev.outcome.status).toBe('fail');
    expect(dev.outcome.message).toContain('is not supported by vllm-ascend 0.16.0rc2.dev902+gf355e4673 (judged as v0.16.0rc1)');
  });

  it('a backport counts: DeepSeek-V4 is supported from v0.20.2rc1, and on v0.13.0rc3 whose support matrix lists it', async () => {
    const files = { '/models/DeepSeek-V4-Flash/config.json': '{"model_type": "deepseek_v4"}' };
    const script = 'vllm serve /models/DeepSeek-V4-Flash --tensor-parallel-size 8\n';
    expect((await runOn(check, host('v0.18.0', files), {}, { launch: script })).outcome.status).toBe('fail');
    expect((await runOn(check, host('v0.13.0rc3', files), {}, { launch: script })).outcome.status).toBe('pass');
  });

  it('judges by the name when the weights are not here, and then only warns', async () => {
    const { outcome } = await runOn(check, host('v0.13.0'), {}, { launch: 'vllm serve Qwen/Qwen3.5-27B\n' });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^Qwen3\.5 \(by its name Qwen\/Qwen3\.5-27B, no config\.json here\) is not supported by vllm-ascend v0\.13\.0/);
  });

  it('skips a model of no family it knows, and a node without vllm-ascend, saying what the model needs', async () => {
    const unknown = await runOn(check, host('v0.18.0', { '/models/x/config.json': '{"model_type": "llama"}' }), {}, { launch: 'vllm serve /models/x\n' });
    expect(unknown.outcome.status).toBe('skip');
    expect(unknown.outcome.message).toBe('llama is none of the model families qprep knows (knowledge/models.json): not judged');
    const noVersion = await runOn(check, host(null, { [`${WEIGHTS}/config.json`]: '{"model_type": "qwen3_5_moe"}' }), {}, { launch: SINGLE, lang: 'zh' });
    expect(noVersion.outcome.status).toBe('skip');
    expect(noVersion.outcome.message).toMatch(/^此处未找到 vllm-ascend 版本，无法判断 Qwen3\.5（config\.json 的 model_type qwen3_5_moe）：它从 v0\.17\.0rc1 起支持/);
    expectRemediation(noVersion.outcome);
  });

  it('skips without a launch script or a server command', async () => {
    expect((await runOn(check, a3Node())).outcome.status).toBe('skip');
    expect((await runOn(check, a3Node(), {}, { launch: guideScript('proxy.sh') })).outcome.status).toBe('skip');
  });
});
