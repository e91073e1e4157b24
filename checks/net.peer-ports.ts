import { fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { plural, summarizeList } from '../src/util/text.js';

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

export default defineCheck({
  id: 'net.peer-ports',
  title: 'Peers reachable by TCP on the cluster ports',
  category: 'network',
  level: 'required',
  why:
    'Every node connects to the master\'s data-parallel RPC port and master port (and Ray or other ports the cluster file ' +
    'names) over the host network. Before launch nothing listens yet, and that is fine: a refused connection proves the ' +
    'host is reachable and no firewall drops the port. A timeout or "no route to host" means the launch will hang there.',
  reads: ['the cluster file (ports, master, host addresses)', 'TCP connections to the peers'],
  fix: 'Open the port on the peer\'s firewall (firewall-cmd --add-port=PORT/tcp or iptables), fix the route between the nodes, or correct the host address in the cluster file.',
  async run(ctx) {
    const loaded = ctx.cluster;
    if (!loaded) return skip('no cluster file: no peer ports to reach', { remediation: 'run "qprep check --cluster FILE" on every node of a multi-node deployment' });
    const { cluster, self } = loaded;
    if (cluster.ports.length === 0) {
      return skip(`the cluster file ${loaded.file} names no ports`, { remediation: 'list the ports peers must reach under ports: (e.g. [{port: 13389, name: dp-rpc}, {port: 6379, name: ray, on: all}])' });
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
      const lines = bad.map((p) => `${label(p)}: ${p.error ?? 'no answer'}`);
      return fail(`${bad.length} of ${probes.length} peer ports not reachable from ${self.name}: ${summarizeList(lines, 3)}`, {
        expected: 'a connection or a refusal from every peer port (reachable host, port not filtered)',
        actual: lines.join('; '),
        remediation: `from ${self.name} try "nc -vz ${bad[0]!.host} ${bad[0]!.port}"; open TCP ${bad[0]!.port} on ${bad[0]!.node}'s firewall or fix the route between the nodes`,
        evidence,
        details: lines.length > 3 ? lines : [],
      });
    }
    if (unknown.length > 0) {
      return warn(`no host address for ${summarizeList(unknown, 4)} in the cluster file; the other ${probes.length} peer ports are reachable`, {
        remediation: 'give every node its host address (host:) in the cluster file',
        evidence,
      });
    }
    const listening = probes.filter((p) => p.result === 'listening').length;
    const ownText = own.length > 0 ? `; this node is the master (${summarizeList(own, 3)} will listen here)` : '';
    if (probes.length === 0) return pass(`no peer port to reach from ${self.name}${ownText}`, { evidence });
    return pass(`${plural(probes.length, 'peer port')} reachable (${listening} listening, ${probes.length - listening} refused: host up, nothing listening yet)${ownText}`, { evidence });
  },
});
