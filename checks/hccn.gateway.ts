import { pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { hccnGateway, hccnIp } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { inIPv4Network, prefixOfNetmask } from '../src/util/ip.js';
import { summarizeList } from '../src/util/text.js';

interface Route {
  device: number;
  ip: string | null;
  prefix: number | null;
  gateway: string | null;
}

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.gateway',
  category: 'hccn',
  order: 60,
  level: 'required',
  cost: { hccnTool: [{ args: '-gateway -g' }, { args: '-ip -g' }] },
  action: 'reconfigure',
  prefetch: prefetchEvery(() => [hccnGateway, hccnIp]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.gateway'];
    const list = ctx.text.report.list;
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const [gateways, ips] = await Promise.all([askEvery(ctx, scope.devices, hccnGateway), askEvery(ctx, scope.devices, hccnIp)]);
    const failed = (await unanswered(ctx, gateways, t.readGateway)) ?? (await unanswered(ctx, ips, t.readIp));
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
      let neededText: string | undefined;
      let foreignText: string | undefined;
      if (needed.length > 0) {
        const example = outside(needed[0]!)[0]!;
        const devices = summarizeList(needed.map((r) => devName(r.device)), 6, list);
        neededText = t.needed({ count: needed.length, devices, node: example.node, device: example.device, ip: example.ip });
      }
      if (foreign.length > 0) {
        const items = foreign.map((r) => t.foreignItem({ device: devName(r.device), gateway: r.gateway, ip: r.ip, prefix: r.prefix }));
        foreignText = t.foreign({ list: summarizeList(items, 4, list) });
      }
      const first = (needed[0] ?? foreign[0])!;
      const message = neededText !== undefined && foreignText !== undefined ? t.both({ needed: neededText, foreign: foreignText }) : (neededText ?? foreignText)!;
      return hccnProblem(ctx, message, {
        expected: 'a gateway inside each device subnet, wherever peers are outside it',
        actual: routes.map((r) => `${devName(r.device)}: ${r.gateway ?? 'none'}`).join(', '),
        remediation: t.setFix({ device: first.device, ip: first.ip, prefix: first.prefix }),
        evidence,
      });
    }
    const missing = routes.filter((r) => !r.gateway);
    if (missing.length > 0) {
      return warn(t.missing({ missing: missing.length, total: routes.length, devices: summarizeList(missing.map((r) => devName(r.device)), 8, list) }), {
        expected: 'a default gateway on every device',
        actual: `none on ${missing.map((r) => devName(r.device)).join(', ')}`,
        remediation: t.missingFix({ device: missing[0]!.device }),
        evidence,
      });
    }
    return pass(t.ok({ gateways: summarizeList([...new Set(routes.map((r) => r.gateway!))], 3, list) }), { evidence });
  },
});
