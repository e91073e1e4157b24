import type { CheckContext } from '../core/types.js';
import { hccnIp, hccnTls, hccnVnic } from '../probes/hccn.js';
import { spodProbe } from '../probes/hccn-scope.js';
import { locateHccnTool, npuInventory, selectVisible, visibleDevices } from '../probes/npu.js';
import { formatRanges } from '../util/text.js';
import type { DeviceFact, Facts } from './schema.js';

/**
 * The NPU network facts: each device's RoCE address and netmask, its vNIC address on A3, its TLS
 * switch, and the node's super pod on A3. They are read through the same memoized probes as the
 * HCCN checks and for the same devices (those the workload uses), so inside `qprep check` they
 * cost no command of their own. What cannot be read is a problem of the document, not a throw.
 */
export async function contributeHccnFacts(ctx: CheckContext, facts: Facts): Promise<void> {
  const inventory = await npuInventory(ctx);
  // npu-smi's own contributor has recorded why; the 310P family has no NPU network.
  if (!inventory.ok || inventory.family === '310p') return;
  const tool = await locateHccnTool(ctx);
  if (!tool.path) {
    facts.problems.push({ source: 'hccn_tool', message: ctx.text.commands.facts.noHccnTool({ searched: tool.searched.join(', ') }) });
    return;
  }
  const a3 = inventory.family === 'a3';
  const devices = selectVisible(inventory.devices, visibleDevices(ctx));
  const rows = await Promise.all(
    devices.map(async (device) => {
      const [ip, tls, vnic] = await Promise.all([hccnIp(ctx, device.device), hccnTls(ctx, device.device), a3 ? hccnVnic(ctx, device.device) : Promise.resolve(undefined)]);
      return { device: device.device, ip, tls, vnic };
    }),
  );
  const unaddressed: number[] = [];
  const unreadable: string[] = [];
  const list: DeviceFact[] = [];
  for (const row of rows) {
    if (!row.ip.ok) {
      unreadable.push(`dev${row.device}: ${row.ip.problem}`);
      continue;
    }
    const entry = row.ip.value.entries[0];
    if (!entry) {
      unaddressed.push(row.device);
      continue;
    }
    const fact: DeviceFact = { device: row.device, ip: entry.address, netmask: entry.netmask ?? '' };
    const vnicAddress = row.vnic?.ok ? row.vnic.value.entries.find((e) => e.address)?.address : undefined;
    if (vnicAddress) fact.vnicIp = vnicAddress;
    const tlsEntry = row.tls.ok ? (row.tls.value.entries.find((e) => e.device === row.device) ?? row.tls.value.entries[0]) : undefined;
    if (tlsEntry) fact.tls = tlsEntry.switch !== 0;
    list.push(fact);
  }
  facts.devices = list;
  const t = ctx.text.commands.facts;
  if (unaddressed.length > 0) facts.problems.push({ source: 'hccn_tool', message: t.noRoceAddress({ devices: formatRanges(unaddressed) }) });
  if (unreadable.length > 0) facts.problems.push({ source: 'hccn_tool', message: t.unreadableIps({ count: unreadable.length, first: unreadable[0]! }) });
  if (a3) {
    const spod = await spodProbe(ctx);
    facts.superPod = spod.ok && spod.consistent ? spod.superPodId : null;
    if (spod.ok && !spod.consistent) facts.problems.push({ source: 'spod-info', message: t.superPodsDiffer });
    if (!spod.ok) facts.problems.push({ source: 'spod-info', message: spod.problem });
  }
}
