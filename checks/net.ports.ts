import { error, fail, pass } from '../src/core/outcome.js';
import { expandPorts } from '../src/core/profile.js';
import { defineCheck } from '../src/core/types.js';
import { listeningSockets, socketOwners } from '../src/probes/listening.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

const DEFAULT_HCCL_BASE_PORT = 60000;

export default defineCheck({
  id: 'net.ports',
  title: 'Ports free for vLLM and HCCL',
  category: 'network',
  level: 'required',
  why:
    'vLLM binds its API port, the data-parallel RPC port and the KV-transfer ports; HCCL listens on ' +
    'HCCL_IF_BASE_PORT (default 60000) plus one port per device. A leftover process on any of them fails the launch ' +
    'with "Failed to bind the IP port" (EJ0003) after the weights are loaded.',
  reads: ['/proc/net/tcp', '/proc/net/tcp6', '/proc/<pid>/fd (owners of busy ports)', 'HCCL_IF_BASE_PORT'],
  fix: 'Stop the process that holds the port, or move vLLM (--port, --data-parallel-rpc-port) or HCCL (HCCL_IF_BASE_PORT) elsewhere.',
  async run(ctx) {
    const hostCfg = ctx.profile.host;
    const envBase = ctx.host.env().HCCL_IF_BASE_PORT;
    const base = envBase && /^\d+$/.test(envBase) ? Number(envBase) : DEFAULT_HCCL_BASE_PORT;
    const hcclPorts = Array.from({ length: hostCfg.hcclPortCount }, (_, i) => base + i).filter((p) => p <= 65535);
    const wanted = new Set([...expandPorts(hostCfg.ports), ...hcclPorts]);
    if (wanted.size === 0) return pass('no port to check (host.ports is empty and host.hcclPortCount is 0)');

    const listed = await listeningSockets(ctx);
    if (!listed.ok) return error(`cannot read listening sockets: ${listed.problem}`, { remediation: 'make /proc/net readable (mount /proc) and re-run' });
    const listening = listed.sockets;

    const busy = listening.filter((s) => wanted.has(s.localPort)).sort((a, b) => a.localPort - b.localPort);
    const checked = formatRanges([...wanted]);
    if (busy.length === 0) return pass(`ports ${checked} are free`, { evidence: { ports: checked, hcclBasePort: base } });

    const owners = await socketOwners(ctx, new Set(busy.map((s) => s.inode)));
    const described = busy.map((s) => {
      const owner = owners.get(s.inode);
      return `${s.localPort} (${s.localAddress}${owner ? `, pid ${owner.pid} ${owner.name}` : ', owner not visible'})`;
    });
    const unique = [...new Set(described)];
    const firstOwner = owners.get(busy[0]!.inode);
    return fail(`${unique.length} of the ports vLLM/HCCL need ${unique.length === 1 ? 'is' : 'are'} in use: ${summarizeList(unique)}`, {
      expected: `free: ${checked}`,
      actual: `listening: ${formatRanges(busy.map((s) => s.localPort))}`,
      remediation: firstOwner
        ? `stop pid ${firstOwner.pid} (${firstOwner.name}) if it is a leftover (kill ${firstOwner.pid}), or choose other ports (--port, --data-parallel-rpc-port, HCCL_IF_BASE_PORT)`
        : 'find the owner with "sudo ss -ltnp" and stop it, or choose other ports (--port, --data-parallel-rpc-port, HCCL_IF_BASE_PORT)',
      evidence: {
        ports: checked,
        hcclBasePort: base,
        busy: busy.map((s) => ({ port: s.localPort, address: s.localAddress, inode: s.inode, owner: owners.get(s.inode) ?? null })),
      },
    });
  },
});
