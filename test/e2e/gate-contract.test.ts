import { execa } from 'execa';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, qprep, REPO, validateAgainstSchema } from '../helpers/cli.js';
import { writeUntunedTree } from '../helpers/untuned-tree.js';
import { waitForCaughtSignals } from '../robustness/support.js';

/*
 * The contract a gate relies on, over the built CLI: exit 0 only after judging something, on the
 * node the operator named, with what the node itself was judged with; every path that names
 * nothing, or the wrong kind of thing, refused before anything runs; one error-document shape.
 */

const SNAPSHOTS = join(REPO, 'examples/snapshots');
const HEALTHY = join(SNAPSHOTS, 'a2-healthy.json');
const BROKEN = join(SNAPSHOTS, 'a2-broken.json');
const PAIR = join(REPO, 'examples/cluster/a2-pair.yaml');
const TRIO = join(REPO, 'examples/cluster/a2-trio.yaml');

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-gate-${prefix}-`));
}

/** Exit 2 with exactly one line on stderr that names `flag`; with --format json, the error document. */
async function expectUsage(args: string[], flag: string, options: { cwd?: string } = {}) {
  const run = await qprep(args, options);
  expect(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBe(2);
  expect(run.stderr.split('\n').filter(Boolean), args.join(' ')).toHaveLength(1);
  expect(run.stderr, args.join(' ')).toContain(flag);
  return run;
}

describe('1. empty or wrong paths are usage errors before anything runs', () => {
  const EMPTY: Array<[string[], string]> = [
    [['check', '--snapshot', ''], '--snapshot'],
    [['check', '--root', ''], '--root'],
    [['check', '-o', ''], '--output'],
    [['check', '--profile', ''], '--profile'],
    [['check', '--cluster', ''], '--cluster'],
    [['check', '--launch', ''], '--launch'],
    [['snapshot', '-o', ''], '--output'],
    [['facts', '--snapshot', ''], '--snapshot'],
    [['facts', '--root', ''], '--root'],
    [['facts', '-o', ''], '--output'],
    [['tune', '--snapshot', '', '--dry-run'], '--snapshot'],
    [['tune', '--root', ''], '--root'],
    [['tune', '--profile', ''], '--profile'],
    [['rollback', '--root', ''], '--root'],
    [['rollback', '--snapshot', '', '--dry-run'], '--snapshot'],
    [['env', '--snapshot', ''], '--snapshot'],
    [['env', '--root', ''], '--root'],
    [['env', '--cluster', ''], '--cluster'],
    [['aggregate', ''], 'empty path'],
    [['aggregate', SNAPSHOTS, '--cluster', ''], '--cluster'],
    [['aggregate', SNAPSHOTS, '-o', ''], '--output'],
  ];
  it.each(EMPTY)('%j refuses the empty value of %s', async (args, flag) => {
    // snapshot has no --format: its output is the snapshot file
    if (args[0] === 'snapshot') {
      await expectUsage(args, flag);
      return;
    }
    const run = await expectUsage([...args, '--format', 'json'], flag);
    expect(JSON.parse(run.stdout)).toMatchObject({ command: args[0], error: { code: 'usage' } });
  });

  it('paths of the wrong kind: a missing or non-directory --root, a directory or device where a file goes, a FIFO', async () => {
    const work = tmp('kinds');
    const fifo = join(work, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await expectUsage(['check', '--root', '/nonexistent'], '--root /nonexistent: no such directory');
    await expectUsage(['check', '--root', join(REPO, 'README.md')], 'not a directory');
    await expectUsage(['check', '--snapshot', SNAPSHOTS], '--snapshot');
    await expectUsage(['check', '--profile', '/dev/null'], '--profile /dev/null: it is a character device');
    await expectUsage(['check', '--cluster', fifo], `--cluster ${fifo}: it is a FIFO`);
    await expectUsage(['check', '--launch', work], '--launch');
    await expectUsage(['check', '--snapshot', HEALTHY, '-o', work], `--output ${work}: it is a directory`);
    await expectUsage(['check', '--snapshot', HEALTHY, '-o', join(work, 'no/such/dir/r.json')], 'does not exist');
    await expectUsage(['aggregate', '/dev/zero'], '/dev/zero: it is a character device');
  });

  it('-o - is standard output, as --launch - is standard input; no file named "-" appears', async () => {
    const work = tmp('dash');
    const run = await qprep(['check', '--snapshot', HEALTHY, '--format', 'json', '-o', '-'], { cwd: work });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout).ready).toBe(true);
    expect(existsSync(join(work, '-'))).toBe(false);
    const facts = await qprep(['facts', '--snapshot', HEALTHY, '--output', '-'], { cwd: work });
    expect(JSON.parse(facts.stdout).hostname).toBe('a2-node1');
    expect(readdirSync(work)).toEqual([]);
  });

  it('tune --snapshot "" and tune --root "" change nothing in the tree they would have defaulted to', async () => {
    const root = tmp('tune-root');
    writeUntunedTree(root);
    const before = execFileSync('sh', ['-c', 'find . -type f | sort | xargs sha256sum'], { cwd: root, encoding: 'utf8' });
    for (const args of [['tune', '--snapshot', ''], ['tune', '--root', '']]) {
      // run from inside the tree: "" as the current directory would have written under it
      const run = await qprep([...args, '--format', 'json'], { cwd: root });
      expect(run.exitCode).toBe(2);
      expect(JSON.parse(run.stdout)).toMatchObject({ command: 'tune', error: { code: 'usage' } });
    }
    expect(execFileSync('sh', ['-c', 'find . -type f | sort | xargs sha256sum'], { cwd: root, encoding: 'utf8' })).toBe(before);
  });
});

describe('2. a replay judges like the node did', () => {
  const demos = readdirSync(SNAPSHOTS).filter((name) => name.endsWith('.json'));

  it.each(demos)('%s replayed without flags gives the verdict it recorded', async (name) => {
    const snapshot = JSON.parse(readFileSync(join(SNAPSHOTS, name), 'utf8'));
    expect(snapshot.profile?.name, 'the snapshot records its profile').toBe(snapshot.report.profile.name);
    const run = await qprep(['check', '--snapshot', join(SNAPSHOTS, name), '--format', 'json'], { env: { PATH: '/nonexistent' } });
    const report = JSON.parse(run.stdout);
    expect(report.profile).toMatchObject({ name: snapshot.report.profile.name, source: 'recorded' });
    expect(report.ready).toBe(snapshot.report.ready);
    expect(run.exitCode).toBe(snapshot.report.ready ? 0 : 1);
  });

  it('the header says the profile is the recorded one; --profile overrides it', async () => {
    const run = await qprep(['check', '--snapshot', join(SNAPSHOTS, 'a2-node2.json')]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('profile qwen3.5-397b-w8a8-a2 (recorded)');
    const overridden = await qprep(['check', '--snapshot', join(SNAPSHOTS, 'a2-node2.json'), '--profile', 'default', '--format', 'json']);
    expect(JSON.parse(overridden.stdout).profile).toMatchObject({ name: 'default', source: 'builtin' });
  });

  it('a snapshot recorded with --cluster and --node replays as that node of that cluster', async () => {
    const work = tmp('cluster-snap');
    const file = join(work, 'snap.json');
    const recorded = await qprep(['snapshot', '--root', work, '--only', 'net.peer-ports', '--cluster', PAIR, '--node', 'a2-node2', '-o', file]);
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot.cluster).toMatchObject({ file: PAIR, node: 'a2-node2' });
    expect(snapshot.profile).toMatchObject({ name: 'default', source: 'builtin' });
    const replay = await qprep(['check', '--snapshot', file, '--format', 'json']);
    expect(JSON.parse(replay.stdout).cluster).toMatchObject({ self: 'a2-node2', matchedBy: 'node-option', nodes: ['a2-node1', 'a2-node2'] });
  });
});

describe('3. no verdict from nothing', () => {
  it('zero selected checks is a usage error', async () => {
    await expectUsage(['check', '--snapshot', HEALTHY, '--only', 'npu', '--skip', 'npu'], 'no check selected');
    await expectUsage(['check', '--snapshot', HEALTHY, '--only', ''], 'no check selected: --only is empty');
    await expectUsage(['tune', '--snapshot', HEALTHY, '--dry-run', '--only', ''], 'no check selected');
  });

  it('every selected check skipped: exit 2, nothing-assessed, NO VERDICT', async () => {
    const args = ['check', '--snapshot', HEALTHY, '--only', 'hccn.peers,net.peer-ports'];
    const json = await qprep([...args, '--format', 'json']);
    expect(json.exitCode).toBe(2);
    const report = JSON.parse(json.stdout);
    expect(report.ready).toBe(false);
    expect(report.error).toMatchObject({ code: 'nothing-assessed' });
    expect(report.checks.map((c: { status: string }) => c.status)).toEqual(['skip', 'skip']);
    expect((await validateAgainstSchema('report', report)).valid).toBe(true);
    const human = await qprep(args);
    expect(human.exitCode).toBe(2);
    expect(human.stdout).toMatch(/\nNO VERDICT: all 2 selected checks were skipped\n$/);
  });

  it('--only launch without --launch says the launch checks need a script', async () => {
    const run = await expectUsage(['check', '--snapshot', HEALTHY, '--only', 'launch', '--format', 'json'], 'the launch checks need a script');
    expect(JSON.parse(run.stdout).error.message).toContain('--launch FILE');
  });
});

describe('4. the launch script is required when given', () => {
  it('a script that starts no server and no known launcher fails launch.script: not ready', async () => {
    const work = tmp('launch');
    const script = join(work, 'run.sh');
    writeFileSync(script, '#!/bin/bash\nexport HCCL_BUFFSIZE=512\necho starting\n');
    const run = await qprep(['check', '--snapshot', HEALTHY, '--launch', script, '--format', 'json']);
    const report = JSON.parse(run.stdout);
    expect(report.checks.find((c: { id: string }) => c.id === 'launch.script')).toMatchObject({ status: 'fail', level: 'required' });
    expect(report.blocking).toContain('launch.script');
    expect(run.exitCode).toBe(1);
  });

  it('a binary file (NUL bytes, an ELF header) is exit 2 naming the file', async () => {
    const work = tmp('binary');
    const nul = join(work, 'model.bin');
    writeFileSync(nul, Buffer.from([0x23, 0x21, 0x00, 0x01, 0x02]));
    const elf = join(work, 'vllm');
    writeFileSync(elf, Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.from('rest of an executable')]));
    for (const file of [nul, elf]) {
      const run = await qprep(['check', '--snapshot', HEALTHY, '--launch', file, '--format', 'json']);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^qprep: error: cannot read launch script ${file}: it is (an ELF executable|a binary file)`));
      expect(JSON.parse(run.stdout)).toMatchObject({ command: 'check', ready: false, error: { code: 'invalid-input' } });
    }
  });
});

