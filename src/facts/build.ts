import type { Check, CheckContext } from '../core/types.js';
import { cannInstall, driverVersionInfo, firmwareVersionInfo } from '../probes/ascend-versions.js';
import type { HostInventory } from '../host/types.js';
import { hostInventory } from '../probes/inventory.js';
import { npuBoard, npuInventory } from '../probes/npu.js';
import { installedStack } from '../probes/stack.js';
import { contributeHccnFacts } from './hccn.js';
import { inventorySummary } from './inventory-summary.js';
import type { Facts, InventoryFact, StackFact } from './schema.js';

/**
 * Facts are assembled by contributors, each filling its part of the document in turn (a
 * later one may read what an earlier one wrote, e.g. the NPU device ids). A contributor
 * that cannot gather its part records a problem instead of throwing. Contributors use the
 * run's shared probes, so inside `qprep check` they cost no extra command.
 */
export interface FactsContributor {
  name: string;
  contribute(ctx: CheckContext, facts: Facts): Promise<void>;
}

function isReportedAddress(address: string, family: 'IPv4' | 'IPv6'): boolean {
  if (family === 'IPv4') return !address.startsWith('127.');
  return address !== '::1' && !/^fe[89ab]/i.test(address);
}

export const identityFacts: FactsContributor = {
  name: 'host',
  async contribute(ctx, facts) {
    facts.hostname = (await ctx.host.identity()).hostname;
    const interfaces = await ctx.host.interfaces();
    if (!interfaces.ok) {
      facts.problems.push({ source: 'host', message: ctx.text.commands.facts.noAddresses({ problem: interfaces.message }) });
      return;
    }
    facts.hostAddresses = interfaces.value
      .filter((i) => !i.loopback)
      .flatMap((i) => i.addresses.filter((a) => isReportedAddress(a.address, a.family)).map((a) => a.address));
  },
};

export const npuFacts: FactsContributor = {
  name: 'npu-smi',
  async contribute(ctx, facts) {
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) {
      facts.problems.push({ source: 'npu-smi', message: inventory.problem.message });
      return;
    }
    facts.family = inventory.family;
    facts.versions.npuSmi = inventory.toolVersion;
    // the driver loaded, as npu-smi reports it; version.info is the fallback (and may be a stale copy)
    facts.versions.driver = inventory.driverVersion;
    facts.npus = inventory.devices.map((d) => ({
      card: d.card,
      chip: d.chip,
      device: d.device,
      visibleIndex: d.visibleIndex,
      name: d.name,
      health: d.health,
      busId: d.busId,
      memory: d.memory ? { usedMB: d.memory.usedMB, totalMB: d.memory.totalMB, kind: d.memory.kind } : null,
      processes: d.processes.map((p) => ({ pid: p.pid, name: p.name, memoryMB: p.memoryMB, containerPid: p.containerPid })),
    }));
  },
};

export const versionFacts: FactsContributor = {
  name: 'versions',
  async contribute(ctx, facts) {
    const [driver, firmware, cann] = await Promise.all([driverVersionInfo(ctx), firmwareVersionInfo(ctx), cannInstall(ctx)]);
    if (driver.ok && driver.value.version) facts.versions.driver ??= driver.value.version;
    if (firmware.ok && firmware.value.version) facts.versions.firmware = firmware.value.version;
    else {
      const board = await npuBoard(ctx);
      facts.versions.firmware = board.info?.firmwareVersion ?? null;
    }
    if (cann.found) facts.versions.cann = cann.info.version;
  },
};

/** What the facts document shows of the hardware identity: serial and MACs only when asked. */
export interface InventoryDisclosure {
  includeSerial?: boolean;
  includeMac?: boolean;
}

