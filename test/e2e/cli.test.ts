import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';

const ANSI = /\x1b\[/;

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-${prefix}-`));
}

/** A small host tree for --root: tuned badly on purpose. */
function badlyTunedTree(): string {
  const root = tmp('tree');
  const files: Record<string, string> = {
    'proc/sys/vm/swappiness': '60\n',
    'proc/sys/kernel/numa_balancing': '1\n',
    'proc/sys/kernel/sched_migration_cost_ns': '500000\n',
    'proc/meminfo': 'MemTotal:       1048576000 kB\nMemAvailable:    900000000 kB\n',
    'proc/net/tcp': '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n',
    'sys/devices/system/cpu/online': '0-1\n',
    'sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': 'powersave\n',
    'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor': 'powersave\n',
    'sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors': 'performance powersave\n',
    'etc/os-release': 'ID=ubuntu\nID_LIKE=debian\nPRETTY_NAME="Ubuntu 22.04.4 LTS"\n',
    'usr/lib/x86_64-linux-gnu/libjemalloc.so.2': 'ELF',
    'usr/lib/aarch64-linux-gnu/libjemalloc.so.2': 'ELF',
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  mkdirSync(join(root, 'dev/shm'), { recursive: true });
  mkdirSync(join(root, 'root/.cache'), { recursive: true });
  return root;
}

describe('qprep check on this machine', () => {
  it('prints one JSON document that validates against `qprep schema report`; the exit code follows the verdict', async () => {
    const run = await qprep(['check', '--format', 'json']);
    expect([0, 1]).toContain(run.exitCode);
    const report = JSON.parse(run.stdout);
    const { valid, errors } = await validateAgainstSchema('report', report);
    expect(valid, errors).toBe(true);
    expect(run.exitCode).toBe(report.ready ? 0 : 1);
    expect(report.checks.length).toBeGreaterThan(5);
    for (const check of report.checks) {
      if (check.status !== 'pass') expect(check.remediation, check.id).toBeTruthy();
    }
    expect(run.stderr).toBe('');
  });

  it('prints a grouped human report with a summary and the verdict, without colors when piped', async () => {
    const run = await qprep(['check']);
    expect(run.stdout).toContain('Host tuning');
    expect(run.stdout).toMatch(/\d+ checks: \d+ pass, \d+ warn, \d+ fail, \d+ skip, \d+ error/);
    expect(run.stdout).toMatch(/^(READY|NOT READY)/m);
    expect(run.stdout).not.toMatch(ANSI);
    expect(run.stderr).toBe('');
  });
});

describe('--root on a host tree', () => {
  it('reports what the tree holds, with the fixes', async () => {
    const root = badlyTunedTree();
    const run = await qprep(['check', '--root', root, '--format', 'json', '--only', 'tuning,host.memory']);
    const report = JSON.parse(run.stdout);
    const byId = Object.fromEntries(report.checks.map((c: { id: string }) => [c.id, c]));
    expect(byId['cpu.governor'].status).toBe('warn');
    expect(byId['cpu.governor'].message).toBe('2 of 2 CPUs do not use the performance governor: powersave on cpu 0-1');
    expect(byId['sysctl.swappiness'].message).toBe('vm.swappiness is 60, expected at most 1');
    expect(byId['sysctl.numa-balancing'].status).toBe('warn');
    expect(byId['sched.migration-cost'].message).toBe('migration cost is 500000 ns, expected 50000-100000 ns');
    expect(byId['host.memory'].status).toBe('pass');
    expect(report.host.os).toBe('Ubuntu 22.04.4 LTS');
    expect(report.source).toEqual({ kind: 'live', root });
    expect(report.ready).toBe(true);
    expect(run.exitCode).toBe(0);
  });

  it('--strict turns those warnings into not ready', async () => {
    const run = await qprep(['check', '--root', badlyTunedTree(), '--format', 'json', '--only', 'tuning', '--strict']);
    const report = JSON.parse(run.stdout);
    expect(report.ready).toBe(false);
    expect(report.blocking).toContain('cpu.governor');
    expect(run.exitCode).toBe(1);
  });
});

describe('a required check that fails, and --ignore', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('exits 1 when a needed port is taken, naming this very process', async () => {
    const dir = tmp('profile');
    writeFileSync(join(dir, 'p.yaml'), `host:\n  ports: [${port}]\n  hcclPortCount: 0\n`);
    const run = await qprep(['check', '--profile', join(dir, 'p.yaml'), '--only', 'net.ports', '--format', 'json']);
    expect(run.exitCode).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.checks[0].status).toBe('fail');
    expect(report.checks[0].message).toContain(`${port} (127.0.0.1, pid ${process.pid} `);
    expect(report.blocking).toEqual(['net.ports']);
  });

  it('--ignore downgrades it to a recorded warning and exits 0', async () => {
    const dir = tmp('profile');
    writeFileSync(join(dir, 'p.yaml'), `host:\n  ports: [${port}]\n  hcclPortCount: 0\n`);
    const run = await qprep(['check', '--profile', join(dir, 'p.yaml'), '--only', 'net.ports', '--ignore', 'net.ports', '--format', 'json']);
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.checks[0].status).toBe('warn');
    expect(report.checks[0].waived).toEqual({ reason: 'ignored with --ignore', found: 'fail' });
    expect(report.selection.ignore).toEqual(['net.ports']);
  });
});

describe('--output', () => {
  it('writes the report atomically to the file', async () => {
    const dir = tmp('out');
    const file = join(dir, 'report.json');
    const run = await qprep(['check', '--format', 'json', '--output', file, '--only', 'sysctl']);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`wrote ${file}`);
    expect(JSON.parse(readFileSync(file, 'utf8')).schemaVersion).toBe(1);
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('into a directory that does not exist: exit 2, one line, nothing written', async () => {
    const dir = tmp('out');
    const file = join(dir, 'missing', 'report.json');
    const run = await qprep(['check', '--output', file, '--only', 'sysctl']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`qprep: error: --output ${file}: directory ${join(dir, 'missing')} does not exist\n`);
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('into a directory that is not writable: exit 2 and the JSON error document', async () => {
    const dir = tmp('ro');
    chmodSync(dir, 0o555);
    const file = join(dir, 'report.json');
    const asRoot = process.getuid?.() === 0;
    const run = await qprep(['check', '--format', 'json', '--output', file, '--only', 'sysctl'], asRoot ? { env: {} } : {});
    if (asRoot) {
      // root writes anyway; the unwritable case is covered by a read-only bind mount in the tune tests
      expect(run.exitCode).not.toBe(2);
      return;
    }
    expect(run.exitCode).toBe(2);
    const document = JSON.parse(run.stdout);
    expect(document.error.code).toBe('output');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('bad input is exit 2 with one line naming the file and the field', () => {
  it('a profile with a bad field', async () => {
    const dir = tmp('profile');
    writeFileSync(join(dir, 'bad.yaml'), 'host:\n  shmMin: plenty\n');
    const run = await qprep(['check', '--profile', join(dir, 'bad.yaml')]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`qprep: error: invalid profile ${join(dir, 'bad.yaml')}: host.shmMin: expected a size such as 1GiB, 16g, 500GB or a number of bytes\n`);
    expect(run.stdout).toBe('');
  });

  it('the same with --format json: a valid error document on stdout', async () => {
    const dir = tmp('profile');
    writeFileSync(join(dir, 'bad.yaml'), 'tuning: {swappiness: {max: "one"}}\n');
    const run = await qprep(['check', '--profile', join(dir, 'bad.yaml'), '--format', 'json']);
    expect(run.exitCode).toBe(2);
    const document = JSON.parse(run.stdout);
    expect(document).toMatchObject({ schemaVersion: 1, ready: false, error: { code: 'invalid-profile' } });
    expect(document.error.message).toContain('tuning.swappiness.max');
    expect((await validateAgainstSchema('report', document)).valid).toBe(true);
  });

  it('an unknown built-in profile, a missing profile file', async () => {
    expect((await qprep(['check', '--profile', 'a9'])).stderr).toBe('qprep: error: unknown profile "a9"\nqprep: hint: npx qprep list --profiles shows the built-in profiles (or give a YAML/JSON file)\n');
    const missing = await qprep(['check', '--profile', '/nonexistent/p.yaml']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe('qprep: error: cannot read profile /nonexistent/p.yaml: no such file\n');
  });

  it('a malformed snapshot: not JSON, and a wrong field', async () => {
    const dir = tmp('snap');
    writeFileSync(join(dir, 'a.json'), '{"schemaVersion": 1,');
    const notJson = await qprep(['check', '--snapshot', join(dir, 'a.json')]);
    expect(notJson.exitCode).toBe(2);
    expect(notJson.stderr).toMatch(new RegExp(`^qprep: error: invalid snapshot ${join(dir, 'a.json')}: not JSON: `));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ schemaVersion: 1, kind: 'qprep-snapshot', createdAt: 'x', tool: { name: 'qprep', version: '0' }, identity: { hostname: 'h', arch: 'x86_64', kernel: '6' }, commands: [{ argv: 'npu-smi info', exitCode: 0, stdout: '', stderr: '' }] }));
    const wrongField = await qprep(['check', '--snapshot', join(dir, 'b.json'), '--format', 'json']);
    expect(wrongField.exitCode).toBe(2);
    expect(JSON.parse(wrongField.stdout).error.message).toBe(`invalid snapshot ${join(dir, 'b.json')}: commands.0.argv: Invalid input: expected array, received string`);
  });

  it('an unknown check id suggests the closest one', async () => {
    const run = await qprep(['check', '--skip', 'npu.smii']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('qprep: error: --skip: unknown check or category "npu.smii"\nqprep: hint: did you mean "npu.smi"?\n');
    const explain = await qprep(['explain', 'nope']);
    expect(explain.exitCode).toBe(2);
  });

  it('unknown options, formats and documents are usage errors, exit 2', async () => {
    expect((await qprep(['check', '--frobnicate'])).exitCode).toBe(2);
    const format = await qprep(['check', '--format', 'yaml']);
    expect(format.exitCode).toBe(2);
    expect(format.stderr).toContain("option '-f, --format <format>' argument 'yaml' is invalid");
    expect((await qprep(['check', '--timeout', '0'])).exitCode).toBe(2);
    expect((await qprep(['schema', 'nope'])).exitCode).toBe(2);
    expect((await qprep(['check', '--root', '/', '--snapshot', 'x.json'])).exitCode).toBe(2);
  });
});

describe('snapshot and replay', () => {
  it('a snapshot of this machine replays to the same statuses and messages, without touching the machine', async () => {
    const dir = tmp('snap');
    const file = join(dir, 'host.json');
    const record = await qprep(['snapshot', '-o', file], { env: { HF_TOKEN: 'hf_verysecret' } });
    expect(record.exitCode).toBe(0);
    expect(record.stderr).toMatch(/snapshot written to .*: \d+ commands, \d+ files, \d+ checks/);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('hf_verysecret');
    const snapshot = JSON.parse(text);
    expect((await validateAgainstSchema('snapshot', snapshot)).valid).toBe(true);

    const replay = await qprep(['check', '--snapshot', file, '--format', 'json'], { env: { PATH: '/nonexistent' } });
    const report = JSON.parse(replay.stdout);
    const strip = (checks: Array<{ id: string; status: string; message: string }>) => checks.map(({ id, status, message }) => ({ id, status, message }));
    expect(strip(report.checks)).toEqual(strip(snapshot.report.checks));
    expect(report.source.kind).toBe('snapshot');
    expect(report.host.hostname).toBe(snapshot.identity.hostname);
    expect(replay.exitCode).toBe(report.ready ? 0 : 1);
  });

  it('a snapshot records its --depth, and its replay runs at it unless --depth says otherwise', async () => {
    const dir = tmp('snap-depth');
    const file = join(dir, 'quick.json');
    expect((await qprep(['snapshot', '-o', file, '--depth', 'quick', '--only', 'host'])).exitCode).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).depth).toBe('quick');
    expect(JSON.parse((await qprep(['check', '--snapshot', file, '--only', 'host', '--format', 'json'])).stdout).selection.depth).toBe('quick');
    expect(JSON.parse((await qprep(['check', '--snapshot', file, '--only', 'host', '--depth', 'standard', '--format', 'json'])).stdout).selection.depth).toBe('standard');
  });

  it('what the snapshot did not capture is reported as not captured, never read live', async () => {
    const dir = tmp('snap');
    const file = join(dir, 'partial.json');
    await qprep(['snapshot', '-o', file, '--only', 'sysctl.numa-balancing']);
    const replay = await qprep(['check', '--snapshot', file, '--only', 'host.shm', '--format', 'json']);
    const [shm] = JSON.parse(replay.stdout).checks;
    expect(shm.status).toBe('error');
    expect(shm.message).toBe('cannot stat /dev/shm: not captured in the snapshot');
  });
});

describe('a hung command', () => {
  it('is killed at its timeout with its children; the check errors naming argv and timeout; the others report', async () => {
    // no jemalloc in this tree, so mem.jemalloc falls back to ldconfig, which hangs
    const tree = tmp('tree-nojemalloc');
    writeFileSync(join(tree, 'placeholder'), '');
    const bin = tmp('bin');
    const pids = join(bin, 'pids');
    writeFileSync(join(bin, 'ldconfig'), `#!/bin/sh\nsleep 600 &\necho "$$ $!" > ${pids}\nsleep 600\n`);
    chmodSync(join(bin, 'ldconfig'), 0o755);
    const started = Date.now();
    const run = await qprep(['check', '--root', tree, '--timeout', '500ms', '--format', 'json'], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(Date.now() - started).toBeLessThan(20_000);
    const report = JSON.parse(run.stdout);
    const jemalloc = report.checks.find((c: { id: string }) => c.id === 'mem.jemalloc');
    expect(jemalloc.status).toBe('error');
    expect(jemalloc.message).toBe(`cannot tell whether libjemalloc.so.2 is installed: "${bin}/ldconfig -r ${tree} -p" did not finish within 500 ms and was killed with its child processes`);
    const catalogue = JSON.parse((await qprep(['list', '--format', 'json'])).stdout);
    // every check of the default depth ran
    expect(report.checks.length).toBe(catalogue.filter((c: { depth: string }) => c.depth !== 'deep').length);
    expect(report.checks.filter((c: { status: string }) => c.status !== 'error').length).toBeGreaterThan(0);
    const [parent, child] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    for (const pid of [parent!, child!]) {
      let state = 'gone';
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      } catch {
        // no such process
      }
      expect(['gone', 'Z']).toContain(state);
    }
  });
});

