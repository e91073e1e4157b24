import { pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
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

function duplicates(list: ReadonlyArray<{ device: number; address: string | null | undefined }>): string[] {
  const owners = new Map<string, number[]>();
  for (const { device, address } of list) if (address) owners.set(address, [...(owners.get(address) ?? []), device]);
  return [...owners.entries()].filter(([, devices]) => devices.length > 1).map(([address, devices]) => `${address} on ${devices.map(devName).join(' and ')}`);
}

/** The questions of this check, asked as soon as the devices are known (an A3 node also has vNICs). */
const askIpsEarly = prefetchEvery((family) => (family === 'a3' ? [hccnIp, hccnVnic] : [hccnIp]));

export default defineCheck({
  id: 'hccn.ip',
  title: 'NPU device IPs',
  category: 'hccn',
  level: 'required',
  why:
    'HCCL links NPUs across nodes by their device IPs (A3 inside a super pod: by their vNIC IPs). A device without an ' +
    'address, two devices with one address, mixed netmasks, or an address inside the vNIC range hccn_tool reserves ' +
    '(192.168.2.0/24 on A2; 192.168.0.0/21, or 192.0.0.0/8 in a super pod, on A3) fails transport creation ("Transport ' +
    'init error ... Create Dest error"). With --cluster, the addresses the file gives for this node must be the real ' +
    'ones: peers ping and connect to them.',
  reads: ['hccn_tool -i <device> -ip -g', 'hccn_tool -i <device> -vnic -g (A3)', 'npu-smi info -t spod-info (A3)', 'the cluster file'],
  fix: 'hccn_tool -i N -ip -s address <ip> netmask <mask> for each device (persisted in /etc/hccn.conf), or correct the cluster file.',
  prefetch: (ctx) => Promise.all([prefetchDeviceIps(ctx), askIpsEarly(ctx)]).then(() => undefined),
  async run(ctx) {
    const scope = await hccnScope(ctx, 'the device IPs');
    if (!scope.ok) return scope.outcome;
    const a3 = scope.family === 'a3';
    const [ips, vnics] = await Promise.all([askEvery(ctx, scope.devices, hccnIp), a3 ? askEvery(ctx, scope.devices, hccnVnic) : Promise.resolve([])]);
    const failed = (await unanswered(ctx, ips, 'the device IP')) ?? (await unanswered(ctx, vnics, 'the vNIC'));
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
    if (unset.length > 0) problems.push(`no IP on ${summarizeList(unset.map((a) => devName(a.device)), 8)}`);
    for (const dup of duplicates(addresses.map((a) => ({ device: a.device, address: a.ip })))) problems.push(`duplicate IP ${dup}`);
    const masks = [...new Set(addresses.map((a) => a.netmask).filter((m): m is string => m !== null))];
    if (masks.length > 1) problems.push(`mixed netmasks ${masks.join(', ')}`);
    for (const mask of masks) if (prefixOfNetmask(mask) === undefined) problems.push(`netmask ${mask} is not a contiguous mask`);

    let superPodMember = false;
    if (a3) {
      const spod = await spodProbe(ctx);
      superPodMember = spod.ok && spod.superPodId !== null;
    }
    const reserved = vnicReservedRange(scope.family, superPodMember);
    const inside = addresses.filter((a) => a.ip && inReservedRange(a.ip, reserved));
    if (inside.length > 0) problems.push(`${summarizeList(inside.map((a) => `${devName(a.device)} ${a.ip}`), 4)} inside the reserved ${reserved.label}`);

    if (a3) {
      const noVnic = addresses.filter((a) => !a.vnicIp);
      if (noVnic.length > 0) problems.push(`no vNIC IP on ${summarizeList(noVnic.map((a) => devName(a.device)), 8)} (A3 HCCS pings and links use it)`);
      for (const dup of duplicates(addresses.map((a) => ({ device: a.device, address: a.vnicIp })))) problems.push(`duplicate vNIC IP ${dup}`);
    }

    const cluster = ctx.cluster;
    if (cluster) {
      const listed = new Map(cluster.self.devices.map((d) => [d.device, d]));
      for (const real of addresses) {
        const entry = listed.get(real.device);
        if (!entry) continue;
        if (entry.ip && real.ip && entry.ip !== real.ip) problems.push(`the cluster file gives ${cluster.self.name} ${devName(real.device)} ${entry.ip}, the device has ${real.ip}`);
        if (a3 && entry.vnicIp && real.vnicIp && entry.vnicIp !== real.vnicIp) problems.push(`the cluster file gives ${cluster.self.name} ${devName(real.device)} vNIC ${entry.vnicIp}, the device has ${real.vnicIp}`);
      }
      const peerOwners = new Map<string, string>();
      for (const node of cluster.cluster.nodes) {
        if (node.name === cluster.self.name) continue;
        for (const d of node.devices) for (const address of [d.ip, d.vnicIp]) if (address) peerOwners.set(address, `${node.name} ${devName(d.device)}`);
      }
      for (const real of addresses) {
        for (const address of [real.ip, real.vnicIp]) {
          const owner = address ? peerOwners.get(address) : undefined;
          if (owner) problems.push(`${devName(real.device)} ${address} is also ${owner}'s address in the cluster file`);
        }
      }
    }

    const evidence = { addresses, reservedRange: reserved.label, family: scope.family };
    if (problems.length === 0) {
      const vnicText = a3 ? `, ${addresses.length} vNIC IPs` : '';
      return pass(`${addresses.length} device IPs set and unique (netmask ${masks.join(', ') || 'none'})${vnicText}${cluster ? ', as the cluster file says' : ''}`, { evidence });
    }
    const firstUnset = unset[0]?.device ?? addresses[0]!.device;
    return hccnProblem(ctx, `${problems.length === 1 ? problems[0] : `${problems.length} address problems: ${summarizeList(problems, 2)}`}`, {
      expected: 'one unique IP per device, one netmask, outside the vNIC range',
      actual: addresses.map((a) => `${devName(a.device)}: ${a.ip ?? 'none'}${a.vnicIp !== undefined ? ` vnic ${a.vnicIp ?? 'none'}` : ''}`).join(', '),
      remediation:
        unset.length > 0 || inside.length > 0
          ? `hccn_tool -i ${(inside[0] ?? unset[0])?.device ?? firstUnset} -ip -s address <ip> netmask <mask> (outside ${reserved.label}), likewise for the others named; then update the cluster file`
          : cluster
            ? 'make the cluster file and the devices agree: regenerate it from "qprep facts" on every node, or set the addresses with hccn_tool -i N -ip -s address <ip> netmask <mask>'
            : 'give every device its own address in one subnet: hccn_tool -i N -ip -s address <ip> netmask <mask>',
      evidence,
      ...(problems.length > 1 ? { details: problems } : {}),
    });
  },
});
