import type { LaunchLayout, Report } from '../report/schema.js';
import { readLoadTime, type LoadTimeRecord } from './load-skew.js';
import { readPeerPairs, type PeerPairsRecord } from './peer-pairs.js';
import { COMPARED_FIELDS, type AggregateNode, type ComparedField, type Severity } from '../report/aggregate-schema.js';

/**
 * What aggregate keeps of one report: the verdict, the failing checks, and the values it
 * compares across nodes. A report is reduced to this as soon as it is read, so that 1,000
 * reports cost the memory of 1,000 small records, not of 1,000 parsed documents.
 */
export interface ReportRecord {
  kind: 'report';
  source: string;
  hostname: string;
  /** the node the report says it is in its cluster file (`cluster.self`) */
  clusterSelf: string | null;
  factsHostname: string | null;
  hostAddresses: string[];
  startedAt: string;
  ready: boolean;
  profile: string;
  /** the nodes the report's profile deploys (deployment.nodes); null in reports that do not say */
  profileNodes: number | null;
  summary: Report['summary'];
  failing: AggregateNode['failing'];
  /** the compared fields (see FIELDS), and `sysctl:<key>` for each kernel setting read */
  values: Record<string, string | null>;
  devices: Array<{ device: number; ip: string | null; vnicIp: string | null }>;
  /** the launch script's file name and its server's layout (qprep check --launch); null without one */
  launch: { script: string; layout: LaunchLayout } | null;
  /** hccn.peers of a report run with --cluster: what pairs: once joins across nodes */
  peerPairs: PeerPairsRecord | null;
  /** model.load-time's estimate of the node's load; null when it made none */
  loadTime: LoadTimeRecord | null;
}

export interface FieldSpec {
  field: string;
  label: string;
  /** fail: a difference breaks a multi-node deployment; warn: worth a look; note: information */
  severity: Severity;
  /**
   * The difference breaks the ranks of one instance (and a prefill with its decode), not
   * instances that each serve alone: between nodes whose launch scripts each start a
   * single-node server of their own it is a warning.
   */
  withinInstance?: true;
}

interface FieldReader extends FieldSpec {
  read(report: Report, raw: Record<string, unknown>): string | null;
}

function rawFacts(raw: Record<string, unknown>): Record<string, unknown> | undefined {
  const facts = raw.facts;
  return typeof facts === 'object' && facts !== null && !Array.isArray(facts) ? (facts as Record<string, unknown>) : undefined;
}

/** Facts' devices read from the document itself: the fields the HCCN checks add may be newer than this schema. */
function rawDevices(raw: Record<string, unknown>): Array<Record<string, unknown>> {
  const devices = rawFacts(raw)?.devices;
  return Array.isArray(devices) ? devices.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null && typeof d.device === 'number') : [];
}

/** The TLS switch of a device as facts may carry it: a boolean, 0/1, or {switch: 0|1}. */
function tlsOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === 'object' && value !== null && 'switch' in value) return tlsOf(value.switch);
  return undefined;
}

function tlsSwitch(raw: Record<string, unknown>): string | null {
  const on: number[] = [];
  const off: number[] = [];
  for (const device of rawDevices(raw)) {
    const tls = tlsOf(device.tls);
    if (tls !== undefined) (tls ? on : off).push(device.device as number);
  }
  if (on.length === 0 && off.length === 0) return null;
  if (off.length === 0) return 'on';
  if (on.length === 0) return 'off';
  return `mixed (on: dev ${on.join(',')}; off: dev ${off.join(',')})`;
}

function npuModel(report: Report): string | null {
  const names = [...new Set((report.facts?.npus ?? []).map((n) => n.name))].sort();
  return names.length > 0 ? names.join('+') : null;
}

/** The inventory a report's facts embed (absent in reports of older versions). */
function rawInventory(raw: Record<string, unknown>): Record<string, unknown> | undefined {
  const inventory = rawFacts(raw)?.inventory;
  return typeof inventory === 'object' && inventory !== null && !Array.isArray(inventory) ? (inventory as Record<string, unknown>) : undefined;
}

