import { isIPv4 } from '../util/ip.js';
import type { Cluster, ClusterDevice, ClusterNode, PairsMode, PlanKind } from './schema.js';

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

/** pairs: once: a pair of this node's device and a peer's device that the peer pings, not this node. */
export interface PeerOwnedPair {
  /** the owner, which pings from peerDevice to localDevice */
  peerNode: string;
  peerDevice: number;
  localDevice: number;
}

export interface PingPlan {
  plan: PlanKind;
  ringK: number;
  pairs: PairsMode;
  family: 'a2' | 'a3' | null;
  /** the peers, in cluster order */
  peers: string[];
  pings: PlannedPing[];
  unplanned: UnplannedPing[];
  /** pairs: once: the pairs of this node that its peers own; empty with pairs: both */
  peerOwned: PeerOwnedPair[];
  /** plan: rolling: which part of the matrix this run pings */
  rolling?: RollingPart;
}

/**
 * plan: rolling: every run pings the pairs to the ring neighbours and a window of `budget`
 * pairs of the rest of this node's same-index matrix (its "pool", in cluster order from this
 * node on, device by device). Run r takes the pool entries r·budget … r·budget+budget−1, modulo
 * the pool size, so any `rotations` runs in a row cover the whole pool.
 */
export interface RollingPart {
  rotation: number;
  /** how many runs cover the whole matrix: ceil(pool / budget), at least 1 */
  rotations: number;
  budget: number;
  /** pairs to the ring neighbours, pinged every run */
  ringPairs: number;
  /** the same-index pairs beyond the ring this node pings (owns, with pairs: once) */
  pool: number;
  /** every same-index pair this node pings over the rotations: ring and pool */
  matrix: Array<{ localDevice: number; peerNode: string; peerDevice: number }>;
}

export interface PlanOptions {
  /** defaults to the cluster's plan */
  plan?: PlanKind;
  ringK?: number;
  /** defaults to the cluster's pairs */
  pairs?: PairsMode;
  /** the local NPU family; a3 enables HCCS pings inside a super pod. Defaults to the cluster's. */
  family?: 'a2' | 'a3' | null;
  /** the local devices from the NPU inventory; defaults to the devices the cluster lists for this node */
  localDevices?: readonly number[];
  /** plan: rolling: the run number (serve's run counter, or the clock divided by the interval) */
  rotation?: number;
}

/**
 * The nodes a node pings: every other node, or on a ring only the next k after it. With
 * pairs: once a ring node shares pairs with the k nodes before it too (they are its ring
 * neighbours as much as the k after it), and which side pings a pair is up to pairOwnership.
 */
export function peersOf(cluster: Cluster, selfName: string, plan: PlanKind, ringK: number, pairs: PairsMode = 'both'): ClusterNode[] {
  const index = cluster.nodes.findIndex((n) => n.name === selfName);
  if (index < 0) return [];
  const size = cluster.nodes.length;
  const others = size - 1;
  // rolling: every other node, in cluster order from this node on (its pool rotates in that order)
  if (plan === 'rolling') return Array.from({ length: others }, (_, step) => cluster.nodes[(index + step + 1) % size]!);
  if (plan !== 'ring') return cluster.nodes.filter((_, i) => i !== index);
  const k = Math.min(Math.max(1, ringK), others);
  const after = Array.from({ length: k }, (_, step) => cluster.nodes[(index + step + 1) % size]!);
  if (pairs === 'both') return after;
  const before = Array.from({ length: k }, (_, step) => cluster.nodes[(index - step - 1 + size) % size]!);
  return [...new Set([...after, ...before])];
}

/**
 * Who pings an unordered device pair under pairs: once, from the cluster file alone, so all
 * nodes agree without talking. Between two nodes the "leader" is decided as in a round-robin
 * tournament on the file's node order: the node that comes first going forward around the
 * list, at most half-way (on a ring: the node before the other, as pairs: both pings). Every node
 * leads about half of its peers (exactly (N-1)/2 with N odd; N/2 or N/2-1 with N even). The leader
 * owns the pairs of its even device ids, the other node those of the leader's odd ones: between
 * two nodes of 16 devices each pings 8 of the 16 same-index pairs and 128 of the 256 full-mesh
 * pairs; with an odd device count the extra pair goes to the leader, which evens out over peers.
 */
