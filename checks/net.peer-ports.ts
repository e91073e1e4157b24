import { fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { en } from '../src/i18n/en/index.js';
import { summarizeList } from '../src/util/text.js';

/** A peer on the same network answers a SYN in milliseconds; a firewall that drops it never does. */
const CONNECT_TIMEOUT_MS = 3_000;

interface Probe {
  node: string;
  host: string;
  port: number;
  name: string | null;
  result: 'listening' | 'refused' | 'unreachable';
  error: string | null;
  durationMs: number;
}

function label(p: Pick<Probe, 'node' | 'host' | 'port' | 'name'>): string {
  return `${p.node} ${p.host}:${p.port}${p.name ? ` (${p.name})` : ''}`;
}

// title, why, fix, reads and every message: src/i18n/*/checks/net.ts
export default defineCheck({
  id: 'net.peer-ports',
  category: 'network',
  order: 40,
  level: 'required',
  cost: { connects: true },
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['net.peer-ports'];
    const list = ctx.text.report.list;
    const loaded = ctx.cluster;
    if (!loaded) return skip(t.noCluster, { remediation: t.noClusterFix });
    const { cluster, self } = loaded;
    if (cluster.ports.length === 0) {
      return skip(t.noPorts({ file: loaded.file }), { remediation: t.noPortsFix });
    }
    const targets: Array<Omit<Probe, 'result' | 'error' | 'durationMs'>> = [];
    const unknown: string[] = [];
    const own: string[] = [];
    for (const port of cluster.ports) {
      const nodes = port.on === 'all' ? cluster.nodes.filter((n) => n.name !== self.name) : cluster.nodes.filter((n) => n.name === cluster.master);
      if (port.on === 'master' && cluster.master === self.name) own.push(`${port.port}${port.name ? ` (${port.name})` : ''}`);
      for (const node of nodes) {
        if (node.name === self.name) continue;
        if (!node.host) unknown.push(`${node.name}:${port.port}`);
        else targets.push({ node: node.name, host: node.host, port: port.port, name: port.name });
      }
    }
    const timeoutMs = Math.min(ctx.timeoutMs, CONNECT_TIMEOUT_MS);
    const probes: Probe[] = await Promise.all(
      targets.map(async (t) => {
        const r = await ctx.host.tcpConnect(t.host, t.port, timeoutMs);
        const result: Probe['result'] = r.ok ? 'listening' : r.error === 'ECONNREFUSED' ? 'refused' : 'unreachable';
        return { ...t, result, error: r.error ?? null, durationMs: r.durationMs };
      }),
    );
    const evidence = { timeoutMs, probes, ownPorts: own, noAddress: unknown };
    const bad = probes.filter((p) => p.result === 'unreachable');
    if (bad.length > 0) {
      const lines = bad.map((p) => t.unreachableLine({ port: label(p), error: p.error }));
      return fail(t.unreachable({ bad: bad.length, total: probes.length, node: self.name, list: summarizeList(lines, 3, list) }), {
        expected: 'a connection or a refusal from every peer port (reachable host, port not filtered)',
        // for programs: in English, whatever the run's language
        actual: bad.map((p) => en.checks['net.peer-ports'].unreachableLine({ port: label(p), error: p.error })).join('; '),
        remediation: t.unreachableFix({ node: self.name, host: bad[0]!.host, port: bad[0]!.port, peer: bad[0]!.node }),
        evidence,
        details: lines.length > 3 ? lines : [],
      });
    }
    if (unknown.length > 0) {
      return warn(t.noAddress({ list: summarizeList(unknown, 4, list), reachable: probes.length }), {
        remediation: t.noAddressFix,
        evidence,
      });
    }
    const listening = probes.filter((p) => p.result === 'listening').length;
    const ownText = own.length > 0 ? t.isMaster({ ports: summarizeList(own, 3, list) }) : '';
    if (probes.length === 0) return pass(t.nothingToReach({ node: self.name, master: ownText }), { evidence });
    return pass(t.reachable({ count: probes.length, listening, refused: probes.length - listening, master: ownText }), { evidence });
  },
});
