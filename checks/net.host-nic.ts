import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import type { NetInterface } from '../src/host/types.js';
import { judgeNicLinks } from '../src/probes/nic-link.js';
import { parseIfnameSelector, selectorAllows, type IfnameVariable } from '../src/parsers/socket-ifname.js';
import { isIP } from '../src/util/ip.js';
import { launchView } from '../src/probes/launch.js';
import { summarizeList } from '../src/util/text.js';

const SOCKET_VARIABLES: readonly IfnameVariable[] = ['GLOO_SOCKET_IFNAME', 'TP_SOCKET_IFNAME', 'HCCL_SOCKET_IFNAME'];

function isUp(iface: NetInterface): boolean {
  return iface.adminUp && iface.operState !== 'down' && iface.operState !== 'lowerlayerdown';
}

function state(iface: NetInterface): string {
  return `${iface.name} (${isUp(iface) ? 'UP' : `DOWN, operstate ${iface.operState}`})`;
}

export default defineCheck({
  id: 'net.host-nic',
  title: 'Host NIC for HCCL, Gloo and TP sockets',
  category: 'network',
  level: 'required',
  why:
    'HCCL bootstraps over the host network (HCCL_IF_IP, HCCL_SOCKET_IFNAME) and torch\'s Gloo and TP sockets use ' +
    'GLOO_SOCKET_IFNAME and TP_SOCKET_IFNAME. An address that is not on this host, an interface that is down or missing, ' +
    'or variables naming different interfaces give "Connection closed by peer", a fall back to loopback, or an HCCL ' +
    'root-info link failure between nodes. The address comes from HCCL_IF_IP or, with --cluster, from this node\'s host ' +
    'address; the interface from the variables or the cluster file\'s ifname.',
  reads: [
    'HCCL_IF_IP',
    'GLOO_SOCKET_IFNAME',
    'TP_SOCKET_IFNAME',
    'HCCL_SOCKET_IFNAME',
    'the network interfaces',
    'the host inventory (NIC state, speed, MTU)',
    'the cluster file (host, ifname)',
  ],
  fix: 'Export the address and interface of this node in the launch script: source <(qprep env --cluster FILE) prints HCCL_IF_IP and the three *_SOCKET_IFNAME lines.',
  async run(ctx) {
    const env = ctx.host.env();
    const cluster = ctx.cluster;
    const envIp = env.HCCL_IF_IP?.trim() || undefined;
    const set = SOCKET_VARIABLES.filter((name) => (env[name] ?? '').trim() !== '');
    const deploymentNodes = ctx.profile.deployment.nodes;
    // the launch script exporting them is judged by launch.network
    const view = !envIp && set.length === 0 && !cluster && deploymentNodes >= 2 ? await launchView(ctx) : undefined;
    const scriptSetsThem = view !== undefined && ['HCCL_IF_IP', ...SOCKET_VARIABLES].some((name) => view.env.has(name));
    if (!envIp && set.length === 0 && !cluster && deploymentNodes >= 2 && !scriptSetsThem) {
      // a multi-node profile is judged as multi-node: "fine on one node" does not hold
      return warn(
        `the deployment of profile ${ctx.profile.name} spans ${deploymentNodes} nodes, but HCCL_IF_IP and the *_SOCKET_IFNAME variables are not set and there is no cluster file: the interface HCCL and Gloo use between nodes is not checked`,
        { remediation: 'give the cluster file (qprep check --cluster FILE), or export the variables, as the launch script does, in the shell that runs the check: source <(qprep env --cluster FILE)' },
      );
    }
    if (!envIp && set.length === 0 && !cluster) {
      return skip('HCCL_IF_IP and the *_SOCKET_IFNAME variables are not set and there is no cluster file: HCCL and Gloo pick an interface themselves, fine on one node', {
        remediation: 'for a multi-node launch, export them in the launch script: source <(qprep env --cluster FILE)',
      });
    }
    const listed = await ctx.host.interfaces();
    if (!listed.ok) return error(`cannot list the network interfaces: ${listed.message}`, { remediation: 'run qprep where /sys/class/net and the interfaces are visible (the host network namespace: docker run --net=host)' });
    const interfaces = listed.value;
    const problems: string[] = [];
    const evidence: Record<string, unknown> = {
      HCCL_IF_IP: envIp ?? null,
      variables: Object.fromEntries(set.map((n) => [n, env[n]])),
      cluster: cluster ? { node: cluster.self.name, host: cluster.self.host, ifname: cluster.self.ifname } : null,
    };

    const clusterHost = cluster?.self.host ?? null;
    const address = envIp ?? clusterHost ?? undefined;
    const addressSource = envIp ? 'HCCL_IF_IP' : `the cluster file's host of ${cluster?.self.name}`;
    if (envIp && clusterHost && envIp !== clusterHost) problems.push(`HCCL_IF_IP=${envIp} but the cluster file gives ${cluster!.self.name} the host address ${clusterHost}`);
    let owner: NetInterface | undefined;
    if (address !== undefined) {
      if (!isIP(address)) problems.push(`${addressSource} "${address.slice(0, 60)}" is not an IP address`);
      else {
        owner = interfaces.find((i) => i.addresses.some((a) => a.address === address));
        if (!owner) problems.push(`${addressSource} ${address} is not an address of this host (it has ${summarizeList(interfaces.filter((i) => !i.loopback).flatMap((i) => i.addresses.filter((a) => a.family === 'IPv4').map((a) => `${a.address} on ${i.name}`)), 4) || 'none'})`);
        else if (!isUp(owner)) problems.push(`${address} is on ${state(owner)}`);
      }
    }
    evidence.addressInterface = owner?.name ?? null;

    // The variables as the launch will see them; without them, the cluster file's ifname says what they should name.
    const selectors = set.map((name) => ({ name, value: env[name]!, from: 'environment' }));
    if (selectors.length === 0 && cluster?.self.ifname) selectors.push({ name: 'HCCL_SOCKET_IFNAME', value: `=${cluster.self.ifname}`, from: 'cluster file ifname' });
    const chosen = new Map<string, string[]>();
    for (const { name, value, from } of selectors) {
      const selector = parseIfnameSelector(name as IfnameVariable, value);
      const label = from === 'environment' ? `${name}=${value}` : `ifname ${value.slice(1)} (cluster file)`;
      if (!selector.ok) {
        problems.push(`${label} ${selector.reason}`);
        continue;
      }
      const matches = interfaces.filter((i) => !(selector.exclude && i.loopback) && selectorAllows(selector, i.name));
      chosen.set(label, matches.map((m) => m.name));
      if (matches.length === 0) {
        problems.push(`${label} matches no interface (this host has ${summarizeList(interfaces.map((i) => i.name), 6)})`);
        continue;
      }
      if (selector.exact && !selector.exclude) {
        const down = matches.filter((m) => !isUp(m));
        if (down.length > 0) {
          problems.push(`${label} names ${summarizeList(down.map(state), 3)}`);
          continue;
        }
      } else if (!matches.some(isUp)) {
        problems.push(`${label} matches only interfaces that are down: ${summarizeList(matches.map(state), 3)}`);
        continue;
      }
      if (owner && !matches.some((m) => m.name === owner!.name)) problems.push(`${label} does not select ${owner.name}, which carries ${address}`);
      if (!owner && address === undefined && !matches.some((m) => isUp(m) && m.addresses.some((a) => a.family === 'IPv4'))) {
        problems.push(`${label} selects no UP interface with an IPv4 address`);
      }
    }
    evidence.selected = Object.fromEntries(chosen);

    // the link of the NICs in use (state, speed, MTU) from the host inventory
    const link = await judgeNicLinks(ctx, [owner?.name, ...[...chosen.values()].flat()]);
    problems.push(...link.problems);
    evidence.links = link.links;

    if (problems.length > 0) {
      const nic = owner?.name ?? cluster?.self.ifname ?? '<interface>';
      const ip = address ?? '<address>';
      return fail(problems.length === 1 ? problems[0]! : `${problems.length} problems: ${summarizeList(problems, 2)}`, {
        expected: 'HCCL_IF_IP on a local UP interface, and every *_SOCKET_IFNAME selecting that interface',
        actual: problems.join('; '),
        remediation: `export HCCL_IF_IP=${ip} GLOO_SOCKET_IFNAME=${nic} TP_SOCKET_IFNAME=${nic} HCCL_SOCKET_IFNAME=${nic} in the launch script (source <(qprep env${cluster ? ` --cluster ${cluster.file}` : ''}) prints them)`,
        evidence,
        details: problems.length > 1 ? problems : [],
      });
    }
    const selected = [...new Set([...chosen.values()].flat())];
    const parts: string[] = [];
    const fromFile = set.length === 0 && chosen.size > 0 ? ', the ifname of the cluster file' : '';
    if (address !== undefined && owner) parts.push(`${envIp ? 'HCCL_IF_IP' : 'the cluster host address'} ${address} is on ${owner.name} (UP)${fromFile}`);
    if (set.length > 0) parts.push(`${set.join(', ')} select ${summarizeList(selected, 3)}`);
    if (set.length === 0 && envIp === undefined) {
      const nic = owner?.name ?? cluster?.self.ifname ?? selected[0] ?? '<interface>';
      parts.push(`at launch export HCCL_IF_IP=${address ?? '<address>'} and GLOO/TP/HCCL_SOCKET_IFNAME=${nic} (qprep env --cluster prints them)`);
    }
    if (link.summary.length > 0) parts.push(link.summary.join(', '));
    if (link.warnings.length > 0) {
      return warn(`${link.warnings.join('; ')}; ${parts.join('; ')}`, {
        expected: `a NIC of at least ${ctx.profile.host.nic.minSpeedMbps} Mb/s, full duplex, for the sockets of a multi-node deployment`,
        actual: link.summary.join(', '),
        remediation:
          'point HCCL_IF_IP and GLOO/TP/HCCL_SOCKET_IFNAME at the data NIC (qprep facts lists each NIC with its speed), or lower host.nic.minSpeedMbps in the profile',
        evidence,
      });
    }
    return pass(parts.join('; '), { evidence });
  },
});