describe('5. waivers are visible', () => {
  it('--ignore on a check that ended in error is refused, in the human report and the JSON', async () => {
    const root = tmp('error');
    // net.ports is required and cannot read /proc/net/tcp in an empty tree
    const args = ['check', '--root', root, '--only', 'net.ports', '--ignore', 'net.ports'];
    const json = await qprep([...args, '--format', 'json']);
    const [entry] = JSON.parse(json.stdout).checks;
    expect(entry).toMatchObject({ status: 'error', level: 'required' });
    expect(entry.waived).toBeUndefined();
    expect(entry.waiverRefused).toBe('waiver not applied: error means could not assess; use --skip');
    expect(json.exitCode).toBe(1);
    expect((await qprep(args)).stdout).toContain('(waiver not applied: error means could not assess; use --skip)');
  });

  it('a READY made by waivers names them on the verdict line', async () => {
    const run = await qprep(['check', '--snapshot', BROKEN, '--ignore', 'npu.health,npu.ecc,npu.idle,npu.driver-files']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/\nREADY with 4 required failures waived \(--ignore\): npu\.driver-files, npu\.health, npu\.ecc, npu\.idle/);
  });
});

describe('6. a multi-node profile is judged as multi-node', () => {
  it('net.host-nic is not "fine on one node" when the profile deploys two', async () => {
    const run = await qprep(['check', '--snapshot', HEALTHY, '--only', 'net.host-nic', '--format', 'json']);
    const [entry] = JSON.parse(run.stdout).checks;
    expect(entry.status).toBe('warn');
    expect(entry.message).toContain('spans 2 nodes');
    const single = await qprep(['check', '--snapshot', HEALTHY, '--profile', 'default', '--only', 'net.host-nic', '--format', 'json']);
    expect(JSON.parse(single.stdout).checks[0].status).toBe('skip');
  });

  it('a cluster file of another size than the profile says so with both numbers', async () => {
    const run = await qprep(['check', '--snapshot', HEALTHY, '--cluster', TRIO, '--only', 'net.peer-ports', '--format', 'json']);
    expect(JSON.parse(run.stdout).cluster.note).toContain(`${TRIO} lists 3 nodes, but the deployment of profile qwen3.5-397b-w8a8-a2 spans 2`);
  });

  it('aggregate with fewer reports than the profile deploys is not ready, naming how many are missing', async () => {
    const work = tmp('aggregate');
    const report = await qprep(['check', '--snapshot', HEALTHY, '--format', 'json', '-o', join(work, 'a2-node1.json')]);
    expect(report.exitCode).toBe(0);
    const run = await qprep(['aggregate', work, '--format', 'json']);
    expect(run.exitCode).toBe(1);
    const verdict = JSON.parse(run.stdout);
    expect(verdict.ready).toBe(false);
    expect(verdict.findings.map((f: { message: string }) => f.message)).toContain('the deployment of profile qwen3.5-397b-w8a8-a2 spans 2 nodes, but 1 node is here: 1 missing');
    const withProfile = await qprep(['aggregate', work, '--profile', 'qwen3.5-397b-pd-prefill-a3', '--format', 'json']);
    expect(JSON.parse(withProfile.stdout).findings.some((f: { message: string }) => f.message.includes('spans 3 nodes, but 1 node is here: 2 missing'))).toBe(true);
  });
});

