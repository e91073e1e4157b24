import { chmodSync, mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';
import { fixturePath } from '../helpers/fixtures.js';
import { edited, guideScript } from '../helpers/launch.js';

/**
 * The built CLI with --launch: the guide's run_p.sh as published, and a filled-in copy, on a
 * fake Atlas 800 A3 (a fake npu-smi on PATH printing the 16-die capture) whose files are read
 * under --root. The filled-in copy uses this machine's own address and interface, since the
 * network checks look at the real interfaces.
 */

const A3_INFO = fixturePath('ascend', 'npu-smi-info-a3-16chip-vllm-ascend-5784.txt');
const MODEL = 'Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp';
const HF_ENTRY = `/root/.cache/huggingface/hub/models--${MODEL.replace('/', '--')}`;
const GiB = 1024 ** 3;
const TCP_HEADER = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-launch-${prefix}-`));
}

function write(root: string, path: string, content: string, mode = 0o644): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, content);
  chmodSync(full, mode);
  return full;
}

/** A bin directory with an npu-smi that prints the A3 capture for "info". */
function fakeNpuSmi(): string {
  const bin = tmp('bin');
  write(bin, 'npu-smi', `#!/bin/sh\nif [ "$*" = "info" ]; then cat '${A3_INFO}'; exit 0; fi\necho "Command or option is not found."; exit 1\n`, 0o755);
  return bin;
}

/** The host's files: nothing listening, and the guide's model in the Hugging Face cache (sparse 150 GiB shards). */
function hostTree(): string {
  const root = tmp('tree');
  write(root, '/proc/net/tcp', TCP_HEADER);
  write(root, '/proc/net/tcp6', TCP_HEADER);
  const snapshot = `${HF_ENTRY}/snapshots/5f1e2d3c`;
  write(root, `${HF_ENTRY}/refs/main`, '5f1e2d3c\n');
  write(root, `${snapshot}/config.json`, '{"model_type": "qwen3_5_moe"}');
  write(root, `${snapshot}/quant_model_description.json`, '{}');
  const shards = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];
  write(root, `${snapshot}/model.safetensors.index.json`, JSON.stringify({ weight_map: { a: shards[0], b: shards[1] } }));
  for (const shard of shards) truncateSync(write(root, `${snapshot}/${shard}`, ''), 150 * GiB);
  return root;
}

/** This machine's first non-loopback IPv4 interface: the filled-in script must name a real one. */
function localInterface(): { nic: string; ip: string } | undefined {
  for (const [nic, addresses] of Object.entries(networkInterfaces())) {
    const v4 = (addresses ?? []).find((a) => a.family === 'IPv4' && !a.internal);
    if (v4) return { nic, ip: v4.address };
  }
  return undefined;
}

interface CheckLine {
  id: string;
  status: string;
  message: string;
  remediation?: string;
  evidence: Record<string, unknown>;
}

async function checkLaunch(args: string[], bin: string, input?: string) {
  const run = await qprep(['check', '--only', 'launch', '--format', 'json', ...args], {
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: '/root' },
    ...(input !== undefined ? { input } : {}),
  });
  const report = JSON.parse(run.stdout);
  const { valid, errors } = await validateAgainstSchema('report', report);
  expect(valid, errors).toBe(true);
  const byId: Record<string, CheckLine> = Object.fromEntries((report.checks ?? []).map((c: CheckLine) => [c.id, c]));
  return { run, report, byId, statuses: Object.fromEntries(Object.entries(byId).map(([id, c]) => [id, c.status])) };
}

let bin: string;
let root: string;
let work: string;
const nic = localInterface();

beforeAll(() => {
  bin = fakeNpuSmi();
  root = hostTree();
  work = tmp('scripts');
  if (!nic) console.warn('skipping the filled-in (ready) cases: this machine has no non-loopback IPv4 interface for the script to name');
});

function filledRunP(): string {
  return edited(guideScript('run_p.sh'), [
    ['nic_name="xxx"', `nic_name="${nic!.nic}"`],
    ['local_ip="xxx"', `local_ip="${nic!.ip}"`],
  ]);
}

