import type { LaunchLayout } from '../report/schema.js';
import { isIP } from '../util/ip.js';
import { formatRanges, plural, summarizeList } from '../util/text.js';
import type { AggregateLaunch, Finding, LaunchInstance } from '../report/aggregate-schema.js';

/**
 * The launch rules no single node can judge, over the layouts the nodes' reports carry
 * (`qprep check --launch`): which nodes form one vLLM instance, whether their data-parallel
 * ranks tile 0 .. --data-parallel-size - 1 without gap or overlap, whether they all name the
 * node that starts rank 0 as the master (--data-parallel-address, an address of that node),
 * and whether each node's kv_connector_extra_config describes the prefill and decode
 * instances as they are launched. Every finding names the script and line to change.
 */

export interface LaunchNode {
  name: string;
  /** the launch script's file name */
  script: string;
  layout: LaunchLayout;
  /** the node's addresses: its facts, and the address its script declares for it */
  addresses: readonly string[];
}

/** vLLM's ParallelConfig.data_parallel_rpc_port */
const DEFAULT_RPC_PORT = 29550;

type Role = LaunchInstance['role'];

interface Instance {
  role: Role;
  master: LaunchNode | null;
  members: LaunchNode[];
}

const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare;

function roleOf(node: LaunchNode): Role {
  return node.layout.role ?? 'serve';
}

function at(node: LaunchNode, line: number | null): string {
  return `${node.script}:${line ?? node.layout.lines.serve}`;
}

function ranks(start: number, count: number): string {
  if (count <= 0) return '';
  return count === 1 ? String(start) : `${start}-${start + count - 1}`;
}

function knownIp(address: { value: string; known: boolean } | null): string | undefined {
  return address && address.known && isIP(address.value) ? address.value : undefined;
}

/** Starts rank 0 and names itself (or nothing that can be judged) as the master. */
function isMaster(node: LaunchNode): boolean {
  if (node.layout.startRank !== 0) return false;
  const address = knownIp(node.layout.dpAddress);
  return address === undefined || node.addresses.length === 0 || node.addresses.includes(address);
}

function instanceAddress(instance: Instance): string | undefined {
  return instance.master ? knownIp(instance.master.layout.dpAddress) : undefined;
}

function label(instance: Instance): string {
  const what = instance.role === 'serve' ? 'instance' : `${instance.role} instance`;
  const address = instanceAddress(instance);
  return address ? `${what} at ${address}` : what;
}

