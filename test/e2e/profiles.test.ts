import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';

function profileFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'qprep-profile-')), name);
  writeFileSync(file, text);
  return file;
}

/** The broken A2 demo host: an NPU held by a process (npu.idle), a chip in Warning (npu.health), a mount missing. */
const BROKEN = ['check', '--snapshot', 'examples/snapshots/a2-broken.json'];
const REPLAY_ENV = { env: { PATH: '/nonexistent' } };

describe('qprep list --profiles', () => {
  it('names every built-in with what it needs: family, NPUs, minimum driver, nodes, ports, what it promotes', async () => {
    const run = await qprep(['list', '--profiles']);
    expect(run.exitCode).toBe(0);
    const blocks = run.stdout.trimEnd().split('\n\n');
    expect(blocks.map((b) => b.split('  ')[0])).toEqual([
      'default',
      'qwen3.5-397b-w8a8-a3',
      'qwen3.5-397b-w8a8-a2',
      'qwen3.5-397b-bf16-a3',
      'qwen3.5-397b-bf16-a2',
      'qwen3.5-397b-pd-prefill-a3',
      'qwen3.5-397b-pd-decode-a3',
      'qwen3.5-dense-300i-duo',
      'qwen3.5-dense-200i-pro',
    ]);
    const prefill = blocks[5]!;
    expect(prefill).toContain('\n  npu         a3, at least 16 devices (0-15); driver >= 25.5.0\n');
    expect(prefill).toContain('\n  deployment  3 nodes, role prefill\n');
    expect(prefill).toContain('\n  hccn        problems block readiness on every node; KV caches move over the NPU network: /etc/hccn.conf must be mounted\n');
    expect(prefill).toContain('ports 6884, 8010, 23010-23025, 30060 and 16 HCCL ports');
    expect(prefill).toContain('\n  promotes    hccn.netdetect');
    expect(blocks[7]).toContain('\n  npu         310p, at least 1 device; driver >= 25.5.1\n');
    expect(blocks[7]).toContain('\n  hccn        none (the 310P has no NPU network)\n');
  });

  it('--format json: one document per profile, the values resolved', async () => {
    const run = await qprep(['list', '--profiles', '--format', 'json']);
    const profiles = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(profiles).toHaveLength(9);
    expect(profiles.find((p) => p.name === 'qwen3.5-397b-bf16-a2')).toMatchObject({
      extends: 'default',
      family: 'a2',
      npuCount: 8,
      minDriver: '25.5.0',
      nodes: 4,
      hccn: { blocking: true, kvTransfer: false },
      ports: [8000],
      promotes: ['hccn.netdetect'],
    });
  });

  it('--profile FILE describes a user profile resolved over the built-in it extends, waivers included', async () => {
    const file = profileFile('lab.yaml', 'extends: qwen3.5-397b-pd-decode-a3\ndeployment: {expectedConcurrency: 600}\nwaivers:\n  - {id: net.proxy, reason: wrapper unsets it, expires: "2099-12-31"}\n');
    const run = await qprep(['list', '--profiles', '--profile', file]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^lab  \\(${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, extends qwen3\\.5-397b-pd-decode-a3\\)\n`));
    expect(run.stdout).toContain('\n  deployment  3 nodes, role decode, 600 requests at once\n');
    expect(run.stdout).toContain('\n  waives      net.proxy: wrapper unsets it (until 2099-12-31)\n');
  });

  it('qprep list --profile NAME shows the levels that profile sets', async () => {
    const run = await qprep(['list', '--profile', 'qwen3.5-397b-w8a8-a2', '--format', 'json']);
    const rows = JSON.parse(run.stdout) as Array<{ id: string; level: string }>;
    expect(rows.find((r) => r.id === 'hccn.netdetect')!.level).toBe('required');
    const plain = JSON.parse((await qprep(['list', '--format', 'json'])).stdout) as Array<{ id: string; level: string }>;
    expect(plain.find((r) => r.id === 'hccn.netdetect')!.level).toBe('recommended');
  });
});

describe('a user profile that extends a built-in and carries waivers', () => {
  const profile = () =>
    profileFile(
      'a2-lab.yaml',
      [
        'extends: qwen3.5-397b-w8a8-a2',
        'description: our A2 pair, while the benchmark box is shared',
        'waivers:',
        '  - id: npu.idle',
        '    reason: the benchmark pytest holds NPU 0 until OPS-77 closes',
        '    expires: "2099-12-31"',
        '  - id: npu.health',
        '    reason: NPU 5 temperature sensor, vendor case 4711',
        '    expires: "2020-01-31"',
        '',
      ].join('\n'),
    );

  it('JSON: the live waiver turns the fail into a recorded warning; the expired one no longer applies and says so', async () => {
    const run = await qprep([...BROKEN, '--profile', profile(), '--format', 'json'], REPLAY_ENV);
    expect(run.exitCode).toBe(1);
    const report = JSON.parse(run.stdout);
    expect((await validateAgainstSchema('report', report)).valid).toBe(true);
    expect(report.profile).toMatchObject({ name: 'a2-lab' });
    const byId = Object.fromEntries(report.checks.map((c: { id: string }) => [c.id, c]));
    expect(byId['npu.idle']).toMatchObject({ status: 'warn', waived: { reason: 'the benchmark pytest holds NPU 0 until OPS-77 closes', expires: '2099-12-31' } });
    expect(byId['npu.idle'].waiverExpired).toBeUndefined();
    expect(byId['npu.health']).toMatchObject({ status: 'fail', waiverExpired: { reason: 'NPU 5 temperature sensor, vendor case 4711', expires: '2020-01-31' } });
    expect(byId['npu.health'].waived).toBeUndefined();
    expect(byId['npu.health'].message).toMatch(/ \(waiver expired 2020-01-31\)$/);
    expect(report.blocking).toEqual(['npu.driver-files', 'npu.health', 'npu.ecc']);
    // what the built-in promotes, the user profile inherits
    expect(byId['hccn.netdetect'].level).toBe('required');
  });

  it('the human report shows both', async () => {
    const run = await qprep([...BROKEN, '--profile', profile(), '--no-color'], REPLAY_ENV);
    expect(run.stdout).toMatch(/! warn   npu\.idle +.* \(waived: the benchmark pytest holds NPU 0 until OPS-77 closes, until 2099-12-31\)\n/);
    expect(run.stdout).toMatch(/✗ fail   npu\.health +.* \(waiver expired 2020-01-31\) \(the waiver "NPU 5 temperature sensor, vendor case 4711" no longer applies\)\n/);
    expect(run.stdout).toContain('NOT READY: 3 problems (npu.driver-files; npu.health; npu.ecc)');
  });
});

describe('a profile file with a typo is exit 2 naming the field', () => {
  const cases: Array<[string, string, string]> = [
    ['an unknown field', 'extends: qwen3.5-397b-w8a8-a3\nnpu:\n  minDrivers: "25.5.0"\n', 'npu: Unrecognized key: "minDrivers"'],
    ['an unknown section', 'hosts:\n  shmMin: 1g\n', '(top level): Unrecognized key: "hosts"'],
    ['a wrong type', 'deployment:\n  nodes: two\n', 'deployment.nodes: Invalid input: expected number, received string'],
    ['a version YAML reads as a number', 'npu:\n  minDriver: 25.10\n', 'npu.minDriver: expected an Ascend version as a quoted string, such as "25.5.0" or "8.3.RC2"'],
    ['a misspelt check id in a waiver', 'waivers:\n  - {id: npu.idel, reason: shared box}\n', 'waivers.0.id: unknown check "npu.idel" (did you mean "npu.idle"?)'],
    ['a misspelt check id in levels', 'levels:\n  hccn.netdetct: required\n', 'levels.hccn.netdetct: unknown check "hccn.netdetct" (did you mean "hccn.netdetect"?)'],
    ['an unknown built-in to extend', 'extends: qwen3.5-397b-w8a8-a4\n', 'extends: unknown profile "qwen3.5-397b-w8a8-a4"'],
  ];
  for (const [what, text, expected] of cases) {
    it(what, async () => {
      const file = profileFile('typo.yaml', text);
      const human = await qprep(['check', '--profile', file, '--only', 'sysctl']);
      expect(human.exitCode).toBe(2);
      expect(human.stdout).toBe('');
      expect(human.stderr).toContain(`qprep: error: invalid profile ${file}: ${expected}`);
      // the error, and at most one hint under it (the built-in meant by a typo)
      expect(human.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(2);
      const json = await qprep(['check', '--profile', file, '--only', 'sysctl', '--format', 'json']);
      expect(json.exitCode).toBe(2);
      expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'invalid-profile' });
    });
  }
});
