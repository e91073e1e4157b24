import { spokenError } from '../i18n/spoken-error.js';
import { yamlErrorReason } from '../util/position.js';
import { prototypeKeyProblem } from '../util/prototype-keys.js';
import type { RollingLedger } from './rolling.js';
import { parse as parseYaml } from 'yaml';
import { QprepError } from '../errors.js';
import { MAX_SETTINGS_BYTES, readInputFile } from '../host/inputs.js';
import type { Host } from '../host/types.js';
import { isLoopbackOrLinkLocal } from '../util/ip.js';
import { summarizeList } from '../util/text.js';
import { describeZodError } from '../util/zod-error.js';
import {
  clusterFactsDocumentSchema,
  clusterFactsSchema,
  clusterNodesDocumentSchema,
  clusterProblems,
  normalizeFacts,
  normalizeFactsDocument,
  normalizeNodesDocument,
  type Cluster,
  type ClusterNode,
} from './schema.js';

/** The cluster of this run and the node this host is in it. */
export interface LoadedCluster {
  file: string;
  cluster: Cluster;
  self: ClusterNode;
  /** how this host found itself: --node, one of its addresses, or its hostname */
  matchedBy: 'node-option' | 'address' | 'hostname';
  /** what the match rests on: "198.19.0.12 on eth0", "hostname node2" */
  evidence: string;
  /** set when the hostname points at another node than the addresses do */
  note?: string;
  /** the file's text as read, which a snapshot keeps */
  text?: string;
  /** plan: rolling under qprep serve: the proofs of earlier runs; a one-shot check has none */
  rolling?: RollingLedger;
}

const NOT_JSON = Symbol('not JSON');

function invalid(file: string, detail: string): QprepError {
  return spokenError('invalid-cluster', (t) => t.inputs.invalidCluster({ file, detail }));
}

function looksLikeFacts(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'hostname' in value && !('nodes' in value);
}

/**
 * Parses and validates a cluster file (YAML, JSON, or a JSON array of `qprep facts` documents).
 * Every problem is a QprepError('invalid-cluster') of one line naming the file, the field and
 * what is wrong: exit code 2, before any probe runs.
 */
