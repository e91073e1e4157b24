import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';
import { fixturePath } from '../helpers/fixtures.js';
import { coreMetadata, guideScript, IMAGE_PYTHON, IMAGE_SITE } from '../helpers/launch.js';

/**
 * What qprep missed on public vllm-ascend issues, each rebuilt from the issue as a node (the
 * reporter's NPU table on a fake npu-smi, the vllm-ascend and packages they name installed in the
 * image's Python under a --root tree, the weights' config.json and quantization description) and
 * run through the built CLI with the script the reporter ran. The issues are
 * test/fixtures/issues (README.md: their URLs); without the knowledge of knowledge/ each of
 * these launches passed.
 */

function issue(name: string): string {
  return readFileSync(new URL(`../fixtures/issues/${name}`, import.meta.url), 'utf8');
}

function write(root: string, path: string, content: string, mode = 0o644): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  chmodSync(full, mode);
  return full;
}

/** A bin directory whose npu-smi prints this capture for "info", as the driver's tool would. */
function npuSmiPrinting(capture: string): string {
  const bin = mkdtempSync(join(tmpdir(), 'qprep-misses-bin-'));
  write(bin, 'npu-smi', `#!/bin/sh\nif [ "$*" = "info" ]; then cat '${fixturePath('ascend', capture)}'; exit 0; fi\necho "Command or option is not found."; exit 1\n`, 0o755);
  return bin;
}

/**
 * The node's files under a --root tree: the image's Python (tests/helpers/launch.ts imagePython,
 * its Dockerfile's layout) with vllm-ascend at `version` and the packages given, and `files`.
 */
function nodeTree(version: string, deviceType: string, packages: Record<string, string>, files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'qprep-misses-root-'));
  const ascend = version.replace(/^v/, '');
  write(root, `${IMAGE_PYTHON}/bin/vllm`, `#!${IMAGE_PYTHON}/bin/python3.11\n`, 0o755);
  write(root, `${IMAGE_PYTHON}/bin/python3.11`, 'ELF', 0o755);
  write(root, `${IMAGE_SITE}/vllm_ascend-${ascend}.dist-info/METADATA`, coreMetadata('vllm_ascend', ascend));
  write(root, `${IMAGE_SITE}/vllm_ascend-${ascend}.dist-info/direct_url.json`, '{"dir_info": {"editable": true}, "url": "file:///vllm-workspace/vllm-ascend"}');
  write(root, '/vllm-workspace/vllm-ascend/vllm_ascend/_build_info.py', `# Auto-generated file\n__device_type__ = '${deviceType}'\n`);
  for (const [name, v] of Object.entries(packages)) write(root, `${IMAGE_SITE}/${name.replace(/-/g, '_')}-${v}.dist-info/METADATA`, coreMetadata(name, v));
  for (const [path, content] of Object.entries(files)) write(root, path, content);
  return root;
}

interface Result {
  id: string;
  status: string;
  message: string;
  remediation?: string;
  evidence: Record<string, unknown>;
}

async function check(only: string, root: string, bin: string, script: string) {
  const launch = write(mkdtempSync(join(tmpdir(), 'qprep-misses-script-')), 'run.sh', script);
  const run = await qprep(['check', '--only', only, '--root', root, '--launch', launch, '--format', 'json'], {
    env: { PATH: `${bin}:${IMAGE_PYTHON}/bin:/usr/bin:/bin`, HOME: '/root' },
  });
  const report = JSON.parse(run.stdout);
  const { valid, errors } = await validateAgainstSchema('report', report);
  expect(valid, errors).toBe(true);
  const byId: Record<string, Result> = Object.fromEntries(report.checks.map((c: Result) => [c.id, c]));
  return { run, report, byId };
}

