import { isIP } from 'node:net';
import { defaultRoute, parseProcNetRoute } from '../parsers/proc-net-route.js';
import type { NetInterface } from '../host/types.js';
import { describeProbeError } from '../host/types.js';
import type { CheckContext } from '../core/types.js';

/**
 * How the node's address is chosen. `ip` wins, then `nic`, then the default route. Another
 * source of the address (a cluster file) fills `ip` and names itself in `ipSource`.
 */
export interface NodeAddressRequest {
  ip?: string;
  nic?: string;
  /** where `ip` came from when the user did not type it, e.g. "cluster file nodes.yaml" */
  ipSource?: string;
}

export type NodeAddress = { ok: true; ip: string; nic: string; source: string } | { ok: false; problem: string };

/** Interfaces of container networking and virtual bridges: never the one HCCL should use. */
const VIRTUAL = /^(docker|veth|virbr|br-|cni|flannel|cali|tunl|kube|vxlan|weave|lxc|podman)/;

function ipv4Of(iface: NetInterface): string | undefined {
  return iface.addresses.find((a) => a.family === 'IPv4')?.address;
}

function usable(iface: NetInterface): boolean {
  return !iface.loopback && iface.adminUp && iface.operState !== 'down';
}

function names(list: readonly NetInterface[]): string {
  return list.map((i) => i.name).join(', ') || 'none';
}

/**
 * The interface that carries this node's address: the one holding `--ip`, the `--nic`, or the
 * interface of the default route (/proc/net/route, through the host seam). Without a default
 * route (air-gapped clusters often have none) a host with exactly one usable interface uses it.
 */
export async function resolveNodeAddress(ctx: CheckContext, request: NodeAddressRequest): Promise<NodeAddress> {
  const listed = await ctx.host.interfaces();
  if (!listed.ok) return { ok: false, problem: `cannot list the network interfaces: ${listed.message}` };
  const interfaces = listed.value;

  if (request.ip !== undefined) {
    const label = request.ipSource ?? '--ip';
    if (isIP(request.ip) === 0) return { ok: false, problem: `${label}: "${request.ip}" is not an IP address` };
    const owner = interfaces.find((i) => i.addresses.some((a) => a.address === request.ip));
    if (!owner) {
      const local = interfaces.filter((i) => !i.loopback).flatMap((i) => i.addresses.filter((a) => a.family === 'IPv4').map((a) => `${a.address} (${i.name})`));
      return { ok: false, problem: `${label}: ${request.ip} is not an address of this host (its addresses: ${local.join(', ') || 'none'})` };
    }
    if (request.nic !== undefined && request.nic !== owner.name) {
      return { ok: false, problem: `${request.ip} is on ${owner.name}, not on --nic ${request.nic}: HCCL_IF_IP and the *_SOCKET_IFNAME variables must name one interface` };
    }
    // What the user names explicitly may be loopback (a single-node deployment); it must be up.
    if (!owner.adminUp) return { ok: false, problem: `${request.ip} is on ${owner.name}, which is down` };
    return { ok: true, ip: request.ip, nic: owner.name, source: label };
  }

  if (request.nic !== undefined) {
    const iface = interfaces.find((i) => i.name === request.nic);
    if (!iface) return { ok: false, problem: `--nic: no interface named ${request.nic} (interfaces: ${names(interfaces)})` };
    const ip = ipv4Of(iface);
    if (!ip) return { ok: false, problem: `--nic: ${iface.name} has no IPv4 address; pass --ip with the address HCCL should use` };
    if (!iface.adminUp) return { ok: false, problem: `--nic: ${iface.name} is down` };
    return { ok: true, ip, nic: iface.name, source: '--nic' };
  }

  const routes = await ctx.host.readFile('/proc/net/route');
  const route = routes.ok ? defaultRoute(parseProcNetRoute(routes.value)) : undefined;
  if (route) {
    const iface = interfaces.find((i) => i.name === route.iface);
    const ip = iface ? ipv4Of(iface) : undefined;
    if (!iface || !ip) return { ok: false, problem: `the default route goes through ${route.iface}, which has no IPv4 address here; pass --ip or --nic` };
    return { ok: true, ip, nic: iface.name, source: 'default-route' };
  }
  const candidates = interfaces.filter((i) => usable(i) && !VIRTUAL.test(i.name) && ipv4Of(i) !== undefined);
  const why = routes.ok ? 'no default route' : `cannot read the routes (${describeProbeError('/proc/net/route', routes)})`;
  if (candidates.length === 1) return { ok: true, ip: ipv4Of(candidates[0]!)!, nic: candidates[0]!.name, source: 'only-interface' };
  return {
    ok: false,
    problem: `${why} and ${candidates.length === 0 ? 'no usable interface with an IPv4 address' : `${candidates.length} candidate interfaces (${names(candidates)})`}: pass --ip ADDRESS or --nic NAME (the interface that carries this node's cluster address)`,
  };
}
