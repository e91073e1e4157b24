import { pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { hccnGateway, hccnIp } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { inIPv4Network, prefixOfNetmask } from '../src/util/ip.js';
import { plural, summarizeList } from '../src/util/text.js';

interface Route {
  device: number;
  ip: string | null;
  prefix: number | null;
  gateway: string | null;
}

export default defineCheck({
  id: 'hccn.gateway',
  title: 'NPU default gateway',
  category: 'hccn',
  level: 'required',
  why:
    'Each NPU port routes traffic outside its own subnet through its default gateway. When the cluster\'s device IPs span ' +
    'several subnets (one per rack, one per switch plane) a port without a gateway cannot reach its peers, and HCCL fails ' +
    'with "Transport init error ... Create Dest error". A gateway outside the port\'s own subnet is never reachable. ' +
    'Without --cluster (or when all peers share the subnet) a missing gateway only warns.',
  reads: ['hccn_tool -i <device> -gateway -g', 'hccn_tool -i <device> -ip -g', 'the cluster file (peer device IPs)'],
  fix: 'hccn_tool -i N -gateway -s gateway <router of the device subnet> (persisted in /etc/hccn.conf as gateway_N).',
  prefetch: prefetchEvery(() => [hccnGateway, hccnIp]),
  async run(ctx) {
    const scope = await hccnScope(ctx, 'the NPU gateways');
    if (!scope.ok) return scope.outcome;
    const [gateways, ips] = await Promise.all([askEvery(ctx, scope.devices, hccnGateway), askEvery(ctx, scope.devices, hccnIp)]);
    const failed = (await unanswered(ctx, gateways, 'the gateway')) ?? (await unanswered(ctx, ips, 'the device IP'));
    if (failed) return failed;
    const routes: Route[] = scope.devices.map((device, i) => {
      const ipAnswer = ips[i]!.answer;
      const gatewayAnswer = gateways[i]!.answer;
      const ipEntry = ipAnswer.ok ? ipAnswer.value.entries[0] : undefined;
      const gwEntry = gatewayAnswer.ok ? gatewayAnswer.value.entries[0] : undefined;
      return {
        device: device.device,
        ip: ipEntry?.address ?? null,
        prefix: ipEntry?.netmask ? (prefixOfNetmask(ipEntry.netmask) ?? null) : null,
        gateway: gwEntry?.gateway ?? null,
      };
    });
    const peerAddresses = (ctx.cluster?.cluster.nodes ?? [])
      .filter((n) => n.name !== ctx.cluster?.self.name)
      .flatMap((n) => n.devices.map((d) => ({ node: n.name, device: d.device, ip: d.ip })))
      .filter((p): p is { node: string; device: number; ip: string } => p.ip !== null);
    const outside = (route: Route) => (route.ip && route.prefix !== null ? peerAddresses.filter((p) => !inIPv4Network(p.ip, route.ip!, route.prefix!)) : []);
    const evidence = { routes, peersOutsideSubnet: routes.map((r) => ({ device: r.device, count: outside(r).length })) };

    const foreign = routes.filter((r) => r.gateway && r.ip && r.prefix !== null && !inIPv4Network(r.gateway, r.ip, r.prefix));
    const needed = routes.filter((r) => !r.gateway && outside(r).length > 0);
    if (foreign.length > 0 || needed.length > 0) {
      const parts: string[] = [];
      if (needed.length > 0) {
        const example = outside(needed[0]!)[0]!;
        parts.push(`${plural(needed.length, 'device')} without a gateway ${needed.length === 1 ? 'has' : 'have'} peers in other subnets (${summarizeList(needed.map((r) => devName(r.device)), 6)}; e.g. ${example.node} dev${example.device} ${example.ip})`);
      }
      if (foreign.length > 0) parts.push(`gateway outside the device subnet on ${summarizeList(foreign.map((r) => `${devName(r.device)} (${r.gateway} for ${r.ip}/${r.prefix})`), 4)}`);
      const first = (needed[0] ?? foreign[0])!;
      return hccnProblem(ctx, parts.join('; '), {
        expected: 'a gateway inside each device subnet, wherever peers are outside it',
        actual: routes.map((r) => `${devName(r.device)}: ${r.gateway ?? 'none'}`).join(', '),
        remediation: `hccn_tool -i ${first.device} -gateway -s gateway <router of ${first.ip ?? 'the device'}/${first.prefix ?? '?'}>   (and likewise for the other devices named)`,
        evidence,
      });
    }
    const missing = routes.filter((r) => !r.gateway);
    if (missing.length > 0) {
      return warn(`${missing.length} of ${routes.length} devices have no default gateway (${summarizeList(missing.map((r) => devName(r.device)), 8)}); fine while every peer shares their subnet`, {
        expected: 'a default gateway on every device',
        actual: `none on ${missing.map((r) => devName(r.device)).join(', ')}`,
        remediation: `hccn_tool -i ${missing[0]!.device} -gateway -s gateway <router of the device subnet>`,
        evidence,
      });
    }
    return pass(`every device has a gateway in its subnet (${summarizeList([...new Set(routes.map((r) => r.gateway!))], 3)})`, { evidence });
  },
});