export function inventoryFact(inventory: HostInventory, disclosure: InventoryDisclosure = {}): InventoryFact {
  const redacted: InventoryFact['redacted'] = [];
  // the keys in the order of the snapshot's inventory, so a replay prints the same document
  const system: InventoryFact['system'] = {
    manufacturer: inventory.system.manufacturer,
    model: inventory.system.model,
    ...(disclosure.includeSerial ? { serial: inventory.system.serial } : {}),
    virtual: inventory.system.virtual,
  };
  if (!disclosure.includeSerial) redacted.push('serial');
  if (!disclosure.includeMac) redacted.push('mac');
  return {
    source: inventory.source,
    system,
    bios: { ...inventory.bios },
    cpu: { ...inventory.cpu },
    memoryBytes: inventory.memoryBytes,
    os: { ...inventory.os },
    nics: inventory.nics?.map((nic) => ({ ...nic, mac: disclosure.includeMac ? nic.mac : null })) ?? null,
    redacted,
    unknown: inventory.unknown.filter((u) => disclosure.includeSerial || u.field !== 'system.serial').map((u) => ({ ...u })),
  };
}

export function inventoryFactsWith(disclosure: InventoryDisclosure): FactsContributor {
  return {
    name: 'inventory',
    async contribute(ctx, facts) {
      facts.inventory = inventoryFact(await hostInventory(ctx), disclosure);
    },
  };
}

/** The inventory without serial or MAC addresses: the form a report embeds. */
export const inventoryFacts = inventoryFactsWith({});

/** Device IPs, vNIC IPs and the TLS switch into `devices`, the super pod of an A3 node. */
export const hccnFacts: FactsContributor = { name: 'hccn', contribute: contributeHccnFacts };

/** The installed stack (src/probes/stack.ts): what a launch would run on. */
export const stackFacts: FactsContributor = {
  name: 'stack',
  async contribute(ctx, facts) {
    const stack: StackFact = await installedStack(ctx);
    facts.stack = stack;
  },
};

/** The contributors `qprep facts` and the report use, in order. */
export const factsContributors: FactsContributor[] = [identityFacts, npuFacts, versionFacts, hccnFacts, inventoryFacts, stackFacts];

/** The contributors of `qprep facts`, with the serial and MACs shown as its options say. */
export function factsContributorsWith(disclosure: InventoryDisclosure): FactsContributor[] {
  return factsContributors.map((c) => (c === inventoryFacts ? inventoryFactsWith(disclosure) : c));
}

/** The inventory as a report embeds it: bounded (inventorySummary), the snapshot keeping the rest. */
const reportInventoryFacts: FactsContributor = {
  name: 'inventory',
  async contribute(ctx, facts) {
    facts.inventory = inventorySummary(inventoryFact(await hostInventory(ctx)));
  },
};

/**
 * The contributors of a report: the HCCN facts only when HCCN checks ran, so that the facts
 * of `qprep check --only npu` run no hccn_tool command the checks did not.
 */
export function factsContributorsFor(checks: readonly Check[]): FactsContributor[] {
  const ran = (category: Check['category']) => checks.some((c) => c.category === category);
  // the inventory (systeminformation) only when host or network checks ran, which read it
  // the stack is the report's own field (report.stack), not repeated in its facts; the report's inventory is a bounded summary (the snapshot and qprep facts keep the rest)
  return factsContributors
    .filter((c) => c !== stackFacts && (c !== hccnFacts || ran('hccn')) && (c !== inventoryFacts || ran('host') || ran('network')))
    .map((c) => (c === inventoryFacts ? reportInventoryFacts : c));
}

export async function buildFacts(ctx: CheckContext, contributors: readonly FactsContributor[] = factsContributors): Promise<Facts> {
  const facts: Facts = {
    schemaVersion: 1,
    hostname: '',
    hostAddresses: [],
    family: 'unknown',
    npus: [],
    devices: [],
    versions: { npuSmi: null, driver: null, firmware: null, cann: null },
    problems: [],
  };
  for (const contributor of contributors) {
    try {
      await contributor.contribute(ctx, facts);
    } catch (caught) {
      facts.problems.push({ source: contributor.name, message: ctx.text.commands.facts.internalError({ problem: caught instanceof Error ? caught.message : String(caught) }) });
    }
  }
  return facts;
}
