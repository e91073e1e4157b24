import { describe, expect, it } from 'vitest';
import cpuBinding from '../../../checks/launch.cpu-binding.js';
import env from '../../../checks/launch.env.js';
import flags from '../../../checks/launch.flags.js';
import mooncake from '../../../checks/launch.mooncake.js';
import network from '../../../checks/launch.network.js';
import placeholders from '../../../checks/launch.placeholders.js';
import ports from '../../../checks/launch.ports.js';
import script from '../../../checks/launch.script.js';
import triton from '../../../checks/python.triton-ascend.js';
import type { FakeHostSpec, FakeNode } from '../../helpers/fake-host.js';
import { ascendFixture } from '../../helpers/fixtures.js';
import { a3Node, edited, guideScript, NODE_INTERFACES, TCP_HEADER } from '../../helpers/launch.js';
import { npuHost } from '../../helpers/npu-host.js';
import { runOn } from '../../helpers/run-check.js';

/*
 * The launch findings that come from rules of knowledge/rules.json (issue 29, item 4): each on the
 * real script it was found on (test/fixtures/launch, see its README), judged for the vllm-ascend
 * release the launch's Python has installed, with the rule and its source in the evidence.
 */

const PY = '/usr/local/python3.11.13';
const SITE = `${PY}/lib/python3.11/site-packages`;

/** The Python of the vllm-ascend image, with the given release installed (none: no dist-info). */
function python(version?: string): Record<string, FakeNode> {
  return {
    [`${PY}/bin/vllm`]: { kind: 'file', content: `#!${PY}/bin/python3.11\n`, mode: 0o755 },
    [`${PY}/bin/python3.11`]: { kind: 'file', content: 'ELF', mode: 0o755 },
    ...(version ? { [`${SITE}/vllm_ascend-${version}.dist-info/METADATA`]: 'Name: vllm-ascend\n' } : {}),
  };
}

const PATH_ENV = { PATH: `${PY}/bin:/usr/bin:/bin`, HOME: '/root' };

/** launch.flags' findings, in English, as its evidence lists them ("warn: ..."). */
function problemsOf(outcome: { evidence?: unknown }): string[] {
  return (outcome.evidence as { problems?: string[] } | undefined)?.problems ?? [];
}

/** Four Atlas 300I Duo cards (8 x 310P3) with the image's Python. */
function duo(version?: string, files: Record<string, FakeNode> = {}): FakeHostSpec {
  return {
    ...npuHost({ info: ascendFixture('npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt'), env: PATH_ENV, files: { ...python(version), '/proc/net/tcp': TCP_HEADER, ...files } }),
    interfaces: NODE_INTERFACES,
  };
}

/** An Atlas 800 A2 (8 x 910B3) with the image's Python. */
function a2(version?: string, files: Record<string, FakeNode> = {}): FakeHostSpec {
  return { ...npuHost({ env: PATH_ENV, files: { ...python(version), '/proc/net/tcp': TCP_HEADER, ...files } }), interfaces: NODE_INTERFACES };
}

describe('placeholders inside JSON values (launch.placeholders)', () => {
  it('finds "model":"your_eagle3_model_path" in --speculative-config of the Qwen3-235B-A22B tutorial', async () => {
    const { outcome } = await runOn(placeholders, a2(), {}, { launch: guideScript('qwen3-235b-a22b-eagle3-pd-hybrid.sh') });
    expect(outcome.status).toBe('fail');
    const found = (outcome.evidence as { placeholders: Array<{ name: string; line: number; placeholder: string }> }).placeholders;
    expect(found).toContainEqual(expect.objectContaining({ name: '--speculative-config', line: 37, placeholder: 'your_eagle3_model_path' }));
    expect(outcome.remediation).toContain('line 37: replace your_eagle3_model_path in the value of --speculative-config with the real value');
  });

  it('leaves a JSON value with real strings alone', async () => {
    const text = `vllm serve /models/Qwen3-8B --speculative-config '{"method": "eagle3", "model": "/models/eagle3", "num_speculative_tokens": 3}'\n`;
    expect((await runOn(placeholders, a2(), {}, { launch: text })).outcome.status).toBe('pass');
  });
});