/** The value most members have; the master's when it has one. */
function reference<T>(instance: Instance, read: (node: LaunchNode) => T): T {
  if (instance.master) return read(instance.master);
  const counts = new Map<T, number>();
  for (const member of instance.members) counts.set(read(member), (counts.get(read(member)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/** "run_d1.sh line 10: node0_ip="10.0.0.12"" or the flag itself when the value is written there. */
function addressFix(node: LaunchNode, address: string, comment: string): string {
  const dp = node.layout.dpAddress;
  if (dp?.from) return `${node.script} line ${dp.from.line}: ${dp.from.name}="${address}"   # ${comment}`;
  return `${node.script} line ${dp?.line ?? node.layout.lines.serve}: --data-parallel-address ${address}   # ${comment}`;
}

function describeAddress(node: LaunchNode): string {
  const dp = node.layout.dpAddress!;
  const from = dp.from && dp.from.line !== dp.line ? `, ${dp.from.name} at line ${dp.from.line}` : '';
  return `${node.script}:${dp.line}${from}`;
}

/** The nodes of each role, split into instances around the nodes that start rank 0 at their own address. */
function formInstances(nodes: readonly LaunchNode[], findings: Finding[]): Instance[] {
  const instances: Instance[] = [];
  const roles = [...new Set(nodes.map(roleOf))];
  for (const role of roles) {
    const group = nodes.filter((n) => roleOf(n) === role);
    const masters = group.filter(isMaster);
    if (masters.length <= 1) {
      instances.push({ role, master: masters[0] ?? null, members: group });
      continue;
    }
    const byMaster = new Map<LaunchNode, LaunchNode[]>(masters.map((m) => [m, [m]]));
    const stray: LaunchNode[] = [];
    for (const node of group) {
      if (masters.includes(node)) continue;
      const address = knownIp(node.layout.dpAddress);
      const master = address ? masters.find((m) => m.addresses.includes(address) || knownIp(m.layout.dpAddress) === address) : undefined;
      if (master) byMaster.get(master)!.push(node);
      else stray.push(node);
    }
    for (const [master, members] of byMaster) instances.push({ role, master, members });
    for (const node of stray) {
      const named = node.layout.dpAddress ? `names master ${node.layout.dpAddress.value} (${describeAddress(node)})` : 'names no master (no --data-parallel-address)';
      const candidates = masters.map((m) => `${m.name} at ${knownIp(m.layout.dpAddress) ?? m.addresses[0] ?? '?'}`);
      findings.push({
        severity: 'fail',
        kind: 'launch',
        message: `${node.name} ${named}, which is none of the ${plural(masters.length, `${role === 'serve' ? '' : `${role} `}instance`)} (rank 0 on ${summarizeList(candidates, 4)}): its ranks join no instance`,
        nodes: [node.name],
        remediation: addressFix(node, knownIp(masters[0]!.layout.dpAddress) ?? '<address of the node that starts rank 0>', 'the master of the instance this node belongs to'),
      });
    }
  }
  return instances;
}

/** Members that disagree with the instance on a size: --data-parallel-size, TP, PP, the RPC port. */
function judgeAgreement(instance: Instance, findings: Finding[]): void {
  const sizes: Array<{ read: (n: LaunchNode) => number; flag: string; line: (n: LaunchNode) => number | null }> = [
    { read: (n) => n.layout.dp, flag: '--data-parallel-size', line: (n) => n.layout.lines.dp },
    { read: (n) => n.layout.tp, flag: '--tensor-parallel-size', line: (n) => n.layout.lines.tp },
    { read: (n) => n.layout.pp, flag: '--pipeline-parallel-size', line: () => null },
    { read: (n) => n.layout.rpcPort ?? DEFAULT_RPC_PORT, flag: '--data-parallel-rpc-port', line: (n) => n.layout.lines.rpcPort },
  ];
  if (instance.members.length < 2) return;
  for (const size of sizes) {
    const wanted = reference(instance, size.read);
    const odd = instance.members.filter((n) => size.read(n) !== wanted);
    for (const node of odd) {
      const others = instance.members.filter((n) => !odd.includes(n)).map((n) => n.name);
      findings.push({
        severity: 'fail',
        kind: 'launch',
        message: `${label(instance)}: ${node.name} runs ${size.flag} ${size.read(node)} (${at(node, size.line(node))}), ${summarizeList(others, 3)} ${wanted}: the nodes of one instance must agree`,
        nodes: [node.name],
        remediation: `${node.script} line ${size.line(node) ?? node.layout.lines.serve}: ${size.flag} ${wanted}`,
      });
    }
  }
}

/** The ranks of the nodes tile 0 .. dp - 1: each node starts where the nodes before it end. */
function judgeRanks(instance: Instance, findings: Finding[]): void {
  const dp = reference(instance, (n) => n.layout.dp);
  const members = [...instance.members].sort(
    (a, b) => a.layout.startRank - b.layout.startRank || Number(b === instance.master) - Number(a === instance.master) || naturalOrder(a.name, b.name),
  );
  const total = members.reduce((sum, n) => sum + n.layout.dpLocal, 0);
  const startFix = (node: LaunchNode, start: number, why: string) =>
    `${node.script} line ${node.layout.lines.startRank ?? node.layout.lines.serve}: --data-parallel-start-rank ${start}   # ${why}`;
  if (total === dp) {
    // every rank is accounted for: a node that does not start where the nodes before it end is misplaced
    let expected = 0;
    let previous: LaunchNode | undefined;
    for (const node of members) {
      if (node.layout.startRank !== expected) {
        const before = previous ? `ranks ${ranks(0, expected)} are on ${members.slice(0, members.indexOf(node)).map((n) => n.name).join(', ')}` : 'no node before it';
        const problem = node.layout.startRank > expected ? `leaving rank${node.layout.startRank - expected > 1 ? 's' : ''} ${ranks(expected, node.layout.startRank - expected)} to no node` : `serving again rank${expected - node.layout.startRank > 1 ? 's' : ''} ${ranks(node.layout.startRank, expected - node.layout.startRank)}`;
        findings.push({
          severity: 'fail',
          kind: 'launch',
          message: `${label(instance)}: ${node.name} starts at rank ${node.layout.startRank} (${at(node, node.layout.lines.startRank)}), ${problem}; ${before}, so it should start at ${expected}`,
          nodes: [node.name],
          remediation: startFix(node, expected, `the ranks of the nodes before it (${before})`),
        });
      }
      expected += node.layout.dpLocal;
      previous = node;
    }
    return;
  }
  const servedBy = new Map<number, LaunchNode[]>();
  for (const node of members) {
    for (let r = node.layout.startRank; r < node.layout.startRank + node.layout.dpLocal; r++) servedBy.set(r, [...(servedBy.get(r) ?? []), node]);
  }
  const uncovered = Array.from({ length: dp }, (_, r) => r).filter((r) => !servedBy.has(r));
  const layoutText = members.map((n) => `${n.name} ${ranks(n.layout.startRank, n.layout.dpLocal) || 'none'}`).join(', ');
  if (total < dp && uncovered.length > 0) {
    findings.push({
      severity: 'fail',
      kind: 'launch',
      message: `${label(instance)}: ranks ${formatRanges(uncovered)} of --data-parallel-size ${dp} are served by no node that reported (${layoutText}): a node without a report, or a wrong start rank or local size`,
      nodes: members.map((n) => n.name),
      remediation: `check every node of the instance with --launch and aggregate all the reports; the nodes together must serve ranks 0-${dp - 1} (--data-parallel-start-rank, --data-parallel-size-local)`,
    });
  }
  if (total > dp) {
    findings.push({
      severity: 'fail',
      kind: 'launch',
      message: `${label(instance)}: its nodes serve ${total} ranks (${layoutText}) but --data-parallel-size is ${dp}`,
      nodes: members.map((n) => n.name),
      remediation: `raise --data-parallel-size to ${total} on every node of the instance, or lower --data-parallel-size-local where a node serves too many`,
    });
  }
  // two nodes on one rank: the later one (never the master) moves
  const blamed = new Set<LaunchNode>();
  for (const [rank, nodes] of [...servedBy.entries()].sort((a, b) => a[0] - b[0])) {
    if (nodes.length < 2) continue;
    const [keeper, ...movers] = nodes;
    for (const node of movers) {
      if (blamed.has(node)) continue;
      blamed.add(node);
      const gap = uncovered.find((r) => r >= 0 && Array.from({ length: node.layout.dpLocal }, (_, i) => r + i).every((x) => x < dp && !servedBy.has(x)));
      findings.push({
        severity: 'fail',
        kind: 'launch',
        message: `${label(instance)}: ${node.name} (${at(node, node.layout.lines.startRank)}) serves rank ${rank}, which ${keeper!.name} serves too`,
        nodes: [node.name, keeper!.name],
        remediation: startFix(node, gap ?? Math.max(...members.map((n) => n.layout.startRank + n.layout.dpLocal)), gap !== undefined ? 'the first ranks no node serves' : 'after the last rank served'),
      });
    }
  }
}

/** Every node names the master of its instance: the --data-parallel-address of the node that starts rank 0, one of its addresses. */
function judgeMaster(instance: Instance, findings: Finding[], notes: Set<string>): void {
  const spans = instance.members.length > 1 || instance.members.some((n) => n.layout.dpLocal < n.layout.dp);
  if (!spans) return;
  const unknown = instance.members.filter((n) => n.layout.dpAddress && !knownIp(n.layout.dpAddress));
  for (const node of unknown) {
    const dp = node.layout.dpAddress!;
    notes.add(`${node.name}: the master address of ${label(instance)} cannot be compared: --data-parallel-address (${describeAddress(node)}) is ${dp.known ? `"${dp.value}", not an IP address` : 'computed at run time'} (launch.placeholders and launch.network on ${node.name} say why)`);
  }
  if (!instance.master) {
    const first = instance.members.find((n) => n.layout.startRank === 0);
    const address = first ? knownIp(first.layout.dpAddress) : undefined;
    if (first && address && first.addresses.length > 0) {
      const own = (first.layout.nodeAddress?.known && isIP(first.layout.nodeAddress.value) ? first.layout.nodeAddress.value : undefined) ?? first.addresses[0]!;
      findings.push({
        severity: 'fail',
        kind: 'launch',
        message: `${label(instance)}: ${first.name} starts rank 0 but names master ${address} (${describeAddress(first)}), which is not one of its addresses (${summarizeList([...first.addresses], 3)}): no node can be the master`,
        nodes: [first.name],
        remediation: addressFix(first, own, `${first.name} starts rank 0: its own address`),
      });
    }
    return;
  }
  const master = instance.master;
  const address = knownIp(master.layout.dpAddress);
  if (!address) return;
  for (const node of instance.members) {
    if (node === master || !node.layout.dpAddress) continue;
    const named = knownIp(node.layout.dpAddress);
    if (!named || named === address || master.addresses.includes(named)) continue;
    findings.push({
      severity: 'fail',
      kind: 'launch',
      message: `${label(instance)}: ${node.name} names master ${named} (${describeAddress(node)}), but rank 0 is on ${master.name} at ${address}`,
      nodes: [node.name],
      remediation: addressFix(node, address, `${master.name}, which starts rank 0 (its local_ip)`),
    });
  }
}

/** kv_connector_extra_config.prefill/decode of every node against the prefill and decode instances as launched. */
function judgeKvSizes(nodes: readonly LaunchNode[], instances: readonly Instance[], findings: Finding[], notes: Set<string>): void {
  interface Claim {
    node: LaunchNode;
    line: number;
  }
  const wrong = new Map<string, { side: 'prefill' | 'decode'; key: 'dp_size' | 'tp_size'; declared: number; actual: number[]; targets: string[]; claims: Claim[] }>();
  for (const node of nodes) {
    const kv = node.layout.kv;
    if (!kv) continue;
    for (const side of ['prefill', 'decode'] as const) {
      const declared = kv[side];
      if (!declared) continue;
      const targets = instances.filter((i) => i.role === side);
      if (targets.length === 0) {
        notes.add(`no ${side} node reported a launch layout: the ${side} sizes of the KV connectors (${node.script}:${declared.dpLine}) cannot be compared with a ${side} instance`);
        continue;
      }
      for (const [key, value, line, read] of [
        ['dp_size', declared.dp, declared.dpLine, (i: Instance) => reference(i, (n) => n.layout.dp)],
        ['tp_size', declared.tp, declared.tpLine, (i: Instance) => reference(i, (n) => n.layout.tp)],
      ] as const) {
        if (value === null) continue;
        const actual = [...new Set(targets.map(read))];
        if (actual.includes(value)) continue;
        const id = `${side}.${key}=${value}`;
        const entry = wrong.get(id) ?? { side, key, declared: value, actual, targets: targets.flatMap((t) => t.members.map((m) => m.name)), claims: [] };
        entry.claims.push({ node, line });
        wrong.set(id, entry);
      }
    }
  }
  for (const entry of wrong.values()) {
    const flag = entry.key === 'dp_size' ? '--data-parallel-size' : '--tensor-parallel-size';
    const where = entry.claims.map((c) => `${c.node.script}:${c.line} (${c.node.name})`);
    const actual = entry.actual.join(' or ');
    findings.push({
      severity: 'fail',
      kind: 'launch',
      message: `${entry.side}.${entry.key} ${entry.declared} in kv_connector_extra_config of ${summarizeList(where, 4)}, but the ${entry.side} instance runs ${flag} ${actual} (${summarizeList(entry.targets, 4)})`,
      nodes: [...new Set([...entry.claims.map((c) => c.node.name), ...entry.targets])],
      remediation: entry.claims.map((c) => `${c.node.script} line ${c.line}: "${entry.key}": ${entry.actual[0]}   # in the ${entry.side} block`).join('\n'),
    });
  }
}

export interface LaunchVerdict {
  launch: AggregateLaunch;
  findings: Finding[];
}

/** The instances the nodes form and what is wrong between them; `without` names the nodes that carried no layout. */
export function judgeLaunch(nodes: readonly LaunchNode[], without: readonly string[]): LaunchVerdict {
  const findings: Finding[] = [];
  const notes = new Set<string>();
  const instances = formInstances(nodes, findings);
  for (const instance of instances) {
    judgeAgreement(instance, findings);
    judgeRanks(instance, findings);
    judgeMaster(instance, findings, notes);
  }
  judgeKvSizes(nodes, instances, findings, notes);
  if (without.length > 0) {
    notes.add(`${summarizeList([...without], 4)} reported no launch layout (checked without --launch, or the script starts no server): the cross-node launch rules leave ${without.length === 1 ? 'it' : 'them'} out`);
  }
  for (const note of notes) findings.push({ severity: 'note', kind: 'launch', message: note, nodes: [] });
  const listed: LaunchInstance[] = instances
    .map((instance) => ({
      role: instance.role,
      master: instance.master?.name ?? null,
      address: instanceAddress(instance) ?? null,
      dp: reference(instance, (n) => n.layout.dp),
      tp: reference(instance, (n) => n.layout.tp),
      pp: reference(instance, (n) => n.layout.pp),
      nodes: [...instance.members]
        .sort((a, b) => a.layout.startRank - b.layout.startRank || naturalOrder(a.name, b.name))
        .map((n) => ({ node: n.name, script: n.script, startRank: n.layout.startRank, dpLocal: n.layout.dpLocal, ranks: ranks(n.layout.startRank, n.layout.dpLocal) })),
    }))
    .sort((a, b) => ['prefill', 'decode', 'both', 'serve'].indexOf(a.role) - ['prefill', 'decode', 'both', 'serve'].indexOf(b.role));
  return { launch: { instances: listed, without: [...without] }, findings };
}
