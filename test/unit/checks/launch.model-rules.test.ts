import { describe, expect, it } from 'vitest';
import check, { torchairModelTypes } from '../../../checks/launch.model-rules.js';
import { ruleById } from '../../../src/knowledge/judge.js';
import type { FakeHostSpec, FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, guideScript, imagePython } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/**
 * The rules of knowledge/rules.json a launch is judged by, for the vllm-ascend installed in the
 * Python the script runs (an official image's layout, test/helpers/launch.ts imagePython): the
 * same script passes on one release and fails on another.
 */

/** An A3 node with the image of that vllm-ascend release (or none), and these files. */
function a3With(version: string | null, files: Record<string, FakeNode> = {}, packages: Record<string, string> = {}): FakeHostSpec {
  if (version === null) return a3Node({ files });
  const image = imagePython(version, 'A3', packages);
  return a3Node({ env: image.env, files: { ...image.files, ...files } });
}

function duoWith(version: string | null): FakeHostSpec {
  const image = version === null ? { env: { PATH: '/usr/bin:/bin' }, files: {} } : imagePython(version, '_310P');
  return npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'), env: image.env, files: image.files });
}

describe('launch.model-rules: TorchAir, a list that grew release by release and then went away', () => {
  // the node-0 block of multi_node_kimi.md at vllm-ascend v0.11.0, byte for byte
  const KIMI = guideScript('kimi-k2-torchair-node0.sh');
  const WEIGHTS = '/home/cache/weights/Kimi-K2-Instruct-W8A8';
  const weightsOf = (modelType: string): Record<string, FakeNode> => ({
    [`${WEIGHTS}/config.json`]: JSON.stringify({ model_type: modelType }),
    [`${WEIGHTS}/model-00001-of-00001.safetensors`]: { kind: 'file', content: 'x', size: 1024 },
  });

  it('every release that states the list gives the model types it holds', () => {
    const rule = ruleById('torchair.model-list');
    for (const statement of rule.statedIn) for (const ref of statement.refs) expect(torchairModelTypes(rule, ref), ref).not.toEqual([]);
    expect(torchairModelTypes(rule, 'v0.9.1')).toEqual(['deepseek']);
    expect(torchairModelTypes(rule, 'v0.10.0rc1')).toEqual(['deepseek', 'pangu', 'kimi_k2']);
    expect(torchairModelTypes(rule, 'v0.11.0')).toEqual(['deepseek', 'pangu', 'kimi_k2', 'qwen']);
    expect(torchairModelTypes(rule, null)).toEqual(['deepseek', 'pangu', 'kimi_k2', 'qwen']);
  });

  it('the Kimi-K2 block as published, on the v0.11.0 it was written for: kimi_k2 is on the list', async () => {
    const { outcome } = await runOn(check, a3With('v0.11.0', weightsOf('kimi_k2')), {}, { launch: KIMI });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('the launch keeps torchair.model-list (vllm-ascend 0.11.0)');
  });

  it('the same block on weights of another model_type (glm4_moe): a fail naming the list of the release and the rule', async () => {
    const { outcome } = await runOn(check, a3With('v0.11.0', weightsOf('glm4_moe')), {}, { launch: KIMI });
    expectRemediation(outcome);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      "torchair_graph_config is enabled (run.sh:38) for model_type glm4_moe (the weights' config.json), and TorchAir graph mode runs only the model types deepseek, pangu, kimi_k2, qwen: " +
        'vllm-ascend raises NotImplementedError at start (rule torchair.model-list, vllm-ascend v0.11.0)',
    );
    expect(outcome.remediation).toBe('run.sh line 38: "torchair_graph_config": {"enabled": false}   # the default graph mode (ACLGraph) serves this model');
    const [finding] = (outcome.evidence as { findings: Array<Record<string, unknown>> }).findings;
    expect(finding).toMatchObject({ level: 'fail', rule: 'torchair.model-list', source: 'vllm-project/vllm-ascend vllm_ascend/ascend_config.py:20 @ v0.11.0', judgedAs: 'v0.11.0', installed: '0.11.0' });
  });

  it('a Qwen3 on TorchAir is a version question: not on v0.10.0rc1\'s list, on v0.10.1rc1\'s', async () => {
    const script = edited(KIMI, [[WEIGHTS, '/models/Qwen3-235B-A22B']]);
    const files = { '/models/Qwen3-235B-A22B/config.json': '{"model_type": "qwen3_moe"}' };
    const before = await runOn(check, a3With('v0.10.0rc1', files), {}, { launch: script });
    expect(before.outcome.status).toBe('fail');
    expect(before.outcome.message).toContain('runs only the model types deepseek, pangu, kimi_k2: vllm-ascend raises NotImplementedError at start (rule torchair.model-list, vllm-ascend v0.10.0rc1)');
    const after = await runOn(check, a3With('v0.10.1rc1', files), {}, { launch: script });
    expect(after.outcome.status).toBe('pass');
  });

  it('another model by its name only, without the weights on this host: a warning', async () => {
    const { outcome } = await runOn(check, a3With('v0.11.0'), {}, { launch: edited(KIMI, [[WEIGHTS, '/home/cache/weights/GLM-4.5-W8A8']]) });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^torchair_graph_config is enabled \(run.sh:38\) for GLM-4.5-W8A8 \(by its name; the weights are not on this host to tell its model_type\)/);
  });

  it('TorchAir with --enforce-eager: a fail, whatever the model', async () => {
    const { outcome } = await runOn(check, a3With('v0.11.0'), {}, { launch: edited(KIMI, [['--gpu-memory-utilization 0.9 \\', '--gpu-memory-utilization 0.9 \\\n--enforce-eager \\']]) });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^torchair_graph_config is enabled \(run.sh:39\) together with --enforce-eager: vllm-ascend refuses to start \("Can't enable graph mode and eager mode at the same time", rule torchair.model-list, vllm-ascend v0.11.0\)$/);
  });

  it('from v0.12.0rc1 TorchAir is gone: the block is a warning that its graph config is ignored', async () => {
    const { outcome } = await runOn(check, a3With('v0.13.0', weightsOf('glm4_moe')), {}, { launch: KIMI });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('torchair_graph_config (run.sh:38) is ignored: TorchAir graph mode was removed, ACLGraph serves instead (rule torchair.removed, vllm-ascend v0.13.0)');
  });

  it('with no vllm-ascend found, each finding says what it assumed', async () => {
    const { outcome } = await runOn(check, a3With(null, weightsOf('glm4_moe')), {}, { launch: KIMI });
    expect(outcome.status).toBe('fail');
    expect(outcome.details).toEqual([
      expect.stringMatching(/for model_type glm4_moe .*\(rule torchair\.model-list; no vllm-ascend version found here, judged as if it applies \(it does on v0\.9\.0rc1 to v0\.11\.0\)\)$/),
      expect.stringMatching(/is ignored: .*\(rule torchair\.removed; no vllm-ascend version found here, judged as at v\S+, the newest release\)$/),
    ]);
    expect((outcome.evidence as { findings: Array<{ assumption: string }> }).findings.map((f) => f.assumption)).toEqual(['in-force', 'newest']);
  });
});

