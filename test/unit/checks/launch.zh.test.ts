import { describe, expect, it } from 'vitest';
import devices from '../../../checks/launch.devices.js';
import env from '../../../checks/launch.env.js';
import flags from '../../../checks/launch.flags.js';
import network from '../../../checks/launch.network.js';
import placeholders from '../../../checks/launch.placeholders.js';
import ports from '../../../checks/launch.ports.js';
import script from '../../../checks/launch.script.js';
import { a3Node, edited, filledIn, guideScript } from '../../helpers/launch.js';
import { runOn } from '../../helpers/run-check.js';

/** The converted launch checks in Chinese: the same facts, commands and flags as written. */
describe('launch checks in Chinese (--lang zh)', () => {
  it('launch.script: the server command read, and a template read with its launcher', async () => {
    const { outcome } = await runOn(script, a3Node(), {}, { launch: filledIn('run_p.sh'), lang: 'zh' });
    expect(outcome.message).toBe('run.sh：第 32 行的 vllm serve Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp，24 个参数，19 个赋值；全部已读取');
    const launch = {
      file: 'run_dp_template.sh',
      text: guideScript('run_dp_template.sh'),
      from: 'file' as const,
      launchers: [{ file: 'launch.sh', text: 'bash ./run_dp_template.sh 0,1,2,3 9000 4 0 10.0.0.11 12342 4\n', from: 'file' as const }],
    };
    const templated = await runOn(script, a3Node(), {}, { launch, lang: 'zh' });
    expect(templated.outcome.message).toContain('；$1..$7 取自 launch.sh:1 (./run_dp_template.sh 0,1,2,3 9000 4 0 10.0.0.11 12342 4)');
  });

  it('launch.script without --launch: the skip and its command in Chinese, the command unchanged', async () => {
    const { outcome } = await runOn(script, a3Node(), {}, { lang: 'zh' });
    expect(outcome).toMatchObject({ status: 'skip', message: '未给出启动脚本（--launch SCRIPT）', remediation: 'qprep check --launch /path/to/run.sh   # 在本节点启动 vllm serve 的 bash 脚本' });
  });

  it('launch.devices: devices that do not exist, with the export line as in English', async () => {
    const bad = 'export ASCEND_RT_VISIBLE_DEVICES=0,1,16,17\nvllm serve /m -tp 4\n';
    const [zh, en] = await Promise.all([runOn(devices, a3Node(), {}, { launch: bad, lang: 'zh' }), runOn(devices, a3Node(), {}, { launch: bad })]);
    expect(zh.outcome.status).toBe('fail');
    expect(zh.outcome.message).toBe('ASCEND_RT_VISIBLE_DEVICES（run.sh:1） 列出了 16-17，本主机没有这些设备：可见 16 个 NPU（ID 0-15）');
    // the line reference is prose, the export line is the same command
    expect(en.outcome.remediation).toBe('run.sh line 1: export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3');
    expect(zh.outcome.remediation).toBe('run.sh 第 1 行：export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3');
    const fits = await runOn(devices, a3Node(), {}, { launch: filledIn('run_p.sh'), lang: 'zh' });
    expect(fits.outcome.message).toBe('TP 2 x DP-local 8 = 16 个 NPU，不超过可用的 NPU：ASCEND_RT_VISIBLE_DEVICES 中的 16 个 NPU（0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15）');
  });

  it('launch.ports: the kv_port warning in Chinese, the kv_port line unchanged, actual in English for programs', async () => {
    const { outcome } = await runOn(ports, a3Node(), {}, { launch: filledIn('run_p.sh'), lang: 'zh' });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      'MooncakeLayerwiseConnector 的 kv_port 23010（run.sh:59）位于 20000-35999 内，这是 Mooncake 的 AscendDirectTransport 在 16 个 NPU 的节点上随机分配的端口' +
        '（docs/source/tutorials/features/pd_disaggregation_mooncake_multi_node.md, "kv_port Configuration Guide"）：服务会偶发 "Address already in use" 启动失败',
    );
    expect(outcome.remediation).toBe('run.sh 第 59 行："kv_port": "36000"   # 不小于 36000，即指南表格对每节点 16 个 NPU 的推荐值；同一角色的所有节点保持一致');
    expect(outcome.actual).toMatch(/^kv_port 23010 of MooncakeLayerwiseConnector \(run.sh:59\) is inside 20000-35999/);
  });

  it('launch.env: the Ray variable missing before ray start, in Chinese; the export line unchanged', async () => {
    const { outcome } = await runOn(env, a3Node(), {}, { launch: 'ray start --head --port 6379\nvllm serve /m\n', lang: 'zh' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('第 1 行的 ray start 之前没有 export RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1：Ray 会对其工作进程隐藏 NPU（tutorials/features/ray.md 在每个节点上都设置了它）');
    expect(outcome.remediation).toBe('run.sh 第 1 行：export RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1   # 在 ray start 之前，每个节点都要设置');
    expect(outcome.actual).toMatch(/^ray start at line 1 without RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1/);
  });

  it("launch.placeholders: the guide's run_p.sh as published, in Chinese; the assignments to write stay as in English", async () => {
    const [zh, en] = await Promise.all([
      runOn(placeholders, a3Node(), {}, { launch: guideScript('run_p.sh'), lang: 'zh' }),
      runOn(placeholders, a3Node(), {}, { launch: guideScript('run_p.sh') }),
    ]);
    expect(zh.outcome.message).toBe('run.sh 中遗留 2 个占位符：nic_name="xxx"（第 6 行）；local_ip="xxx"（第 7 行）');
    const zhLines = zh.outcome.remediation!.split('\n');
    expect(zhLines[0]).toMatch(/^run.sh 第 6 行：nic_name="enp189s0f0"   # 承载 10.0.0.11 的网卡；被 /);
    // the sed lines are commands: the same in both languages
    expect(zhLines.filter((l) => l.startsWith('sed '))).toEqual(en.outcome.remediation!.split('\n').filter((l) => l.startsWith('sed ')));
    expect(zh.outcome.actual).toBe(en.outcome.actual);
  });
  it("launch.flags: the prefill sizes that disagree, in Chinese; the JSON key line unchanged, status, actual and evidence as in English", async () => {
    const script = edited(filledIn('run_p.sh'), [['--data-parallel-size 8 \\\n--data-parallel-size-local 8', '--data-parallel-size 4 \\\n--data-parallel-size-local 4']]);
    const [zh, en] = await Promise.all([runOn(flags, a3Node(), {}, { launch: script, lang: 'zh' }), runOn(flags, a3Node(), {}, { launch: script })]);
    expect(zh.outcome.status).toBe('fail');
    expect(zh.outcome.status).toBe(en.outcome.status);
    expect(zh.outcome.message).toBe('--kv-transfer-config 中 prefill.dp_size 为 8，但这个 prefill 实例运行的是 --data-parallel-size 4（kv_producer，run.sh:63）');
    expect(en.outcome.remediation).toBe('run.sh line 63: "dp_size": 4   # in the prefill block, on every node of the deployment; or change --data-parallel-size');
    expect(zh.outcome.remediation).toBe('run.sh 第 63 行："dp_size": 4   # 写在 prefill 块中，部署的每个节点都要改；或修改 --data-parallel-size');
    expect(zh.outcome.actual).toBe(en.outcome.actual);
    expect(zh.outcome.expected).toBe(en.outcome.expected);
    expect(zh.outcome.evidence).toEqual(en.outcome.evidence);
  });

  it('launch.flags: the concurrency warning and the pass in Chinese, the flag as the script writes it', async () => {
    const script = filledIn('run_d0.sh', '10.0.0.12', '10.0.0.12');
    const short = await runOn(flags, a3Node(), { name: 'pd-lab', deployment: { expectedConcurrency: 600 } }, { launch: script, lang: 'zh' });
    expect(short.outcome.status).toBe('warn');
    expect(short.outcome.message).toBe('--max-num-seqs 32 x --data-parallel-size 16 = 同时 512 个请求，低于 profile pd-lab 预期的 600 个：其余请求在队列中等待，TTFT 包含等待时间');
    expect(short.outcome.remediation).toBe('run.sh 第 45 行：--max-num_seqs 38   # 乘以 --data-parallel-size 16 不小于 600；或降低 deployment.expectedConcurrency');
    const passed = await runOn(flags, a3Node(), {}, { launch: filledIn('run_p.sh'), lang: 'zh' });
    expect(passed.outcome.status).toBe('pass');
    expect(passed.outcome.message).toMatch(/^已读取 vllm serve 的 \d+ 个参数；--\S+/);
    const none = await runOn(flags, a3Node(), {}, { launch: guideScript('proxy.sh'), lang: 'zh' });
    expect(none.outcome).toMatchObject({ status: 'skip', remediation: 'qprep check --launch /path/to/run.sh   # 在本节点启动 vllm serve 的 bash 脚本' });
    expect(none.outcome.message).toMatch(/没有启动 vLLM 服务/);
  });
  it("launch.network: the guide's placeholders in Chinese; the assignments to write, status, actual and evidence as in English", async () => {
    const [zh, en] = await Promise.all([
      runOn(network, a3Node(), {}, { launch: guideScript('run_p.sh'), lang: 'zh' }),
      runOn(network, a3Node(), {}, { launch: guideScript('run_p.sh') }),
    ]);
    expect(zh.outcome.status).toBe('fail');
    expect(zh.outcome.message).toBe('HCCL_IF_IP（run.sh:17，来自第 7 行的 local_ip） 为 "xxx"，不是 IP 地址（另有 1 项）');
    expect(zh.outcome.remediation).toBe(['run.sh 第 7 行：local_ip="10.0.0.11"   # 本主机在 enp189s0f0 上的地址', 'run.sh 第 6 行：nic_name="enp189s0f0"   # 承载 10.0.0.11 的网卡'].join('\n'));
    // the assignment before "#" is what the operator writes: the same in both languages
    const assignments = (text: string) => text.split('\n').map((line) => /\b[A-Za-z_]\w*=".*?"/.exec(line)?.[0]);
    expect(assignments(zh.outcome.remediation!)).toEqual(assignments(en.outcome.remediation!));
    expect(zh.outcome.actual).toBe(en.outcome.actual);
    expect(zh.outcome.expected).toBe(en.outcome.expected);
    expect(zh.outcome.evidence).toEqual(en.outcome.evidence);
  });

  it('launch.network: a pass and an interface that does not carry HCCL_IF_IP, in Chinese', async () => {
    const passed = await runOn(network, a3Node(), {}, { launch: filledIn('run_p.sh'), lang: 'zh' });
    expect(passed.outcome).toMatchObject({ status: 'pass', message: 'run.sh：HCCL_IF_IP 10.0.0.11 位于 enp189s0f0；HCCL_SOCKET_IFNAME enp189s0f0 处于 up 状态' });
    const script = edited(filledIn('run_p.sh'), [['nic_name="enp189s0f0"', 'nic_name="eno1"']]);
    const { outcome } = await runOn(network, a3Node(), {}, { launch: script, lang: 'zh' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('HCCL_SOCKET_IFNAME（run.sh:20，来自第 6 行的 nic_name） 指定的是 eno1，但 HCCL_IF_IP 10.0.0.11 位于 enp189s0f0：二者必须指向同一个网卡');
    expect(outcome.remediation).toBe('run.sh 第 6 行：nic_name="enp189s0f0"   # 承载 10.0.0.11 的网卡');
    const skipped = await runOn(network, a3Node(), {}, { lang: 'zh' });
    expect(skipped.outcome).toMatchObject({ status: 'skip', message: '未给出启动脚本（--launch SCRIPT）' });
  });
  it('launch.flags: JSON that does not parse, in Chinese; the parser\'s own words quoted, the python3 line unchanged', async () => {
    const script = edited(filledIn('run_p.sh'), [['"enable_cpu_binding": true}', '"enable_cpu_binding": True}']]);
    const [zh, en] = await Promise.all([runOn(flags, a3Node(), {}, { launch: script, lang: 'zh' }), runOn(flags, a3Node(), {}, { launch: script })]);
    expect(zh.outcome.status).toBe('fail');
    expect(zh.outcome.message).toMatch(/^--additional-config（第 53 行）不是合法的 JSON：“[^”]+”$/);
    expect(zh.outcome.remediation).toBe("run.sh 第 53 行：--additional-config '{...}'   # 单引号中的合法 JSON；可用 python3 -m json.tool 检查");
    expect(zh.outcome.actual).toBe(en.outcome.actual);
    expect(en.outcome.actual).toMatch(/^--additional-config \(line 53\) is not valid JSON: /);
  });
  it('launch.ports and launch.devices: a flag that is not a number is worded in Chinese; actual stays English', async () => {
    const bad = 'vllm serve /m --port 80x0 -tp two\n';
    const [zh, en] = await Promise.all([runOn(ports, a3Node(), {}, { launch: bad, lang: 'zh' }), runOn(ports, a3Node(), {}, { launch: bad })]);
    expect(zh.outcome.status).toBe(en.outcome.status);
    expect(zh.outcome.actual).toBe(en.outcome.actual);
    expect(en.outcome.message).toContain('--port');
    expect(zh.outcome.message).toContain('--port');
    expect(zh.outcome.message).toMatch(/[\u4e00-\u9fff]/);
    expect(en.outcome.actual).toContain('not a whole number');
    expect(zh.outcome.message).toContain('不是整数');
    expect(zh.outcome.message).not.toContain('whole number');
    const [zhSize, enSize] = await Promise.all([runOn(devices, a3Node(), {}, { launch: bad, lang: 'zh' }), runOn(devices, a3Node(), {}, { launch: bad })]);
    expect(zhSize.outcome.status).toBe(enSize.outcome.status);
    expect(zhSize.outcome.message).toContain('-tp');
    expect(zhSize.outcome.message).toContain('不是整数');
    expect(zhSize.outcome.message).not.toContain('whole number');
  });
});
