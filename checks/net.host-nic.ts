import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { en } from '../src/i18n/en/index.js';
import type { Catalogue } from '../src/i18n/index.js';
import type { Phrase } from '../src/i18n/phrase.js';
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

type NicText = Catalogue['checks']['net.host-nic'];

function state(iface: NetInterface, t: NicText): string {
  return t.interfaceState({ name: iface.name, up: isUp(iface), operState: iface.operState });
}

const nic = (c: Catalogue) => c.checks['net.host-nic'];

/** The address HCCL binds (HCCL_IF_IP, else the cluster file's host): an IP of an UP interface of this host. Its interface, when it has one. */
function judgeAddress(interfaces: readonly NetInterface[], address: string | undefined, addressSource: (c: Catalogue) => string, problems: Phrase[]): NetInterface | undefined {
  if (address === undefined) return undefined;
  if (!isIP(address)) {
    problems.push((c) => nic(c).notAnIp({ source: addressSource(c), address: address.slice(0, 60) }));
    return undefined;
  }
  const found = interfaces.find((i) => i.addresses.some((a) => a.address === address));
  const local = interfaces.filter((i) => !i.loopback).flatMap((i) => i.addresses.filter((a) => a.family === 'IPv4').map((a) => ({ address: a.address, name: i.name })));
  if (!found) {
    problems.push((c) => nic(c).notLocal({ source: addressSource(c), address, has: summarizeList(local.map((l) => nic(c).addressOn(l)), 4, c.report.list) || nic(c).none }));
  } else if (!isUp(found)) problems.push((c) => nic(c).addressOnDown({ address, state: state(found, nic(c)) }));
  return found;
}

/** A *_SOCKET_IFNAME selector as the launch will see it: from the environment, or the cluster file's ifname. */
interface Selector {
  name: string;
  value: string;
  from: string;
}

/**
 * Each selector names UP interfaces, among them the one carrying the address. The interfaces
 * each selects, keyed by the selector in English (evidence keys do not depend on the language).
 */
function judgeSelectors(interfaces: readonly NetInterface[], selectors: readonly Selector[], owner: NetInterface | undefined, address: string | undefined, problems: Phrase[]): Map<string, string[]> {
  const chosen = new Map<string, string[]>();
  for (const { name, value, from } of selectors) {
    const selector = parseIfnameSelector(name as IfnameVariable, value);
    const label = (c: Catalogue) => (from === 'environment' ? `${name}=${value}` : nic(c).fileIfname({ ifname: value.slice(1) }));
    if (!selector.ok) {
      // the parser's reason is quoted as it gave it
      const reason = selector.reason;
      problems.push((c) => nic(c).selectorInvalid({ label: label(c), reason }));
      continue;
    }
    const matches = interfaces.filter((i) => !(selector.exclude && i.loopback) && selectorAllows(selector, i.name));
    chosen.set(label(en), matches.map((m) => m.name));
    if (matches.length === 0) {
      problems.push((c) => nic(c).matchesNone({ label: label(c), interfaces: summarizeList(interfaces.map((i) => i.name), 6, c.report.list) }));
      continue;
    }
    if (selector.exact && !selector.exclude) {
      const down = matches.filter((m) => !isUp(m));
      if (down.length > 0) {
        problems.push((c) => nic(c).namesDown({ label: label(c), interfaces: summarizeList(down.map((d) => state(d, nic(c))), 3, c.report.list) }));
        continue;
      }
    } else if (!matches.some(isUp)) {
      problems.push((c) => nic(c).onlyDown({ label: label(c), interfaces: summarizeList(matches.map((m) => state(m, nic(c))), 3, c.report.list) }));
      continue;
    }
    const carrier = owner;
    if (carrier && !matches.some((m) => m.name === carrier.name)) problems.push((c) => nic(c).missesOwner({ label: label(c), owner: carrier.name, address }));
    if (!owner && address === undefined && !matches.some((m) => isUp(m) && m.addresses.some((a) => a.family === 'IPv4'))) {
      problems.push((c) => nic(c).noUsable({ label: label(c) }));
    }
  }
  return chosen;
}

