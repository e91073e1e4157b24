import type { InventoryFact } from './schema.js';

/**
 * The inventory as a report carries it: bounded, whatever the host or the snapshot holds. A
 * Kubernetes node lists a veth per pod (hundreds of NICs) and a snapshot may hold anything:
 * copied whole, 280,000 NICs made a 39 MB snapshot's report abort qprep out of memory. The
 * snapshot keeps the whole inventory, and `qprep facts` prints it.
 */

/** NICs a report lists, the physical ones first. */
export const REPORT_NICS = 64;
/** Characters a report keeps of a text field (a DMI string is at most 64 bytes on real servers). */
export const REPORT_TEXT_CHARS = 256;
/** An entry per field the inventory could not read, some 20 at most: more come from a forged document. */
const REPORT_UNKNOWNS = 32;

function cut(text: string): string;
function cut(text: string | null): string | null;
function cut(text: string | null | undefined): string | null | undefined;
function cut(text: string | null | undefined): string | null | undefined {
  return typeof text === 'string' && text.length > REPORT_TEXT_CHARS ? `${text.slice(0, REPORT_TEXT_CHARS - 1)}…` : text;
}

/** Physical NICs (virtual false), then those not known to be either, then the virtual ones; in inventory order within each. */
function physicalFirst(nics: NonNullable<InventoryFact['nics']>): NonNullable<InventoryFact['nics']> {
  const rank = (virtual: boolean | null) => (virtual === false ? 0 : virtual === null ? 1 : 2);
  return nics
    .map((nic, index) => ({ nic, index }))
    .sort((a, b) => rank(a.nic.virtual) - rank(b.nic.virtual) || a.index - b.index)
    .map(({ nic }) => nic);
}

/** The inventory a report embeds: at most REPORT_NICS NICs (nicsOmitted counts the rest), text fields cut at REPORT_TEXT_CHARS. */
export function inventorySummary(fact: InventoryFact): InventoryFact {
  const { system, bios, cpu, os } = fact;
  const summary: InventoryFact = {
    ...fact,
    system: { ...system, manufacturer: cut(system.manufacturer), model: cut(system.model), ...(system.serial !== undefined ? { serial: cut(system.serial) } : {}) },
    bios: { vendor: cut(bios.vendor), version: cut(bios.version) },
    cpu: { ...cpu, brand: cut(cpu.brand) },
    os: { distro: cut(os.distro), release: cut(os.release) },
    unknown: fact.unknown.slice(0, REPORT_UNKNOWNS).map((u) => ({ field: cut(u.field), reason: cut(u.reason) })),
  };
  if (fact.nics) {
    const listed = fact.nics.length > REPORT_NICS ? physicalFirst(fact.nics).slice(0, REPORT_NICS) : fact.nics;
    summary.nics = listed.map((nic) => ({ ...nic, name: cut(nic.name), mac: cut(nic.mac), ipv4: cut(nic.ipv4), duplex: cut(nic.duplex), state: cut(nic.state) }));
    if (fact.nics.length > REPORT_NICS) summary.nicsOmitted = fact.nics.length - REPORT_NICS;
  }
  return summary;
}
