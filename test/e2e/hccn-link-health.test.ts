import { execa, execaSync } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { qprep, REPO } from '../helpers/cli.js';
import { ascendFixture, bundleAnswer, syntheticFixture } from '../helpers/fixtures.js';
import { httpGet, startServe } from '../helpers/serve.js';
import { hasTool, PROMTOOL } from '../helpers/tools.js';

/**
 * The link checks on the built CLI, against a simulated 8-NPU Atlas 800 A2 (bench/lib/sim-node.mjs,
 * latencies 0; one node of a two-node cluster, so that an NPU network problem blocks) whose
 * hccn_tool answers, device by device, with the public captures: mind-cluster's collection
 * bundles before and after a job (-link_stat, -stat), its optical module and "no FEC mode"
 * captures. Where no capture shows the case (a flap 12 h before the read, a weak lane, an idle
 * port, a port's speed) the answer is the derived input of test/fixtures/synthetic, and the test
 * says so. Every test here fails on a qprep without these checks: --only refuses an unknown id.
 */

interface SimNode {
  name: string;
  dir: string;
  bin: string;
  root: string;
  cluster: string;
}

const work = mkdtempSync(join(tmpdir(), 'qprep-link-health-'));
let made = 0;

async function node(answers: Record<number, Partial<Record<'link_stat' | 'optical' | 'fec' | 'speed' | 'stat' | 'stat.first', string>>> = {}): Promise<SimNode> {
  const dir = join(work, `node${made++}`);
  const built = await execa(process.execPath, [join(REPO, 'scripts/sim-node.mjs'), '--family', 'a2', '--nodes', '2', '--out', dir, '--npu-smi-ms', '0', '--hccn-ms', '0', '--ping-ms', '0']);
  const sim = JSON.parse(built.stdout) as SimNode;
  for (const [device, ops] of Object.entries(answers)) for (const [op, text] of Object.entries(ops)) writeFileSync(join(dir, 'answers', 'hccn', device, op), text);
  return sim;
}