describe('the misses of public issues, on the built CLI', () => {
  it('GLM-5.1 with MTP and no "enforce_eager": true on v0.21.0rc1 (vllm-project/vllm-ascend#10700) fails launch.model-rules', async () => {
    // the reporter's node-one script, and the MTP line the same reporter gave for the same deployment in #9214
    const flag = /^(--speculative-config '[^']*')/.exec(issue('vllm-ascend-9214-glm5.1-mtp-comment.txt'))![1]!;
    const script = `${issue('vllm-ascend-10700-glm5.1-a2-node1-excerpt.sh')}${flag}\n`;
    const weights = '/mnt/nvme1n1/GLM-5.1-20260414/dir';
    // GLM-5's model_type and architecture (knowledge/models.json, family GLM-5)
    const root = nodeTree('v0.21.0rc1', 'A2', {}, { [`${weights}/config.json`]: '{"model_type": "glm_moe_dsa", "architectures": ["GlmMoeDsaForCausalLM"]}' });
    const { run, report, byId } = await check('launch.model-rules', root, npuSmiPrinting('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt'), script);
    expect(run.exitCode, run.stderr).toBe(1);
    expect(report.blocking).toEqual(['launch.model-rules']);
    const rules = byId['launch.model-rules']!;
    expect(rules.status).toBe('fail');
    expect(rules.message).toBe(
      'GLM-5 with MTP ("method": "deepseek_mtp", run.sh:44) runs without "enforce_eager": true in --speculative-config: GLM-5 does not support graph-mode speculative decoding (rule glm5.mtp-enforce-eager, vllm-ascend v0.21.0rc1)',
    );
    expect(rules.remediation).toBe(`run.sh line 44: --speculative-config '{"num_speculative_tokens":3,"method":"deepseek_mtp","enforce_eager":true}'`);
    const [finding] = rules.evidence.findings as Array<Record<string, unknown>>;
    expect(finding).toMatchObject({ rule: 'glm5.mtp-enforce-eager', applies: { from: 'v0.21.0rc1', to: 'main' }, judgedAs: 'v0.21.0rc1', installed: '0.21.0rc1' });
    expect(finding!.source).toMatch(/^vllm-project\/vllm-ascend docs\/source\/tutorials\/models\/GLM5\.2\.md:\d+ @ [0-9a-f]{12}$/);
    expect(report.stack.packages.vllmAscend).toMatchObject({ version: '0.21.0rc1', editable: '/vllm-workspace/vllm-ascend' });
  });

  it('DeepSeek-V4-Flash on a first-generation Ascend 910 (vllm-project/vllm-ascend#13540) fails npu.supported, though the model is supported', async () => {
    // the tutorial's A2 script of the release that first documents DeepSeek-V4-Flash, on the reporter's 910PremiumA
    const weights = '/root/.cache/modelscope/hub/models/vllm-ascend/DeepSeek-V4-Flash-w8a8-mtp';
    const root = nodeTree('v0.21.0rc1', 'A2', {}, { [`${weights}/config.json`]: '{"model_type": "deepseek_v4", "architectures": ["DeepseekV4ForCausalLM"]}' });
    const bin = npuSmiPrinting('npu-smi-info-910premiuma-25.5.2-vllm-ascend-13540-excerpt.txt');
    const { run, report, byId } = await check('npu.supported,model.supported', root, bin, guideScript('deepseek-v4-flash-a2.sh'));
    expect(run.exitCode, run.stderr).toBe(1);
    expect(report.blocking).toEqual(['npu.supported']);
    const npu = byId['npu.supported']!;
    expect(npu.message).toBe(
      'this first-generation Ascend 910 (npu-smi names it 910PremiumA) is not supported by vllm-ascend v0.21.0rc1: its FAQ says "Ascend 910, Ascend 910 Pro B (Ascend-cann-kernels-910) unplanned yet" ' +
        '(vllm-project/vllm-ascend docs/source/faqs.md:25 @ v0.21.0rc1); it supports A2, A3, 310P (experimental); vllm-ascend stops at start on it with "RuntimeError: Can not support soc_version" (rule soc.runtime-guard, vllm-ascend v0.21.0rc1)',
    );
    expect(npu.remediation).toBe('run the deployment on a node with NPUs vllm-ascend supports (A2, A3, 310P (experimental)); no vllm-ascend release supports this one');
    expect(npu.evidence).toMatchObject({ hardware: '910', names: ['910PremiumA'], status: 'unsupported', guard: { rule: 'soc.runtime-guard' } });
    expect(byId['model.supported']!.status).toBe('pass');
  });

  it('fp16 with msModelSlim W8A8 weights on an A2 (vllm-project/vllm-ascend#12907) fails model.quantization with the error the issue shows', async () => {
    const capture = issue('vllm-ascend-12907-qwen3.6-27b-w8a8-fp16.txt');
    const image = /^vLLM Ascend image: (\S+)$/m.exec(capture)![1]!;
    // the error of the first profile run, as the issue prints it over four lines
    const error = /^(Tensor scale not implemented[\s\S]*?DT_FLOAT\])\.$/m.exec(capture)![1]!.replace(/\n/g, ' ');
    const weights = '/root/.cache/modelscope/hub/models/Eco-Tech/Qwen3___6-27B-w8a8';
    const root = nodeTree(image, 'A2', {}, {
      [`${weights}/config.json`]: '{"model_type": "qwen3_5", "torch_dtype": "bfloat16"}',
      // msModelSlim's description (model_quant_type, as examples/save_sharded_state_310.py reads it)
      [`${weights}/quant_model_description.json`]: '{"model_quant_type": "W8A8_DYNAMIC", "version": "1.0.0"}',
    });
    const { run, report, byId } = await check('model.quantization', root, npuSmiPrinting('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt'), guideScript('qwen3.6-27b-w8a8-310p-float16.sh'));
    expect(run.exitCode, run.stderr).toBe(1);
    expect(report.blocking).toEqual(['model.quantization']);
    const quantization = byId['model.quantization']!;
    expect(quantization.message).toContain(`"${error}"`);
    expect(quantization.message).toBe(
      `msModelSlim W8A8_DYNAMIC weights (${weights}/quant_model_description.json) with --dtype float16 (run.sh:18) on A2: the quantized matmul takes no float16 scale, and the engine fails at its first profile run with ` +
        '"Tensor scale not implemented for DT_FLOAT16, should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT]" (rule w8a8.fp16-a2a3, vllm-ascend v0.23.0rc1)',
    );
    expect(quantization.remediation).toBe('run.sh line 18: --dtype bfloat16 --mamba-ssm-cache-dtype bfloat16');
    expect((quantization.evidence.findings as Array<Record<string, unknown>>)[0]).toMatchObject({ rule: 'w8a8.fp16-a2a3', source: 'https://github.com/vllm-project/vllm-ascend/issues/12907' });
  });

  it('Qwen3.5 on vllm-ascend 0.13.0 (vllm-project/vllm-ascend#8409) fails model.supported before the load, naming the first release that has it', async () => {
    const capture = issue('vllm-ascend-8409-qwen3.5-on-0.13.0.txt');
    const version = /^vllm-ascend version: (\S+)$/m.exec(capture)![1]!;
    const transformers = /^Transformers verison (\S+)$/m.exec(capture)![1]!;
    const modelType = /model type `(\w+)`/.exec(capture)![1]!;
    // the Qwen3.5-397B-A17B guide's single-node script, whose weights the reporter deployed
    const weights = '/root/.cache/modelscope/hub/models/Eco-Tech/Qwen3___5-397B-A17B-w8a8-mtp';
    const root = nodeTree(version, 'A3', { transformers }, { [`${weights}/config.json`]: JSON.stringify({ model_type: modelType }) });
    const bin = npuSmiPrinting('npu-smi-info-a3-16chip-vllm-ascend-5784.txt');
    const { run, report, byId } = await check('model.supported', root, bin, guideScript('qwen3.5-397b-w8a8-a3-single-node.sh'));
    expect(run.exitCode, run.stderr).toBe(1);
    expect(report.blocking).toEqual(['model.supported']);
    const supported = byId['model.supported']!;
    expect(supported.message).toBe(
      'Qwen3.5 (model_type qwen3_5_moe of config.json) is not supported by vllm-ascend v0.13.0: it is supported from v0.17.0rc1 (vllm-project/vllm-ascend docs/source/user_guide/release_notes.md:866 @ 182b75ea84ff)',
    );
    expect(supported.remediation).toMatch(
      /^install vllm-ascend v0\.17\.0rc1 or later \(the newest release is v\S+\): the image quay\.io\/ascend\/vllm-ascend:v0\.17\.0rc1, or pip install vllm-ascend==0\.17\.0rc1 with vllm==0\.17\.0, the vLLM it was released for$/,
    );
    // the header of the human report names the stack it judged
    const human = await qprep(['check', '--only', 'model.supported', '--root', root, '--launch', write(root, '/tmp/run.sh', guideScript('qwen3.5-397b-w8a8-a3-single-node.sh'))], {
      env: { PATH: `${bin}:${IMAGE_PYTHON}/bin:/usr/bin:/bin`, HOME: '/root' },
    });
    expect(human.stdout).toMatch(/^stack vllm-ascend 0\.13\.0 \(built for A3\) · transformers 4\.57\.6$/m);
  });
});

