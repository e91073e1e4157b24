import type { Cluster, ClusterNode } from '../cluster/schema.js';
import { formatDuration } from '../util/duration.js';
import { isIP } from '../util/ip.js';
import { plural, summarizeList } from '../util/text.js';
import { VERSION } from '../version.js';
import type { ErrorDocument, NodeDocument } from './documents.js';
import { judgeLaunch, type LaunchNode } from './launch.js';
import { judgeLoadSkew } from './load-skew.js';
import { FIELDS, SYSCTL_PREFIX, type FieldSpec, type ReportRecord } from './node-record.js';
import { joinPeerPairs } from './peer-pairs.js';
import type { AggregateDocument, AggregateNode, Collision, Drift, Finding, Severity } from '../report/aggregate-schema.js';

export interface AggregateOptions {
  now: Date;
  /** --max-age: reports that started longer ago than this are stale */
  maxAgeMs?: number;
  /** --strict: warnings make the cluster not ready too */
  strict?: boolean;
  /** --cluster: the nodes that should have reported */
  cluster?: { file: string; cluster: Cluster };
  /** --profile: the deployment's profile, whose node count the reports must reach */
  profile?: { name: string; nodes: number };
}

/**
 * How many nodes the deployment spans: the --profile's deployment.nodes, else the largest the
 * reports' profiles say. Fewer reports than that is a cluster that is not all there.
 */
