import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qprep, REPO } from '../helpers/cli.js';

/**
 * hccn_tool runs one call at a time, so its queue is a check's critical path: the HCCN checks'
 * questions join it as soon as the NPU table is in, not when each check gets a slot among the
 * running checks. Shown by the order of calls in the simulated node's log (bench/lib/sim-node.mjs),
 * with checks run one at a time (--jobs 1) and npu-smi slower than hccn_tool, as on a real node.
 */

interface SimNode {
  name: string;
  bin: string;
  root: string;
  cluster: string;
  log: string;
}

interface LoggedCall {
  startS: number;
  endS: number;
  outcome: string;
  command: string;
}

const work = mkdtempSync(join(tmpdir(), 'qprep-hccn-queue-'));
let node: SimNode;

function envOf(sim: SimNode): Record<string, string> {
  return { PATH: `${sim.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: process.env.HOME ?? '/root' };
}

function calls(sim: SimNode): LoggedCall[] {
  return readFileSync(sim.log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, end, outcome, ...command] = line.split(' ');
      return { startS: Number(start), endS: Number(end), outcome: outcome!, command: command.join(' ') };
    });
}

beforeAll(async () => {
  // npu-smi 300 ms a call (the per-device queries of the npu checks run two at a time), hccn_tool at once
  const made = await execa(process.execPath, [join(REPO, 'scripts/sim-node.mjs'), '--family', 'a3', '--out', join(work, 'a3'), '--npu-smi-ms', '300', '--hccn-ms', '0', '--ping-ms', '0']);
  node = JSON.parse(made.stdout) as SimNode;
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("the hccn_tool queue of a check", () => {
  it('asks the HCCN checks\' questions while the npu checks before them still wait for npu-smi; one call at a time, each once', async () => {
    rmSync(node.log, { force: true });
    const run = await qprep(['check', '--format', 'json', '--jobs', '1', '--root', node.root, '--cluster', node.cluster, '--node', node.name], { env: envOf(node), timeoutMs: 120_000 });
    expect(run.exitCode, run.stderr).toBeLessThanOrEqual(1);
    const report = JSON.parse(run.stdout) as { checks: Array<{ id: string; category: string; status: string }> };
    // hccn.fec skips on A3, whose hccn_tool cannot query the FEC mode
    expect(report.checks.filter((c) => c.category === 'hccn' && c.status !== 'pass' && !(c.id === 'hccn.fec' && c.status === 'skip'))).toEqual([]);
    const logged = calls(node);
    expect(logged.filter((c) => c.outcome !== 'ok')).toEqual([]);
    const npuSmi = logged.filter((c) => c.command.startsWith('npu-smi '));
    const perDevice = npuSmi.filter((c) => c.command !== 'npu-smi info');
    const hccn = logged.filter((c) => c.command.startsWith('hccn_tool '));
    // npu.health and the other npu checks come before the HCCN checks in the catalogue; with one
    // check at a time, hccn.link would ask its first -link only after they all had their answers
    expect(perDevice.length).toBeGreaterThanOrEqual(8);
    const lastNpuSmiEnd = Math.max(...perDevice.map((c) => c.endS));
    for (const query of ['-link', '-net_health', '-netdetect', '-gateway', '-lldp', '-tls']) {
      const first = hccn.find((c) => c.command.split(' ')[3] === query);
      expect(first, query).toBeDefined();
      expect(first!.startS, `${query} starts before the last npu-smi query ends`).toBeLessThan(lastNpuSmiEnd);
    }
    // still one call at a time, and each question asked once, though a check and its prefetch ask it
    const ordered = [...hccn].sort((a, b) => a.startS - b.startS);
    for (let i = 1; i < ordered.length; i++) expect(ordered[i]!.startS).toBeGreaterThanOrEqual(ordered[i - 1]!.endS);
    expect(new Set(hccn.map((c) => c.command)).size).toBe(hccn.length);
  });

  it('asks nothing for a check that is not selected', async () => {
    rmSync(node.log, { force: true });
    const run = await qprep(['check', '--format', 'json', '--only', 'hccn.link', '--root', node.root], { env: envOf(node), timeoutMs: 120_000 });
    expect(run.exitCode, run.stderr).toBeLessThanOrEqual(1);
    const queries = new Set(calls(node).filter((c) => c.command.startsWith('hccn_tool ')).map((c) => c.command.split(' ')[3]));
    expect(queries).toContain('-link');
    // what only the prefetches of hccn.net-health, hccn.netdetect, hccn.gateway and hccn.lldp would ask
    for (const query of ['-net_health', '-netdetect', '-gateway', '-lldp']) expect(queries, query).not.toContain(query);
  });
});
