import { z } from 'zod';
import { IPV4_PATTERN, isIP, isIPv4 } from '../util/ip.js';

/**
 * The cluster file: the nodes of one deployment, written by hand (YAML or JSON), or
 * a JSON array of `qprep facts` documents gathered from every node. Every address in it is
 * checked to be an IP address before anything else happens: peer addresses end up in argv of
 * hccn_tool, and a value such as `1.2.3.4; rm -rf /` must never reach a process.
 */

function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

const ipv4 = z
  .string({ error: 'expected an IPv4 address such as 198.18.1.10' })
  .regex(IPV4_PATTERN, { error: (issue) => `expected an IPv4 address such as 198.18.1.10 (no leading zeros), got ${quoted(issue.input)}` });

/** Host addresses may be IPv6 too: only tcpConnect and interface matching use them. */
const hostAddress = z
  .string({ error: 'expected an IP address' })
  .refine((value) => isIP(value), { error: (issue) => `expected an IPv4 or IPv6 address, got ${quoted(issue.input)}` });

const nodeName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, { error: (issue) => `expected a node name of letters, digits, ".", "_" or "-" (at most 63), got ${quoted(issue.input)}` });

const deviceId = z.number().int().min(0).max(63).describe('the device id hccn_tool -i takes (the Phy-ID on A3)');

export const clusterDeviceSchema = z
  .object({
    device: deviceId,
    ip: ipv4.optional().describe('RoCE address of the device (hccn_tool -i N -ip -g, address_N of /etc/hccn.conf)'),
    vnicIp: ipv4.optional().describe('A3: vNIC address of the device (hccn_tool -i N -vnic -g), the target of -hccs_ping inside a super pod'),
  })
  .strict();

export const clusterNodeSchema = z
  .object({
    name: nodeName.describe('the name reports use for this node'),
    host: hostAddress.describe('the host address of the node: HCCL_IF_IP, the address peers reach by TCP'),
    hostname: z.string().min(1).max(253).optional().describe('the machine hostname, when it is not the node name'),
    ifname: z
      .string()
      .regex(/^[A-Za-z0-9_.:@-]{1,15}$/, { error: (issue) => `expected a network interface name (at most 15 characters), got ${quoted(issue.input)}` })
      .optional()
      .describe('the host NIC that carries host: what GLOO_SOCKET_IFNAME, TP_SOCKET_IFNAME and HCCL_SOCKET_IFNAME name'),
    superPod: z.number().int().min(0).optional().describe('A3: the Super Pod ID of npu-smi info -t spod-info; nodes sharing one use HCCS'),
    devices: z.array(clusterDeviceSchema).default([]).describe('the NPU devices whose addresses peers ping'),
  })
  .strict();

const portNumber = z.number().int().min(1).max(65535);

export const clusterPortSchema = z.union([
  portNumber,
  z
    .object({
      port: portNumber,
      name: z.string().min(1).max(40).optional().describe('what listens there: dp-rpc, master, ray, ...'),
      on: z.enum(['master', 'all']).default('master').describe('the master node only (default), or every node'),
    })
    .strict(),
]);

export const planKindSchema = z.enum(['same-index', 'full-mesh', 'ring', 'rolling']);

export const pairsModeSchema = z.enum(['both', 'once']);

export const clusterNodesDocumentSchema = z
  .object({
    schemaVersion: z.literal(1).optional(),
    name: z.string().max(120).optional().describe('a label for the deployment'),
    family: z.enum(['a2', 'a3']).optional().describe('the NPU family when every node shares it; the local inventory takes precedence'),
    plan: planKindSchema
      .default('same-index')
      .describe(
        'same-index: device i to device i of every peer; full-mesh: every local device to every peer device; ring: only the next ringK nodes; ' +
          'rolling: the ring plus rollingK same-index pairs a run, rotating so that a run after another covers the whole same-index matrix (qprep serve)',
      ),
    ringK: z.number().int().min(1).max(64).default(1).describe('ring plan: how many following nodes each node pings'),
    rollingK: z
      .number()
      .int()
      .min(1)
      .max(4096)
      .default(12)
      .describe('rolling plan: how many same-index pairs beyond the ring neighbours one run pings, rotating from run to run'),
    rollingMaxAgeS: z
      .number()
      .int()
      .min(60)
      .max(7 * 86_400)
      .default(3600)
      .describe('rolling plan: a pair whose last proof is older than this many seconds is not verified'),
    pairs: pairsModeSchema
      .default('both')
      .describe(
        'both: every node pings its whole plan; once: each device pair is pinged by one of its two nodes, chosen from the two node names, ' +
          'so the cluster pings half as much and qprep aggregate joins the reports into the full matrix',
      ),
    master: nodeName.optional().describe('the node that hosts the DP master / Ray head (default: the first node)'),
    ports: z.array(clusterPortSchema).default([]).describe('TCP ports peers must reach: the DP RPC port, the master port, ...'),
    tls: z
      .union([z.literal(0), z.literal(1)])
      .optional()
      .describe('the TLS switch (hccn_tool -tls -g) every device of every node must have; devices with TLS on and off cannot link. 0 is recommended'),
    nodes: z.array(clusterNodeSchema).min(1, { error: 'a cluster needs at least one node' }),
  })
  .strict();

