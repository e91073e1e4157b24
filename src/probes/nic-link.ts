import type { CheckContext } from '../core/types.js';
import type { Phrase } from '../i18n/phrase.js';
import type { InventoryNic } from '../host/types.js';
import { hostInventory } from './inventory.js';

/** operstates that carry no traffic and that the up/down test of the interfaces lets through */
const NOT_FORWARDING = new Set(['dormant', 'notpresent', 'testing']);

export interface NicLinkJudgement {
  problems: Phrase[];
  warnings: Phrase[];
  /** per NIC: state, speed, MTU and duplex as the inventory gives them */
  links: Record<string, Pick<InventoryNic, 'state' | 'speedMbps' | 'mtu' | 'duplex'> | null>;
  /** "eth0 100000 Mb/s, MTU 9000" per NIC, for a pass message */
  summary: Phrase[];
}

/** Several nodes: a cluster file of two or more, or a profile whose deployment spans two or more. */
export function multiNode(ctx: CheckContext): boolean {
  return (ctx.cluster?.cluster.nodes.length ?? 0) >= 2 || ctx.profile.deployment.nodes >= 2;
}

/**
 * The link of the NICs the sockets use, from the host inventory: a NIC that does not forward is
 * a problem; on several nodes, one slower than host.nic.minSpeedMbps is a warning. A speed the
 * driver does not report is not judged.
 */
export async function judgeNicLinks(ctx: CheckContext, names: ReadonlyArray<string | undefined>): Promise<NicLinkJudgement> {
  const judgement: NicLinkJudgement = { problems: [], warnings: [], links: {}, summary: [] };
  const wanted = [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== ''))];
  if (wanted.length === 0) return judgement;
  const inventory = await hostInventory(ctx);
  const min = ctx.profile.host.nic.minSpeedMbps;
  const several = multiNode(ctx);
  for (const name of wanted) {
    const nic = inventory.nics?.find((n) => n.name === name);
    if (!nic) {
      judgement.links[name] = null;
      continue;
    }
    judgement.links[name] = { state: nic.state, speedMbps: nic.speedMbps, mtu: nic.mtu, duplex: nic.duplex };
    if (nic.virtual === true && nic.name === 'lo') continue;
    if (NOT_FORWARDING.has(nic.state)) judgement.problems.push((t) => t.probes.nicLink.notForwarding({ nic: name, state: nic.state }));
    const { speedMbps, mtu } = nic;
    const halfDuplex = nic.duplex === 'half';
    judgement.summary.push((t) => t.probes.nicLink.summary({ nic: name, speedMbps, halfDuplex, mtu }));
    if (several && nic.speedMbps !== null && nic.speedMbps < min) {
      const slowMbps = nic.speedMbps;
      judgement.warnings.push((t) => t.probes.nicLink.slow({ nic: name, speedMbps: slowMbps, minMbps: min }));
    }
    if (several && nic.duplex === 'half') judgement.warnings.push((t) => t.probes.nicLink.halfDuplex({ nic: name }));
  }
  return judgement;
}
