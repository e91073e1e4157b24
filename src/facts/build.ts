import type { Check, CheckContext } from '../core/types.js';
import { cannInstall, driverVersionInfo, firmwareVersionInfo } from '../probes/ascend-versions.js';
import { npuBoard, npuInventory } from '../probes/npu.js';
import { contributeHccnFacts } from './hccn.js';
import type { Facts } from './schema.js';

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
      facts.problems.push({ source: 'host', message: `cannot list the host addresses: ${interfaces.message}` });
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

/** Device IPs, vNIC IPs and the TLS switch into `devices`, the super pod of an A3 node. */
export const hccnFacts: FactsContributor = { name: 'hccn', contribute: contributeHccnFacts };

/** The contributors `qprep facts` and the report use, in order. */
export const factsContributors: FactsContributor[] = [identityFacts, npuFacts, versionFacts, hccnFacts];

/**
 * The contributors of a report: the HCCN facts only when HCCN checks ran, so that the facts
 * of `qprep check --only npu` run no hccn_tool command the checks did not.
 */
export function factsContributorsFor(checks: readonly Check[]): FactsContributor[] {
  return checks.some((c) => c.category === 'hccn') ? factsContributors : factsContributors.filter((c) => c !== hccnFacts);
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
      facts.problems.push({ source: contributor.name, message: `internal error: ${caught instanceof Error ? caught.message : String(caught)}` });
    }
  }
  return facts;
}