// title, why, fix, reads and every message: src/i18n/*/checks/net.ts
export default defineCheck({
  id: 'net.host-nic',
  category: 'network',
  order: 30,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['net.host-nic'];
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
      return warn(t.multiNodeUnset({ profile: ctx.profile.name, nodes: deploymentNodes }), { remediation: t.multiNodeUnsetFix });
    }
    if (!envIp && set.length === 0 && !cluster) {
      return skip(t.unset, { remediation: t.unsetFix });
    }
    const listed = await ctx.host.interfaces();
    if (!listed.ok) return error(t.cannotList({ problem: listed.message }), { remediation: t.cannotListFix });
    const interfaces = listed.value;
    // each problem is put into words twice: the run's language for the message, English for actual
    const problems: Phrase[] = [];
    const evidence: Record<string, unknown> = {
      HCCL_IF_IP: envIp ?? null,
      variables: Object.fromEntries(set.map((n) => [n, env[n]])),
      cluster: cluster ? { node: cluster.self.name, host: cluster.self.host, ifname: cluster.self.ifname } : null,
    };

    const clusterHost = cluster?.self.host ?? null;
    const address = envIp ?? clusterHost ?? undefined;
    const addressSource = (c: Catalogue) => (envIp ? 'HCCL_IF_IP' : nic(c).clusterHostOf({ node: cluster?.self.name }));
    if (envIp && clusterHost && envIp !== clusterHost) problems.push((c) => nic(c).ipDiffersFromFile({ ip: envIp, node: cluster!.self.name, host: clusterHost }));
    const owner = judgeAddress(interfaces, address, addressSource, problems);
    evidence.addressInterface = owner?.name ?? null;

    // The variables as the launch will see them; without them, the cluster file's ifname says what they should name.
    const selectors: Selector[] = set.map((name) => ({ name, value: env[name]!, from: 'environment' }));
    if (selectors.length === 0 && cluster?.self.ifname) selectors.push({ name: 'HCCL_SOCKET_IFNAME', value: `=${cluster.self.ifname}`, from: 'cluster file ifname' });
    const chosen = judgeSelectors(interfaces, selectors, owner, address, problems);
    evidence.selected = Object.fromEntries(chosen);

    // the link of the NICs in use (state, speed, MTU) from the host inventory
    const link = await judgeNicLinks(ctx, [owner?.name, ...[...chosen.values()].flat()]);
    problems.push(...link.problems);
    evidence.links = link.links;

    if (problems.length > 0) {
      const name = owner?.name ?? cluster?.self.ifname ?? '<interface>';
      const ip = address ?? '<address>';
      const said = problems.map((p) => p(ctx.text));
      return fail(said.length === 1 ? said[0]! : t.problems({ count: said.length, list: summarizeList(said, 2, ctx.text.report.list) }), {
        expected: 'HCCL_IF_IP on a local UP interface, and every *_SOCKET_IFNAME selecting that interface',
        actual: problems.map((p) => p(en)).join('; '),
        remediation: t.exportFix({ ip, nic: name, cluster: cluster ? cluster.file : null }),
        evidence,
        details: said.length > 1 ? said : [],
      });
    }
    const selected = [...new Set([...chosen.values()].flat())];
    const parts: string[] = [];
    const fromFile = set.length === 0 && chosen.size > 0;
    if (address !== undefined && owner) parts.push(t.addressIsOn({ fromEnv: envIp !== undefined, address, nic: owner.name, fromFile }));
    if (set.length > 0) parts.push(t.variablesSelect({ variables: set.join(', '), interfaces: summarizeList(selected, 3, ctx.text.report.list) }));
    if (set.length === 0 && envIp === undefined) {
      const name = owner?.name ?? cluster?.self.ifname ?? selected[0] ?? '<interface>';
      parts.push(t.atLaunch({ address: address ?? '<address>', nic: name }));
    }
    if (link.summary.length > 0) parts.push(link.summary.map((s) => s(ctx.text)).join(ctx.text.report.list.separator));
    if (link.warnings.length > 0) {
      return warn(t.parts({ parts: [...link.warnings.map((w) => w(ctx.text)), ...parts] }), {
        expected: `a NIC of at least ${ctx.profile.host.nic.minSpeedMbps} Mb/s, full duplex, for the sockets of a multi-node deployment`,
        actual: link.summary.map((s) => s(en)).join(', '),
        remediation: t.slowFix,
        evidence,
      });
    }
    return pass(t.parts({ parts }), { evidence });
  },
});
