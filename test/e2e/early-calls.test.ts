import { execa } from 'execa';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qprep, REPO } from '../helpers/cli.js';
import { loggedCalls, type LoggedCall } from '../helpers/sim-log.js';

/**
 * The first tool calls of `qprep check` start with the process, before the checks are compiled
 * (src/main.ts, src/host/early-calls.ts): `npu-smi info` and hccn_tool's `-ip -g` of the devices
 * known without npu-smi (the device nodes, /etc/hccn.conf, ASCEND_RT_VISIBLE_DEVICES), one at a
 * time; the run takes their results over and reconciles the early list with npu-smi's table.
 * Shown on the simulated nodes of the benchmark (bench/lib/sim-node.mjs), from their tools' log.
 */

interface SimNode {
  name: string;
  bin: string;
  root: string;
  cluster: string;
  log: string;
  dir: string;
}

const work = mkdtempSync(join(tmpdir(), 'qprep-early-calls-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function simNode(name: string, family: 'a2' | 'a3', latency: { npuSmiMs: number; hccnMs: number }): Promise<SimNode> {
  const made = await execa(process.execPath, [
    join(REPO, 'scripts/sim-node.mjs'),
    ...['--family', family, '--out', join(work, name), '--npu-smi-ms', String(latency.npuSmiMs), '--hccn-ms', String(latency.hccnMs), '--ping-ms', '0'],
  ]);
  return { ...(JSON.parse(made.stdout) as Omit<SimNode, 'dir'>), dir: join(work, name) };
}

function envOf(sim: SimNode, extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${sim.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: process.env.HOME ?? '/root', ...extra };
}

function calls(sim: SimNode): LoggedCall[] {
  return loggedCalls(sim.log).sort((a, b) => a.startS - b.startS);
}

/** Each answer of device 0 copied for `devices` (the simulated node answers the devices it has files for). */
function answerAlso(sim: SimNode, devices: number[]): void {
  const from = join(sim.dir, 'answers', 'hccn', '0');
  for (const device of devices) {
    const to = join(sim.dir, 'answers', 'hccn', String(device));
    mkdirSync(to, { recursive: true });
    for (const op of readdirSync(from)) copyFileSync(join(from, op), join(to, op));
  }
}

/** Device nodes /dev/davinciN in the simulated node's --root tree (plain files: the early list reads names only). */
function deviceNodes(sim: SimNode, devices: number[]): void {
  mkdirSync(join(sim.root, 'dev'), { recursive: true });
  for (const device of devices) writeFileSync(join(sim.root, 'dev', `davinci${device}`), '');
}

const ipQuestions = (logged: LoggedCall[]) => logged.filter((c) => /^hccn_tool -i \d+ -ip -g$/.test(c.command));
const deviceOf = (call: LoggedCall) => Number(call.command.split(' ')[2]);

interface Report {
  checks: Array<{ id: string; category: string; status: string; message: string; evidence: Record<string, unknown> }>;
}

describe('the early tool calls of a check', () => {
  it('npu-smi and the first hccn_tool question start before the implementation is compiled; the run takes them over', async () => {
    const sim = await simNode('a3-start', 'a3', { npuSmiMs: 400, hccnMs: 20 });
    // the single file compiles its parts with vm.compileFunction: a preload notes when (wall clock)
    const hook = join(work, 'compile-log.cjs');
    const compiled = join(work, 'compiled.log');
    writeFileSync(
      hook,
      "const vm = require('node:vm');\nconst { appendFileSync } = require('node:fs');\nconst original = vm.compileFunction;\n" +
        'vm.compileFunction = function (code, params, options) {\n' +
        '  appendFileSync(process.env.QPREP_TEST_COMPILE_LOG, `${((performance.timeOrigin + performance.now()) / 1000).toFixed(6)} ${options && options.filename}\\n`);\n' +
        '  return original.apply(this, arguments);\n};\n',
    );
    rmSync(sim.log, { force: true });
    const run = await qprep(['check', '--format', 'json', '--root', sim.root, '--cluster', sim.cluster, '--node', sim.name], {
      env: envOf(sim, { NODE_OPTIONS: `--require ${hook}`, QPREP_TEST_COMPILE_LOG: compiled }),
      timeoutMs: 120_000,
    });
    expect(run.exitCode, run.stderr).toBeLessThanOrEqual(1);
    const report = JSON.parse(run.stdout) as Report;
    // every HCCN check passes but hccn.fec, which the A3's hccn_tool cannot answer
    expect(report.checks.filter((c) => c.category === 'hccn' && c.status !== 'pass').map((c) => `${c.id}: ${c.status}`)).toEqual(['hccn.fec: skip']);

    const implementation = readFileSync(compiled, 'utf8')
      .split('\n')
      .find((line) => line.endsWith(' qprep-implementation.cjs'));
    expect(implementation, 'the implementation was compiled from the single file').toBeDefined();
    const implementationAt = Number(implementation!.split(' ')[0]);
    const logged = calls(sim);
    const npuSmiInfo = logged.find((c) => c.command === 'npu-smi info')!;
    const firstHccn = logged.find((c) => c.command.startsWith('hccn_tool'))!;
    expect(npuSmiInfo.startS).toBeLessThan(implementationAt);
    expect(firstHccn.command).toBe('hccn_tool -i 0 -ip -g');
    expect(firstHccn.startS).toBeLessThan(implementationAt);
    // through the run's seam and limiter: every call answered, one hccn_tool call at a time, each question once
    expect(logged.filter((c) => c.outcome !== 'ok')).toEqual([]);
    const hccn = logged.filter((c) => c.command.startsWith('hccn_tool'));
    for (let i = 1; i < hccn.length; i++) expect(hccn[i]!.startS).toBeGreaterThanOrEqual(hccn[i - 1]!.endS);
    expect(new Set(hccn.map((c) => c.command)).size).toBe(hccn.length);
    expect(logged.filter((c) => c.command === 'npu-smi info')).toHaveLength(1);
  });

  it('a snapshot records the early calls like any other, and its replay judges the node alike', async () => {
    const sim = await simNode('a2-snapshot', 'a2', { npuSmiMs: 200, hccnMs: 0 });
    const file = join(work, 'a2-snapshot.json');
    const recorded = await qprep(['snapshot', '-o', file, '--root', sim.root], { env: envOf(sim) });
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { commands: Array<{ argv: string[]; exitCode: number | null; stdout: string }>; report: Report };
    const argvs = snapshot.commands.map((c) => c.argv.join(' '));
    expect(argvs).toContain(`${join(sim.bin, 'npu-smi')} info`);
    expect(argvs).toContain(`${join(sim.bin, 'hccn_tool')} -i 0 -ip -g`);
    expect(snapshot.commands.find((c) => c.argv[1] === 'info' && c.argv.length === 2)!.stdout).toContain('910B3');
    // replayed with the tools gone: every call it needs is in the snapshot
    rmSync(sim.log, { force: true });
    const replay = await qprep(['check', '--snapshot', file, '--format', 'json'], { env: envOf(sim) });
    expect(replay.exitCode, replay.stderr).toBe(snapshot.report.checks.some((c) => c.status === 'fail' || c.status === 'error') ? 1 : 0);
    const statuses = (report: Report) => Object.fromEntries(report.checks.filter((c) => c.category === 'hccn' || c.category === 'npu').map((c) => [c.id, c.status]));
    expect(statuses(JSON.parse(replay.stdout) as Report)).toEqual(statuses(snapshot.report));
    // nothing runs early for a replay
    expect(calls(sim)).toEqual([]);
  });

  it('nothing runs early for a replay, a selection, help, or a command that does not check', async () => {
    const sim = await simNode('a2-quiet', 'a2', { npuSmiMs: 0, hccnMs: 0 });
    const snapshot = join(REPO, 'examples/snapshots/a2-healthy.json');
    for (const args of [['check', '--snapshot', snapshot, '--format', 'json'], ['check', '--root', sim.root, '--only', 'host.memory'], ['check', '--help'], ['list'], ['facts', '--snapshot', snapshot]]) {
      rmSync(sim.log, { force: true });
      const run = await qprep(args, { env: envOf(sim) });
      expect(run.exitCode, `${args.join(' ')}: ${run.stderr}`).toBeLessThanOrEqual(1);
      expect(calls(sim), args.join(' ')).toEqual([]);
    }
  });
});

describe('the early device list, reconciled with npu-smi\'s table', () => {
  it('a device npu-smi does not list is asked early and dropped from the verdict', async () => {
    // device nodes 0..9 and answers for 8 and 9; npu-smi lists 0..7, after 1.5 s
    const sim = await simNode('a2-extra', 'a2', { npuSmiMs: 1500, hccnMs: 0 });
    deviceNodes(sim, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    answerAlso(sim, [8, 9]);
    rmSync(sim.log, { force: true });
    const run = await qprep(['check', '--format', 'json', '--root', sim.root, '--only', 'hccn'], { env: envOf(sim) });
    expect(run.exitCode, run.stderr).toBeLessThanOrEqual(1);
    const logged = calls(sim);
    const npuSmiEnd = logged.find((c) => c.command === 'npu-smi info')!.endS;
    const early = ipQuestions(logged).filter((c) => c.startS < npuSmiEnd);
    expect(early.map(deviceOf)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // no check asks anything more of 8 and 9, and none names them
    expect(logged.filter((c) => /^hccn_tool -i [89] /.test(c.command) && !/-ip -g$/.test(c.command))).toEqual([]);
    const report = JSON.parse(run.stdout) as Report;
    const ip = report.checks.find((c) => c.id === 'hccn.ip')!;
    expect(ip.status, ip.message).toBe('pass');
    expect(JSON.stringify(report.checks.filter((c) => c.category === 'hccn'))).not.toMatch(/dev[89]\b|"device":\s*[89]\b/);
  });

  it('a device npu-smi lists that the early list missed is queued when the table comes', async () => {
    // a container that sees 4 device nodes; npu-smi lists 8 devices
    const sim = await simNode('a2-missed', 'a2', { npuSmiMs: 800, hccnMs: 0 });
    deviceNodes(sim, [0, 1, 2, 3]);
    rmSync(sim.log, { force: true });
    const run = await qprep(['check', '--format', 'json', '--root', sim.root, '--only', 'hccn'], { env: envOf(sim) });
    expect(run.exitCode, run.stderr).toBeLessThanOrEqual(1);
    const logged = calls(sim);
    const npuSmiEnd = logged.find((c) => c.command === 'npu-smi info')!.endS;
    const ips = ipQuestions(logged);
    expect(ips.filter((c) => c.startS < npuSmiEnd).map(deviceOf)).toEqual([0, 1, 2, 3]);
    expect(ips.filter((c) => c.startS >= npuSmiEnd).map(deviceOf).sort()).toEqual([4, 5, 6, 7]);
    const ip = (JSON.parse(run.stdout) as Report).checks.find((c) => c.id === 'hccn.ip')!;
    expect(ip.status, ip.message).toBe('pass');
    expect(JSON.stringify(ip.evidence)).toContain('11.12.165.87');
  });

  it('ASCEND_RT_VISIBLE_DEVICES: the visible devices by rank are asked early, nothing else', async () => {
    const sim = await simNode('a2-visible', 'a2', { npuSmiMs: 800, hccnMs: 0 });
    rmSync(sim.log, { force: true });
    const run = await qprep(['check', '--format', 'json', '--root', sim.root, '--only', 'hccn'], { env: envOf(sim, { ASCEND_RT_VISIBLE_DEVICES: '2,3' }) });
    expect(run.exitCode, run.stderr).toBeLessThanOrEqual(1);
    const logged = calls(sim);
    const npuSmiEnd = logged.find((c) => c.command === 'npu-smi info')!.endS;
    expect(logged.filter((c) => c.command.startsWith('hccn_tool') && c.startS < npuSmiEnd).map((c) => c.command)).toEqual(['hccn_tool -i 2 -ip -g', 'hccn_tool -i 3 -ip -g']);
  });
});