describe('launch_online_dp.py (launch.script, rule launcher.launch-online-dp)', () => {
  it('warns that the README launcher starts no server itself, not a fail, naming the template and the rule', async () => {
    const { outcome } = await runOn(script, a3Node({ env: PATH_ENV, files: { ...a3Node().files, ...python('0.23.0') } }), {}, { launch: guideScript('launch-online-dp-single-node.sh') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      'run.sh runs launch_online_dp.py (line 3), which starts no server itself: it runs ./run_dp_template.sh once per local data-parallel rank ' +
        '($1 the devices, $2 the port, $3 the DP size, $4 the DP rank, $5 the DP address, $6 the RPC port, $7 the TP size); ' +
        'the vllm serve command and its flags are in that template (rule launcher.launch-online-dp, vllm-ascend 0.23.0)',
    );
    expect(outcome.remediation).toBe('qprep check --launch ./run_dp_template.sh   # the template launch_online_dp.py runs, in the directory it is started from');
    expect(outcome.evidence).toMatchObject({ rule: 'launcher.launch-online-dp', applies: { from: 'v0.10.1rc1', to: 'main' }, installed: '0.23.0', judgedAs: 'v0.23.0' });
    expect(String((outcome.evidence as { source: string }).source)).toMatch(/^vllm-project\/vllm-ascend examples\/external_online_dp\/README\.md:5 @ /);
  });

  it('on a release before the launcher existed, it is a script that starts nothing qprep knows', async () => {
    const { outcome } = await runOn(script, a3Node({ env: PATH_ENV, files: { ...a3Node().files, ...python('0.9.1') } }), {}, { launch: guideScript('launch-online-dp-single-node.sh') });
    expect(outcome.status).toBe('fail');
  });
});

describe('--enforce-eager with a graph --compilation-config (launch.flags, rule eager.graph-config-ignored)', () => {
  it('passes the command of vllm-ascend #5135: its --compilation-config sets custom ops, no graph', async () => {
    const { outcome } = await runOn(flags, duo('0.11.0'), {}, { launch: guideScript('issue-5135-qwen3-0.6b-300i-duo-tp2.sh') });
    expect(String(outcome.message)).not.toMatch(/enforce-eager/);
  });

  it('warns when the same command asks for FULL_DECODE_ONLY graphs: --enforce-eager turns compilation off', async () => {
    // #5135's command with its custom_ops config replaced by the graph config of the 300I Duo tutorials
    const text = edited(guideScript('issue-5135-qwen3-0.6b-300i-duo-tp2.sh'), [['{"custom_ops":["none", "+rms_norm", "+rotary_embedding"]}', '{"cudagraph_mode": "FULL_DECODE_ONLY", "cudagraph_capture_sizes": [1,8]}']]);
    const { outcome } = await runOn(flags, a2('0.18.0'), {}, { launch: text });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      '--enforce-eager (run.sh:3) turns compilation off, so the graph settings of --compilation-config (run.sh:5: cudagraph_mode FULL_DECODE_ONLY, cudagraph_capture_sizes [1, 8]) are ignored: ' +
        'no graph is captured (rule eager.graph-config-ignored, vllm-ascend 0.18.0)',
    );
    expect(outcome.remediation).toBe('run.sh: remove --enforce-eager (line 3) to capture the graphs, or the graph keys of --compilation-config (line 5) to run eager');
    expect((outcome.evidence as { rules: unknown[] }).rules).toEqual([expect.objectContaining({ rule: 'eager.graph-config-ignored', installed: '0.18.0', judgedAs: 'v0.18.0' })]);
    const zh = await runOn(flags, a2('0.18.0'), {}, { launch: text, lang: 'zh' });
    expect(zh.outcome.message).toContain('--enforce-eager（run.sh:3）关闭了编译');
    expect(zh.outcome.message).toContain('（规则 eager.graph-config-ignored，vllm-ascend 0.18.0）');
  });
});

