import { execa } from 'execa';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, qprep, REPO } from '../helpers/cli.js';

/**
 * The fix lines name qprep as the user started it, so that they paste: after `npx qprep check`
 * they said `qprep ...`, which is not on the PATH of the shell the user pastes into (npx put it
 * on the PATH of its own run only). The JSON remediation keeps `qprep`: a machine field, the
 * same on every node whatever started it.
 */

const BROKEN = ['check', '--snapshot', 'examples/snapshots/a2-broken.json'];
/** The fix line of net.host-nic on the broken demo host: two qprep commands. */
const fixLine = (stdout: string) => stdout.split('\n').find((line) => line.includes('--cluster FILE')) ?? '';

async function run(file: string, args: string[], env: Record<string, string> = {}) {
  const result = await execa(file, args, {
    cwd: REPO,
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', QPREP_LANG: 'en', ...env },
    timeout: 120_000,
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

describe('fix lines name the invocation the user typed', () => {
  it('npx qprep check: npx qprep in the fix lines and the hints', async () => {
    const report = await run('npx', ['qprep', ...BROKEN]);
    expect(report.exitCode, report.stderr).toBe(1);
    expect(fixLine(report.stdout)).toContain('(npx qprep check --cluster FILE)');
    expect(fixLine(report.stdout)).toContain('source <(npx qprep env --cluster FILE)');
    const chinese = await run('npx', ['qprep', ...BROKEN, '--lang', 'zh']);
    expect(fixLine(chinese.stdout)).toContain('npx qprep env --cluster FILE');
    const usage = await run('npx', ['qprep', 'check', '--profile', 'no-such-profile']);
    expect(usage.stderr).toContain('qprep: hint: npx qprep list --profiles shows the built-in profiles');
  });

  it('node dist/qprep.mjs check: node dist/qprep.mjs', async () => {
    const report = await run(process.execPath, ['dist/qprep.mjs', ...BROKEN]);
    expect(fixLine(report.stdout)).toContain('source <(node dist/qprep.mjs env --cluster FILE)');
  });

  it('qprep on the PATH: qprep', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'qprep-path-'));
    symlinkSync(BIN, join(bin, 'qprep'));
    const report = await run('qprep', BROKEN, { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` });
    expect(fixLine(report.stdout)).toMatch(/\(qprep check --cluster FILE\).*source <\(qprep env --cluster FILE\)/);
  });

  it('the JSON remediation says qprep however it was started', async () => {
    const json = await run('npx', ['qprep', ...BROKEN, '--format', 'json']);
    const nic = JSON.parse(json.stdout).checks.find((c: { id: string }) => c.id === 'net.host-nic');
    expect(nic.remediation).toContain('source <(qprep env --cluster FILE)');
    const direct = await qprep([...BROKEN, '--format', 'json'], { env: { PATH: '/nonexistent' } });
    expect(JSON.parse(direct.stdout).checks.find((c: { id: string }) => c.id === 'net.host-nic').remediation).toBe(nic.remediation);
  });
});
