import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { qprep, REPO, validateAgainstSchema } from '../helpers/cli.js';
import { fixturePath } from '../helpers/fixtures.js';
import { edited, guideScript } from '../helpers/launch.js';

/**
 * The built CLI on the real scripts and captures the gaps of the launch checks were found on
 * (test/fixtures/launch/README.md, test/fixtures/ascend/README.md), replayed on the demo hosts:
 * each finding comes from a rule of knowledge/rules.json and names it, with its source, in its
 * evidence. Where a host needs a file the demo did not record (a cpuset, a leftover directory),
 * the test adds it to a copy of the snapshot and says so.
 */

const SNAPSHOTS = join(REPO, 'examples/snapshots');
const SITE = '/usr/local/python3.11.13/lib/python3.11/site-packages';
const launchFixture = (name: string) => join(REPO, 'test/fixtures/launch', name);

interface CheckLine {
  id: string;
  status: string;
  message: string;
  remediation?: string;
  evidence: Record<string, unknown>;
}

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'qprep-launch-rules-'));
});

function script(name: string, text: string): string {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

/** A copy of a demo snapshot with `change` applied to its recorded reads. */
function snapshotWith(name: string, change: (snapshot: Record<string, Record<string, unknown>>) => void): string {
  const snapshot = JSON.parse(readFileSync(join(SNAPSHOTS, `${name}.json`), 'utf8'));
  change(snapshot);
  const path = join(work, `${name}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(snapshot));
  return path;
}

async function check(snapshot: string, launches: string[], only = 'launch'): Promise<Record<string, CheckLine>> {
  const run = await qprep(['check', '--only', only, '--snapshot', snapshot.startsWith('/') ? snapshot : join(SNAPSHOTS, `${snapshot}.json`), ...launches.flatMap((l) => ['--launch', l]), '--format', 'json']);
  const report = JSON.parse(run.stdout);
  const { valid, errors } = await validateAgainstSchema('report', report);
  expect(valid, errors).toBe(true);
  return Object.fromEntries((report.checks as CheckLine[]).map((c) => [c.id, c]));
}

function rulesOf(line: CheckLine): string[] {
  const evidence = line.evidence as { rule?: string; rules?: Array<{ rule: string }> };
  return evidence.rules ? evidence.rules.map((r) => r.rule) : evidence.rule ? [evidence.rule] : [];
}

describe('qprep check --launch: the gaps found on real scripts, each judged by its rule', () => {
  it('"model":"your_eagle3_model_path" inside --speculative-config (Qwen3-235B-A22B tutorial) is a placeholder', async () => {
    const found = await check('a2-healthy', [launchFixture('qwen3-235b-a22b-eagle3-pd-hybrid.sh')], 'launch.placeholders');
    const placeholders = (found['launch.placeholders']!.evidence as { placeholders: Array<{ name: string; placeholder: string }> }).placeholders;
    expect(placeholders).toContainEqual(expect.objectContaining({ name: '--speculative-config', placeholder: 'your_eagle3_model_path' }));
  });

  it('--enforce-eager next to a graph --compilation-config warns (rule eager.graph-config-ignored); #5135 as published, custom ops only, does not', async () => {
    const published = await check('a2-healthy', [launchFixture('issue-5135-qwen3-0.6b-300i-duo-tp2.sh')], 'launch.flags');
    expect(rulesOf(published['launch.flags']!)).not.toContain('eager.graph-config-ignored');
    // #5135's command asking for FULL_DECODE_ONLY graphs instead of custom ops
    const graphs = script('eager-graphs.sh', edited(guideScript('issue-5135-qwen3-0.6b-300i-duo-tp2.sh'), [['{"custom_ops":["none", "+rms_norm", "+rotary_embedding"]}', '{"cudagraph_mode": "FULL_DECODE_ONLY"}']]));
    const flags = (await check('a2-healthy', [graphs], 'launch.flags'))['launch.flags']!;
    expect(flags.status).toBe('warn');
    expect(flags.message).toMatch(/^--enforce-eager \(eager-graphs\.sh:3\) turns compilation off, so the graph settings of --compilation-config \(eager-graphs\.sh:5: cudagraph_mode FULL_DECODE_ONLY\) are ignored/);
    expect(rulesOf(flags)).toEqual(['eager.graph-config-ignored']);
  });

  it('--master-addr on one node (vllm-ascend #4281) warns that the listening address is --host (rule master-addr.one-node)', async () => {
    const network = (await check('a2-healthy', [launchFixture('issue-4281-qwen3-30b-master-addr.sh')], 'launch.network'))['launch.network']!;
    expect(network.status).toBe('warn');
    expect(network.message).toMatch(/^--master-addr \{服务器ip\}--port \(issue-4281-qwen3-30b-master-addr\.sh:1\) names the master of a multi-node launch/);
    expect(rulesOf(network)).toEqual(['master-addr.one-node']);
  });

  it('HCCL_OP_EXPANSION_MODE=AIV in the 300I Duo tab of the Qwen-VL-Dense tutorial warns on the 300I Duo (rule hccl.op-expansion-aiv-310p)', async () => {
    const env = (await check('300i-duo-healthy', [launchFixture('qwen3-vl-8b-300i-duo-dp.sh')], 'launch.env'))['launch.env']!;
    expect(env.status).toBe('warn');
    expect(env.message).toBe(
      'HCCL_OP_EXPANSION_MODE (qwen3-vl-8b-300i-duo-dp.sh:1) is AIV, which the Atlas 300I Duo does not support (CANN lists AI_CPU and HOST for it): ' +
        'HCCL ignores the value and uses its default, HOST (rule hccl.op-expansion-aiv-310p, vllm-ascend 0.23.0)',
    );
  });

  it("TP 2 on the 300I Duo without capture sizes is judged on vLLM's default list (rule 310p.tp-capture-sizes)", async () => {
    // #5135's command in graph mode: its --enforce-eager line and custom-ops config removed
    const graphMode = script(
      'duo-tp2-graphs.sh',
      edited(guideScript('issue-5135-qwen3-0.6b-300i-duo-tp2.sh'), [
        ['    --enforce-eager \\\n', ''],
        [" \\\n    --compilation-config '{\"custom_ops\":[\"none\", \"+rms_norm\", \"+rotary_embedding\"]}'", ''],
      ]),
    );
    const flags = (await check('300i-duo-healthy', [graphMode], 'launch.flags'))['launch.flags']!;
    expect((flags.evidence as { problems: string[] }).problems).toContain(
      'warn: with TP 2 on 310P the hardware event ids allow at most two cudagraph capture sizes; none is given, so vLLM captures its default list of 51 (1, 2, 4, 8, 16, 24, ..., 512) ' +
        '(rule 310p.tp-capture-sizes, vllm-ascend 0.23.0)',
    );
  });

  it('launch_online_dp.py (the external DP README) is a known launcher: a warning, not a fail (rule launcher.launch-online-dp)', async () => {
    const found = await check('a3-healthy', [launchFixture('launch-online-dp-single-node.sh')], 'launch.script');
    expect(found['launch.script']!.status).toBe('warn');
    expect(found['launch.script']!.message).toMatch(/^launch-online-dp-single-node\.sh runs launch_online_dp\.py \(line 3\), which starts no server itself/);
    expect(rulesOf(found['launch.script']!)).toEqual(['launcher.launch-online-dp']);
  });

  it('two guide scripts for one 300I Duo node, both on NPU 0, fail on its HCCL port 16666 (rule hccl.npu-socket-port)', async () => {
    const ports = (await check('300i-duo-healthy', [launchFixture('qwen3.5-2b-310p.sh'), launchFixture('qwen3.5-4b-310p.sh')], 'launch.ports'))['launch.ports']!;
    expect(ports.status).toBe('fail');
    expect(ports.message).toMatch(/^qwen3\.5-2b-310p\.sh:6 and qwen3\.5-4b-310p\.sh:6 both start a server on NPU 0: HCCL listens on port 16666/);
  });

  it("Mooncake's CANN and a transfer timeout below the RDMA retries of HCCL_RDMA_TIMEOUT warn (rules mooncake.ascend-direct-cann, mooncake.transfer-timeout)", async () => {
    // the colocated Mooncake block with the two variables of kv_pool.md, the exponent left at CANN's default 20
    const text = `export HCCL_RDMA_TIMEOUT=20\nexport ASCEND_TRANSFER_TIMEOUT=10000\n${guideScript('qwen2.5-72b-pd-colocated-mooncake.sh')}`;
    const mooncake = (await check('300i-duo-healthy', [script('mooncake.sh', text)], 'launch.mooncake'))['launch.mooncake']!;
    expect(mooncake.status).toBe('warn');
    // the demo 300I Duo's CANN 8.2.RC1 is found first (rule mooncake.ascend-direct-cann), the timeout beside it
    expect(mooncake.message).toBe(
      "CANN 8.2.RC1 is not newer than 8.3.RC1, which Mooncake's Ascend direct transport needs (rule mooncake.ascend-direct-cann, vllm-ascend 0.23.0) (and 1 more)",
    );
    expect(mooncake.remediation).toContain('export ASCEND_TRANSFER_TIMEOUT=32000   # before vllm serve in mooncake.sh');
    expect(rulesOf(mooncake)).toEqual(expect.arrayContaining(['mooncake.ascend-direct-cann', 'mooncake.transfer-timeout']));
  });

  it('a site-packages/triton left without its dist-info fails the 300I Duo (rule 310p.triton-residual)', async () => {
    // the demo 300I Duo with the directory the 310P guide tells to remove by hand
    const snapshot = snapshotWith('300i-duo-healthy', (s) => {
      s.stats![`${SITE}/triton`] = { ok: true, value: { kind: 'directory', mode: 16877, uid: 0, gid: 0, size: 0, rdev: 0 } };
    });
    const triton = (await check(snapshot, [launchFixture('qwen3.5-2b-310p.sh')], 'python.triton-ascend'))['python.triton-ascend']!;
    expect(triton.status).toBe('fail');
    expect(triton.remediation).toBe(`rm -rf ${SITE}/triton`);
    expect(rulesOf(triton)).toEqual(['310p.triton-residual']);
  });

  it('a cpuset of 64 CPUs for the 16 NPUs of an A3 warns: 4 per NPU (rule cpu-binding.min-cpus); so does OMP_PROC_BIND=TRUE (omp-proc-bind.false)', async () => {
    // the demo A3 with a container cpuset of 64 CPUs recorded as /proc/self/status shows it
    const snapshot = snapshotWith('a3-healthy', (s) => {
      s.files!['/proc/self/status'] = { ok: true, value: 'Name:\tqprep\nCpus_allowed:\tffffffff,ffffffff\nCpus_allowed_list:\t0-63\n' };
    });
    const binding = (await check(snapshot, [launchFixture('qwen3.5-397b-w8a8-a3-single-node.sh')], 'launch.cpu-binding'))['launch.cpu-binding']!;
    expect(binding.status).toBe('warn');
    expect(binding.message).toMatch(/^the cpuset allows 64 CPUs for the 16 NPUs of this node: 4 per NPU, below the 5/);
    expect(rulesOf(binding)).toEqual(['cpu-binding.min-cpus']);
    // the same script led by the line vllm-ascend #11307's script starts with
    const omp = script('omp.sh', `export OMP_PROC_BIND=TRUE\n${guideScript('qwen3.5-397b-w8a8-a3-single-node.sh')}`);
    const both = (await check(snapshot, [omp], 'launch.cpu-binding'))['launch.cpu-binding']!;
    expect(both.message).toMatch(/; OMP_PROC_BIND=TRUE \(omp\.sh:1\): PyTorch's libgomp pins the process to one CPU at import/);
    expect(rulesOf(both)).toEqual(['cpu-binding.min-cpus', 'omp-proc-bind.false']);
  });
});

describe('qprep check: an npu-smi table cut after card 0 (vllm-ascend #12980)', () => {
  it('npu.smi warns that it is cut, npu.count states no card x chip shape and cannot judge the A3 profile', async () => {
    const capture = readFileSync(fixturePath('ascend', 'npu-smi-info-a3-26.0.rc2-wide-header-vllm-ascend-12980-excerpt.txt'), 'utf8');
    // the demo A3 answering npu-smi info with the excerpt instead of its whole table
    const snapshot = snapshotWith('a3-healthy', (s) => {
      const commands = s.commands as unknown as Array<{ argv: string[]; stdout: string }>;
      commands.find((c) => c.argv.length === 2 && c.argv[1] === 'info')!.stdout = capture;
    });
    const found = await check(snapshot, [], 'npu.smi,npu.count');
    expect(found['npu.smi']!.status).toBe('warn');
    expect(found['npu.smi']!.message).toMatch(/^npu-smi's table stops after line 11, a row without its closing border/);
    expect(found['npu.count']!.status).toBe('error');
    expect(found['npu.count']!.message).not.toMatch(/card/);
  });
});