export function pairOwnership(cluster: Cluster): (a: { node: string; device: number }, b: { node: string; device: number }) => string {
  const position = new Map(cluster.nodes.map((node, index) => [node.name, index]));
  const size = cluster.nodes.length;
  return (a, b) => {
    const i = position.get(a.node);
    const j = position.get(b.node);
    if (i === undefined || j === undefined) throw new Error(`pairOwnership: ${i === undefined ? a.node : b.node} is not a node of the cluster`);
    const forward = (j - i + size) % size;
    const low = Math.min(i, j);
    // forward half-way exactly (N even): the pair {p, p + N/2} is led by p when p is even
    const aLeads = forward * 2 < size || (forward * 2 === size && (i === low) === (low % 2 === 0));
    const [leader, other] = aLeads ? [a, b] : [b, a];
    return leader.device % 2 === 0 ? leader.node : other.node;
  };
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

interface Candidate {
  peer: ClusterNode;
  localDevice: number;
  device: ClusterDevice | null;
  method: PingMethod;
  /** set when the peer has no such device */
  missing?: UnplannedPing;
}

/** A pair this run pings, or cannot ping for want of an address. */
function resolve(result: PingPlan, self: ClusterNode, candidate: Candidate): void {
  const { peer, localDevice, device, method } = candidate;
  if (device === null) {
    if (candidate.missing) result.unplanned.push(candidate.missing);
    return;
  }
  const found = target(peer, device, method);
  if ('reason' in found) {
    result.unplanned.push({ localNode: self.name, localDevice, peerNode: peer.name, peerDevice: device.device, reason: found.reason });
  } else {
    result.pings.push({ localNode: self.name, localDevice, peerNode: peer.name, peerDevice: device.device, address: found.address, method });
  }
}

/**
 * The pings `selfName` runs. same-index: local device i to device i of every peer (what TP/DP
 * collectives use); full-mesh: every local device to every peer device (cross-node expert
 * parallel, PD KV transfer); ring: same-index, to the next ringK nodes only; rolling: see RollingPart. With pairs: once
 * only the pairs this node owns are pinged; the others are listed in peerOwned.
 */
export function planPings(cluster: Cluster, selfName: string, options: PlanOptions = {}): PingPlan {
  const plan = options.plan ?? cluster.plan;
  const ringK = options.ringK ?? cluster.ringK;
  const pairs = options.pairs ?? cluster.pairs;
  const family = options.family === undefined ? cluster.family : options.family;
  const self = cluster.nodes.find((n) => n.name === selfName);
  const result: PingPlan = { plan, ringK, pairs, family, peers: [], pings: [], unplanned: [], peerOwned: [] };
  if (!self) return result;
  const localDevices = [...new Set(options.localDevices ?? self.devices.map((d) => d.device))].sort((a, b) => a - b);
  const peers = peersOf(cluster, selfName, plan, ringK, pairs).filter((peer) => peer.name !== self.name);
  const ownerOf = pairOwnership(cluster);
  result.peers = peers.map((p) => p.name);
  // rolling: the ring neighbours every run, the rest of the same-index matrix in turns
  const ringNames = plan === 'rolling' ? new Set(peersOf(cluster, selfName, 'ring', ringK, pairs).map((p) => p.name)) : null;
  const ringCandidates: Candidate[] = [];
  const poolCandidates: Candidate[] = [];
  for (const peer of peers) {
    const method = methodFor(self, peer, family);
    const peerDevices = [...peer.devices].sort((a, b) => a.device - b.device);
    for (const localDevice of localDevices) {
      const wanted = plan === 'full-mesh' ? peerDevices : peerDevices.filter((d) => d.device === localDevice);
      if (wanted.length === 0) {
        const missing = {
          localNode: self.name,
          localDevice,
          peerNode: peer.name,
          peerDevice: plan === 'full-mesh' ? null : localDevice,
          reason: plan === 'full-mesh' ? `${peer.name} lists no device` : `${peer.name} has no device ${localDevice}`,
        };
        if (ringNames === null) result.unplanned.push(missing);
        else (ringNames.has(peer.name) ? ringCandidates : poolCandidates).push({ peer, localDevice, device: null, method, missing });
        continue;
      }
      for (const device of wanted) {
        if (pairs === 'once' && ownerOf({ node: self.name, device: localDevice }, { node: peer.name, device: device.device }) !== self.name) {
          result.peerOwned.push({ peerNode: peer.name, peerDevice: device.device, localDevice });
          continue;
        }
        const candidate: Candidate = { peer, localDevice, device, method };
        if (ringNames === null) resolve(result, self, candidate);
        else (ringNames.has(peer.name) ? ringCandidates : poolCandidates).push(candidate);
      }
    }
  }
  if (ringNames !== null) {
    const budget = Math.max(1, cluster.rollingK);
    const rotations = Math.max(1, Math.ceil(poolCandidates.length / budget));
    const rotation = Math.max(0, Math.floor(options.rotation ?? 0));
    const window = new Set<number>();
    for (let step = 0; step < Math.min(budget, poolCandidates.length); step++) window.add((((rotation % rotations) * budget + step) % poolCandidates.length));
    for (const candidate of ringCandidates) resolve(result, self, candidate);
    poolCandidates.forEach((candidate, index) => {
      if (window.has(index)) resolve(result, self, candidate);
    });
    result.rolling = {
      rotation,
      rotations,
      budget,
      ringPairs: ringCandidates.length,
      pool: poolCandidates.length,
      matrix: [...ringCandidates, ...poolCandidates].map((c) => ({ localDevice: c.localDevice, peerNode: c.peer.name, peerDevice: c.device?.device ?? c.localDevice })),
    };
  }
  return result;
}
