import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import type { FakeHostSpec, FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, guideScript, ROUTES, TCP_HEADER } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

/**
 * Shell blocks of the vllm-ascend documentation (test/fixtures/launch, byte for byte, with their
 * source) through every launch check, as a vllm-ascend maintainer reads the findings: the true
 * ones, and none of the false ones qprep used to print (docs/launch-fidelity.md).
 */

const LAUNCH_CHECKS = catalogue.filter((c) => c.category === 'launch');

interface Finding {
  status: string;
  message: string;
  remediation: string;
}

async function findings(spec: FakeHostSpec, script: string): Promise<Record<string, Finding>> {
  const out: Record<string, Finding> = {};
  for (const check of LAUNCH_CHECKS) {
    const { outcome, result } = await runOn(check, spec, {}, { launch: script });
    expectRemediation(outcome);
    out[check.id] = { status: result.status, message: outcome.message, remediation: outcome.remediation ?? '' };
  }
  return out;
}

function statuses(results: Record<string, Finding>): Record<string, string> {
  return Object.fromEntries(Object.entries(results).map(([id, f]) => [id, f.status]));
}

/** 4x Atlas 300I Duo (8 x 310P3) with nothing listening. */
function duo(files: Record<string, FakeNode> = {}): FakeHostSpec {
  const base = npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'), devices: [...Array(8).keys()] });
  return { ...base, files: { ...base.files, '/proc/net/tcp': TCP_HEADER, '/proc/net/tcp6': TCP_HEADER, '/proc/net/route': ROUTES, ...files } };
}

describe('examples/external_online_dp/run_dp_template.sh: a template whose sizes are $1..$7', () => {
  const TEMPLATE = guideScript('run_dp_template.sh');

  it('names the sizes from the caller once, as a warning, and derives nothing from them', async () => {
    const results = await findings(a3Node(), TEMPLATE);
    expect(results['launch.flags']).toMatchObject({
      status: 'warn',
      message:
        'sizes come from the caller: $7 = --tensor-parallel-size, $3 = --data-parallel-size; run.sh is a template filled in by the script\'s arguments ' +
        '(a launcher runs it, as examples/external_online_dp/launch_online_dp.py runs run_dp_template.sh), and nothing is derived from them here',
    });
    // no "DP 1" default judged, no device list rewritten, no port or address "written literally"
    expect(results['launch.devices']).toMatchObject({ status: 'skip', message: "ASCEND_RT_VISIBLE_DEVICES (run.sh:13) is the script's argument $1: the caller picks the devices, so they are judged where the values are written in" });
    expect(results['launch.ports']!.status).toBe('pass');
    expect(results['launch.script']!.status).toBe('pass');
    const fixes = Object.values(results).map((f) => f.remediation).join('\n');
    expect(fixes).not.toMatch(/--tensor-parallel-size \d|--data-parallel-size \d|ASCEND_RT_VISIBLE_DEVICES=\d|--port \d|--data-parallel-address/);
  });

  it('still fails on what the template leaves to fill in by hand: your_*_here and model_path', async () => {
    const results = await findings(a3Node(), TEMPLATE);
    expect(results['launch.placeholders']).toMatchObject({
      status: 'fail',
      message:
        '5 placeholders left in run.sh: HCCL_IF_IP="your_ip_here" (line 1), GLOO_SOCKET_IFNAME="your_socket_ifname_here" (line 2), ' +
        'TP_SOCKET_IFNAME="your_socket_ifname_here" (line 3), HCCL_SOCKET_IFNAME="your_socket_ifname_here" (line 4) and 1 more',
    });
    expect(results['launch.placeholders']!.remediation).toContain('run.sh line 15: vllm serve <the weights directory or hub id>   # instead of model_path');
    expect(results['model.weights']!.status).toBe('skip');
  });

  it('the same template filled in as launch_online_dp.py runs it (--dp-size 2 --tp-size 8): the sizes are judged again', async () => {
    const filled = edited(TEMPLATE, [
      ['$1', '0,1,2,3,4,5,6,7'],
      ['$2', '9000'],
      ['$3', '2'],
      ['$4', '0'],
      ['$5', '10.0.0.11'],
      ['$6', '12345'],
      ['$7', '8'],
    ]);
    const results = await findings(a3Node(), filled);
    expect(results['launch.flags']!.message).not.toMatch(/caller/);
    // one server per data-parallel rank (--data-parallel-rank): TP 8 on the 8 devices it is given, not TP x DP
    expect(results['launch.devices']).toMatchObject({ status: 'pass', message: 'TP 8 x DP 1 = 8 NPUs fit 8 NPUs of ASCEND_RT_VISIBLE_DEVICES (0,1,2,3,4,5,6,7); 8 more visible and unused'.replace('; 8 more visible and unused', '') });
  });
});

