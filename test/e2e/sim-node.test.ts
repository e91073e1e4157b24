import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qprep, REPO } from '../helpers/cli.js';
import { loggedCalls, type LoggedCall } from '../helpers/sim-log.js';
import { ascendFixture, bundleAnswer, syntheticFixture } from '../helpers/fixtures.js';

/**
 * The simulated nodes of the benchmark (bench/lib/sim-node.mjs, built by scripts/sim-node.mjs):
 * their fake npu-smi and hccn_tool must answer what the real tools printed in the captures, or
 * the benchmark measures qprep against something that is not an Ascend node. Latencies are 0
 * here; the benchmark sets them.
 */

interface SimNode {
  name: string;
  dir: string;
  bin: string;
  root: string;
  cluster: string;
  manual: string;
  log: string;
}

const work = mkdtempSync(join(tmpdir(), 'qprep-sim-node-'));
const nodes: Record<'a2' | 'a3', SimNode> = {} as Record<'a2' | 'a3', SimNode>;

async function build(family: 'a2' | 'a3'): Promise<SimNode> {
  const made = await execa(process.execPath, [join(REPO, 'scripts/sim-node.mjs'), '--family', family, '--out', join(work, family), '--npu-smi-ms', '0', '--hccn-ms', '0', '--ping-ms', '0']);
  return JSON.parse(made.stdout) as SimNode;
}

