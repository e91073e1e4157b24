import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep } from '../helpers/cli.js';

/** The human report a person reads in ten seconds, and the command-line conventions of kubeadm and goss. */

const HEALTHY = ['check', '--snapshot', 'examples/snapshots/a2-healthy.json', '--no-color'];
const BROKEN = ['check', '--snapshot', 'examples/snapshots/a2-broken.json', '--no-color'];
const REPLAY_ENV = { env: { PATH: '/nonexistent' } };

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'qprep-conventions-'));
}

describe('the human report: problems first', () => {
  it('a healthy demo host fits one screen', async () => {
    const run = await qprep(HEALTHY, REPLAY_ENV);
    expect(run.exitCode).toBe(0);
    expect(run.stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(25);
    expect(run.stdout).toContain('  ✓ 6 passed: cpu.governor, sysctl.swappiness, sysctl.numa-balancing, sched.migration-cost, mem.jemalloc, tune.journal\n');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('READY (2 warnings; --strict would refuse them)');
  });

  it('a broken demo host shows every non-pass with its fix', async () => {
    const [human, json] = await Promise.all([qprep(BROKEN, REPLAY_ENV), qprep([...BROKEN, '-f', 'json'], REPLAY_ENV)]);
    expect(human.exitCode).toBe(1);
    const report = JSON.parse(json.stdout);
    const problems = report.checks.filter((c: { status: string }) => c.status === 'warn' || c.status === 'fail' || c.status === 'error');
    expect(problems.length).toBeGreaterThanOrEqual(5);
    // the fix lines name qprep as this checkout starts it (npx qprep); the JSON keeps the plain name
    const shown = human.stdout.replaceAll('npx qprep', 'qprep');
    for (const problem of problems) {
      expect(shown, problem.id).toContain(problem.message);
      expect(shown, problem.id).toContain(`fix: ${problem.remediation.split('\n')[0]}`);
    }
    expect(human.stdout.trimEnd().split('\n').at(-1)).toBe('NOT READY: 4 problems (npu.driver-files; npu.health; npu.ecc; npu.idle)');
  });

  it('-v shows every check, -q the verdict line alone', async () => {
    const [verbose, quiet, json] = await Promise.all([qprep([...HEALTHY, '-v'], REPLAY_ENV), qprep([...HEALTHY, '-q'], REPLAY_ENV), qprep([...HEALTHY, '-f', 'json'], REPLAY_ENV)]);
    const entries = verbose.stdout.split('\n').filter((l) => /^ {2}[✓!✗?-] (pass|warn|fail|skip|error)/.test(l));
    expect(entries.length).toBeGreaterThanOrEqual(42);
    expect(entries).toHaveLength(JSON.parse(json.stdout).checks.length);
    expect(quiet.stdout).toBe('READY (2 warnings; --strict would refuse them)\n');
    expect(quiet.exitCode).toBe(0);
    const both = await qprep([...HEALTHY, '-v', '-q'], REPLAY_ENV);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--verbose and --quiet contradict each other');
  });

  it('on a host without the driver, "npu-smi not found" appears once, with the checks that could not run under it', async () => {
    const root = tmp();
    const run = await qprep(['check', '--root', root, '--only', 'npu,hccn', '--no-color'], { env: { PATH: '/nonexistent' } });
    expect(run.exitCode).toBe(1);
    expect(run.stdout.split('npu-smi not found')).toHaveLength(2);
    expect(run.stdout).toMatch(/↳ \d+ checks could not run because of it: npu\.count, npu\.health, npu\.ecc, npu\.idle, npu\.supported, hccn\.conf, /);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/npu\.smi: \d+ checks could not run/);
    const json = JSON.parse((await qprep(['check', '--root', root, '--only', 'npu,hccn', '-f', 'json'], { env: { PATH: '/nonexistent' } })).stdout);
    const byId = Object.fromEntries(json.checks.map((c: { id: string }) => [c.id, c]));
    // the JSON keeps every check, each with its own message, and names the cause on the dependants
    expect(byId['npu.health']).toMatchObject({ status: 'error', causedBy: 'npu.smi' });
    expect(byId['hccn.ip']).toMatchObject({ status: 'error', causedBy: 'npu.smi' });
    expect(byId['npu.health'].message).toContain('npu-smi not found');
    expect(byId['npu.smi'].causedBy).toBeUndefined();
  });

  it('wraps at the width COLUMNS gives only on a terminal; a pipe gets whole lines', async () => {
    const run = await qprep(BROKEN, { env: { PATH: '/nonexistent', COLUMNS: '60' } });
    expect(run.stdout.split('\n').some((l) => l.length > 100)).toBe(true);
  });
});