describe('placeholders as the tutorials write them', () => {
  it('<path_to_your_model> and <your_server_ip> (pd_colocated_mooncake_multi_instance.md): named as redirections; the model is not "missing"', async () => {
    const results = await findings(a3Node(), guideScript('qwen2.5-72b-pd-colocated-mooncake.sh'));
    expect(results['launch.placeholders']).toMatchObject({
      status: 'fail',
      message:
        '2 placeholders left in run.sh: the model holds "<path_to_your_model>" (line 7; unquoted, bash reads <path_to_your_model> as a redirection), ' +
        '--host "<your_server_ip>" (line 12; unquoted, bash reads <your_server_ip> as a redirection)',
    });
    expect(results['launch.flags']!.status).toBe('pass');
    expect(results['model.weights']!.status).toBe('skip');
  });

  it('your_model_path, --host <host_ip>, --port <port> (Qwen3-235B-A22B.md): three placeholders, not a port "not a whole number"', async () => {
    const results = await findings(a3Node(), guideScript('qwen3-235b-a22b-single-node.sh'));
    expect(results['launch.placeholders']!.message).toBe(
      '3 placeholders left in run.sh: the model "your_model_path" (line 8), --host "<host_ip>" (line 9; unquoted, bash reads <host_ip> as a redirection), ' +
        '--port "<port>" (line 10; unquoted, bash reads <port> as a redirection)',
    );
    expect(statuses(results)).toMatchObject({ 'launch.ports': 'pass', 'launch.flags': 'pass', 'launch.devices': 'pass', 'model.weights': 'skip' });
  });

  it('{local_ip}, {nic_name}, {head_node_ip} in assignments and ray start arguments (ray.md, worker node)', async () => {
    const results = await findings(a3Node(), guideScript('ray-worker-node.sh'));
    expect(results['launch.placeholders']!.status).toBe('fail');
    expect(results['launch.placeholders']!.message).toBe(
      '5 placeholders left in run.sh: HCCL_IF_IP="{local_ip}" (line 2), GLOO_SOCKET_IFNAME="{nic_name}" (line 3), TP_SOCKET_IFNAME="{nic_name}" (line 4), --address "{head_node_ip}:6379" (line 7) and 1 more',
    );
    // the human sentence of each placeholder, then (where qprep knows the value) the sed line that writes it
    const lines = results['launch.placeholders']!.remediation.split('\n');
    expect(lines.filter((line) => !line.startsWith('sed ')).slice(3)).toEqual([
      'run.sh line 7: --address <address of node 0>   # the local_ip set in node 0\'s (the master\'s) script',
      'run.sh line 7: --node-ip-address 10.0.0.11   # this host\'s address on enp189s0f0',
    ]);
    expect(lines).toContain("sed -i '7s/{local_ip}/10.0.0.11/' run.sh");
    expect(lines.filter((line) => line.startsWith('sed ') && line.includes('head_node_ip'))).toEqual([]);
  });

  it('/root/.cache/path/to/gemma4 (Gemma4.md): a placeholder, and no "directory does not exist" on top of it', async () => {
    const results = await findings(a3Node(), guideScript('gemma4-eager.sh'));
    expect(results['launch.placeholders']!.message).toBe('1 placeholder left in run.sh: MODEL_PATH="/root/.cache/path/to/gemma4" (line 2)');
    expect(results['model.weights']!.status).toBe('skip');
  });

  it('a flag fed by a variable set nowhere: named with its line and flag', async () => {
    const script = edited(guideScript('run_p.sh'), [['--data-parallel-address ${IP_ADDRESS}', '--data-parallel-address $node_p0_ip']]);
    const results = await findings(a3Node(), script);
    expect(results['launch.placeholders']!.message).toContain('--data-parallel-address $node_p0_ip (line 40: set nowhere in the script or the environment)');
  });
});

