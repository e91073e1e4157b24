import { pass } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { hccnIp, hccnVnic, prefetchDeviceIps } from '../src/probes/hccn.js';
import { askEvery, devName, prefetchEvery, hccnProblem, hccnScope, inReservedRange, spodProbe, unanswered, vnicReservedRange } from '../src/probes/hccn-scope.js';
import { prefixOfNetmask } from '../src/util/ip.js';
import { summarizeList } from '../src/util/text.js';

interface DeviceAddress {
  device: number;
  ip: string | null;
  netmask: string | null;
  vnicIp?: string | null;
}

type IpText = CheckContext['text']['checks']['hccn.ip'];

function duplicates(list: ReadonlyArray<{ device: number; address: string | null | undefined }>, t: IpText): string[] {
  const owners = new Map<string, number[]>();
  for (const { device, address } of list) if (address) owners.set(address, [...(owners.get(address) ?? []), device]);
  return [...owners.entries()].filter(([, devices]) => devices.length > 1).map(([address, devices]) => t.sharedBy({ address, devices: devices.map(devName) }));
}

/** The questions of this check, asked as soon as the devices are known (an A3 node also has vNICs). */
const askIpsEarly = prefetchEvery((family) => (family === 'a3' ? [hccnIp, hccnVnic] : [hccnIp]));

export default defineCheck({
  id: 'hccn.ip',
  category: 'hccn',
  order: 20,
  level: 'required',
  cost: { hccnTool: [{ args: '-ip -g' }, { args: '-vnic -g', families: ['a3'] }], npuSmiPerDie: 1 },
  action: 'reconfigure',
  prefetch: (ctx) => Promise.all([prefetchDeviceIps(ctx), askIpsEarly(ctx)]).then(() => undefined),
  async run(ctx) {
    const t = ctx.text.checks['hccn.ip'];
    const list = ctx.text.report.list;
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const a3 = scope.family === 'a3';
    const [ips, vnics] = await Promise.all([askEvery(ctx, scope.devices, hccnIp), a3 ? askEvery(ctx, scope.devices, hccnVnic) : Promise.resolve([])]);
    const failed = (await unanswered(ctx, ips, t.readIp)) ?? (await unanswered(ctx, vnics, t.readVnic));
    if (failed) return failed;
    const addresses: DeviceAddress[] = ips.map(({ device, answer }, i) => {
      const entry = answer.ok ? answer.value.entries[0] : undefined;
      const row: DeviceAddress = { device: device.device, ip: entry?.address ?? null, netmask: entry?.netmask ?? null };
      if (a3) {
        const vnic = vnics[i]!.answer;
        row.vnicIp = (vnic.ok && vnic.value.entries.find((e) => e.address)?.address) || null;
      }
      return row;
    });
    const problems: string[] = [];
    const unset = addresses.filter((a) => !a.ip);
    if (unset.length > 0) problems.push(t.noIp({ devices: summarizeList(unset.map((a) => devName(a.device)), 8, list) }));
    for (const dup of duplicates(addresses.map((a) => ({ device: a.device, address: a.ip })), t)) problems.push(t.duplicate({ duplicate: dup }));
    const masks = [...new Set(addresses.map((a) => a.netmask).filter((m): m is string => m !== null))];
    if (masks.length > 1) problems.push(t.mixedNetmasks({ masks: masks.join(', ') }));
    for (const mask of masks) if (prefixOfNetmask(mask) === undefined) problems.push(t.notContiguous({ mask }));

    let superPodMember = false;
    if (a3) {
      const spod = await spodProbe(ctx);
      superPodMember = spod.ok && spod.superPodId !== null;
    }
    const reserved = vnicReservedRange(scope.family, superPodMember);
    const inside = addresses.filter((a) => a.ip && inReservedRange(a.ip, reserved));
    if (inside.length > 0) problems.push(t.inReserved({ list: summarizeList(inside.map((a) => `${devName(a.device)} ${a.ip}`), 4, list), range: reserved.label }));

    if (a3) {
      const noVnic = addresses.filter((a) => !a.vnicIp);
      if (noVnic.length > 0) problems.push(t.noVnic({ devices: summarizeList(noVnic.map((a) => devName(a.device)), 8, list) }));
      for (const dup of duplicates(addresses.map((a) => ({ device: a.device, address: a.vnicIp })), t)) problems.push(t.duplicateVnic({ duplicate: dup }));
    }

    const cluster = ctx.cluster;
    if (cluster) {
      const listed = new Map(cluster.self.devices.map((d) => [d.device, d]));
      for (const real of addresses) {
        const entry = listed.get(real.device);
        if (!entry) continue;
        if (entry.ip && real.ip && entry.ip !== real.ip) problems.push(t.fileDiffers({ node: cluster.self.name, device: devName(real.device), listed: entry.ip, real: real.ip }));
        if (a3 && entry.vnicIp && real.vnicIp && entry.vnicIp !== real.vnicIp) {
          problems.push(t.fileVnicDiffers({ node: cluster.self.name, device: devName(real.device), listed: entry.vnicIp, real: real.vnicIp }));
        }
      }
      const peerOwners = new Map<string, string>();
      for (const node of cluster.cluster.nodes) {
        if (node.name === cluster.self.name) continue;
        for (const d of node.devices) for (const address of [d.ip, d.vnicIp]) if (address) peerOwners.set(address, `${node.name} ${devName(d.device)}`);
      }
      for (const real of addresses) {
        for (const address of [real.ip, real.vnicIp]) {
          const owner = address ? peerOwners.get(address) : undefined;
          if (owner && address) problems.push(t.peerOwns({ device: devName(real.device), address, owner }));
        }
      }
    }

    const evidence = { addresses, reservedRange: reserved.label, family: scope.family };
    if (problems.length === 0) {
      const ok = { count: addresses.length, masks: masks.join(', ') || null, vnics: a3 ? addresses.length : null, asClusterFile: cluster !== undefined };
      return pass(t.ok(ok), { evidence });
    }
    const firstUnset = unset[0]?.device ?? addresses[0]!.device;
    const message = problems.length === 1 ? t.oneProblem({ problem: problems[0]! }) : t.problems({ count: problems.length, list: summarizeList(problems, 2, list) });
    return hccnProblem(ctx, message, {
      expected: 'one unique IP per device, one netmask, outside the vNIC range',
      actual: addresses.map((a) => `${devName(a.device)}: ${a.ip ?? 'none'}${a.vnicIp !== undefined ? ` vnic ${a.vnicIp ?? 'none'}` : ''}`).join(', '),
      remediation:
        unset.length > 0 || inside.length > 0
          ? t.setFix({ device: (inside[0] ?? unset[0])?.device ?? firstUnset, range: reserved.label })
          : cluster
            ? t.agreeFix
            : t.uniqueFix,
      evidence,
      ...(problems.length > 1 ? { details: problems } : {}),
    });
  },
});