function envOf(node: SimNode): Record<string, string> {
  return { PATH: `${node.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: process.env.HOME ?? '/root' };
}

/** Runs a bash command line against the node's tools, as an operator types it. */
async function shell(node: SimNode, line: string): Promise<{ stdout: string; exitCode: number }> {
  const result = await execa('bash', ['-c', line], { env: envOf(node), extendEnv: false, reject: false, stripFinalNewline: false });
  return { stdout: String(result.stdout), exitCode: result.exitCode ?? -1 };
}

function calls(node: SimNode): LoggedCall[] {
  return loggedCalls(node.log);
}

function clearLog(node: SimNode): void {
  rmSync(node.log, { force: true });
}

/** The most hccn_tool calls that ran at once, from the logged start and end of each. */
function mostAtOnce(list: readonly LoggedCall[]): number {
  const edges = list.filter((c) => c.command.startsWith('hccn_tool ')).flatMap((c) => [
    { at: c.startS, delta: 1 },
    { at: c.endS, delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let most = 0;
  for (const edge of edges) {
    open += edge.delta;
    most = Math.max(most, open);
  }
  return most;
}

beforeAll(async () => {
  [nodes.a2, nodes.a3] = await Promise.all([build('a2'), build('a3')]);
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the simulated npu-smi', () => {
  it('prints the A3 and A2 captures of npu-smi info byte for byte', async () => {
    expect((await shell(nodes.a3, 'npu-smi info')).stdout).toBe(ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt'));
    expect((await shell(nodes.a2, 'npu-smi info')).stdout).toBe(ascendFixture('npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt'));
  });

  it('answers spod-info of each A3 die with the capture of that die, over the 8 cards', async () => {
    for (const card of [0, 7]) {
      expect((await shell(nodes.a3, `npu-smi info -t spod-info -i ${card} -c 0`)).stdout).toBe(ascendFixture('npu-smi-info-t-spod-info-a3-dev0-mindcluster-vllm-log.txt'));
      expect((await shell(nodes.a3, `npu-smi info -t spod-info -i ${card} -c 1`)).stdout).toBe(ascendFixture('npu-smi-info-t-spod-info-a3-dev1-mindcluster-vllm-log.txt'));
    }
    const beyond = await shell(nodes.a3, 'npu-smi info -t spod-info -i 8 -c 0');
    expect(beyond.exitCode).not.toBe(0);
  });

  it('answers -t ecc of each card with the capture (A2) or its two-chip derivation (A3), only the card id changed', async () => {
    const withCard = (text: string, card: number) => text.replace(/^(\s*NPU ID\s+: )\d+$/m, `$1${card}`);
    expect((await shell(nodes.a2, 'npu-smi info -t ecc -i 1')).stdout).toBe(ascendFixture('npu-smi-info-t-ecc-910a-23.0.5-mindcluster-doc.txt'));
    expect((await shell(nodes.a2, 'npu-smi info -t ecc -i 6')).stdout).toBe(withCard(ascendFixture('npu-smi-info-t-ecc-910a-23.0.5-mindcluster-doc.txt'), 6));
    expect((await shell(nodes.a3, 'npu-smi info -t ecc -i 0')).stdout).toBe(syntheticFixture('npu-smi-info-t-ecc-two-chips-derived.txt'));
    expect((await shell(nodes.a3, 'npu-smi info -t ecc -i 7')).stdout).toBe(withCard(syntheticFixture('npu-smi-info-t-ecc-two-chips-derived.txt'), 7));
    expect((await shell(nodes.a3, 'npu-smi info -t ecc -i 8')).exitCode).not.toBe(0);
  });
});

describe('the simulated hccn_tool', () => {
  it('reproduces the vendor docs\' 8-device loop captures byte for byte (ip, gateway, lldp Ifname, tls switch, ping)', async () => {
    const loop = (body: string) => shell(nodes.a2, `for i in {0..7}; do ${body}; done`);
    expect((await loop('hccn_tool -i $i -ip -g')).stdout).toBe(ascendFixture('hccn-ip-g-a2x8-mindie-dsv3doc.txt'));
    expect((await loop('hccn_tool -i $i -gateway -g')).stdout).toBe(ascendFixture('hccn-gateway-a2x8-mindie-dsv3doc.txt'));
    expect((await loop('hccn_tool -i $i -lldp -g | grep Ifname')).stdout).toBe(ascendFixture('hccn-lldp-ifname-a2x8-mindie-dsv3doc.txt'));
    expect((await shell(nodes.a2, 'for i in {0..7}; do hccn_tool -i $i -tls -g ; done | grep switch')).stdout).toBe(ascendFixture('hccn-tls-switch-a2x8-mindie-dsv3doc.txt'));
    expect((await loop('hccn_tool -i $i -ping -g address 11.12.165.80')).stdout).toBe(ascendFixture('hccn-ping-success-a2x8-mindie-dsv3doc.txt'));
  });

  it('answers link, net_health and netdetect with the line the elided captures repeat for every device', async () => {
    for (const [op, name] of [
      ['link', 'hccn-link-up-mindie-dsv3doc.txt'],
      ['net_health', 'hccn-net-health-success-mindie-dsv3doc.txt'],
      ['netdetect', 'hccn-netdetect-mindie-dsv3doc.txt'],
    ] as const) {
      const line = `${ascendFixture(name).split('\n')[0]}\n`;
      for (const device of [0, 7, 15]) expect((await shell(nodes.a3, `hccn_tool -i ${device} -${op} -g`)).stdout, `${op} ${device}`).toBe(line);
    }
  });

  it("answers the link diagnostics with each device's part of mind-cluster's bundles, byte for byte, and -fec as the A3's hccn_tool does", async () => {
    const linkStat = ascendFixture('hccn-link-stat-g-8dev-before-mindcluster-modelarts.txt');
    const stat = ascendFixture('hccn-stat-g-short-8dev-before-mindcluster-modelarts.txt');
    for (const device of [0, 5]) {
      expect((await shell(nodes.a2, `hccn_tool -i ${device} -link_stat -g`)).stdout).toBe(bundleAnswer(linkStat, device, 'link_stat'));
      expect((await shell(nodes.a2, `hccn_tool -i ${device} -stat -g`)).stdout).toBe(bundleAnswer(stat, device, 'stat'));
    }
    expect((await shell(nodes.a3, 'hccn_tool -i 13 -link_stat -g')).stdout).toBe(bundleAnswer(linkStat, 5, 'link_stat').replace(/\[devid 5\]/g, '[devid 13]'));
    expect((await shell(nodes.a2, 'hccn_tool -i 2 -fec -g')).stdout).toBe(ascendFixture('hccn-fec-g-rs-mindcluster-doc.txt'));
    expect((await shell(nodes.a3, 'hccn_tool -i 2 -fec -g')).stdout).toBe(syntheticFixture('hccn-fec-g-a3-unsupported-derived.txt'));
    expect((await shell(nodes.a2, 'hccn_tool -i 2 -optical -g')).stdout).toBe(syntheticFixture('hccn-optical-g-healthy-derived.txt'));
  });

  it('derives the answers of A3 devices 8..15 and the vNIC from the captures, with the device id or address substituted', async () => {
    expect((await shell(nodes.a3, 'hccn_tool -i 12 -ip -g')).stdout).toBe('ipaddr:11.12.165.92\nnetmask:255.255.255.0\n');
    expect((await shell(nodes.a3, 'hccn_tool -i 12 -tls -g')).stdout).toBe(ascendFixture('hccn-tls-switch-a2x8-mindie-dsv3doc.txt').split('\n')[4]!.replace('dev_id:4', 'dev_id:12') + '\n');
    expect((await shell(nodes.a3, 'hccn_tool -i 3 -vnic -g')).stdout).toBe(ascendFixture('hccn-vnic-g-950doc-driver-repo.txt').replace('192.168.2.199', '192.168.3.13'));
    // no capture of -hccs_ping exists: the documented format of test/fixtures/synthetic, first line substituted
    const hccs = await shell(nodes.a3, 'hccn_tool -i 5 -hccs_ping -g address 192.168.4.15');
    expect(hccs.stdout).toBe(syntheticFixture('hccn-hccs-ping-success-a3.txt').replace('device 0 PING 198.19.130.10', 'device 5 PING 192.168.4.15'));
  });

  it('answers a ping to an address no node of the cluster has with the documented no-reply output', async () => {
    const ping = await shell(nodes.a2, 'hccn_tool -i 2 -ping -g address 11.12.165.250');
    const noReply = syntheticFixture('hccn-ping-no-reply.txt');
    expect(ping.stdout).toBe(`device 2 PING 11.12.165.250\n${noReply.slice(noReply.indexOf('\n') + 1)}`);
  });

  it('answers the documented busy message while another call holds the tool, and answers again once it is free', async () => {
    const node = nodes.a2;
    clearLog(node);
    // what a second hccn_tool (an exporter, an operator's loop) does: hold the tool's lock
    const holder = spawn('flock', ['-n', '-o', join(node.dir, 'hccn_tool.lock'), '-c', 'echo locked; exec sleep 60'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.once('data', () => resolve());
        holder.once('exit', (code) => reject(new Error(`flock exited ${code}`)));
      });
      const busy = await shell(node, 'hccn_tool -i 0 -link -g');
      expect(busy.stdout).toBe(syntheticFixture('hccn-busy.txt'));
      expect(busy.exitCode).toBe(1);
    } finally {
      process.kill(-holder.pid!, 'SIGKILL');
      await new Promise((resolve) => holder.once('close', resolve));
    }
    const free = await shell(node, 'hccn_tool -i 0 -link -g');
    expect(free.stdout).toBe('link status: UP\n');
    expect(calls(node).map((c) => c.outcome)).toEqual(['busy', 'ok']);
  });
});

describe('qprep check and the manual procedure on the simulated nodes', () => {
  for (const [family, devices, pings, manualNpuSmi] of [
    // the manual procedure's npu-smi calls: npu-smi info first, then the A3 spod-info loop
    ['a3', 16, 48, 17],
    ['a2', 8, 24, 1],
  ] as const) {
    it(`${family}: every HCCN check passes, every command qprep runs has an answer, one hccn_tool call at a time, each asked once`, async () => {
      const node = nodes[family];
      clearLog(node);
      const run = await qprep(['check', '--format', 'json', '--root', node.root, '--cluster', node.cluster, '--node', node.name], { env: envOf(node) });
      expect(run.exitCode, run.stderr).toBeLessThanOrEqual(1);
      // a JSON run prints nothing else: no warning of Node's (a listener count) either
      expect(run.stderr).toBe('');
      const report = JSON.parse(run.stdout) as { checks: Array<{ id: string; category: string; status: string; message: string }> };
      const hccn = report.checks.filter((c) => c.category === 'hccn');
      // hccn.spod is A3's, hccn.fec A2's (the A3's hccn_tool cannot query FEC)
      const expected = (id: string) => ((family === 'a2' && id === 'hccn.spod') || (family === 'a3' && id === 'hccn.fec') ? 'skip' : 'pass');
      expect(hccn.map((c) => [c.id, c.status])).toEqual(hccn.map((c) => [c.id, expected(c.id)]));
      expect(report.checks.find((c) => c.id === 'hccn.peers')!.message).toMatch(new RegExp(`^all ${pings} pings to ${family}-node2, ${family}-node3, ${family}-node4 ok`));
      // the HBM counters of every card are read and clean
      expect(report.checks.find((c) => c.id === 'npu.ecc')).toMatchObject({ status: 'pass', message: `HBM of ${devices} NPU devices: no uncorrectable error since the driver loaded, no page pending isolation` });
      const logged = calls(node);
      expect(logged.filter((c) => c.outcome !== 'ok')).toEqual([]);
      expect(logged.filter((c) => c.command.startsWith('npu-smi info -t ecc'))).toHaveLength(8);
      const hccnCalls = logged.filter((c) => c.command.startsWith('hccn_tool '));
      // 8 queries a device (ip, link, net_health, netdetect, gateway, lldp, tls, and vnic on A3, fec on A2), and the pings
      expect(hccnCalls).toHaveLength(devices * 8 + pings);
      expect(new Set(hccnCalls.map((c) => c.command)).size).toBe(hccnCalls.length);
      expect(mostAtOnce(logged)).toBe(1);
    });

    it(`${family}: the manual procedure runs every documented loop against the same tools`, async () => {
      const node = nodes[family];
      clearLog(node);
      const run = await shell(node, `bash '${node.manual}'`);
      expect(run.exitCode).toBe(0);
      const logged = calls(node);
      expect(logged.filter((c) => c.outcome !== 'ok')).toEqual([]);
      expect(logged.filter((c) => c.command.startsWith('hccn_tool '))).toHaveLength(devices * 7 + pings);
      expect(logged.filter((c) => c.command.startsWith('npu-smi '))).toHaveLength(manualNpuSmi);
      expect(run.stdout).toContain(ascendFixture('hccn-lldp-ifname-a2x8-mindie-dsv3doc.txt'));
    });
  }
});