describe('model- and hardware-aware rules on the tutorials’ scripts', () => {
  it('Ray: the head node of ray.md exports RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1 before ray start: no finding', async () => {
    const results = await findings(a3Node(), guideScript('ray-head-node.sh'));
    expect(results['launch.env']).toMatchObject({ status: 'pass', message: 'run.sh: RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1 before ray start' });
  });

  it('Ray: without that export, ray start fails even with no --distributed-executor-backend ray in the script', async () => {
    const script = edited(guideScript('ray-head-node.sh'), [['export RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1\n', '']]);
    const results = await findings(a3Node(), script);
    expect(results['launch.env']).toMatchObject({
      status: 'fail',
      message: 'ray start at line 6 without RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1 exported before it: Ray hides the NPUs from its workers (tutorials/features/ray.md sets it on every node)',
    });
  });

  it('310P: --dtype float16 is required (Qwen3.5-Dense.md: "must be set"), its absence is a fail of launch.model-rules', async () => {
    const script = edited(guideScript('qwen3.5-2b-310p.sh'), [['--dtype float16 \\\n', '']]);
    const results = await findings(duo(), script);
    expect(results['launch.model-rules']!.status).toBe('fail');
    expect(results['launch.model-rules']!.message).toMatch(/^the 310P runs float16 only, and --dtype is not set .*\(rule 310p\.dtype-float16; /);
    const published = await findings(duo(), guideScript('qwen3.5-2b-310p.sh'));
    expect(published['launch.model-rules']!.status).toBe('pass');
  });

  it('enable_npugraph_ex matters only in FULL graphs: Gemma4.md with --enforce-eager on a 300I Duo gets the dtype fail, no npugraph_ex warning', async () => {
    const results = await findings(duo(), guideScript('gemma4-eager.sh'));
    expect(results['launch.model-rules']!.message).toMatch(/^the 310P runs float16 only, and --dtype is not set \(a bfloat16 model loads as bfloat16\) \(rule 310p\.dtype-float16; /);
    expect(results['launch.model-rules']!.remediation).not.toMatch(/npugraph/);
  });

  it('TP must divide the attention heads: Qwen3-235B-A22B (64 heads, 4 KV heads, from the table) with TP 6 fails, TP 8 passes', async () => {
    const named = edited(guideScript('qwen3-235b-a22b-single-node.sh'), [['vllm serve your_model_path', 'vllm serve /models/Qwen3-235B-A22B-w8a8']]);
    const six = await findings(a3Node(), edited(named, [['--tensor-parallel-size 8', '--tensor-parallel-size 6']]));
    expect(six['launch.flags']).toMatchObject({
      status: 'fail',
      message: "--tensor-parallel-size 6 (run.sh:11) does not divide the 64 attention heads of /models/Qwen3-235B-A22B-w8a8 (Qwen/Qwen3-235B-A22B's config.json (qprep's table)): vLLM refuses to start",
    });
    expect(six['launch.flags']!.remediation).toContain('run.sh line 11: --tensor-parallel-size 4   # TP sizes that fit: 1, 2, 4, 8, 16, 32, 64');
    const eight = await findings(a3Node(), named);
    expect(eight['launch.flags']!.status).toBe('pass');
  });

  it("TP against the weights' own config.json when they are on the host: it wins over the table", async () => {
    const named = edited(guideScript('qwen3-235b-a22b-single-node.sh'), [['vllm serve your_model_path', 'vllm serve /models/Qwen3-235B-A22B-w8a8']]);
    const host = a3Node({ files: { '/models/Qwen3-235B-A22B-w8a8/config.json': '{"num_attention_heads": 36, "num_key_value_heads": 4}' } });
    const results = await findings(host, named);
    expect(results['launch.flags']!.message).toBe("--tensor-parallel-size 8 (run.sh:11) does not divide the 36 attention heads of /models/Qwen3-235B-A22B-w8a8 (the weights' config.json): vLLM refuses to start");
  });

  it('msModelSlim weights (quant_model_description.json) without --quantization ascend fail; the tutorial sets it', async () => {
    const named = edited(guideScript('qwen3-235b-a22b-single-node.sh'), [['vllm serve your_model_path', 'vllm serve /models/Qwen3-235B-A22B-w8a8']]);
    const files = { '/models/Qwen3-235B-A22B-w8a8/config.json': '{"num_attention_heads": 64, "num_key_value_heads": 4}', '/models/Qwen3-235B-A22B-w8a8/quant_model_description.json': '{}' };
    expect((await findings(a3Node({ files }), named))['launch.flags']!.status).toBe('pass');
    const without = await findings(a3Node({ files }), edited(named, [['    --quantization ascend \
', '']]));
    expect(without['launch.flags']).toMatchObject({
      status: 'fail',
      message: '/models/Qwen3-235B-A22B-w8a8 is quantized by msModelSlim (quant_model_description.json) but the server has no --quantization ascend: the quantized weights do not load',
    });
  });
});
