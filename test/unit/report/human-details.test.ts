import { describe, expect, it } from 'vitest';
import peers from '../../../checks/hccn.peers.js';
import { reportSchema } from '../../../src/report/schema.js';
import { formatHuman } from '../../../src/report/human.js';
import { formatJunit } from '../../../src/report/junit.js';
import { syntheticFixture } from '../../helpers/fixtures.js';
import { captureLines, hccnHost, runHccn } from '../../helpers/hccn-host.js';
import { reportOf, result } from '../../helpers/reports.js';

const DEVICES = Array.from({ length: 16 }, (_, d) => d);
const roce = (node: number, d: number) => `11.12.${164 + node}.${80 + d}`;

/** Four A3 nodes in four super pods (so RoCE between them), 16 devices each: node3 is off the network, node2 dev5 is dark. */
async function sixteenByFour() {
  const nodes = [1, 2, 3, 4].map((n) => `  - {name: node${n}, host: 10.0.0.${n}, superPod: ${n}, devices: [${DEVICES.map((d) => `{device: ${d}, ip: ${roce(n, d)}}`).join(', ')}]}`);
  const cluster = `family: a3\nnodes:\n${nodes.join('\n')}\n`;
  const ok = (d: number, address: string) => captureLines('hccn-ping-success-a2x8-mindie-dsv3doc.txt', (d % 8) * 5, 5).replace(/device \d+ PING 11\.12\.165\.80/, `device ${d} PING ${address}`);
  const lost = (d: number, address: string) => syntheticFixture('hccn-ping-no-reply.txt').replace('device 3', `device ${d}`).replace('198.18.2.13', address);
  const pings = [2, 3, 4].flatMap((n) =>
    DEVICES.map((d) => {
      const address = roce(n, d);
      return { device: d, address, answer: n === 3 || (n === 2 && d === 5) ? lost(d, address) : ok(d, address) };
    }),
  );
  const spec = hccnHost({ family: 'a3', answers: { ip: (d) => `ipaddr:${roce(1, d)}\nnetmask:255.255.255.0\n` }, pings, spod: () => 'This device does not support querying spod-info.\n' });
  return runHccn(peers, spec, { cluster, node: 'node1' });
}

describe('the report of a 16-device, 4-node cluster stays readable', () => {
  it('one headline, one line per peer, the diagnosis, then every failing pair; the fix last', async () => {
    const { result: peersResult } = await sixteenByFour();
    expect(peersResult.status).toBe('fail');
    expect(peersResult.message).toBe(
      '17 of 48 pings failed: node1 dev5 -> node2 dev5 (11.12.166.85): 100% loss, node1 dev0 -> node3 dev0 (11.12.167.80): 100% loss, node1 dev1 -> node3 dev1 (11.12.167.81): 100% loss and 14 more',
    );
    const report = reportOf([result({ id: 'hccn.link', status: 'pass' }), { ...peersResult, durationMs: 5 }]);
    const parsed = reportSchema.safeParse(report);
    expect(parsed.success, parsed.error?.message).toBe(true);
    const text = formatHuman(report, { color: false });
    const block = text.split('\n').filter((line) => line.startsWith('             '));
    expect(block.slice(0, 4)).toEqual([
      '             · node2: 15 of 16 ok; failing dev5 (100% loss)',
      '             · node3: 0 of 16 ok; failing dev0 (100% loss), dev1 (100% loss), dev2 (100% loss), dev3 (100% loss), dev4 (100% loss), dev5 (100% loss) and 10 more',
      '             · node4: 16 of 16 ok',
      '             · node3 answered none of 16 pings: the node is down or off the NPU network, or its device IPs in the cluster file are wrong',
    ]);
    expect(block).toContain('             · node1 dev5 -> node2 dev5 (11.12.166.85): 100% loss');
    expect(block).toContain('             · node1 dev15 -> node3 dev15 (11.12.167.95): 100% loss');
    // 3 peers + 1 diagnosis + 17 pairs, then the fix: a screen, not a scroll
    expect(block).toHaveLength(3 + 1 + 17 + 1);
    expect(block.at(-1)).toMatch(/^ {13}fix: start with node1 dev5 -> node2 dev5/);
    expect(text.split('\n').filter((line) => line.length >= 240).map((l) => l.slice(0, 60))).toEqual([]);
  });

  it('passing checks keep their details to the JSON; more than 40 lines end with a count', async () => {
    const many = Array.from({ length: 45 }, (_, i) => `pair ${i}`);
    const text = formatHuman(reportOf([result({ id: 'hccn.peers', status: 'fail', details: many }), result({ id: 'hccn.tls', status: 'pass', details: ['quiet'] })]), { color: false });
    expect(text).toContain('· pair 39\n');
    expect(text).not.toContain('pair 40');
    expect(text).toContain('· ... and 5 more (--format json has them all)');
    expect(text).not.toContain('quiet');
  });

  it('JUnit carries the details in the failure body', async () => {
    const xml = formatJunit(reportOf([result({ id: 'hccn.peers', status: 'fail', details: ['node1 dev3 -> node2 dev3 (198.18.2.3): 100% loss'] })]));
    expect(xml).toContain('  node1 dev3 -&gt; node2 dev3 (198.18.2.3): 100% loss');
  });
});