describe('7. one error-document shape for every command', () => {
  const CASES: Array<[string, string[]]> = [
    ['check', ['check', '--profile', '/nonexistent/p.yaml']],
    ['snapshot', ['snapshot', '-o', '/nonexistent/s.json']],
    ['facts', ['facts', '--snapshot', '/nonexistent/s.json']],
    ['tune', ['tune', '--snapshot', HEALTHY]],
    ['rollback', ['rollback', '--snapshot', HEALTHY]],
    ['env', ['env', '--snapshot', '/nonexistent/s.json']],
    ['aggregate', ['aggregate', '/nonexistent']],
    ['list', ['list', '--profile', 'nope']],
    ['explain', ['explain', 'no.such-check']],
    ['schema', ['schema', 'nope']],
  ];
  it.each(CASES)('%s: {schemaVersion, tool, command, error}; ready only with a verdict', async (command, args) => {
    const run = await qprep([...args, '--format', 'json']);
    expect(run.exitCode).toBe(2);
    const document = JSON.parse(run.stdout);
    const keys = ['schemaVersion', 'tool', 'command', ...(['check', 'aggregate'].includes(command) ? ['ready'] : []), 'error'];
    // tune and rollback add their own `changed`
    expect(Object.keys(document).filter((k) => k !== 'changed')).toEqual(keys);
    expect(document).toMatchObject({ schemaVersion: 1, tool: { name: 'qprep' }, command, error: { code: expect.any(String), message: expect.any(String) } });
    if ('ready' in document) expect(document.ready).toBe(false);
  });

  it('every documented error code is produced by a real invocation', async () => {
    const work = tmp('codes');
    const produced = new Map<string, string>();
    const record = async (args: string[], options: { cwd?: string } = {}) => {
      const run = await qprep([...args, '--format', 'json'], options);
      let document;
      try {
        document = JSON.parse(run.stdout);
      } catch {
        throw new Error(`${args.join(' ')}: no JSON document on stdout (exit ${run.exitCode}): ${run.stderr}`);
      }
      produced.set(document.error.code, args.join(' '));
    };
    writeFileSync(join(work, 'bad.json'), 'not json');
    writeFileSync(join(work, 'cluster.yaml'), 'nodes: 3\n');
    await record(['check', '--only', 'x.y']);
    await record(['check', '--profile', join(work, 'missing.yaml')]);
    await record(['check', '--snapshot', join(work, 'bad.json')]);
    await record(['check', '--snapshot', HEALTHY, '--cluster', join(work, 'cluster.yaml')]);
    await record(['check', '--snapshot', HEALTHY, '--launch', join(work, 'missing.sh')]);
    await record(['check', '--snapshot', HEALTHY, '-o', '/proc/qprep-report.json']);
    await record(['check', '--snapshot', HEALTHY, '--only', 'hccn.peers']);
    const container = tmp('container');
    writeUntunedTree(container, { '.dockerenv': '', 'proc/self/mountinfo': '1 0 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u\n' });
    await record(['tune', '--root', container]);
    const locked = tmp('locked');
    writeUntunedTree(locked);
    mkdirSync(join(locked, 'var/lib/qprep'), { recursive: true });
    writeFileSync(join(locked, 'var/lib/qprep/tune.lock'), JSON.stringify({ pid: process.pid, startTime: null, hostname: 'elsewhere', command: 'qprep tune', since: '2026-12-02T10:00:00.000Z' }));
    await record(['tune', '--root', locked]);
    // an interruption, from the first moment on
    const child = execa(process.execPath, [BIN, 'aggregate', '-', '--format', 'json'], { reject: false, stdin: 'pipe' });
    await waitForCaughtSignals(child.pid!);
    child.kill('SIGTERM');
    const interrupted = await child;
    expect(interrupted.exitCode, String(interrupted.stderr)).toBe(2);
    produced.set(JSON.parse(String(interrupted.stdout)).error.code, 'aggregate - (SIGTERM)');
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const { ERROR_CODES } = await import('../../src/errors.js');
    // internal means a bug in qprep: no invocation is meant to produce it
    expect([...produced.keys()].sort()).toEqual(ERROR_CODES.filter((c) => c !== 'internal').slice().sort());
    for (const code of ERROR_CODES) expect(readme, `README lists ${code}`).toContain(`\`${code}\``);
  });
});
