import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';
import { fixturePath, syntheticFixture } from '../helpers/fixtures.js';
import { writeEccAnswers } from '../helpers/npu-ecc.js';

/**
 * The built CLI on the NPU faults a sub-healthy node shows: HBM ECC counters (npu.ecc) and the
 * fault codes of a chip's health (npu.health), with a fake npu-smi on PATH that prints the
 * public captures (test/fixtures/ascend; the failing ECC counters are derived from the capture
 * of mind-cluster's log-collection guide, test/fixtures/synthetic); and `qprep explain CODE`.
 * The two checks read npu-smi only, so the --root tree is empty and no device node is needed.
 */

const A2 = fixturePath('ascend', 'npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
const CARDS = [0, 1, 2, 3, 4, 5, 6, 7];

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-npu-faults-${prefix}-`));
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** An npu-smi that prints the file of its arguments ("$*"), or says what the real one says for an unknown option. */
function fakeNpuSmi(answers: Record<string, string>): string {
  const bin = tmp('bin');
  const cases = Object.entries(answers).map(([args, file]) => `  ${quote(args)}) cat ${quote(file)} ;;`);
  writeFileSync(join(bin, 'npu-smi'), ['#!/bin/sh', 'case "$*" in', ...cases, '  *) echo "Command or option is not found."; exit 1 ;;', 'esac', ''].join('\n'));
  chmodSync(join(bin, 'npu-smi'), 0o755);
  return bin;
}

function eccArgs(files: Record<number, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([card, file]) => [`info -t ecc -i ${card}`, file]));
}

interface CheckLine {
  id: string;
  status: string;
  message: string;
  remediation?: string;
  action?: string;
  evidence: Record<string, unknown>;
}

async function check(bin: string, only: string, extra: string[] = []) {
  const root = tmp('root');
  mkdirSync(join(root, 'etc'), { recursive: true });
  const json = await qprep(['check', '--root', root, '--only', only, '--format', 'json', ...extra], { env: { PATH: `${bin}:/usr/bin:/bin` } });
  const report = JSON.parse(json.stdout);
  const { valid, errors } = await validateAgainstSchema('report', report);
  expect(valid, errors).toBe(true);
  const human = await qprep(['check', '--root', root, '--only', only, ...extra], { env: { PATH: `${bin}:/usr/bin:/bin`, NO_COLOR: '1' } });
  return { json, report, byId: Object.fromEntries(report.checks.map((c: CheckLine) => [c.id, c])) as Record<string, CheckLine>, human };
}

describe('npu.ecc on the built CLI', () => {
  it('HBM uncorrectable errors with retired pages on NPU 5: fail, action isolate-npu, exit 1', async () => {
    const dir = tmp('ecc');
    const files = writeEccAnswers(dir, CARDS, 1, { 5: syntheticFixture('npu-smi-info-t-ecc-hbm-uncorrectable-retired-derived.txt') });
    const bin = fakeNpuSmi({ info: A2, ...eccArgs(files) });
    const { json, report, byId, human } = await check(bin, 'npu.ecc');
    const ecc = byId['npu.ecc']!;
    expect(ecc.status).toBe('fail');
    expect(ecc.action).toBe('isolate-npu');
    expect(ecc.message).toBe('1 of 8 NPU devices the workload uses has failing HBM: NPU 5: 3 uncorrectable (double-bit) HBM errors since the driver loaded, 2 pages retired');
    expect(ecc.remediation).toContain('ascend-dmi --dg -i hbm');
    expect(report.summary.worstAction).toBe('isolate-npu');
    expect(report.blocking).toEqual(['npu.ecc']);
    expect(json.exitCode).toBe(1);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('action: isolate-npu (take the chip out of service)');
    expect(human.stdout).toContain('export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3,4,6,7');
  });

  it('a snapshot records the calls; its replay, on a machine without npu-smi, judges the same', async () => {
    const files = writeEccAnswers(tmp('ecc'), CARDS, 1, { 5: syntheticFixture('npu-smi-info-t-ecc-hbm-uncorrectable-retired-derived.txt') });
    const bin = fakeNpuSmi({ info: A2, ...eccArgs(files) });
    const file = join(tmp('snapshot'), 'node.json');
    const record = await qprep(['snapshot', '--root', tmp('root'), '--only', 'npu.ecc', '-o', file], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(record.exitCode, record.stderr).toBe(0);
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot.commands.filter((c: { argv: string[] }) => c.argv.includes('ecc'))).toHaveLength(8);
    const replay = await qprep(['check', '--snapshot', file, '--only', 'npu.ecc', '--format', 'json'], { env: { PATH: '/nonexistent' } });
    const report = JSON.parse(replay.stdout);
    expect(report.checks[0]).toMatchObject({ id: 'npu.ecc', status: 'fail', action: 'isolate-npu', message: expect.stringContaining('NPU 5: 3 uncorrectable (double-bit) HBM errors') });
    expect(replay.exitCode).toBe(1);
  });

  it('clean counters on every card: pass, exit 0', async () => {
    const files = writeEccAnswers(tmp('ecc'), CARDS);
    const { json, byId } = await check(fakeNpuSmi({ info: A2, ...eccArgs(files) }), 'npu.ecc');
    expect(byId['npu.ecc']!.status).toBe('pass');
    expect(json.exitCode).toBe(0);
  });
});

describe('npu.health on the built CLI', () => {
  it('an Alarm of three codes whose worst is RestartNPU: fail, action reset-npu, the reset first (mind-cluster capture)', async () => {
    const bin = fakeNpuSmi({
      info: fixturePath('synthetic', 'npu-smi-info-910b3-a2x8-25.3.rc1-npu0-alarm-derived.txt'),
      'info -t health -i 0 -c 0': fixturePath('ascend', 'npu-smi-info-t-health-alarm-3codes-mindcluster-fixture.txt'),
    });
    const { json, report, byId, human } = await check(bin, 'npu.health');
    const health = byId['npu.health']!;
    expect(health.status).toBe('fail');
    expect(health.action).toBe('reset-npu');
    expect(health.message).toBe(
      '1 of 8 NPU devices the workload uses is not OK: NPU 0 Alarm: 8C03A000 RestartNPU (ProcMgr heartbeat error); 8C084E00 FreeRestartNPU (ADDA heartbeat error); A4025021 NotHandleFault',
    );
    expect(health.remediation!.split('\n')[0]).toBe("npu-smi set -t reset -i 0 -c 0   # reset the chip, the workload stopped first: its worst code's handling level asks for it");
    expect(report.summary.worstAction).toBe('reset-npu');
    expect(json.exitCode).toBe(1);
    expect(human.stdout).toContain('action: reset-npu (reset the chip, the workload stopped first)');
    expect(human.stdout).toContain('qprep explain 8C03A000');
  });
});

describe('qprep explain CODE', () => {
  it('prints the meaning, handling level, action and sources of a code as npu-smi prints it', async () => {
    const run = await qprep(['explain', '80E18005']);
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual(['80E18005: HBMC parity error', 'handling level: RestartNPU · action: reset-npu (reset the chip, the workload stopped first)']);
    expect(run.stdout).toContain('HBMC parity errors, including CA and DQ parity errors.');
    expect(run.stdout).toMatch(/Ascend\/mind-cluster component\/ascend-device-plugin\/build\/faultCode\.json:\d+ @ [0-9a-f]{12}/);
    expect(run.stdout).toContain('Apache License 2.0');
  });

  it('takes 0x and lower case; json gives the row; Chinese gives the Chinese name', async () => {
    const json = JSON.parse((await qprep(['explain', '0x8c03a000', '--format', 'json'])).stdout);
    expect(json).toMatchObject({ code: '8C03A000', level: 'RestartNPU', action: 'reset-npu', meaning: { en: 'ProcMgr heartbeat error' }, source: { repo: 'Ascend/mind-cluster' } });
    const zh = await qprep(['explain', '80E18005', '--lang', 'zh']);
    expect(zh.stdout.split('\n')[0]).toBe('80E18005：HBMC Parity错误');
  });

  it('a code the table does not list: exit 2, saying so; a check id still works', async () => {
    const unknown = await qprep(['explain', '80E01234']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^qprep: error: fault code 80E01234 is not in the fault-code table \(Ascend\/mind-cluster component\/ascend-device-plugin\/build\/faultCode\.json @ [0-9a-f]{12}\)/);
    expect((await qprep(['explain', 'npu.ecc'])).stdout).toMatch(/^npu\.ecc: HBM ECC: uncorrectable errors and retired pages\n/);
    // a code is explained from the table, never from a host
    const withHost = await qprep(['explain', '80E18005', '--snapshot', 'examples/snapshots/a2-broken.json']);
    expect(withHost.exitCode).toBe(2);
    expect(withHost.stderr).toContain('--launch explains the memory plan of model.fit, not 80E18005');
  });
});