export function parseClusterText(text: string, file: string): Cluster {
  let document: unknown = NOT_JSON;
  // the JSON array Ansible gathers from 1,000 nodes takes the YAML parser seconds, JSON.parse milliseconds
  if (/^\s*[[{]/.test(text)) {
    try {
      document = JSON.parse(text);
    } catch {
      // YAML flow style, or broken JSON: the YAML parser reads the one and names the line of the other
    }
  }
  try {
    if (document === NOT_JSON) document = parseYaml(text, { prettyErrors: false, logLevel: 'error' });
  } catch (error) {
    throw invalid(file, `not valid YAML or JSON: ${yamlErrorReason(error, text)}`);
  }
  // facts documents are read leniently: a __proto__ there would become the prototype of what the schema returns
  const prototypeKey = prototypeKeyProblem(document);
  if (prototypeKey) throw invalid(file, prototypeKey);
  let cluster: Cluster;
  if (Array.isArray(document)) {
    if (document.length === 0) throw invalid(file, 'an empty list: expected qprep facts documents, one per node');
    const facts = [];
    for (const [index, entry] of document.entries()) {
      const parsed = clusterFactsSchema.safeParse(entry);
      if (!parsed.success) throw invalid(file, `${index}.${describeZodError(parsed.error)}`.replace(/^(\d+)\.\(top level\)/, '$1'));
      facts.push(parsed.data);
    }
    cluster = normalizeFacts(facts);
  } else if (looksLikeFacts(document)) {
    throw invalid(file, 'this is one qprep facts document; a cluster is a JSON array of the facts of every node, or {nodes: [...]}');
  } else if (typeof document === 'object' && document !== null && 'facts' in document && !('nodes' in document)) {
    const parsed = clusterFactsDocumentSchema.safeParse(document);
    if (!parsed.success) throw invalid(file, describeZodError(parsed.error));
    cluster = normalizeFactsDocument(parsed.data);
  } else {
    if (typeof document !== 'object' || document === null) throw invalid(file, 'expected {nodes: [...]} or a JSON array of qprep facts documents');
    const parsed = clusterNodesDocumentSchema.safeParse(document);
    if (!parsed.success) throw invalid(file, describeZodError(parsed.error));
    cluster = normalizeNodesDocument(parsed.data);
  }
  const problems = clusterProblems(cluster);
  if (problems.length > 0) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more ${problems.length === 2 ? 'problem' : 'problems'})` : '';
    throw invalid(file, `${first!.path}: ${first!.message}${more}`);
  }
  return cluster;
}

export async function loadClusterFile(file: string): Promise<Cluster> {
  return parseClusterText(await readInputFile(file, 'cluster', 'invalid-cluster', MAX_SETTINGS_BYTES), file);
}

function shortName(name: string): string {
  return name.toLowerCase().split('.')[0] ?? '';
}

/**
 * Finds this host in the cluster: `--node NAME` when given; else the node owning one of this
 * host's addresses (loopback and link-local excluded, since every machine has them); else the
 * node whose name or hostname is this hostname. An address is the stronger evidence: hostnames
 * are cloned with machine images, addresses are not.
 */
export async function locateSelf(cluster: Cluster, host: Host, file: string, nodeOption?: string): Promise<LoadedCluster> {
  const names = cluster.nodes.map((n) => n.name);
  if (nodeOption !== undefined) {
    const self = cluster.nodes.find((n) => n.name === nodeOption);
    if (!self) throw invalid(file, `--node ${nodeOption}: no such node (nodes: ${summarizeList(names, 8)})`);
    return { file, cluster, self, matchedBy: 'node-option', evidence: `--node ${nodeOption}` };
  }
  const [identity, interfaces] = await Promise.all([host.identity(), host.interfaces()]);
  const local = new Map<string, string>();
  if (interfaces.ok) {
    for (const iface of interfaces.value) {
      for (const address of iface.addresses) {
        if (!isLoopbackOrLinkLocal(address.address)) local.set(address.address.toLowerCase(), iface.name);
      }
    }
  }
  const byAddress = cluster.nodes
    .map((node) => ({ node, address: node.addresses.find((a) => local.has(a.toLowerCase())) }))
    .filter((m): m is { node: ClusterNode; address: string } => m.address !== undefined);
  const hostname = identity.hostname;
  const byHostname = cluster.nodes.filter((node) =>
    [node.name, node.hostname].some((candidate) => candidate && (candidate.toLowerCase() === hostname.toLowerCase() || shortName(candidate) === shortName(hostname))),
  );

  if (byAddress.length > 1) {
    const list = byAddress.map((m) => `${m.node.name} (${m.address})`);
    throw invalid(file, `this host has the addresses of several nodes: ${summarizeList(list)}; pass --node NAME`);
  }
  if (byAddress.length === 1) {
    const { node, address } = byAddress[0]!;
    const result: LoadedCluster = { file, cluster, self: node, matchedBy: 'address', evidence: `${address} on ${local.get(address.toLowerCase())}` };
    const other = byHostname.find((n) => n.name !== node.name);
    if (other) result.note = `hostname ${hostname} names node ${other.name}, but address ${address} is ${node.name}'s; using ${node.name}`;
    return result;
  }
  if (byHostname.length === 1) return { file, cluster, self: byHostname[0]!, matchedBy: 'hostname', evidence: `hostname ${hostname}` };
  if (byHostname.length > 1) {
    throw invalid(file, `hostname ${hostname} matches several nodes: ${byHostname.map((n) => n.name).join(', ')}; pass --node NAME`);
  }
  const seen = interfaces.ok
    ? [...local.keys()].length > 0
      ? `addresses ${summarizeList([...local.keys()], 6)}`
      : 'no address besides loopback'
    : `addresses unreadable (${interfaces.message})`;
  throw invalid(file, `this host (hostname ${hostname}, ${seen}) is none of its nodes (${summarizeList(names, 8)}); add it, fix its host address, or pass --node NAME`);
}

/** Loads, validates and locates: the --cluster option of check and snapshot. */
export async function openCluster(file: string, host: Host, nodeOption?: string): Promise<LoadedCluster> {
  const text = await readInputFile(file, 'cluster', 'invalid-cluster', MAX_SETTINGS_BYTES);
  return openClusterText(text, file, host, nodeOption);
}

/** openCluster of a text already read: the cluster file a snapshot recorded. */
export async function openClusterText(text: string, file: string, host: Host, nodeOption?: string): Promise<LoadedCluster> {
  const located = await locateSelf(parseClusterText(text, file), host, file, nodeOption);
  return { ...located, text };
}