/**
 * A host address as a facts document may list it: "198.19.0.11", "198.19.0.11/24", or
 * {address: "198.19.0.11", ...}. The facts schema is defined elsewhere; this reads all three.
 */
const factsAddress = z.preprocess((value) => {
  if (typeof value === 'object' && value !== null && typeof (value as { address?: unknown }).address === 'string') return (value as { address: string }).address;
  if (typeof value === 'string' && /^[^/\s]+\/\d{1,3}$/.test(value)) return value.slice(0, value.indexOf('/'));
  return value;
}, hostAddress);

/** A `qprep facts` document, read leniently: only the fields a cluster needs are checked. */
export const clusterFactsSchema = z
  .object({
    hostname: z.string().min(1),
    hostAddresses: z.array(factsAddress).default([]),
    family: z.string().optional(),
    superPod: z.number().int().min(0).nullable().optional(),
    devices: z
      .array(
        z
          .object({
            device: deviceId,
            ip: ipv4.nullable().optional(),
            vnicIp: ipv4.nullable().optional(),
            tls: z.unknown().optional().describe('the TLS switch: true/false as qprep facts writes it (0/1 and {switch} are read too)'),
          })
          .loose(),
      )
      .default([]),
  })
  .loose();

/**
 * The facts of every node with the plan and the ports of the deployment: what a playbook
 * writes when it gathers the nodes' facts and sets the ping plan and the peer ports itself.
 */
export const clusterFactsDocumentSchema = z
  .object({
    schemaVersion: z.literal(1).optional(),
    name: z.string().max(120).optional().describe('a label for the deployment'),
    plan: planKindSchema.default('same-index').describe('as in {nodes: [...]}'),
    ringK: z.number().int().min(1).max(64).default(1),
    master: z.string().optional().describe('the hostname of the node that hosts the DP master (default: the first node)'),
    ports: z.array(clusterPortSchema).default([]).describe('TCP ports peers must reach, as in {nodes: [...]}'),
    facts: z.array(clusterFactsSchema).min(1, { error: 'a cluster needs at least one node' }).describe('the qprep facts document of every node'),
  })
  .strict();

export const clusterFileSchema = z.union([clusterNodesDocumentSchema, clusterFactsDocumentSchema, z.array(clusterFactsSchema).min(1)]);

export type PlanKind = z.infer<typeof planKindSchema>;
export type PairsMode = z.infer<typeof pairsModeSchema>;
export type ClusterNodesDocument = z.output<typeof clusterNodesDocumentSchema>;
export type ClusterFacts = z.output<typeof clusterFactsSchema>;
export type ClusterFactsDocument = z.output<typeof clusterFactsDocumentSchema>;

// ---------------------------------------------------------------------------------------------
// The normalized cluster every consumer reads, whatever form the file had.

export interface ClusterDevice {
  device: number;
  ip: string | null;
  vnicIp: string | null;
  /** TLS switch, when the facts carried it */
  tls: number | null;
}

export interface ClusterNode {
  name: string;
  /** the address peers reach this node at; null when facts listed none usable */
  host: string | null;
  /** every address that identifies this node (the host address, and all facts hostAddresses) */
  addresses: string[];
  hostname: string | null;
  /** the host NIC the *_SOCKET_IFNAME variables should name, when the file says */
  ifname: string | null;
  superPod: number | null;
  family: 'a2' | 'a3' | null;
  devices: ClusterDevice[];
}

export interface ClusterPort {
  port: number;
  name: string | null;
  on: 'master' | 'all';
}

export interface Cluster {
  form: 'nodes' | 'facts';
  name: string | null;
  family: 'a2' | 'a3' | null;
  plan: PlanKind;
  ringK: number;
  /** rolling: same-index pairs beyond the ring a run pings */
  rollingK: number;
  /** rolling: seconds after which a pair's last proof no longer verifies it */
  rollingMaxAgeS: number;
  /** whether both nodes of a device pair ping it, or only its owner (see pairOwnership in plan.ts) */
  pairs: PairsMode;
  /** name of the master node */
  master: string;
  /** the TLS switch the file declares for every device (nodes form only) */
  tls: number | null;
  ports: ClusterPort[];
  nodes: ClusterNode[];
}

/** The TLS switch from a facts device: a boolean (what qprep facts writes), a number, or an object with a `switch` field. */
function tlsValue(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'object' && value !== null && typeof (value as { switch?: unknown }).switch === 'number') return (value as { switch: number }).switch;
  return null;
}

function familyOf(value: unknown): 'a2' | 'a3' | null {
  return value === 'a2' || value === 'a3' ? value : null;
}