describe('qprep explain RULE', () => {
  it('prints a rule: what it says, its verdicts, releases, every statement and report, and its source', async () => {
    const run = await qprep(['explain', 'glm5.mtp-enforce-eager']);
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('glm5.mtp-enforce-eager (a rule of knowledge/rules.json)');
    expect(lines).toContain('  verdict: fail on the releases it applies to, warn on the others');
    expect(lines).toContain('  releases: v0.21.0rc1 to main');
    expect(lines).toContain('  v0.24.0rc1, v0.25.1rc1: docs/source/tutorials/models/GLM5.md');
    expect(lines).toContain('  v0.21.0rc1: https://github.com/vllm-project/vllm-ascend/issues/10700');
    expect(run.stdout).toMatch(/^Source:\n {2}vllm-project\/vllm-ascend docs\/source\/tutorials\/models\/GLM5\.2\.md:\d+ @ [0-9a-f]{12}\n/m);
  });

  it('-f json is the row as knowledge/ holds it; in Chinese the labels change and the data stays', async () => {
    const json = JSON.parse((await qprep(['explain', 'w8a8.fp16-a2a3', '-f', 'json'])).stdout);
    expect(json).toMatchObject({ file: 'knowledge/quantization.json', id: 'w8a8.fp16-a2a3', severity: 'fail', outside: 'warn', whenUnknown: 'warn', applies: { from: 'v0.17.0rc1', to: 'v0.23.0rc1' } });
    const zh = await qprep(['explain', 'w8a8.fp16-a2a3', '--lang', 'zh']);
    expect(zh.stdout.split('\n')[0]).toBe('w8a8.fp16-a2a3（knowledge/quantization.json 中的规则）');
    expect(zh.stdout).toContain('  适用版本：v0.17.0rc1 至 v0.23.0rc1');
  });

  it('refuses an unknown name with the nearest check or rule, and a host option for a rule', async () => {
    const typo = await qprep(['explain', 'glm5.mtp-enforce-eagre']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toBe('qprep: error: unknown check, rule or fault code "glm5.mtp-enforce-eagre"\nqprep: hint: did you mean "glm5.mtp-enforce-eager"?\n');
    const check = await qprep(['explain', 'npu.supportd']);
    expect(check.stderr).toContain('did you mean "npu.supported"?');
    const host = await qprep(['explain', 'glm5.mtp-enforce-eager', '--snapshot', 'examples/snapshots/a2-healthy.json']);
    expect(host.exitCode).toBe(2);
    expect(host.stderr).toBe('qprep: error: --launch explains the memory plan of model.fit, not glm5.mtp-enforce-eager: qprep explain model.fit --launch SCRIPT\n');
  });
});