describe('launch.model-rules: GLM-5', () => {
  const WEIGHTS = '/models/GLM-5-w8a8';
  const CONFIG = { [`${WEIGHTS}/config.json`]: '{"model_type": "glm_moe_dsa", "architectures": ["GlmMoeDsaForCausalLM"]}' };
  const MTP = `vllm serve ${WEIGHTS} \\\n--enable-expert-parallel \\\n--speculative-config '{"num_speculative_tokens": 3, "method": "deepseek_mtp"}'\n`;

  it('MTP without "enforce_eager": true fails from v0.21.0rc1, where its crash was reported; the fix is the same JSON with it', async () => {
    const { outcome } = await runOn(check, a3With('v0.21.0rc1', CONFIG, { transformers: '5.2.0' }), {}, { launch: MTP });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      'GLM-5 with MTP ("method": "deepseek_mtp", run.sh:3) runs without "enforce_eager": true in --speculative-config: GLM-5 does not support graph-mode speculative decoding (rule glm5.mtp-enforce-eager, vllm-ascend v0.21.0rc1)',
    );
    expect(outcome.remediation).toBe(`run.sh line 3: --speculative-config '{"num_speculative_tokens":3,"method":"deepseek_mtp","enforce_eager":true}'`);
  });

  it('before v0.21.0rc1 (the tutorials of v0.17.0rc1 to v0.22.1rc1 ran MTP without it) the same is a warning', async () => {
    const { outcome } = await runOn(check, a3With('v0.18.0', CONFIG, { transformers: '5.2.0' }), {}, { launch: MTP });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('(rule glm5.mtp-enforce-eager, vllm-ascend v0.18.0)');
  });

  it('passes with enforce_eager in the speculative config, or with the whole server eager', async () => {
    const withEager = edited(MTP, [['"deepseek_mtp"}', '"deepseek_mtp", "enforce_eager": true}']]);
    const eager = edited(MTP, [['--enable-expert-parallel', '--enable-expert-parallel \\\n--enforce-eager']]);
    for (const script of [withEager, eager]) {
      const { outcome } = await runOn(check, a3With('v0.23.0', CONFIG, { transformers: '5.2.0' }), {}, { launch: script });
      expect(outcome.status).toBe('pass');
      expect(outcome.message).toBe('the launch keeps glm5.mtp-enforce-eager, glm5.expert-parallel, glm5.transformers (vllm-ascend 0.23.0)');
    }
  });

  it('transformers older than 5.2.0 does not know glm_moe_dsa; without transformers the rule is not judged and says so', async () => {
    const script = edited(MTP, [['"deepseek_mtp"}', '"deepseek_mtp", "enforce_eager": true}']]);
    const old = await runOn(check, a3With('v0.18.0', CONFIG, { transformers: '4.57.1' }), {}, { launch: script });
    expect(old.outcome.status).toBe('fail');
    expect(old.outcome.message).toBe(
      "transformers 4.57.1 (/usr/local/python3.11.13/lib/python3.11/site-packages/transformers-4.57.1.dist-info) does not know GLM-5's model_type glm_moe_dsa: it needs 5.2.0 or later (rule glm5.transformers, vllm-ascend v0.18.0)",
    );
    expect(old.outcome.remediation).toBe("/usr/local/python3.11.13/bin/python3.11 -m pip install 'transformers>=5.2.0'");
    const none = await runOn(check, a3With('v0.18.0', CONFIG), {}, { launch: script });
    expect(none.outcome.status).toBe('pass');
    expect(none.outcome.message).toContain('; not judged: glm5.transformers (see the evidence)');
  });

  it('warns without --enable-expert-parallel from v0.23.0, where its tutorial says it must be enabled', async () => {
    const script = edited(MTP, [['--enable-expert-parallel \\\n', ''], ['"deepseek_mtp"}', '"deepseek_mtp", "enforce_eager": true}']]);
    const { outcome } = await runOn(check, a3With('v0.23.0', CONFIG, { transformers: '5.2.0' }), {}, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('run.sh serves GLM-5 without --enable-expert-parallel, which its tutorial says must be enabled for its MoE architecture (rule glm5.expert-parallel, vllm-ascend v0.23.0)');
  });
});