describe('the default capture-size list on 310P (launch.flags, rule 310p.tp-capture-sizes)', () => {
  // #5135's command run in graph mode: its --enforce-eager and custom-ops config removed
  const graphMode = edited(guideScript('issue-5135-qwen3-0.6b-300i-duo-tp2.sh'), [
    ['    --enforce-eager \\\n', ''],
    [" \\\n    --compilation-config '{\"custom_ops\":[\"none\", \"+rms_norm\", \"+rotary_embedding\"]}'", ''],
  ]);

  it('warns that TP 2 captures vLLM\'s default list, as it would an explicit one', async () => {
    const { outcome } = await runOn(flags, duo('0.23.0'), {}, { launch: graphMode });
    expect(outcome.status).toBe('warn');
    expect(problemsOf(outcome)).toContain(
      'warn: with TP 2 on 310P the hardware event ids allow at most two cudagraph capture sizes; none is given, so vLLM captures its default list of 51 (1, 2, 4, 8, 16, 24, ..., 512) ' +
        '(rule 310p.tp-capture-sizes, vllm-ascend 0.23.0)',
    );
    expect(outcome.remediation).toContain(
      `run.sh line 1: --compilation-config '{"cudagraph_mode": "FULL_DECODE_ONLY", "cudagraph_capture_sizes": [1, 8]}'   # two sizes, as the 310P guides do; or --enforce-eager`,
    );
  });

  it('holds from v0.18.0 (the first guide that states it): nothing on v0.13.0; without a version it is taken as in force, and says so', async () => {
    const old = await runOn(flags, duo('0.13.0'), {}, { launch: graphMode });
    expect(problemsOf(old.outcome).join('\n')).not.toMatch(/capture sizes/);
    const unknown = await runOn(flags, duo(), {}, { launch: graphMode });
    expect(problemsOf(unknown.outcome).join('\n')).toMatch(/\(rule 310p\.tp-capture-sizes; no vllm-ascend found in the launch's Python: taken as in force\)$/m);
  });

  it('judges the --enforce-eager command of #5135 as capturing nothing', async () => {
    const { outcome } = await runOn(flags, duo('0.23.0'), {}, { launch: guideScript('issue-5135-qwen3-0.6b-300i-duo-tp2.sh') });
    expect(problemsOf(outcome).join('\n')).not.toMatch(/capture sizes/);
  });
});

describe('--master-addr as --host on one node (launch.network, rule master-addr.one-node)', () => {
  it('warns on the command of vllm-ascend #4281', async () => {
    const { outcome } = await runOn(network, a2('0.11.0'), {}, { launch: guideScript('issue-4281-qwen3-30b-master-addr.sh') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      '--master-addr {服务器ip}--port (run.sh:1) names the master of a multi-node launch (with --nnodes and --node-rank), but this server runs on one node: ' +
        'it does not set the address the API server listens on, which is --host (rule master-addr.one-node, vllm-ascend 0.11.0)',
    );
    expect(outcome.remediation).toBe('run.sh line 1: --host {服务器ip}--port instead of --master-addr {服务器ip}--port   # or add --nnodes N --node-rank R for a launch over N nodes');
    expect((outcome.evidence as { rules: unknown[] }).rules).toEqual([expect.objectContaining({ rule: 'master-addr.one-node', applies: null })]);
  });

  it('says nothing of --master-addr in a launch over two nodes', async () => {
    const text = 'vllm serve /models/Qwen3-8B --nnodes 2 --node-rank 0 --master-addr 10.0.0.11 --master-port 13345 -tp 16\n';
    const { outcome } = await runOn(network, a2('0.23.0'), {}, { launch: text });
    expect(String(outcome.message)).not.toMatch(/master-addr/);
  });
});

describe('HCCL_OP_EXPANSION_MODE=AIV on 310P (launch.env, rule hccl.op-expansion-aiv-310p)', () => {
  it('warns on the Atlas 300I Duo block of the Qwen-VL-Dense tutorial, with the CANN reference as source', async () => {
    const { outcome } = await runOn(env, duo('0.23.0'), {}, { launch: guideScript('qwen3-vl-8b-300i-duo-dp.sh') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      'HCCL_OP_EXPANSION_MODE (run.sh:1) is AIV, which the Atlas 300I Duo does not support (CANN lists AI_CPU and HOST for it): HCCL ignores the value and uses its default, HOST ' +
        '(rule hccl.op-expansion-aiv-310p, vllm-ascend 0.23.0)',
    );
    expect(outcome.remediation).toBe('run.sh line 1: remove the HCCL_OP_EXPANSION_MODE=AIV line   # on the 300I Duo: AI_CPU or HOST, HOST by default');
    expect((outcome.evidence as { rules: Array<{ source: string }> }).rules[0]!.source).toBe('https://www.hiascend.com/document/detail/en/canncommercial/850/maintenref/envvar/envref_07_0096.html');
  });

  it('says nothing of AIV on an A2, where the guides set it', async () => {
    const { outcome } = await runOn(env, a2('0.23.0'), {}, { launch: guideScript('qwen3-vl-8b-300i-duo-dp.sh') });
    expect(String(outcome.message)).not.toMatch(/AIV/);
  });
});

describe('the HCCL NPU socket port of two servers on one node (launch.ports, rule hccl.npu-socket-port)', () => {
  const twoB = { file: '/scripts/qwen3.5-2b-310p.sh', text: guideScript('qwen3.5-2b-310p.sh'), from: 'file' as const };
  const fourB = { file: '/scripts/qwen3.5-4b-310p.sh', text: guideScript('qwen3.5-4b-310p.sh'), from: 'file' as const };

  it('fails two guide scripts given together: neither sets ASCEND_RT_VISIBLE_DEVICES, both take NPU 0 and its port 16666', async () => {
    const { outcome } = await runOn(ports, duo('0.23.0'), {}, { launch: { ...twoB, launchers: [fourB] } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^qwen3\.5-2b-310p\.sh:6 and qwen3\.5-4b-310p\.sh:6 both start a server on NPU 0: HCCL listens on port 16666 of each NPU it uses/);
    expect(outcome.message).toMatch(/\(rule hccl\.npu-socket-port, vllm-ascend 0\.23\.0\)/);
    expect(outcome.remediation).toContain('export HCCL_NPU_SOCKET_PORT_RANGE="auto" before each of qwen3.5-2b-310p.sh:6 and qwen3.5-4b-310p.sh:6');
  });

  it('passes them on NPUs of their own, or with a port range each', async () => {
    const apart = { ...fourB, text: `export ASCEND_RT_VISIBLE_DEVICES=1\n${fourB.text}` };
    expect((await runOn(ports, duo('0.23.0'), {}, { launch: { ...twoB, launchers: [apart] } })).outcome.status).toBe('pass');
    const auto = (input: typeof twoB) => ({ ...input, text: `export HCCL_NPU_SOCKET_PORT_RANGE=auto\n${input.text}` });
    expect((await runOn(ports, duo('0.23.0'), {}, { launch: { ...auto(twoB), launchers: [auto(fourB)] } })).outcome.status).toBe('pass');
  });

  it('fails one script that starts a second server after a first one in the background', async () => {
    const text = `${guideScript('qwen3.5-2b-310p.sh').trimEnd()} &\n${guideScript('qwen3.5-4b-310p.sh')}`;
    const { outcome } = await runOn(ports, duo('0.23.0'), {}, { launch: text });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^run\.sh:6 and run\.sh:\d+ both start a server on NPU 0/);
    // in the foreground, the first server holds the script: the second never runs beside it
    const sequential = `${guideScript('qwen3.5-2b-310p.sh')}${guideScript('qwen3.5-4b-310p.sh')}`;
    expect(String((await runOn(ports, duo('0.23.0'), {}, { launch: sequential })).outcome.message)).not.toMatch(/16666/);
  });
});

describe("Mooncake's rules (launch.mooncake)", () => {
  const colocated = guideScript('qwen2.5-72b-pd-colocated-mooncake.sh');

  it('skips a server without a Mooncake connector', async () => {
    expect((await runOn(mooncake, a2('0.23.0'), {}, { launch: guideScript('issue-5135-qwen3-0.6b-300i-duo-tp2.sh') })).outcome.status).toBe('skip');
  });

  it('leaves the timeouts to Mooncake when the script sets none, and says so', async () => {
    const { outcome } = await runOn(mooncake, a2('0.23.0'), {}, { launch: colocated });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toContain("HCCL_RDMA_TIMEOUT and ASCEND_TRANSFER_TIMEOUT left to their defaults (Mooncake's own, which its releases changed: not judged)");
  });

  it('warns on an ASCEND_TRANSFER_TIMEOUT below 4.096 us x 2^HCCL_RDMA_TIMEOUT x 7 (kv_pool.md), with the value that is enough', async () => {
    const text = `export HCCL_RDMA_TIMEOUT=20\nexport ASCEND_TRANSFER_TIMEOUT=10000\n${colocated}`;
    const { outcome } = await runOn(mooncake, a2('0.23.0'), {}, { launch: text });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      'ASCEND_TRANSFER_TIMEOUT is 10000 ms, not above the RDMA retransmission time 4.096 us x 2^20 x 7 = 30.1 s (HCCL_RDMA_TIMEOUT 20): ' +
        'a KV transfer gives up while RDMA still retries (rule mooncake.transfer-timeout, vllm-ascend 0.23.0)',
    );
    expect(outcome.remediation).toBe('export ASCEND_TRANSFER_TIMEOUT=32000   # before vllm serve in run.sh; or lower HCCL_RDMA_TIMEOUT (kv_pool.md sets 17 with 10000 ms), which collectives read too');
    // kv_pool.md's own pair: 17 with 10000 ms
    const guide = `export HCCL_RDMA_TIMEOUT=17\nexport ASCEND_TRANSFER_TIMEOUT=10000\n${colocated}`;
    expect((await runOn(mooncake, a2('0.23.0'), {}, { launch: guide })).outcome.status).toBe('pass');
    // the statement left the guide after v0.25.1rc1: a build of main judges nothing
    expect((await runOn(mooncake, a2('0.26.0.dev12'), {}, { launch: text })).outcome.status).toBe('pass');
  });

  it('warns on a CANN not newer than 8.3.RC1', async () => {
    const info = 'package_name=Ascend-cann-toolkit\nversion=8.2.RC1\ninnerversion=V100R001C22SPC001B231\n';
    const host = a2('0.11.0', { '/usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info': info });
    const { outcome } = await runOn(mooncake, { ...host, identity: { arch: 'aarch64' } }, {}, { launch: colocated });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe("CANN 8.2.RC1 is not newer than 8.3.RC1, which Mooncake's Ascend direct transport needs (rule mooncake.ascend-direct-cann, vllm-ascend 0.11.0)");
  });

  it("warns when LD_LIBRARY_PATH holds neither /usr/local/lib nor the mooncake package of the launch's Python", async () => {
    const host = a2('0.23.0', { [`${SITE}/mooncake/engine.so`]: 'ELF' });
    const { outcome } = await runOn(mooncake, host, {}, { launch: colocated });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^LD_LIBRARY_PATH \(\/usr\/local\/Ascend\/ascend-toolkit\/latest\/python\/site-packages:\) holds neither \/usr\/local\/lib, \/usr\/local\/lib64 nor /);
    expect(outcome.remediation).toBe(`export LD_LIBRARY_PATH=${SITE}/mooncake:/usr/local/lib:/usr/local/lib64:$LD_LIBRARY_PATH   # before vllm serve in run.sh`);
  });
});

describe('a residual site-packages/triton on 310P (python.triton-ascend, rule 310p.triton-residual)', () => {
  it('fails the directory pip uninstall leaves without its dist-info, with the rm the 310P guide gives', async () => {
    // the path of the guide's example: /usr/local/python3.11.10/lib/python3.11/site-packages/triton
    const host = duo('0.18.0', { [`${SITE}/triton/__init__.py`]: '' });
    const { outcome } = await runOn(triton, host, {}, { launch: guideScript('qwen3.5-2b-310p.sh') });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      `${SITE}/triton is left for ${PY}/bin/python3.11 without its dist-info (what pip uninstall leaves behind): Python still imports it as triton on this 310P (rule 310p.triton-residual, vllm-ascend 0.18.0)`,
    );
    expect(outcome.remediation).toBe(`rm -rf ${SITE}/triton`);
    expect(outcome.evidence).toMatchObject({ rule: '310p.triton-residual', applies: { from: 'v0.18.0', to: 'main' } });
  });
});

describe('CPU binding readiness (launch.cpu-binding)', () => {
  const cpus = (list: string): FakeNode => `Name:\tqprep\nCpus_allowed:\tffffffff\nCpus_allowed_list:\t${list}\n`;

  it('warns when the cpuset gives fewer than 5 CPUs per NPU of an A3 (rule cpu-binding.min-cpus)', async () => {
    const node = a3Node({ env: PATH_ENV, identity: { arch: 'aarch64' } });
    const host = { ...node, files: { ...node.files, ...python('0.18.0'), '/proc/self/status': cpus('0-63') } };
    const { outcome } = await runOn(cpuBinding, host, {}, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe(
      'the cpuset allows 64 CPUs for the 16 NPUs of this node: 4 per NPU, below the 5 vllm-ascend\'s CPU binding needs; it logs "Insufficient CPUs for binding" and the workers run unbound ' +
        '(rule cpu-binding.min-cpus, vllm-ascend 0.18.0)',
    );
    expect(outcome.remediation).toBe(`give the container at least 80 CPUs (docker run --cpuset-cpus, the pod's CPU request), or turn the binding off: --additional-config '{"enable_cpu_binding": false}'`);
    const enough = { ...host, files: { ...host.files, '/proc/self/status': cpus('0-319') } };
    expect((await runOn(cpuBinding, enough, {}, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') })).outcome.status).toBe('pass');
    // the minimum is stated from v0.18.0rc1 on: an older release is not judged, and the message says why
    const olderFiles: Record<string, FakeNode> = { ...host.files, ...python('0.13.0') };
    delete olderFiles[`${SITE}/vllm_ascend-0.18.0.dist-info/METADATA`];
    const older = { ...host, files: olderFiles };
    const before = await runOn(cpuBinding, older, {}, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') });
    expect(before.outcome.status).toBe('pass');
    expect(before.outcome.message).toBe('run.sh: the CPUs per NPU are not judged for vllm-ascend 0.13.0 (rule cpu-binding.min-cpus holds from v0.18.0rc1)');
  });

  it('warns on OMP_PROC_BIND=TRUE, which vllm-ascend #11307 traced to libgomp pinning the process to CPU 0', async () => {
    const node = a3Node({ env: PATH_ENV, identity: { arch: 'aarch64' } });
    const host = { ...node, files: { ...node.files, ...python('0.23.0'), '/proc/self/status': cpus('0-319') } };
    // the guide's A3 script with the line #11307's script starts with
    const text = `export OMP_PROC_BIND=TRUE\n${guideScript('qwen3.5-397b-w8a8-a3-single-node.sh')}`;
    const { outcome } = await runOn(cpuBinding, host, {}, { launch: text });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^OMP_PROC_BIND=TRUE \(run\.sh:1\): PyTorch's libgomp pins the process to one CPU at import/);
    expect(outcome.message).toMatch(/\(rule omp-proc-bind\.false, vllm-ascend 0\.23\.0\)$/);
    expect(outcome.remediation).toBe('run.sh line 1: export OMP_PROC_BIND=false');
  });

  it('skips when neither the cpuset nor OMP_PROC_BIND can be read, and says nothing on x86_64', async () => {
    const node = a3Node({ env: PATH_ENV, identity: { arch: 'aarch64' } });
    expect((await runOn(cpuBinding, node, {}, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') })).outcome.status).toBe('skip');
    const x86 = a3Node({ env: PATH_ENV, identity: { arch: 'x86_64' } });
    const { outcome } = await runOn(cpuBinding, x86, {}, { launch: guideScript('qwen3.5-397b-w8a8-a3-single-node.sh') });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('run.sh: no CPU binding on x86_64 (vllm-ascend binds on ARM only)');
  });
});