describe('catalogue, explain, schema, version, help', () => {
  it('lists the checks with level, depth, category and cost', async () => {
    const run = await qprep(['list', '--format', 'json']);
    const rows = JSON.parse(run.stdout);
    expect(rows.find((r: { id: string }) => r.id === 'host.shm')).toEqual({ id: 'host.shm', level: 'required', depth: 'quick', category: 'host', title: 'Shared memory (/dev/shm)', cost: '' });
    expect(rows.find((r: { id: string }) => r.id === 'hccn.counters')).toMatchObject({ depth: 'deep', cost: 'hccn_tool 2/device: -stat -g x2; waits 3 s' });
    expect(rows.find((r: { id: string }) => r.id === 'hccn.fec')).toMatchObject({ depth: 'standard', cost: 'hccn_tool 1/device: -fec -g (a2), -speed -g (a2) when needed' });
    const human = (await qprep(['list'])).stdout;
    expect(human).toMatch(/^ID\s+LEVEL\s+DEPTH\s+CATEGORY\s+TITLE/);
    expect(human).toMatch(/\nhccn\.link-stability +required +deep +hccn +NPU port link history: no flap in 24 h \[hccn_tool 1\/device: -link_stat -g\]\n/);
    expect(human).toMatch(/\n--depth quick runs the checks of depth quick \(no per-device call: \d+ of them\)/);
  });

  it('explains a check', async () => {
    const run = await qprep(['explain', 'sched.migration-cost']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('sched.migration-cost: Scheduler migration cost');
    expect(run.stdout).toContain('/sys/kernel/debug/sched/migration_cost_ns');
    expect(run.stdout).toContain('How to fix a failure:');
  });

  it('prints JSON Schemas that ajv compiles', async () => {
    for (const name of ['report', 'profile', 'snapshot']) {
      const run = await qprep(['schema', name]);
      expect(run.exitCode).toBe(0);
      const schema = JSON.parse(run.stdout);
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect((await validateAgainstSchema(name, {})).valid).toBe(name === 'profile');
    }
  });

  it('prints the version and help with examples', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect((await qprep(['--version'])).stdout).toBe(`${pkg.version}\n`);
    const help = await qprep(['--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('Exit codes: 0 ready, 1 not ready, 2 no verdict');
  });
});