async function check(sim: SimNode, only: string): Promise<{ exitCode: number; checks: Array<{ id: string; status: string; message: string; remediation?: string; action?: string; evidence: Record<string, unknown> }> }> {
  const run = await qprep(['check', '--root', sim.root, '--cluster', sim.cluster, '--node', sim.name, '--only', only, '--format', 'json'], {
    env: { PATH: `${sim.bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
  });
  expect(run.stderr).toBe('');
  return { exitCode: run.exitCode, checks: JSON.parse(run.stdout).checks };
}

const AFTER_LINK = ascendFixture('hccn-link-stat-g-8dev-after-mindcluster-modelarts.txt');
const BEFORE_STAT = ascendFixture('hccn-stat-g-short-8dev-before-mindcluster-modelarts.txt');
const AFTER_STAT = ascendFixture('hccn-stat-g-short-8dev-after-mindcluster-modelarts.txt');
const each = (make: (d: number) => Partial<Record<string, string>>) => Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7].map((d) => [d, make(d)]));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the link checks on the built CLI', () => {
  it("fails a port whose link history ends in LINK DOWN while its counters are clean (mind-cluster's bundle after the job)", async () => {
    const sim = await node(each((d) => ({ link_stat: bundleAnswer(AFTER_LINK, d, 'link_stat') })));
    const run = await check(sim, 'hccn.link-stability,hccn.counters');
    expect(run.exitCode).toBe(1);
    const [stability, counters] = run.checks;
    expect(stability).toMatchObject({ id: 'hccn.link-stability', status: 'fail', action: 'reconfigure' });
    expect(stability!.message).toContain('2 of 8 NPU ports are down now by their link history, whatever their counters say: dev0 LINK DOWN since Tue Aug  1 14:44:40 2022');
    expect(counters).toMatchObject({ id: 'hccn.counters', status: 'pass' });
  });

  it('warns about a port that went down 12 h before the read (derived from the HCCL guide\'s capture)', async () => {
    const sim = await node({ 4: { link_stat: syntheticFixture('hccn-link-stat-g-flap-24h-derived.txt').replace(/\[devid 0\]/g, '[devid 4]') } });
    const run = await check(sim, 'hccn.link-stability');
    expect(run.exitCode).toBe(0);
    expect(run.checks[0]).toMatchObject({ status: 'warn', action: 'monitor', message: '1 of 8 NPU ports went down in the 24 h before the read, after bring-up: dev4 went down once within 24 h, last at Tue Oct 28 09:12:05 2025' });
  });

  it("fails a lane outside the module's own thresholds (mind-cluster's capture) and warns about a weak lane (derived)", async () => {
    const outside = await check(await node({ 2: { optical: ascendFixture('hccn-optical-g-mindcluster-fixture.txt') } }), 'hccn.optics');
    expect(outside.exitCode).toBe(1);
    expect(outside.checks[0]).toMatchObject({ status: 'fail', action: 'replace-part' });
    expect(outside.checks[0]!.message).toContain("Rx lane 1 0.0054 mW below the module's low threshold 0.1445 mW");
    const weak = await check(await node({ 6: { optical: syntheticFixture('hccn-optical-g-weak-lane-derived.txt') } }), 'hccn.optics');
    expect(weak.exitCode).toBe(0);
    expect(weak.checks[0]).toMatchObject({ status: 'warn', action: 'monitor' });
    expect(weak.checks[0]!.message).toContain('Rx lane 1 0.3054 mW, under the 0.6 mW warning level');
  });

  it("fails a 200G port in 'no FEC mode' (mind-cluster's capture; the speed derived) with the exact fix", async () => {
    const sim = await node({ 5: { fec: ascendFixture('hccn-fec-g-mindcluster-fixture.txt'), speed: syntheticFixture('hccn-speed-g-200g-derived.txt') } });
    const run = await check(sim, 'hccn.fec');
    expect(run.exitCode).toBe(1);
    expect(run.checks[0]).toMatchObject({ status: 'fail', action: 'reconfigure', message: '1 of 8 NPU ports run without FEC at a speed that needs RS-FEC: dev5 (200 Gb/s)' });
    expect(run.checks[0]!.remediation).toBe('hccn_tool -i 5 -fec -s encoding rs   # RS-FEC, persisted in /etc/hccn.conf; set the switch port to RS-FEC too');
  });

  it("warns about error counters that grew between the two reads (mind-cluster's bundles before and after the job)", async () => {
    const sim = await node(each((d) => ({ 'stat.first': bundleAnswer(BEFORE_STAT, d, 'stat'), stat: bundleAnswer(AFTER_STAT, d, 'stat') })));
    const started = Date.now();
    const run = await check(sim, 'hccn.counters');
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(run.exitCode).toBe(0);
    expect(run.checks[0]).toMatchObject({ status: 'warn', action: 'monitor' });
    expect(run.checks[0]!.message).toContain('dev5 roce_rx_err_pkt_num +11, roce_tx_err_pkt_num +12');
  });

  it('says "not exercised" of ports that carried no packet (derived idle -stat), never "0 errors"', async () => {
    const sim = await node(each(() => ({ stat: syntheticFixture('hccn-stat-g-full-idle-derived.txt') })));
    // with a check that assesses something: a run whose every check skips has no verdict
    const run = await check(sim, 'hccn.link,hccn.counters');
    const counters = run.checks.find((c) => c.id === 'hccn.counters')!;
    expect(counters).toMatchObject({ status: 'skip', action: 'none' });
    expect(counters.message).toMatch(/^not exercised: /);
    expect(counters.message).not.toMatch(/\b0 errors\b/);
  });
});

describe('qprep serve --depth standard --deep-every 1h on the demo A2 with a flapping port and a weak lane', () => {
  it.skipIf(!hasTool(PROMTOOL, 'prometheus'))('runs deep at start, carries its results into the standard runs, and gives the per-device series', async () => {
    const agent = await startServe(['--snapshot', 'examples/snapshots/a2-link-flap.json', '--depth', 'standard', '--deep-every', '1h', '--interval', '1s']);
    try {
      await agent.waitForLog((l) => l.event === 'run' && l.trigger === 'schedule', { timeoutMs: 60_000 });
      const report = JSON.parse((await httpGet(`${agent.base}/report`)).body);
      expect(report.selection.depth).toBe('standard');
      const stability = report.checks.find((c: { id: string }) => c.id === 'hccn.link-stability');
      expect(stability).toMatchObject({ status: 'warn', action: 'monitor' });
      expect(Date.parse(stability.observedAt)).not.toBeNaN();
      expect(report.checks.find((c: { id: string }) => c.id === 'hccn.link').observedAt).toBeUndefined();
      const metrics = (await httpGet(`${agent.base}/metrics`)).body;
      expect(metrics).toContain('\nqprep_link_flaps_24h{device="4"} 1\n');
      expect(metrics).toContain('\nqprep_optical_rx_power_milliwatts{device="6",lane="1"} 0.3054\n');
      expect(metrics).toContain('\nqprep_hccn_error_packets_total{device="0",counter="roce_rx_err_pkt_num"} 0\n');
      const lint = execaSync('promtool', ['check', 'metrics'], { input: metrics, reject: false });
      expect(`${String(lint.stdout)}${String(lint.stderr)}`).toBe('');
    } finally {
      await agent.stop();
    }
  });
});

describe('qprep serve --deep-every', () => {
  it('is refused with --depth deep, in one line', async () => {
    const run = await qprep(['serve', '--depth', 'deep', '--deep-every', '1h', '--snapshot', 'examples/snapshots/a2-link-flap.json']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('qprep: error: --deep-every runs deep now and then between runs at --depth quick or standard; with --depth deep every run is deep already\n');
  });
});
