import { isIPv4 } from '../util/ip.js';
import type { Cluster, ClusterDevice, ClusterNode, PlanKind } from './schema.js';

/**
 * Which device-to-device pings one node runs (reference §7). Only pairs across nodes are planned:
 * inside a node the NPUs talk over HCCS, and on A3 the two dies of one card cannot RoCE-ping each
 * other by design, so an intra-node pair would report a fault that is none.
 */

/** roce: `hccn_tool -i D -ping -g address X`; hccs: `hccn_tool -i D -hccs_ping -g address X` (A3, same super pod). */
export type PingMethod = 'roce' | 'hccs';

export interface PlannedPing {
  localNode: string;
  localDevice: number;
  peerNode: string;
  peerDevice: number;
  /** a validated IPv4 address: the peer device's RoCE IP, or its vNIC IP for hccs */
  address: string;
  method: PingMethod;
}

/** A pair the plan wanted but cannot ping, and why (a device missing on the peer, no address). */
export interface UnplannedPing {
  localNode: string;
  localDevice: number;
  peerNode: string;
  peerDevice: number | null;
  reason: string;
}

export interface PingPlan {
  plan: PlanKind;
  ringK: number;
  family: 'a2' | 'a3' | null;
  /** the peers, in cluster order */
  peers: string[];
  pings: PlannedPing[];
  unplanned: UnplannedPing[];
}

export interface PlanOptions {
  /** defaults to the cluster's plan */
  plan?: PlanKind;
  ringK?: number;
  /** the local NPU family; a3 enables HCCS pings inside a super pod. Defaults to the cluster's. */
  family?: 'a2' | 'a3' | null;
  /** the local devices from the NPU inventory; defaults to the devices the cluster lists for this node */
  localDevices?: readonly number[];
}

/** The nodes a node pings: every other node, or on a ring only the next k after it. */
export function peersOf(cluster: Cluster, selfName: string, plan: PlanKind, ringK: number): ClusterNode[] {
  const index = cluster.nodes.findIndex((n) => n.name === selfName);
  if (index < 0) return [];
  const others = cluster.nodes.length - 1;
  if (plan !== 'ring') return cluster.nodes.filter((_, i) => i !== index);
  const k = Math.min(Math.max(1, ringK), others);
  return Array.from({ length: k }, (_, step) => cluster.nodes[(index + step + 1) % cluster.nodes.length]!);
}

/** A3 nodes that declare the same super pod reach each other over HCCS; everything else over RoCE. */
export function methodFor(self: ClusterNode, peer: ClusterNode, family: 'a2' | 'a3' | null): PingMethod {
  return family === 'a3' && self.superPod !== null && self.superPod === peer.superPod ? 'hccs' : 'roce';
}

function target(peer: ClusterNode, device: ClusterDevice, method: PingMethod): { address: string } | { reason: string } {
  const address = method === 'hccs' ? device.vnicIp : device.ip;
  const what = method === 'hccs' ? 'vNIC address (vnicIp)' : 'device IP';
  if (!address) return { reason: `${peer.name} dev${device.device} has no ${what} in the cluster file` };
  // The schema already refused anything else; this keeps the promise if a caller built the cluster by hand.
  if (!isIPv4(address)) return { reason: `${peer.name} dev${device.device} ${what} "${address.slice(0, 40)}" is not an IPv4 address` };
  return { address };
}

/**
 * The pings `selfName` runs. same-index: local device i to device i of every peer (what TP/DP
 * collectives use); full-mesh: every local device to every peer device (cross-node expert
 * parallel, PD KV transfer); ring: same-index, to the next ringK nodes only.
 */
export function planPings(cluster: Cluster, selfName: string, options: PlanOptions = {}): PingPlan {
  const plan = options.plan ?? cluster.plan;
  const ringK = options.ringK ?? cluster.ringK;
  const family = options.family === undefined ? cluster.family : options.family;
  const self = cluster.nodes.find((n) => n.name === selfName);
  const result: PingPlan = { plan, ringK, family, peers: [], pings: [], unplanned: [] };
  if (!self) return result;
  const localDevices = [...new Set(options.localDevices ?? self.devices.map((d) => d.device))].sort((a, b) => a - b);
  const peers = peersOf(cluster, selfName, plan, ringK).filter((peer) => peer.name !== self.name);
  result.peers = peers.map((p) => p.name);
  for (const peer of peers) {
    const method = methodFor(self, peer, family);
    const peerDevices = [...peer.devices].sort((a, b) => a.device - b.device);
    for (const localDevice of localDevices) {
      const wanted = plan === 'full-mesh' ? peerDevices : peerDevices.filter((d) => d.device === localDevice);
      if (wanted.length === 0) {
        result.unplanned.push({
          localNode: self.name,
          localDevice,
          peerNode: peer.name,
          peerDevice: plan === 'full-mesh' ? null : localDevice,
          reason: plan === 'full-mesh' ? `${peer.name} lists no device` : `${peer.name} has no device ${localDevice}`,
        });
        continue;
      }
      for (const device of wanted) {
        const found = target(peer, device, method);
        if ('reason' in found) {
          result.unplanned.push({ localNode: self.name, localDevice, peerNode: peer.name, peerDevice: device.device, reason: found.reason });
        } else {
          result.pings.push({ localNode: self.name, localDevice, peerNode: peer.name, peerDevice: device.device, address: found.address, method });
        }
      }
    }
  }
  return result;
}
