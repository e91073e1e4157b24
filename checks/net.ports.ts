import { error, fail, pass } from '../src/core/outcome.js';
import { expandPorts } from '../src/core/profile.js';
import { defineCheck, type CheckContext } from '../src/core/types.js';
import { describeProbeError } from '../src/host/types.js';
import { parseProcNetTcp, TCP_LISTEN, type TcpSocket } from '../src/parsers/proc-net-tcp.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

const DEFAULT_HCCL_BASE_PORT = 60000;

/** Who holds a socket inode: scans /proc/<pid>/fd until every inode is found; owners may be invisible in a container. */
async function socketOwners(ctx: CheckContext, inodes: Set<number>): Promise<Map<number, { pid: number; name: string }>> {
  const owners = new Map<number, { pid: number; name: string }>();
  const proc = await ctx.host.readDir('/proc');
  if (!proc.ok) return owners;
  const pids = proc.value.map((e) => e.name).filter((n) => /^\d+$/.test(n));
  for (const pid of pids) {
    if (owners.size === inodes.size) break;
    const fds = await ctx.host.readDir(`/proc/${pid}/fd`);
    if (!fds.ok) continue;
    for (const fd of fds.value) {
      const link = await ctx.host.readLink(`/proc/${pid}/fd/${fd.name}`);
      const inode = link.ok ? /^socket:\[(\d+)\]$/.exec(link.value)?.[1] : undefined;
      if (inode && inodes.has(Number(inode)) && !owners.has(Number(inode))) {
        const comm = await ctx.host.readFile(`/proc/${pid}/comm`);
        owners.set(Number(inode), { pid: Number(pid), name: comm.ok ? comm.value.trim() : '?' });
      }
    }
  }
  return owners;
}

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

    const listening: TcpSocket[] = [];
    const problems: string[] = [];
    for (const [file, family] of [['/proc/net/tcp', 'IPv4'], ['/proc/net/tcp6', 'IPv6']] as const) {
      const read = await ctx.host.readFile(file);
      if (read.ok) listening.push(...parseProcNetTcp(read.value, family).filter((s) => s.state === TCP_LISTEN));
      else if (!(family === 'IPv6' && read.code === 'ENOENT')) problems.push(describeProbeError(file, read));
    }
    if (problems.length > 0) return error(`cannot read listening sockets: ${problems[0]}`, { remediation: 'make /proc/net readable (mount /proc) and re-run' });

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