describe('qprep check --launch', () => {
  it("the guide's run_p.sh as published: not ready, exit 1, the placeholders named with their lines", async () => {
    const script = write(work, 'run_p.sh', guideScript('run_p.sh'));
    const { run, report, byId } = await checkLaunch(['--root', root, '--launch', script], bin);
    expect(run.exitCode).toBe(1);
    expect(report.ready).toBe(false);
    expect(report.blocking).toContain('launch.placeholders');
    expect(byId['launch.placeholders']!.status).toBe('fail');
    expect(byId['launch.placeholders']!.message).toBe('2 placeholders left in run_p.sh: nic_name="xxx" (line 6), local_ip="xxx" (line 7)');
    expect(byId['launch.placeholders']!.remediation).toMatch(/^run_p\.sh line 6: nic_name="[^"]+"   # the interface carrying /);
    expect(byId['launch.network']!.status).toBe('fail');
    expect(report.launch).toMatchObject({ file: script, from: 'file', lines: 71, serve: { line: 32, form: 'vllm serve', model: MODEL } });
    expect(report.launch.serve.layout).toMatchObject({ role: 'prefill', tp: 2, dp: 8, dpLocal: 8, startRank: 0, dpAddress: { value: 'xxx', line: 40, from: { name: 'local_ip', line: 7 } } });
  });

  it.skipIf(!nic)("a filled-in copy on a matching host: every launch check passes but the kv_port warning and the plan from qprep's table (triton is a 310P matter, the supported models a question for the image), ready, exit 0", async () => {
    const script = write(work, 'run_p_filled.sh', filledRunP());
    const { run, report, statuses, byId } = await checkLaunch(['--root', root, '--launch', script], bin);
    // every check of the launch category ran (qprep list names them), and all but these two passed
    const listed: Array<{ id: string; category: string }> = JSON.parse((await qprep(['list', '--format', 'json'])).stdout);
    expect(Object.keys(statuses)).toEqual(listed.filter((c) => c.category === 'launch').map((c) => c.id));
    expect(Object.entries(statuses).filter(([, status]) => status !== 'pass')).toEqual([
      // the guide's kv_port 23010 is inside the 20000-35999 that the multi-node PD guide reserves on 16 NPUs: a warning, not a block
      ['launch.ports', 'warn'],
      // no vllm-ascend in this tree (the image is not here): which release would serve the model is not known
      ['model.supported', 'skip'],
      // this host's config.json holds model_type alone: the plan takes the rest from qprep's table, an estimate
      ['model.fit', 'warn'],
      // the tree's shards are sparse files: the read probe went through their holes, which no storage delivers, and says so
      ['model.load-time', 'warn'],
      ['python.triton-ascend', 'skip'],
    ]);
    expect(byId['model.fit']!.evidence).toMatchObject({ basis: 'builtin' });
    expect(byId['model.fit']!.message).toMatch(/GiB of weights per NPU, [\d.]+ GiB for the KV cache$/);
    expect(byId['model.load-time']!.message).toMatch(/of the probe's read were holes of sparse shard files, which no storage delivers/);
    expect(run.exitCode).toBe(0);
    expect(report.ready).toBe(true);
    expect(byId['launch.devices']!.message).toBe('TP 2 x DP-local 8 = 16 NPUs fit 16 NPUs of ASCEND_RT_VISIBLE_DEVICES (0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15)');
    expect(byId['model.weights']!.message).toContain('2 safetensors shards (300.0 GiB)');
  });

  it('reads the script from stdin with --launch -', async () => {
    const { run, report, byId } = await checkLaunch(['--root', root, '--launch', '-'], bin, guideScript('run_d0.sh'));
    expect(run.exitCode).toBe(1);
    expect(report.launch.file).toBe('-');
    expect(byId['launch.placeholders']!.message).toBe(
      '3 placeholders left in the script on stdin: nic_name="xxx" (line 7), local_ip="xxx" (line 8), node0_ip="xxxx" (line 10)',
    );
  });

  it('a script that cannot be read is no verdict: exit 2, the JSON error names it', async () => {
    const run = await qprep(['check', '--only', 'launch', '--format', 'json', '--launch', join(work, 'nope.sh')]);
    expect(run.exitCode).toBe(2);
    const document = JSON.parse(run.stdout);
    expect(document.error).toEqual({ code: 'invalid-input', message: `cannot read launch script ${join(work, 'nope.sh')}: no such file` });
  });

  it('prints the script and the fixes in the human report', async () => {
    const script = write(work, 'run_p.sh', guideScript('run_p.sh'));
    const run = await qprep(['check', '--only', 'launch.placeholders', '--root', root, '--launch', script, '--no-color'], { env: { PATH: `${bin}:/usr/bin:/bin`, HOME: '/root' } });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain(`launch script ${script}: vllm serve ${MODEL} at line 32`);
    expect(run.stdout).toMatch(/fix: run_p\.sh line 6: nic_name="/);
  });
});

describe('qprep snapshot --launch', () => {
  it.skipIf(!nic)('records the script (secrets redacted), and a replay judges it again without --launch', async () => {
    const text = `export HF_TOKEN=hf_secret_value\n${filledRunP()}`;
    const script = write(work, 'run_p_token.sh', text);
    const file = join(work, 'snap.json');
    const recorded = await qprep(['snapshot', '-o', file, '--only', 'launch', '--root', root, '--launch', script], { env: { PATH: `${bin}:/usr/bin:/bin`, HOME: '/root' } });
    expect(recorded.exitCode).toBe(0);
    const raw = readFileSync(file, 'utf8');
    expect(raw).not.toContain('hf_secret_value');
    const snapshot = JSON.parse(raw);
    expect(snapshot.launch.file).toBe(script);
    expect(snapshot.launch.text.split('\n')[0]).toBe('export HF_TOKEN=***');
    expect(snapshot.launch.text.split('\n').length).toBe(text.split('\n').length);
    const { valid, errors } = await validateAgainstSchema('snapshot', snapshot);
    expect(valid, errors).toBe(true);

    const replay = await checkLaunch(['--snapshot', file], bin);
    expect(replay.report.launch).toMatchObject({ file: script, from: 'snapshot', serve: { line: 33 } });
    const recordedStatuses = Object.fromEntries(snapshot.report.checks.map((c: CheckLine) => [c.id, c.status]));
    expect(replay.statuses).toEqual(recordedStatuses);
    expect(replay.statuses['launch.placeholders']).toBe('pass');

    // --launch on a replay judges another script against the recorded host
    const published = write(work, 'run_p_again.sh', guideScript('run_p.sh'));
    const other = await checkLaunch(['--snapshot', file, '--launch', published], bin);
    expect(other.report.launch.from).toBe('file');
    expect(other.statuses['launch.placeholders']).toBe('fail');
  });
});

describe('qprep check --launch TEMPLATE --launch LAUNCHER (repeatable)', () => {
  // run_dp_template.sh byte for byte; the launcher passes what launch_online_dp.py builds for rank 0 of its README's DP4 TP4 example
  const LAUNCHER = 'bash ./run_dp_template.sh 0,1,2,3 9000 4 0 10.0.0.11 12342 4\n';

  it('reads $1..$7 from the launcher, records both scripts in a snapshot, and the replay judges them the same', async () => {
    const template = write(work, 'dp/run_dp_template.sh', guideScript('run_dp_template.sh'));
    const launcher = write(work, 'dp/launch.sh', LAUNCHER);
    const alone = await checkLaunch(['--root', root, '--launch', template], bin);
    expect(alone.byId['launch.flags']!.message).toMatch(/^sizes come from the caller/);
    const both = await checkLaunch(['--root', root, '--launch', template, '--launch', launcher], bin);
    expect(both.byId['launch.flags']!.message).not.toMatch(/caller/);
    expect(both.byId['launch.script']!.message).toContain('$1..$7 from launch.sh:1 (./run_dp_template.sh 0,1,2,3 9000 4 0 10.0.0.11 12342 4)');
    expect(both.byId['launch.devices']!.message).toMatch(/^TP 4 x DP 1 = 4 NPUs fit/);
    expect(both.report.launch.file).toBe(template);

    const file = join(work, 'dp-snap.json');
    const recorded = await qprep(['snapshot', '-o', file, '--only', 'launch', '--root', root, '--launch', launcher, '--launch', template], { env: { PATH: `${bin}:/usr/bin:/bin`, HOME: '/root' } });
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot.launch.file).toBe(launcher);
    expect(snapshot.launch.launchers).toEqual([{ file: template, text: guideScript('run_dp_template.sh') }]);
    const { valid, errors } = await validateAgainstSchema('snapshot', snapshot);
    expect(valid, errors).toBe(true);
    const replay = await checkLaunch(['--snapshot', file], bin);
    expect(replay.byId['launch.script']!.message).toBe(both.byId['launch.script']!.message);
    expect(replay.report.launch.file).toBe(template);
  });

  it('a second --launch that cannot be read is an error naming it; "-" twice is a usage error', async () => {
    const template = write(work, 'dp2/run_dp_template.sh', guideScript('run_dp_template.sh'));
    const missing = join(work, 'dp2', 'no-such-launcher.sh');
    const run = await qprep(['check', '--only', 'launch', '--root', root, '--launch', template, '--launch', missing], { env: { PATH: `${bin}:/usr/bin:/bin`, HOME: '/root' } });
    expect(run.exitCode).not.toBe(0);
    expect(run.exitCode).not.toBe(1);
    expect(run.stderr).toContain(missing);
    const twice = await qprep(['check', '--only', 'launch', '--root', root, '--launch', '-', '--launch', '-'], { env: { PATH: `${bin}:/usr/bin:/bin`, HOME: '/root' }, input: LAUNCHER });
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toContain('--launch - is given twice');
  });
});
