import { describe, expect, it } from 'vitest';
import check from '../../../checks/launch.flags.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, filledIn, guideScript } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const DUO = () => npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt') });
const DENSE_2B = guideScript('qwen3.5-2b-310p.sh');

/*
 * launch.flags has no "error" outcome: it reads the script and the NPU family, and an unknown
 * family only leaves the 310P rules out (the profile's npu.family can name it).
 */
describe('launch.flags', () => {
  it('skips without --launch, and without a server command', async () => {
    expect((await runOn(check, a3Node())).outcome.status).toBe('skip');
    const proxy = await runOn(check, a3Node(), {}, { launch: guideScript('proxy.sh') });
    expect(proxy.outcome.status).toBe('skip');
    expectRemediation(proxy.outcome);
  });

  it('passes the PD scripts: JSON flags valid, kv_connector_extra_config matches each instance', async () => {
    for (const name of ['run_p.sh', 'run_d0.sh', 'run_d1.sh'] as const) {
      const { outcome } = await runOn(check, a3Node(), {}, { launch: filledIn(name, '10.0.0.11', '10.0.0.12') });
      expect(outcome.status, name).toBe('pass');
    }
  });

  it('fails a JSON flag that does not parse, naming the flag and line', async () => {
    const script = edited(filledIn('run_p.sh'), [['"enable_cpu_binding": true}', '"enable_cpu_binding": True}']]);
    const { outcome, result } = await runOn(check, a3Node(), {}, { launch: script });
    expect(result.status).toBe('fail');
    expect(outcome.message).toMatch(/^--additional-config \(line 53\) is not valid JSON: /);
    expect(outcome.remediation).toBe("run.sh line 53: --additional-config '{...}'   # valid JSON in single quotes; check it with: python3 -m json.tool");
  });

  it("fails a prefill instance whose size disagrees with the connector's prefill sizes, at the line of the key", async () => {
    const script = edited(filledIn('run_p.sh'), [['--data-parallel-size 8 \\\n--data-parallel-size-local 8', '--data-parallel-size 4 \\\n--data-parallel-size-local 4']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('--kv-transfer-config says prefill.dp_size 8 but this prefill instance runs --data-parallel-size 4 (kv_producer, run.sh:63)');
    expect(outcome.remediation).toBe('run.sh line 63: "dp_size": 4   # in the prefill block, on every node of the deployment; or change --data-parallel-size');
  });

  it("fails a decode node whose own tp_size in the decode block is wrong (run_d1.sh), at that line", async () => {
    const script = edited(filledIn('run_d1.sh', '10.0.0.13', '10.0.0.12'), [['"dp_size": 16,\n              "tp_size": 2', '"dp_size": 16,\n              "tp_size": 4']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('--kv-transfer-config says decode.tp_size 4 but this decode instance runs --tensor-parallel-size 2 (kv_consumer, run.sh:72)');
  });

  it('fails ranks past --data-parallel-size (run_d1.sh starting at 12 of 16), naming the start-rank line', async () => {
    const script = edited(filledIn('run_d1.sh', '10.0.0.13', '10.0.0.12'), [['--data-parallel-start-rank 8', '--data-parallel-start-rank 12']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('this node would serve ranks 12-19, past the last rank 15 of --data-parallel-size 16 (--data-parallel-start-rank 12 at run.sh:42)');
    expect(outcome.remediation).toBe('run.sh line 42: --data-parallel-start-rank 8   # the ranks of the nodes before this one together; or raise --data-parallel-size');
  });

  it('run_d1.sh off by one (rank 9: past 15) fails, at rank 4 (not a multiple of the local ranks) warns; more local ranks than the instance has fails', async () => {
    const offByOne = edited(filledIn('run_d1.sh', '10.0.0.13', '10.0.0.12'), [['--data-parallel-start-rank 8', '--data-parallel-start-rank 9']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: offByOne });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('this node would serve ranks 9-16, past the last rank 15 of --data-parallel-size 16 (--data-parallel-start-rank 9 at run.sh:42)');
    const inside = edited(filledIn('run_d1.sh', '10.0.0.13', '10.0.0.12'), [['--data-parallel-start-rank 8', '--data-parallel-start-rank 4']]);
    const warned = await runOn(check, a3Node(), {}, { launch: inside });
    expect(warned.outcome.status).toBe('warn');
    expect(warned.outcome.message).toBe('--data-parallel-start-rank 4 (run.sh:42) is not a multiple of --data-parallel-size-local 8: with 8 ranks per node the nodes start at 0, 8, 16, ...');
    const tooMany = edited(filledIn('run_d0.sh', '10.0.0.12', '10.0.0.12'), [['--data-parallel-size-local 8', '--data-parallel-size-local 32']]);
    const failed = await runOn(check, a3Node(), {}, { launch: tooMany });
    expect(failed.outcome.message).toMatch(/^--data-parallel-size-local 32 \(run\.sh:41\) is more than --data-parallel-size 16: /);
  });

  it("warns when --max-num-seqs x DP is below the profile's expected concurrency (run_d0.sh: 32 x 16 = 512)", async () => {
    const script = filledIn('run_d0.sh', '10.0.0.12', '10.0.0.12');
    const short = await runOn(check, a3Node(), { name: 'pd-lab', deployment: { expectedConcurrency: 600 } }, { launch: script });
    expect(short.outcome.status).toBe('warn');
    expect(short.outcome.message).toBe('--max-num-seqs 32 x --data-parallel-size 16 = 512 requests at once, below the 600 profile pd-lab expects: the rest wait in the queue, and TTFT counts the wait');
    expect(short.outcome.remediation).toBe('run.sh line 45: --max-num_seqs 38   # x --data-parallel-size 16 >= 600; or lower deployment.expectedConcurrency');
    expect((await runOn(check, a3Node(), { deployment: { expectedConcurrency: 512 } }, { launch: script })).outcome.status).toBe('pass');
    const single = await runOn(check, a3Node(), { deployment: { expectedConcurrency: 200 } }, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') });
    expect(single.outcome.actual).toContain('--max-num-seqs 128 x --data-parallel-size 1 = 128 requests at once, below the 200');
    const unset = await runOn(check, DUO(), { deployment: { expectedConcurrency: 16 } }, { launch: edited(DENSE_2B, [['--max-num-seqs 32 \\\n', '']]) });
    expect(unset.outcome.message).toMatch(/^no --max-num-seqs in run\.sh: vLLM picks its default, and profile default expects 16 requests at once/);
  });

  it("fails a script whose kv_role is not the profile's role, and a plain server on a PD node", async () => {
    const prefillOnDecode = await runOn(check, a3Node(), { name: 'qwen3.5-397b-pd-decode-a3', deployment: { role: 'decode' } }, { launch: filledIn('run_p.sh') });
    expect(prefillOnDecode.outcome.status).toBe('fail');
    expect(prefillOnDecode.outcome.message).toBe('profile qwen3.5-397b-pd-decode-a3 is a decode node, but run.sh:58 sets kv_role kv_producer: the prefill script, or the wrong profile?');
    const decodeOk = await runOn(check, a3Node(), { deployment: { role: 'decode' } }, { launch: filledIn('run_d0.sh', '10.0.0.11', '10.0.0.11') });
    expect(decodeOk.outcome.status).toBe('pass');
    const plain = await runOn(check, a3Node(), { deployment: { role: 'prefill' } }, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') });
    expect(plain.outcome.actual).toContain('is a prefill node of a disaggregated deployment, but run.sh has no --kv-transfer-config');
  });

  it('reads --speculative_config and --speculative-config alike for the MTP rule', async () => {
    for (const spelling of ['--speculative_config', '--speculative-config', '--speculative-config=']) {
      const flag = spelling.endsWith('=') ? `${spelling}'{"method": "qwen3_5_mtp","num_speculative_tokens":1}'` : `${spelling} '{"method": "qwen3_5_mtp","num_speculative_tokens":1}'`;
      const script = edited(DENSE_2B, [
        [`--speculative-config '{"method": "qwen3_5_mtp","num_speculative_tokens":1}'`, flag],
        ['[2,4,8,16]', '[1,2,4,8]'],
      ]);
      const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
      expect(outcome.message, spelling).toBe('with MTP (num_speculative_tokens 1) capture sizes should be multiples of 2; 1 is not');
    }
  });

  it("passes the 310P guide's script on a 300I Duo", async () => {
    const { outcome } = await runOn(check, DUO(), {}, { launch: DENSE_2B });
    expect(outcome.status).toBe('pass');
  });

  it('warns about too many capture sizes with TP 2 on a 300I Duo; its float16 and npugraph_ex rules are launch.model-rules\'', async () => {
    const script = edited(DENSE_2B, [
      ['--tensor-parallel-size 1', '--tensor-parallel-size 2'],
      ['--dtype float16', '--dtype bfloat16'],
      ['--mamba-ssm-cache-dtype float16 \\\n', ''],
      ['"enable_npugraph_ex": false', '"enable_npugraph_ex": true'],
    ]);
    const { outcome } = await runOn(check, DUO(), {}, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      "with TP 2 on 310P the hardware event ids allow at most two cudagraph capture sizes; --compilation-config lists 4 (2, 4, 8, 16) (rule 310p.tp-capture-sizes; no vllm-ascend found in the launch's Python: taken as in force)",
    );
    expect(outcome.remediation).toBe('run.sh line 17: "cudagraph_capture_sizes": [2, 4]');
  });

  it('applies the 310P rules when the profile says 310P and npu-smi cannot tell', async () => {
    const script = edited(DENSE_2B, [['--tensor-parallel-size 1', '--tensor-parallel-size 2']]);
    const { outcome } = await runOn(check, {}, { npu: { family: '310p' } }, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^with TP 2 on 310P /);
  });

  it('warns about MTP capture sizes that are not multiples of num_speculative_tokens + 1', async () => {
    const script = edited(DENSE_2B, [['[2,4,8,16]', '[1,2,4,8]']]);
    const { outcome } = await runOn(check, a3Node(), {}, { launch: script });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('with MTP (num_speculative_tokens 1) capture sizes should be multiples of 2; 1 is not');
  });

  it('fails a flag without its value, a stray positional and a size that is not a number', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: 'vllm serve /m 8000 --tensor-parallel-size x --served-model-name\n' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('--served-model-name (run.sh:1) has no value: vllm refuses to start (and 2 more)');
    expect(outcome.actual).toContain('"8000" (run.sh:1) is a second positional argument');
  });

  it('warns about a flag given twice with different values', async () => {
    const { outcome } = await runOn(check, a3Node(), {}, { launch: 'vllm serve /m --port 1 --max-num-seqs 8 --port=2\n' });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('--port is given twice with different values (1, then 2 at line 1): vllm keeps the last');
  });

  describe('the attention heads of the model the argument resolves to', () => {
    const HF = '/root/.cache/huggingface/hub/models--Qwen--Qwen3-235B-A22B';
    const REVISION = 'b51c43f2e7d4a9c0b1e3f5a7c9d1e3f5a7b9c1d3';
    const SNAPSHOT = `${HF}/snapshots/${REVISION}`;
    const shard = { kind: 'file' as const, content: '', size: 1024 };
    const tp5 = (model: string) => `vllm serve ${model} --tensor-parallel-size 5 --served-model-name qwen3\n`;

    it('fails TP 5 on the Hugging Face cache path of Qwen3-235B-A22B: 64 heads, from the cache path without config.json', async () => {
      const { outcome } = await runOn(check, a3Node({ files: { [`${SNAPSHOT}/model-00001-of-00001.safetensors`]: shard } }), {}, { launch: tp5(`${SNAPSHOT}/`) });
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toMatch(/^--tensor-parallel-size 5 \(run\.sh:1\) does not divide the 64 attention heads of \/root\/.*\/snapshots\/b51c43.*Qwen\/Qwen3-235B-A22B/);
      expect(outcome.remediation).toContain('--tensor-parallel-size 4');
    });

    it('fails it from config.json when the snapshot holds it, and for the bare hub id in the cache', async () => {
      const files = { [`${SNAPSHOT}/config.json`]: '{"model_type": "qwen3_moe", "num_attention_heads": 64, "num_key_value_heads": 4}', [`${SNAPSHOT}/model-00001-of-00001.safetensors`]: shard, [`${HF}/refs/main`]: `${REVISION}\n` };
      const written = await runOn(check, a3Node({ files }), {}, { launch: tp5(SNAPSHOT) });
      expect(written.outcome.status).toBe('fail');
      expect(written.outcome.message).toContain("64 attention heads");
      expect(written.outcome.message).toContain('config.json');
      const bare = await runOn(check, a3Node({ files }), {}, { launch: tp5('Qwen/Qwen3-235B-A22B') });
      expect(bare.outcome.status).toBe('fail');
      expect(bare.outcome.message).toContain('64 attention heads');
    });

    it("believes the weights' config.json over the directory's name", async () => {
      // named after Qwen3-0.6B (16 heads, which TP 16 divides), holding a 40-head model
      const files = { '/models/Qwen3-0.6B/config.json': '{"model_type": "qwen3", "num_attention_heads": 40, "num_key_value_heads": 8}' };
      const { outcome } = await runOn(check, a3Node({ files }), {}, { launch: 'vllm serve /models/Qwen3-0.6B --tensor-parallel-size 16\n' });
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toContain('40 attention heads');
    });
  });

  it('a script of many problems: the first 50 in the evidence with their count, 10 fixes and how many more, in either language', async () => {
    // 60 stray words, each on a line of its own: 60 problems, 60 different fixes
    const script = `vllm serve /models/Qwen3.5-4B \\\n${Array.from({ length: 60 }, (_, i) => `  stray${i} \\\n`).join('')}  --port 8000\n`;
    for (const lang of ['en', 'zh'] as const) {
      const { outcome } = await runOn(check, a3Node(), {}, { launch: script, lang });
      expect(outcome.status).toBe('fail');
      expect(outcome.evidence).toMatchObject({ problemCount: 60 });
      expect(outcome.evidence!.problems).toHaveLength(50);
      expect((outcome.evidence!.problems as string[])[49]).toBe('fail: "stray49" (run.sh:51) is a second positional argument: vllm takes only the model (a flag lost its "--"?)');
      const lines = outcome.remediation!.split('\n');
      expect(lines).toHaveLength(11);
      expect(lines[10]).toBe(lang === 'en' ? '... and 50 more fixes (the evidence lists the first 50 problems and counts them all)' : '……另有 50 处修复（证据列出前 50 个问题，并给出问题总数）');
    }
    // up to 50 problems the evidence lists them all, and needs no count
    const few = `vllm serve /models/Qwen3.5-4B ${Array.from({ length: 50 }, (_, i) => `stray${i}`).join(' ')}\n`;
    const { outcome } = await runOn(check, a3Node(), {}, { launch: few });
    expect(outcome.evidence!.problems).toHaveLength(50);
    expect(outcome.evidence).not.toHaveProperty('problemCount');
    expect(outcome.remediation).toBe('run.sh line 1: remove it or add the flag it belongs to');
  });
});