export function normalizeNodesDocument(doc: ClusterNodesDocument): Cluster {
  return {
    form: 'nodes',
    name: doc.name ?? null,
    family: doc.family ?? null,
    plan: doc.plan,
    ringK: doc.ringK,
    rollingK: doc.rollingK,
    rollingMaxAgeS: doc.rollingMaxAgeS,
    pairs: doc.pairs,
    master: doc.master ?? doc.nodes[0]!.name,
    tls: doc.tls ?? null,
    ports: doc.ports.map((p) => (typeof p === 'number' ? { port: p, name: null, on: 'master' as const } : { port: p.port, name: p.name ?? null, on: p.on })),
    nodes: doc.nodes.map((n) => ({
      name: n.name,
      host: n.host,
      addresses: [n.host],
      hostname: n.hostname ?? null,
      ifname: n.ifname ?? null,
      superPod: n.superPod ?? null,
      family: doc.family ?? null,
      devices: n.devices.map((d) => ({ device: d.device, ip: d.ip ?? null, vnicIp: d.vnicIp ?? null, tls: null })),
    })),
  };
}

/**
 * Facts list every address of a host, docker0's 172.17.0.1 included, which every node shares:
 * an address found on more than one node identifies none of them and is dropped.
 */
/** The facts of every node with the deployment's plan and ports. */
export function normalizeFactsDocument(document: ClusterFactsDocument): Cluster {
  const cluster = normalizeFacts(document.facts);
  return {
    ...cluster,
    name: document.name ?? null,
    plan: document.plan,
    ringK: document.ringK,
    master: document.master ?? cluster.master,
    ports: document.ports.map((p) => (typeof p === 'number' ? { port: p, name: null, on: 'master' as const } : { port: p.port, name: p.name ?? null, on: p.on })),
  };
}

export function normalizeFacts(list: readonly ClusterFacts[]): Cluster {
  const seen = new Map<string, number>();
  for (const facts of list) for (const address of new Set(facts.hostAddresses)) seen.set(address, (seen.get(address) ?? 0) + 1);
  const nodes: ClusterNode[] = list.map((facts) => {
    const addresses = [...new Set(facts.hostAddresses)].filter((a) => seen.get(a) === 1);
    const host = addresses.find((a) => isIPv4(a) && !a.startsWith('127.')) ?? addresses[0] ?? null;
    return {
      name: facts.hostname,
      host,
      addresses,
      hostname: facts.hostname,
      ifname: null,
      superPod: facts.superPod ?? null,
      family: familyOf(facts.family),
      devices: facts.devices.map((d) => ({ device: d.device, ip: d.ip ?? null, vnicIp: d.vnicIp ?? null, tls: tlsValue(d.tls) })),
    };
  });
  const families = new Set(nodes.map((n) => n.family));
  return {
    form: 'facts',
    name: null,
    family: families.size === 1 ? ([...families][0] ?? null) : null,
    plan: 'same-index',
    ringK: 1,
    rollingK: 12,
    rollingMaxAgeS: 3600,
    pairs: 'both',
    master: nodes[0]!.name,
    tls: null,
    ports: [],
    nodes,
  };
}

/** Problems no schema can express: duplicates across nodes, a master that is not a node. */
export function clusterProblems(cluster: Cluster): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const where = cluster.form === 'nodes' ? 'nodes' : '';
  const at = (index: number, rest: string) => (where ? `${where}.${index}.${rest}` : `${index}.${rest}`);
  const names = new Map<string, number>();
  const hosts = new Map<string, number>();
  const deviceAddresses = new Map<string, string>();
  cluster.nodes.forEach((node, index) => {
    const key = node.name.toLowerCase();
    const previous = names.get(key);
    if (previous !== undefined) {
      problems.push({ path: at(index, cluster.form === 'nodes' ? 'name' : 'hostname'), message: `duplicate node name "${node.name}" (also entry ${previous})` });
    } else names.set(key, index);
    if (cluster.form === 'nodes' && node.host) {
      const other = hosts.get(node.host);
      if (other !== undefined) problems.push({ path: at(index, 'host'), message: `host address ${node.host} is also the host of ${cluster.nodes[other]!.name}` });
      else hosts.set(node.host, index);
    }
    const ids = new Set<number>();
    node.devices.forEach((device, deviceIndex) => {
      if (ids.has(device.device)) problems.push({ path: at(index, `devices.${deviceIndex}.device`), message: `device ${device.device} is listed twice for ${node.name}` });
      ids.add(device.device);
      for (const field of ['ip', 'vnicIp'] as const) {
        const address = device[field];
        if (!address) continue;
        const owner = `${node.name} dev${device.device}`;
        const taken = deviceAddresses.get(address);
        if (taken !== undefined) {
          problems.push({ path: at(index, `devices.${deviceIndex}.${field}`), message: `duplicate device IP ${address}: ${owner} and ${taken}` });
        } else deviceAddresses.set(address, owner);
      }
    });
  });
  if (!cluster.nodes.some((n) => n.name === cluster.master)) {
    problems.push({ path: 'master', message: `"${cluster.master}" is not the name of a node (nodes: ${cluster.nodes.map((n) => n.name).join(', ')})` });
  }
  return problems;
}
