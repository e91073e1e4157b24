import type { CheckContext } from '../core/types.js';
import { describeProbeError } from '../host/types.js';
import { parseProcNetTcp, TCP_LISTEN, type TcpSocket } from '../parsers/proc-net-tcp.js';

/**
 * The TCP sockets listening on this host (/proc/net/tcp and tcp6), read once per run, and who
 * holds them. Shared by net.ports (the profile's ports) and launch.ports (the script's).
 */

export type Listening = { ok: true; sockets: TcpSocket[] } | { ok: false; problem: string };

export function listeningSockets(ctx: CheckContext): Promise<Listening> {
  return ctx.shared('listening-sockets', async (): Promise<Listening> => {
    const sockets: TcpSocket[] = [];
    for (const [file, family] of [['/proc/net/tcp', 'IPv4'], ['/proc/net/tcp6', 'IPv6']] as const) {
      const read = await ctx.host.readFile(file);
      if (read.ok) sockets.push(...parseProcNetTcp(read.value, family).filter((s) => s.state === TCP_LISTEN));
      // a kernel without IPv6 has no tcp6; the problem is only ever read by a person: in the run's language
      else if (!(family === 'IPv6' && read.code === 'ENOENT')) return { ok: false, problem: describeProbeError(file, read, ctx.text.probes.file) };
    }
    return { ok: true, sockets };
  });
}

export interface SocketOwner {
  pid: number;
  name: string;
}

/** Who holds a socket inode: scans /proc/<pid>/fd until every inode is found; owners may be invisible in a container. */
export async function socketOwners(ctx: CheckContext, inodes: Set<number>): Promise<Map<number, SocketOwner>> {
  const owners = new Map<number, SocketOwner>();
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