function expectedNodes(reports: readonly ReportEntry[], options: AggregateOptions): { nodes: number; profile: string } | undefined {
  if (options.profile) return { nodes: options.profile.nodes, profile: options.profile.name };
  let best: { nodes: number; profile: string } | undefined;
  for (const { record } of reports) {
    if (record.profileNodes !== null && record.profileNodes > (best?.nodes ?? 1)) best = { nodes: record.profileNodes, profile: record.profile };
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Naming the nodes

function shortName(name: string): string {
  return name.toLowerCase().split('.')[0] ?? '';
}

function sameHost(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  return a.toLowerCase() === b.toLowerCase() || shortName(a) === shortName(b);
}

/**
 * Finds the cluster node of a report: its own cluster.self, else one of its addresses, else
 * its hostname (as `qprep check --cluster` finds itself). Indexed: 1,000 reports against
 * 1,000 nodes cost 1,000 lookups.
 */
function clusterIndex(cluster: Cluster): (record: ReportRecord) => ClusterNode | undefined {
  const byNodeName = new Map(cluster.nodes.map((node) => [node.name.toLowerCase(), node]));
  const byName = new Map<string, ClusterNode[]>();
  const byShortName = new Map<string, ClusterNode[]>();
  const byAddress = new Map<string, ClusterNode[]>();
  const add = (map: Map<string, ClusterNode[]>, key: string, node: ClusterNode) => {
    const list = map.get(key) ?? [];
    if (!list.includes(node)) list.push(node);
    map.set(key, list);
  };
  for (const node of cluster.nodes) {
    for (const name of [node.name, node.hostname]) {
      if (!name) continue;
      add(byName, name.toLowerCase(), node);
      add(byShortName, shortName(name), node);
    }
    for (const address of node.addresses) add(byAddress, address.toLowerCase(), node);
  }
  const only = (nodes: Iterable<ClusterNode>): ClusterNode | undefined => {
    const unique = [...new Set(nodes)];
    return unique.length === 1 ? unique[0] : undefined;
  };
  return (record) => {
    const named = record.clusterSelf ? byNodeName.get(record.clusterSelf.toLowerCase()) : undefined;
    if (named) return named;
    const viaAddress = only(record.hostAddresses.flatMap((a) => byAddress.get(a.toLowerCase()) ?? []));
    if (viaAddress) return viaAddress;
    const hostnames = [record.hostname, record.factsHostname].filter((h): h is string => h !== null);
    const exact = only(hostnames.flatMap((h) => byName.get(h.toLowerCase()) ?? []));
    return exact ?? only(hostnames.flatMap((h) => byShortName.get(shortName(h)) ?? []));
  };
}

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare;

function startedMs(record: ReportRecord): number {
  const ms = Date.parse(record.startedAt);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

// ---------------------------------------------------------------------------------------------
// Differences across nodes

interface Valued {
  name: string;
  values: Record<string, string | null>;
}

/** "a and b", "a, b and c", "a, b, c, d and 3 more" */
function andList(items: readonly string[], max = 6): string {
  if (items.length > max) return summarizeList(items, max);
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function driftMessage(label: string, drift: Pick<Drift, 'majority' | 'odd' | 'groups'>): string {
  const { majority, odd, groups } = drift;
  if (majority) {
    const others = majority.nodes === 1 ? 'the other node has' : `the other ${majority.nodes} nodes have`;
    if (odd.length === 1) return `${label} differs on ${odd[0]!.node}: ${odd[0]!.value}; ${others} ${majority.value}`;
    const minorities = groups.slice(1);
    const listed = minorities.slice(0, 4).map((g) => `${g.value} on ${summarizeList(g.nodes, 4)}`);
    if (minorities.length > 4) listed.push(`${minorities.length - 4} more values`);
    return `${label} differs on ${odd.length} nodes: ${listed.join('; ')}; ${others} ${majority.value}`;
  }
  const listed = groups.slice(0, 6).map((g) => `${g.value} on ${summarizeList(g.nodes, 4)}`);
  if (groups.length > 6) listed.push(`${groups.length - 6} more values`);
  return `${label} is split: ${listed.join('; ')}`;
}

export function findDrift(nodes: readonly Valued[], fields: readonly FieldSpec[]): Drift[] {
  const drifts: Drift[] = [];
  for (const spec of fields) {
    const byValue = new Map<string, string[]>();
    const unknown: string[] = [];
    for (const node of nodes) {
      const value = node.values[spec.field];
      if (value === null || value === undefined) unknown.push(node.name);
      else {
        const names = byValue.get(value);
        if (names) names.push(node.name);
        else byValue.set(value, [node.name]);
      }
    }
    if (byValue.size <= 1) continue;
    const groups = [...byValue.entries()]
      .map(([value, names]) => ({ value, nodes: [...names].sort(naturalOrder) }))
      .sort((a, b) => b.nodes.length - a.nodes.length || naturalOrder(a.value, b.value));
    const [first, second] = groups;
    const majority = first!.nodes.length > second!.nodes.length ? { value: first!.value, nodes: first!.nodes.length } : null;
    const odd = majority ? groups.slice(1).flatMap((g) => g.nodes.map((node) => ({ node, value: g.value }))).sort((a, b) => naturalOrder(a.node, b.node)) : [];
    const drift = { field: spec.field, label: spec.label, severity: spec.severity, majority, odd, groups, unknown };
    drifts.push({ ...drift, message: driftMessage(spec.label, drift) });
  }
  return drifts;
}

export function findCollisions(reports: ReadonlyArray<{ name: string; devices: ReportRecord['devices'] }>): Collision[] {
  const owners = new Map<string, Collision['owners']>();
  for (const { name, devices } of reports) {
    for (const device of devices) {
      for (const field of ['ip', 'vnicIp'] as const) {
        const ip = device[field];
        if (ip === null) continue;
        const list = owners.get(ip);
        if (list) list.push({ node: name, device: device.device, field });
        else owners.set(ip, [{ node: name, device: device.device, field }]);
      }
    }
  }
  const owner = (o: Collision['owners'][number]) => `${o.node} dev${o.device}${o.field === 'vnicIp' ? ' (vNIC)' : ''}`;
  return [...owners.entries()]
    .filter(([, list]) => list.length > 1)
    .map(([ip, list]) => ({ ip, owners: list, message: `device IP ${ip} is held by ${andList(list.map(owner))}` }))
    .sort((a, b) => naturalOrder(a.ip, b.ip));
}

// ---------------------------------------------------------------------------------------------
// The verdict

interface ReportEntry {
  record: ReportRecord;
  name: string;
  nameFrom: 'cluster' | 'report';
}

function reportNode(entry: ReportEntry, values: Record<string, string | null>, options: AggregateOptions): AggregateNode {
  const { record } = entry;
  const started = startedMs(record);
  const ageMs = Number.isFinite(started) ? options.now.getTime() - started : null;
  const stale = options.maxAgeMs !== undefined && (ageMs === null || ageMs > options.maxAgeMs);
  return {
    name: entry.name,
    nameFrom: entry.nameFrom,
    verdict: record.ready ? 'ready' : 'not-ready',
    source: record.source,
    hostname: record.hostname,
    startedAt: record.startedAt,
    ageSeconds: ageMs === null ? null : Math.round(ageMs / 1000),
    stale,
    profile: record.profile,
    summary: record.summary,
    failing: record.failing,
    values,
  };
}

function errorNode(doc: ErrorDocument, name: string): AggregateNode {
  return {
    name,
    nameFrom: 'file',
    verdict: 'no-verdict',
    source: doc.source,
    hostname: null,
    startedAt: null,
    ageSeconds: null,
    stale: false,
    profile: null,
    summary: null,
    failing: [],
    values: {},
    error: doc.error,
  };
}

function missingNode(node: ClusterNode): AggregateNode {
  return {
    name: node.name,
    nameFrom: 'cluster',
    verdict: 'missing',
    source: null,
    hostname: node.hostname,
    startedAt: null,
    ageSeconds: null,
    stale: false,
    profile: null,
    summary: null,
    failing: [],
    values: {},
  };
}

const SEVERITY_ORDER: Record<Severity, number> = { fail: 0, warn: 1, note: 2 };

type Duplicate = AggregateDocument['duplicates'][number];

/** Every report named (after its cluster node, else its host), and the newest of each node kept. */
function newestReports(documents: readonly NodeDocument[], cluster: Cluster | undefined): { newest: Map<string, ReportEntry>; dropped: Map<string, ReportEntry[]> } {
  const clusterNodeOf = cluster ? clusterIndex(cluster) : () => undefined;
  const newest = new Map<string, ReportEntry>();
  const dropped = new Map<string, ReportEntry[]>();
  for (const record of documents) {
    if (record.kind !== 'report') continue;
    const clusterNode = clusterNodeOf(record);
    const entry: ReportEntry = clusterNode ? { record, name: clusterNode.name, nameFrom: 'cluster' } : { record, name: record.clusterSelf ?? record.hostname, nameFrom: 'report' };
    const key = entry.name.toLowerCase();
    const current = newest.get(key);
    if (!current) newest.set(key, entry);
    else {
      const [keep, drop] = startedMs(record) >= startedMs(current.record) ? [entry, current] : [current, entry];
      newest.set(key, keep);
      dropped.set(key, [...(dropped.get(key) ?? []), drop]);
    }
  }
  return { newest, dropped };
}

/** Documents without a verdict, named after their file (a cluster node, when it is one). */
function errorNodes(documents: readonly NodeDocument[], cluster: Cluster | undefined, reports: readonly ReportEntry[]): AggregateNode[] {
  const taken = new Set(reports.map((r) => r.name.toLowerCase()));
  const errors: AggregateNode[] = [];
  for (const doc of documents) {
    if (doc.kind !== 'error') continue;
    const clusterName = doc.stem && cluster ? cluster.nodes.find((n) => sameHost(n.name, doc.stem) || sameHost(n.hostname, doc.stem))?.name : undefined;
    const preferred = clusterName ?? doc.stem ?? doc.source;
    const name = taken.has(preferred.toLowerCase()) ? doc.source : preferred;
    taken.add(name.toLowerCase());
    errors.push(errorNode(doc, name));
  }
  return errors;
}

/** The fields compared across nodes: the fixed ones, then every sysctl some node reports. */
function comparedFields(reports: readonly ReportEntry[]): FieldSpec[] {
  const sysctlFields = new Set<string>();
  for (const entry of reports) for (const field of Object.keys(entry.record.values)) if (field.startsWith(SYSCTL_PREFIX)) sysctlFields.add(field);
  return [...FIELDS, ...[...sysctlFields].sort().map((field) => ({ field, label: field.slice(SYSCTL_PREFIX.length), severity: 'warn' as const }))];
}

/** What differs across nodes; profiles that differ by prefill/decode role are a note. */
function clusterDrift(reportNodes: readonly AggregateNode[], fields: readonly FieldSpec[], reports: readonly ReportEntry[], servingAlone: ReadonlySet<string>): Drift[] {
  const withinInstance = new Set(fields.filter((f) => f.withinInstance).map((f) => f.field));
  return findDrift(reportNodes, fields).map((d) => {
    if (d.field === 'profile' && profilesFollowRoles(d, reports)) return { ...d, severity: 'note' as const, message: `${d.message} (one profile per prefill/decode role, as the launch scripts show)` };
    if (d.severity === 'fail' && withinInstance.has(d.field) && d.groups.every((g) => g.nodes.every((node) => servingAlone.has(node)))) {
      return { ...d, severity: 'warn' as const, message: `${d.message} (each of these nodes serves an instance of its own, as the launch scripts show)` };
    }
    return d;
  });
}

/**
 * The nodes whose launch script starts a server that spans no other node: no KV role, one node
 * (--nnodes 1), every data-parallel rank its own from rank 0, an API server of its own. No rank
 * of another node depends on their stack. A node whose script names peers that did not report
 * is not one: its instance is only partly seen.
 */
function nodesServingAlone(reports: readonly ReportEntry[]): Set<string> {
  const alone = new Set<string>();
  for (const entry of reports) {
    const layout = entry.record.launch?.layout;
    if (layout && layout.role === null && layout.nnodes === 1 && layout.dp === layout.dpLocal && layout.startRank === 0 && !layout.headless) alone.add(entry.name);
  }
  return alone;
}

/** The nodes in the cluster file's order, then by name. */
function inClusterOrder(nodes: AggregateNode[], cluster: Cluster | undefined): AggregateNode[] {
  const position = new Map((cluster?.nodes ?? []).map((n, i) => [n.name.toLowerCase(), i]));
  const order = (a: AggregateNode, b: AggregateNode) =>
    (position.get(a.name.toLowerCase()) ?? Number.MAX_SAFE_INTEGER) - (position.get(b.name.toLowerCase()) ?? Number.MAX_SAFE_INTEGER) || naturalOrder(a.name, b.name);
  return nodes.sort(order);
}

/** The nodes that sent more than one report: the one kept, the ones ignored. */
function duplicateReports(newest: ReadonlyMap<string, ReportEntry>, dropped: ReadonlyMap<string, ReportEntry[]>): Duplicate[] {
  return [...dropped.entries()]
    .map(([key, list]) => {
      const kept = newest.get(key)!;
      return {
        node: kept.name,
        kept: { source: kept.record.source, startedAt: kept.record.startedAt },
        dropped: list.map((d) => ({ source: d.record.source, startedAt: d.record.startedAt })),
      };
    })
    .sort((a, b) => naturalOrder(a.node, b.node));
}

/** One finding per node that is not ready, has no verdict, did not report, or reported too long ago. */
function nodeFindings(nodes: readonly AggregateNode[], options: AggregateOptions): Finding[] {
  const findings: Finding[] = [];
  const clusterFile = options.cluster?.file;
  const maxAge = options.maxAgeMs === undefined ? '' : formatDuration(options.maxAgeMs);
  for (const node of nodes) {
    if (node.verdict === 'not-ready') {
      findings.push({ severity: 'fail', kind: 'not-ready', message: `${node.name} is not ready: ${summarizeList(node.failing.map((f) => f.id), 8)}`, nodes: [node.name] });
    } else if (node.verdict === 'no-verdict') {
      findings.push({ severity: 'fail', kind: 'no-verdict', message: `${node.name} has no verdict: ${node.error!.code}: ${node.error!.message} (${node.source})`, nodes: [node.name] });
    } else if (node.verdict === 'missing') {
      findings.push({ severity: 'fail', kind: 'missing', message: `${node.name} has no report (a node of ${clusterFile})`, nodes: [node.name] });
    }
    if (node.stale) {
      const age = node.ageSeconds === null ? `has no valid start time (${node.startedAt})` : `is ${formatDuration(node.ageSeconds * 1000)} old`;
      findings.push({ severity: 'fail', kind: 'stale', message: `${node.name}'s report ${age}, more than --max-age ${maxAge} (${node.source})`, nodes: [node.name] });
    }
  }
  return findings;
}

/** Fewer nodes than the profile's deployment spans. */
function missingDeploymentNodes(reports: readonly ReportEntry[], nodeCount: number, options: AggregateOptions): Finding | undefined {
  const expected = expectedNodes(reports, options);
  if (!expected || nodeCount >= expected.nodes) return undefined;
  const absent = expected.nodes - nodeCount;
  return {
    severity: 'fail',
    kind: 'missing',
    message: `the deployment of profile ${expected.profile} spans ${expected.nodes} nodes, but ${plural(nodeCount, 'node')} ${nodeCount === 1 ? 'is' : 'are'} here: ${absent} missing`,
    nodes: [],
  };
}

function duplicateFinding(d: Duplicate): Finding {
  const others = d.dropped.map((x) => `${x.source} (${x.startedAt})`);
  return { severity: 'note', kind: 'duplicate', message: `${d.node} has ${plural(d.dropped.length + 1, 'report')}: kept the newest, ${d.kept.source} (${d.kept.startedAt}); ignored ${summarizeList(others, 3)}`, nodes: [d.node] };
}

/**
 * The cluster verdict over the nodes' documents: every node's readiness, what differs across
 * nodes, colliding device addresses, and with a cluster file the nodes that did not report.
 * Pure: the caller reads the files and passes the clock.
 */
export function aggregate(documents: readonly NodeDocument[], options: AggregateOptions): AggregateDocument {
  const cluster = options.cluster?.cluster;
  const clusterFile = options.cluster?.file;

  const { newest, dropped } = newestReports(documents, cluster);
  const reports = [...newest.values()];
  const errors = errorNodes(documents, cluster, reports);

  // what each node reports, and what differs
  const fields = comparedFields(reports);
  const reportNodes = reports.map((entry) => {
    const values: Record<string, string | null> = {};
    for (const { field } of fields) values[field] = entry.record.values[field] ?? null;
    return reportNode(entry, values, options);
  });
  // the launch layouts of the nodes checked with --launch, judged together
  const withLayout = reports.filter((entry) => entry.record.launch !== null);
  const launch = withLayout.length > 0 ? judgeLaunch(withLayout.map(launchNode), reports.filter((entry) => entry.record.launch === null).map((entry) => entry.name)) : undefined;
  const drift = clusterDrift(reportNodes, fields, reports, nodesServingAlone(reports));
  const collisions = findCollisions(reports.map((entry) => ({ name: entry.name, devices: entry.record.devices })));

  // the cluster file: who did not report, who is not in it
  const present = new Set([...reportNodes, ...errors].map((n) => n.name.toLowerCase()));
  const missingNodes = cluster ? cluster.nodes.filter((n) => !present.has(n.name.toLowerCase())) : [];
  const unexpected = cluster ? reportNodes.filter((n) => n.nameFrom === 'report').map((n) => n.name) : [];
  const nodes = inClusterOrder([...reportNodes, ...errors, ...missingNodes.map(missingNode)], cluster);
  const duplicates = duplicateReports(newest, dropped);

  // every reason for the verdict
  const findings = nodeFindings(nodes, options);
  for (const d of drift) {
    findings.push({ severity: d.severity, kind: 'drift', message: d.message, nodes: d.majority ? d.odd.map((o) => o.node) : d.groups.flatMap((g) => g.nodes) });
  }
  const short = missingDeploymentNodes(reports, nodes.length, options);
  if (short) findings.push(short);
  for (const c of collisions) findings.push({ severity: 'fail', kind: 'ip-collision', message: c.message, nodes: [...new Set(c.owners.map((o) => o.node))] });
  if (launch) findings.push(...launch.findings);
  // pairs: once: each report holds half of the ping matrix; the join proves the whole of it or names the gaps
  const joined = joinPeerPairs(reports.flatMap((entry) => (entry.record.peerPairs ? [entry.record.peerPairs] : [])), options.now.getTime());
  if (joined) findings.push(...joined.findings);
  // the load times: a node ready long before the slowest gives up on its first collective
  const loads = judgeLoadSkew(reports.flatMap((entry) => (entry.record.loadTime ? [{ name: entry.name, load: entry.record.loadTime }] : [])));
  if (loads) findings.push(...loads.findings);
  for (const name of unexpected) findings.push({ severity: 'warn', kind: 'unexpected-node', message: `${name} reported, but ${clusterFile} does not list it`, nodes: [name] });
  for (const d of duplicates) findings.push(duplicateFinding(d));
  findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);

  const strict = options.strict ?? false;
  const ready = findings.every((f) => f.severity === 'note' || (f.severity === 'warn' && !strict));
  const count = (verdict: AggregateNode['verdict']) => nodes.filter((n) => n.verdict === verdict).length;
  return {
    schemaVersion: 1,
    tool: { name: 'qprep', version: VERSION },
    command: 'aggregate',
    generatedAt: options.now.toISOString(),
    ready,
    strict,
    maxAgeSeconds: options.maxAgeMs === undefined ? null : Math.round(options.maxAgeMs / 1000),
    cluster: cluster && clusterFile ? { file: clusterFile, nodes: cluster.nodes.map((n) => n.name) } : null,
    summary: {
      documents: documents.length,
      nodes: nodes.length,
      ready: count('ready'),
      notReady: count('not-ready'),
      noVerdict: count('no-verdict'),
      missing: count('missing'),
      stale: nodes.filter((n) => n.stale).length,
      duplicates: duplicates.reduce((sum, d) => sum + d.dropped.length, 0),
    },
    nodes,
    drift,
    collisions,
    missing: missingNodes.map((n) => ({ name: n.name, host: n.host })),
    unexpected,
    duplicates,
    findings,
    ...(launch ? { launch: launch.launch } : {}),
    ...(joined ? { peerPairs: joined.peerPairs } : {}),
    ...(loads ? { loadTime: loads.loadTime } : {}),
  };
}

/**
 * A disaggregated deployment checks its prefill and decode nodes with a profile each: the
 * profiles differ by design when every profile's nodes run one KV role and no two profiles the same.
 */
function profilesFollowRoles(drift: Drift, reports: readonly ReportEntry[]): boolean {
  const roles = new Map(reports.map((entry) => [entry.name, entry.record.launch?.layout.role ?? null]));
  const seen = new Set<string>();
  for (const group of drift.groups) {
    const groupRoles = new Set(group.nodes.map((node) => roles.get(node) ?? null));
    const [role] = groupRoles;
    if (groupRoles.size !== 1 || !role || seen.has(role)) return false;
    seen.add(role);
  }
  return drift.unknown.length === 0;
}

function launchNode(entry: ReportEntry): LaunchNode {
  const { script, layout } = entry.record.launch!;
  const declared = layout.nodeAddress?.known && isIP(layout.nodeAddress.value) ? [layout.nodeAddress.value] : [];
  return { name: entry.name, script, layout, addresses: [...new Set([...entry.record.hostAddresses, ...declared])] };
}