describe('command-line conventions', () => {
  it('a typo gets one suggestion, after the error', async () => {
    const cases: Array<[string[], string]> = [
      [['chekc'], `qprep: error: unknown command 'chekc'\nqprep: hint: did you mean "check"?\n`],
      [['check', '--formt', 'json'], `qprep: error: unknown option '--formt'\nqprep: hint: did you mean "--format"?\n`],
      [['explain', 'npu.helth'], 'qprep: error: unknown check, rule or fault code "npu.helth"\nqprep: hint: did you mean "npu.health"?\n'],
      [['check', '--only', 'netwrk'], 'qprep: error: --only: unknown check or category "netwrk"\nqprep: hint: did you mean "network"?\n'],
      [['check', '--profile', 'qwen3.5-397b-w8a8-a'], 'qprep: error: unknown profile "qwen3.5-397b-w8a8-a"\nqprep: hint: did you mean "qwen3.5-397b-w8a8-a3"?\n'],
      [['schema', 'reprt'], 'qprep: error: unknown document "reprt"\nqprep: hint: did you mean "report"?\n'],
    ];
    const runs = await Promise.all(cases.map(([args]) => qprep(args)));
    runs.forEach((run, i) => {
      expect(run.exitCode, cases[i]![0].join(' ')).toBe(2);
      expect(run.stderr, cases[i]![0].join(' ')).toBe(cases[i]![1]);
    });
    const choice = await qprep(['check', '-f', 'jsn']);
    expect(choice.stderr.split('\n')[1]).toBe('qprep: hint: did you mean "json"?');
  });

  it('a YAML profile with a tab names its line and column', async () => {
    const file = join(tmp(), 'tab.yaml');
    writeFileSync(file, 'name: lab\nhost:\n\tshm: 1Gi\n');
    const run = await qprep(['check', '--profile', file, '--only', 'sysctl']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`qprep: error: invalid profile ${file}: not valid YAML or JSON: line 3, column 1: Tabs are not allowed as indentation\n`);
  });

  it('--timeout takes 10s, 500ms, 2m and 1m30s', async () => {
    for (const timeout of ['10s', '500ms', '2m', '1m30s']) {
      const run = await qprep([...HEALTHY, '--timeout', timeout, '-q'], REPLAY_ENV);
      expect(run.exitCode, timeout).toBe(0);
    }
    const bad = await qprep([...HEALTHY, '--timeout', '10x']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^qprep: error: --timeout expects a duration such as 10s, 500ms or 2m/);
  });

  it('no arguments print the help on stdout with exit 0; qprep version prints the version', async () => {
    const [none, version, flag] = await Promise.all([qprep([]), qprep(['version']), qprep(['--version'])]);
    expect(none.exitCode).toBe(0);
    expect(none.stdout).toMatch(/^Usage: qprep /);
    expect(none.stderr).toBe('');
    expect(version.exitCode).toBe(0);
    expect(version.stdout).toBe(flag.stdout);
  });

  it('--color=always and FORCE_COLOR color a pipe; --color=never and FORCE_COLOR=0 do not', async () => {
    const ANSI = /\x1b\[[0-9;]*m/;
    const quiet = ['check', '--snapshot', 'examples/snapshots/a2-healthy.json', '-q'];
    const [always, forced, never, forcedOff] = await Promise.all([
      qprep([...quiet, '--color=always']),
      qprep(quiet, { env: { FORCE_COLOR: '1' } }),
      qprep([...quiet, '--color', 'never'], { env: { FORCE_COLOR: '1' } }),
      qprep(quiet, { env: { FORCE_COLOR: '0' } }),
    ]);
    expect(always.stdout).toMatch(ANSI);
    expect(forced.stdout).toMatch(ANSI);
    expect(never.stdout).not.toMatch(ANSI);
    expect(forcedOff.stdout).not.toMatch(ANSI);
  });

  it('list shows the category keys --only takes', async () => {
    const run = await qprep(['list']);
    expect(run.stdout).toMatch(/^cpu\.governor +recommended +quick +tuning +CPU frequency governor$/m);
    expect(run.stdout).toContain('categories: tuning (Host tuning), host (Host resources), network (Host network), npu (NPU and driver), hccn');
  });
});