describe('launch.model-rules: the 300I Duo (310P)', () => {
  const DENSE_2B = guideScript('qwen3.5-2b-310p.sh');

  it("the guide's script keeps the 310P rules on the v0.23.0 it was written for", async () => {
    const { outcome } = await runOn(check, duoWith('v0.23.0'), {}, { launch: DENSE_2B });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('the launch keeps 310p.dtype-float16, 310p.npugraph-ex (vllm-ascend 0.23.0)');
  });

  it('bfloat16 fails; the SSM cache dtype and npugraph_ex warn before v0.23.0 turns npugraph_ex off itself', async () => {
    const script = edited(DENSE_2B, [
      ['--dtype float16', '--dtype bfloat16'],
      ['--mamba-ssm-cache-dtype float16 \\\n', ''],
      ['"enable_npugraph_ex": false', '"enable_npugraph_ex": true'],
    ]);
    const { outcome } = await runOn(check, duoWith('v0.22.1rc1'), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('the 310P runs float16 only, and --dtype is bfloat16 (rule 310p.dtype-float16, vllm-ascend v0.22.1rc1) (and 2 more)');
    expect(outcome.remediation!.split('\n')).toEqual([
      'run.sh line 15: --dtype float16',
      'run.sh line 6: --mamba-ssm-cache-dtype float16',
      `run.sh line 18: --additional-config '{"ascend_compilation_config":{"enable_npugraph_ex":false}}'`,
    ]);
    const onGuard = await runOn(check, duoWith('v0.23.0'), {}, { launch: edited(DENSE_2B, [['"enable_npugraph_ex": false', '"enable_npugraph_ex": true']]) });
    expect(onGuard.outcome.status).toBe('pass');
  });

  it('the npugraph_ex switch moved: v0.15.0rc1 read npugraph_ex_config.enable', async () => {
    const script = edited(DENSE_2B, [['"enable_npugraph_ex": false', '"enable_npugraph_ex": true']]);
    const { outcome } = await runOn(check, duoWith('v0.15.0rc1'), {}, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      'the 310P does not support npugraph_ex, which runs with FULL graphs unless npugraph_ex_config.enable is false, and --additional-config does not set it (rule 310p.npugraph-ex, vllm-ascend v0.15.0rc1)',
    );
    expect(outcome.remediation).toContain('"npugraph_ex_config":{"enable":false}');
  });

  it('with no vllm-ascend found, npugraph_ex is judged as if its rule applies, and says so; in Chinese too', async () => {
    const script = edited(DENSE_2B, [['"enable_npugraph_ex": false', '"enable_npugraph_ex": true']]);
    const { outcome } = await runOn(check, duoWith(null), {}, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/\(rule 310p\.npugraph-ex; no vllm-ascend version found here, judged as if it applies \(it does on v0\.15\.0rc1 to main\)\)$/);
    const zh = await runOn(check, duoWith(null), {}, { launch: script, lang: 'zh' });
    expect(zh.outcome.message).toMatch(/^310P 不支持 npugraph_ex/);
    expect(zh.outcome.message).toContain('规则 310p.npugraph-ex；此处未找到 vllm-ascend 版本，按规则适用判断');
  });

  it('uses the profile\'s family when npu-smi cannot tell', async () => {
    const image = imagePython('v0.23.0', '_310P');
    const { outcome } = await runOn(check, { env: image.env, files: image.files }, { npu: { family: '310p' } }, { launch: edited(DENSE_2B, [['--dtype float16', '--dtype bfloat16']]) });
    expect(outcome.status).toBe('fail');
  });
});

describe('launch.model-rules: Qwen3.5 prefix caching, in the releases whose tutorials ask for align', () => {
  const SINGLE = guideScript('qwen3.5-397b-w8a8-a3-single-node.sh');

  it('warns on v0.20.2rc1, says nothing on v0.23.0 nor with the version unknown (judged as at the newest release)', async () => {
    const warned = await runOn(check, a3With('v0.20.2rc1'), {}, { launch: SINGLE });
    expect(warned.outcome.status).toBe('warn');
    expect(warned.outcome.remediation).toBe('run.sh line 32: --enable-prefix-caching --mamba-cache-mode align   # or --no-enable-prefix-caching');
    const later = await runOn(check, a3With('v0.23.0'), {}, { launch: SINGLE });
    expect(later.outcome).toMatchObject({ status: 'pass', message: 'no rule of knowledge/rules.json applies to this model and NPU on vllm-ascend 0.23.0' });
    // with no version found the newest release is assumed, and the pass says what that hides
    const unknown = await runOn(check, a3With(null), {}, { launch: SINGLE });
    expect(unknown.outcome.status).toBe('pass');
    expect(unknown.outcome.message).toMatch(
      /; no vllm-ascend version found here, so judged as at the newest release, the launch breaks qwen35\.prefix-caching-align \(in force on v0\.18\.0rc1 to v0\.21\.0rc1\)$/,
    );
    expect(unknown.outcome.evidence).toMatchObject({ assumed: [{ rule: 'qwen35.prefix-caching-align', applies: { from: 'v0.18.0rc1', to: 'v0.21.0rc1' } }] });
  });

  it('skips without a server command', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: guideScript('proxy.sh') });
    expect(outcome.status).toBe('skip');
    expectRemediation(outcome);
  });
});
