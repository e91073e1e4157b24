import { execa } from 'execa';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep, REPO, validateAgainstSchema } from '../helpers/cli.js';

/** The demo hosts of examples/snapshots, replayed with the profile they were recorded with. */
const DEMOS = {
  'a2-healthy': { profile: 'qwen3.5-397b-w8a8-a2', ready: true },
  'a3-healthy': { profile: 'qwen3.5-397b-w8a8-a3', ready: true },
  '300i-duo-healthy': { profile: 'qwen3.5-dense-300i-duo', ready: true },
  'a2-broken': { profile: 'qwen3.5-397b-w8a8-a2', ready: false },
} as const;

async function replay(name: keyof typeof DEMOS) {
  const run = await qprep(['check', '--snapshot', `examples/snapshots/${name}.json`, '--profile', DEMOS[name].profile, '--format', 'json'], { env: { PATH: '/nonexistent' } });
  const report = JSON.parse(run.stdout);
  const { valid, errors } = await validateAgainstSchema('report', report);
  expect(valid, errors).toBe(true);
  const statuses: Record<string, string> = Object.fromEntries(report.checks.map((c: { id: string; status: string }) => [c.id, c.status]));
  return { run, report, statuses };
}

describe('qprep check --snapshot on the demo hosts', () => {
  it('the healthy A2 (in the vllm-ascend container) is ready with every check passing; no launch script was recorded', async () => {
    const { run, report, statuses } = await replay('a2-healthy');
    expect(run.exitCode).toBe(0);
    expect(report.ready).toBe(true);
    const launch = report.checks.filter((c: { category: string }) => c.category === 'launch');
    expect(launch.map((c: { status: string }) => c.status)).toEqual(Array(launch.length).fill('skip'));
    expect(Object.entries(statuses).filter(([id]) => !launch.some((c: { id: string }) => c.id === id)).every(([, s]) => s === 'pass')).toBe(true);
    expect(report.host.inContainer).toBe(true);
    expect(report.facts).toMatchObject({ hostname: 'a2-node1', family: 'a2', versions: { npuSmi: '25.3.rc1', driver: '25.3.rc1', cann: '8.3.RC2' } });
  });

  it("the healthy A3 (bare host): 16 dies, CANN skipped because it lives in the image, and the guide's single-node script's two real findings", async () => {
    const { run, report, statuses } = await replay('a3-healthy');
    expect(run.exitCode).toBe(0);
    expect(statuses['npu.cann']).toBe('skip');
    expect(Object.entries(statuses).filter(([, s]) => s !== 'pass')).toEqual([
      ['npu.cann', 'skip'],
      ['launch.script', 'warn'],
      ['launch.flags', 'warn'],
      ['python.triton-ascend', 'skip'],
    ]);
    expect(report.launch).toEqual({ file: 'qwen3.5-397b-w8a8-a3-single-node.sh', from: 'snapshot', lines: 35, serve: { line: 18, form: 'vllm serve', model: 'Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp' } });
    expect(report.facts.npus).toHaveLength(16);
    expect(report.facts.family).toBe('a3');
  });

  it('the healthy 300I Duo: 310P family without hccn_tool; the guide\'s 2B script passes, triton uninstalled', async () => {
    const { run, statuses, report } = await replay('300i-duo-healthy');
    expect(run.exitCode).toBe(0);
    expect(Object.values(statuses).every((s) => s === 'pass')).toBe(true);
    expect(report.checks.find((c: { id: string }) => c.id === 'npu.tools').message).toContain('no hccn_tool (not needed for family 310p)');
  });

  it('the broken A2: an NPU held by a process, a chip not OK, a driver mount missing; not ready, exit 1', async () => {
    const { run, report, statuses } = await replay('a2-broken');
    expect(run.exitCode).toBe(1);
    expect(report.ready).toBe(false);
    expect(report.blocking).toEqual(['npu.driver-files', 'npu.health', 'npu.idle']);
    expect(statuses).toMatchObject({ 'npu.idle': 'fail', 'npu.health': 'fail', 'npu.driver-files': 'fail', 'npu.smi': 'warn' });
    const byId = Object.fromEntries(report.checks.map((c: { id: string }) => [c.id, c]));
    expect(byId['npu.idle'].message).toBe('1 of 8 NPU devices in use: NPU 0: pid 485946 pytest (5175 MB)');
    expect(byId['npu.health'].message).toBe('1 of 8 NPU devices the workload uses is not OK: NPU 5 Warning error code 80E01801 (node type=SOC, sensor type=Temperature)');
    expect(byId['npu.driver-files'].remediation).toBe('add -v /etc/ascend_install.info:/etc/ascend_install.info to docker run');
  });

  it('each demo replays to what its recording concluded', async () => {
    for (const name of Object.keys(DEMOS) as Array<keyof typeof DEMOS>) {
      const snapshot = JSON.parse(readFileSync(join(REPO, 'examples/snapshots', `${name}.json`), 'utf8'));
      expect((await validateAgainstSchema('snapshot', snapshot)).valid, name).toBe(true);
      const { report } = await replay(name);
      const strip = (checks: Array<{ id: string; status: string; message: string }>) => checks.map(({ id, status, message }) => ({ id, status, message }));
      expect(strip(report.checks), name).toEqual(strip(snapshot.report.checks));
    }
  });

  it('the committed snapshots are what scripts/make-demo-snapshots.mjs makes (re-run it after changing a check)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-demo-'));
    await execa(process.execPath, [join(REPO, 'scripts/make-demo-snapshots.mjs'), dir]);
    const names = readdirSync(join(REPO, 'examples/snapshots')).filter((f) => f.endsWith('.json')).sort();
    expect(readdirSync(dir).sort()).toEqual(names);
    for (const name of names) {
      expect(readFileSync(join(dir, name), 'utf8'), name).toBe(readFileSync(join(REPO, 'examples/snapshots', name), 'utf8'));
    }
  });
});