function section(inventory: Record<string, unknown> | undefined, key: string): Record<string, unknown> {
  const value = inventory?.[key];
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function serverModel(raw: Record<string, unknown>): string | null {
  const system = section(rawInventory(raw), 'system');
  if (typeof system.model !== 'string') return null;
  return typeof system.manufacturer === 'string' ? `${system.manufacturer} ${system.model}` : system.model;
}

/** "Kunpeng-920 x4, 192 threads, 8 NUMA nodes": what CPU binding and the NUMA layout rest on. */
function cpuLayout(raw: Record<string, unknown>): string | null {
  const cpu = section(rawInventory(raw), 'cpu');
  const parts: string[] = [];
  if (typeof cpu.brand === 'string') parts.push(typeof cpu.sockets === 'number' ? `${cpu.brand} x${cpu.sockets}` : cpu.brand);
  if (typeof cpu.threads === 'number') parts.push(`${cpu.threads} threads`);
  if (typeof cpu.numaNodes === 'number') parts.push(`${cpu.numaNodes} NUMA nodes`);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** Whole GiB: the kernel's MemTotal differs by a few MiB between identical servers. */
function memoryGiB(raw: Record<string, unknown>): string | null {
  const bytes = rawInventory(raw)?.memoryBytes;
  return typeof bytes === 'number' && bytes > 0 ? `${Math.round(bytes / 2 ** 30)} GiB` : null;
}

/** The MTU of the NICs the HCCL/Gloo/TP sockets use, as net.host-nic found them. */
function socketNicMtu(report: Report): string | null {
  const links = report.checks.find((c) => c.id === 'net.host-nic')?.evidence.links;
  if (typeof links !== 'object' || links === null) return null;
  const mtus = Object.values(links as Record<string, unknown>)
    .map((link) => (typeof link === 'object' && link !== null ? (link as { mtu?: unknown }).mtu : undefined))
    .filter((mtu): mtu is number => typeof mtu === 'number');
  const distinct = [...new Set(mtus)].sort((a, b) => a - b);
  return distinct.length > 0 ? distinct.join(',') : null;
}

type StackPackage = keyof NonNullable<Report['stack']>['packages'];

/** A Python distribution's version as the report's stack found it (the Python the launch runs). */
function packageVersion(report: Report, name: StackPackage): string | null {
  return report.stack?.packages[name]?.version ?? null;
}

/** How each compared field is read; the names, and their order, are COMPARED_FIELDS'. */
const READERS: Record<ComparedField, Omit<FieldReader, 'field'>> = {
  driver: { label: 'driver version', severity: 'fail', read: (r) => r.facts?.versions.driver ?? null },
  firmware: { label: 'firmware version', severity: 'fail', read: (r) => r.facts?.versions.firmware ?? null },
  cann: { label: 'CANN version', severity: 'fail', read: (r) => r.facts?.versions.cann ?? null },
  npuSmi: { label: 'npu-smi version', severity: 'fail', read: (r) => r.facts?.versions.npuSmi ?? null },
  // vLLM's multi-node deployment asks for an identical Python environment on every node
  // (https://github.com/vllm-project/vllm/blob/main/docs/serving/parallelism_scaling.md,
  // "Multi-node deployment"): the ranks of one instance run one version of the serving code and
  // of the torch_npu and HCCL bindings under it
  vllmAscend: { withinInstance: true, label: 'vllm-ascend version', severity: 'fail', read: (r) => packageVersion(r, 'vllmAscend') },
  vllm: { withinInstance: true, label: 'vllm version', severity: 'fail', read: (r) => packageVersion(r, 'vllm') },
  torch: { withinInstance: true, label: 'torch version', severity: 'fail', read: (r) => packageVersion(r, 'torch') },
  torchNpu: { withinInstance: true, label: 'torch_npu version', severity: 'fail', read: (r) => packageVersion(r, 'torchNpu') },
  // libraries under the serving code: a difference changes kernels or tokenization, not whether the ranks connect
  transformers: { label: 'transformers version', severity: 'warn', read: (r) => packageVersion(r, 'transformers') },
  tritonAscend: { label: 'triton-ascend version', severity: 'warn', read: (r) => packageVersion(r, 'tritonAscend') },
  atb: { label: 'NNAL ATB version', severity: 'warn', read: (r) => r.stack?.cann.atb?.version ?? null },
  kernel: { label: 'kernel', severity: 'warn', read: (r) => r.host.kernel || null },
  npuCount: { label: 'NPU count', severity: 'fail', read: (r) => (r.facts && r.facts.npus.length > 0 ? String(r.facts.npus.length) : null) },
  npuModel: { label: 'NPU model', severity: 'fail', read: (r) => npuModel(r) },
  tls: { label: 'TLS switch', severity: 'fail', read: (_r, raw) => tlsSwitch(raw) },
  superPod: {
    label: 'super pod id',
    // nodes of several super pods form one cluster by design: a difference is worth seeing, not a fault
    severity: 'note',
    read: (_r, raw) => {
      const superPod = rawFacts(raw)?.superPod;
      return typeof superPod === 'number' ? String(superPod) : null;
    },
  },
  profile: { label: 'profile', severity: 'warn', read: (r) => r.profile.name },
  serverModel: { label: 'server model', severity: 'warn', read: (_r, raw) => serverModel(raw) },
  cpu: { label: 'CPU', severity: 'warn', read: (_r, raw) => cpuLayout(raw) },
  memory: { label: 'memory', severity: 'warn', read: (_r, raw) => memoryGiB(raw) },
  // nodes of one L2 segment drop each other's frames above the smaller MTU
  nicMtu: { label: 'MTU of the HCCL/Gloo socket NIC', severity: 'warn', read: (r) => socketNicMtu(r) },
  'cpu.governor': {
    label: 'CPU governor',
    severity: 'warn',
    read: (r) => {
      const governors = r.checks.find((c) => c.id === 'cpu.governor')?.evidence.governors;
      if (typeof governors !== 'object' || governors === null) return null;
      const names = Object.keys(governors).sort();
      return names.length > 0 ? names.join(',') : null;
    },
  },
};

/** The fields compared across nodes, in the order findings list them; sysctl keys follow. */
export const FIELDS: readonly FieldSpec[] = COMPARED_FIELDS.map((field) => {
  const { label, severity, withinInstance } = READERS[field];
  return { field, label, severity, ...(withinInstance ? { withinInstance } : {}) };
});

export const SYSCTL_PREFIX = 'sysctl:';

const DEBUGFS_MIGRATION_COST = '/sys/kernel/debug/sched/migration_cost_ns';

/** The sysctl name of a kernel knob's path: /proc/sys/vm/swappiness -> vm.swappiness. */
export function sysctlKey(path: string): string {
  if (path.startsWith('/proc/sys/')) return path.slice('/proc/sys/'.length).split('/').join('.');
  // kernels from 5.13 keep this one in debugfs; it is the same setting
  if (path === DEBUGFS_MIGRATION_COST) return 'kernel.sched_migration_cost_ns';
  return path;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Reduces a validated report (and the document it came from) to what aggregate compares. */
export function recordOf(report: Report, raw: Record<string, unknown>, source: string): ReportRecord {
  const values: Record<string, string | null> = {};
  for (const field of COMPARED_FIELDS) values[field] = READERS[field].read(report, raw);
  // kernel settings the tuning checks read, as their evidence records them ({path, value})
  for (const check of report.checks) {
    if (check.category !== 'tuning') continue;
    const { path, value } = check.evidence;
    if (typeof path === 'string' && (typeof value === 'number' || typeof value === 'string')) values[`${SYSCTL_PREFIX}${sysctlKey(path)}`] = String(value);
  }
  const blocking = new Set(report.blocking);
  return {
    kind: 'report',
    source,
    hostname: report.host.hostname,
    clusterSelf: report.cluster?.self ?? null,
    factsHostname: report.facts?.hostname ?? null,
    hostAddresses: report.facts?.hostAddresses ?? [],
    startedAt: report.startedAt,
    ready: report.ready,
    profile: report.profile.name,
    profileNodes: report.profile.nodes ?? null,
    summary: report.summary,
    failing: report.checks
      .filter((c) => blocking.has(c.id))
      .map((c) => ({ id: c.id, status: c.status, message: c.message, ...(c.remediation !== undefined ? { remediation: c.remediation } : {}) })),
    values,
    devices: rawDevices(raw).map((d) => ({ device: d.device as number, ip: stringOrNull(d.ip), vnicIp: stringOrNull(d.vnicIp) })),
    launch: report.launch?.serve?.layout ? { script: report.launch.file === '-' ? 'stdin' : report.launch.file.replace(/^.*\//, ''), layout: report.launch.serve.layout } : null,
    peerPairs: readPeerPairs(report),
    loadTime: readLoadTime(report),
  };
}
