import { error, fail, pass, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import type { NetInterface } from '../src/host/types.js';
import type { ShellVariable } from '../src/parsers/launch-script.js';
import { integerFlag, lastFlag, type IntegerFlag, type ServeFlag } from '../src/parsers/vllm-args.js';
import { at, describeVariable, launchView, noLaunchScript, parallelism, rootOf, type LaunchView, type Parallelism } from '../src/probes/launch.js';
import { ruleEvidence } from '../src/knowledge/judge.js';
import { launchRule, ruleNote } from '../src/probes/launch-rules.js';
import { isIP, isLoopbackOrLinkLocal } from '../src/util/ip.js';
import { redactEnvValue } from '../src/util/redact.js';
import { summarizeList, type ListWords } from '../src/util/text.js';

/** This node's address, as the guides' scripts name it. */
const LOCAL_ADDRESS_VARIABLES = ['HCCL_IF_IP', 'IP_ADDRESS', 'local_ip'];
/** The interface for HCCL bootstrap, Gloo and the TP sockets, as the guides' scripts name it. */
const INTERFACE_VARIABLES = ['HCCL_SOCKET_IFNAME', 'GLOO_SOCKET_IFNAME', 'TP_SOCKET_IFNAME', 'NETWORK_CARD_NAME', 'nic_name'];
/** The master's address: node 0 of the data-parallel group. */
const MASTER_VARIABLES = ['MASTER_IP_ADDRESS', 'node0_ip', 'MASTER_ADDR'];
const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'ftp_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'FTP_PROXY', 'ALL_PROXY'];
/** What a refused connection means: the host answered, nothing listens yet (the master is not started). */
const REACHABLE_ERRORS = new Set(['ECONNREFUSED']);

type Level = 'fail' | 'warn';

/** The words of one language: the run's for what a person reads, English for `actual` and the evidence. */
interface Words {
  t: Catalogue['checks']['launch.network'];
  launch: Catalogue['probes']['launch'];
  list: ListWords;
}
type Say = (w: Words) => string;

interface Problem {
  level: Level;
  text: Say;
  fix: Say;
}

const ENGLISH: Words = { t: en.checks['launch.network'], launch: en.probes.launch, list: en.report.list };

function ipv4Of(iface: NetInterface): string | undefined {
  return iface.addresses.find((a) => a.family === 'IPv4')?.address;
}

function owner(interfaces: readonly NetInterface[], ip: string): NetInterface | undefined {
  return interfaces.find((i) => i.addresses.some((a) => a.address.toLowerCase() === ip.toLowerCase()));
}

function isUp(iface: NetInterface): boolean {
  return iface.adminUp && iface.operState !== 'down' && iface.operState !== 'lowerlayerdown' && iface.operState !== 'notpresent';
}

/** The variables of the script (any scope) and of the server's environment with these names. */
function variablesNamed(view: LaunchView, names: readonly string[]): ShellVariable[] {
  const out: ShellVariable[] = [];
  for (const name of names) {
    const variable = view.env.get(name) ?? view.script.variables.get(name);
    if (variable) out.push(variable);
  }
  return out;
}

/** "the line where it is written": the deepest origin, where the literal is. */
function fixLine(w: Words, view: LaunchView, variable: ShellVariable, value: string, comment: string): string {
  const root = rootOf(variable);
  if (root.line === null) return w.t.fixExport({ name: variable.name, value, comment });
  return w.t.fixAt({ script: view.name, line: root.line, name: root.name, value, comment });
}

/**
 * The interfaces an HCCL_SOCKET_IFNAME value selects: "eth,enp" prefixes, "=eth0" exact,
 * "^..." exclusions (CANN environment-variable reference). Exclusions select "any other".
 */
function hcclInterfaceSpec(value: string): { exact: string[]; prefixes: string[]; excludes: boolean } {
  const exact: string[] = [];
  const prefixes: string[] = [];
  let excludes = false;
  const spec = value.trim();
  const negative = spec.startsWith('^');
  const body = negative ? spec.slice(1) : spec;
  const isExact = body.startsWith('=');
  for (const name of (isExact ? body.slice(1) : body).split(',').map((s) => s.trim()).filter(Boolean)) {
    if (negative) excludes = true;
    else if (isExact) exact.push(name);
    else prefixes.push(name);
  }
  return { exact, prefixes, excludes };
}

async function masterReachable(ctx: CheckContext, address: string, port: number): Promise<{ ok: boolean; unknown?: boolean; detail: Say }> {
  const result = await ctx.host.tcpConnect(address, port, Math.min(ctx.timeoutMs, 5000));
  if (result.ok) return { ok: true, detail: (w) => w.t.accepts({ address, port }) };
  // a replay of a snapshot that never tried this address cannot tell
  if (result.error && /not captured/.test(result.error)) return { ok: false, unknown: true, detail: (w) => w.t.notCaptured({ address, port }) };
  if (result.error && REACHABLE_ERRORS.has(result.error)) return { ok: true, detail: (w) => w.t.refused({ address, port }) };
  const problem = result.error ?? null;
  return { ok: false, detail: (w) => w.t.noAnswer({ address, port, error: problem }) };
}

/** What the rules read and what they find, for one run. */
interface Scan {
  view: LaunchView;
  interfaces: readonly NetInterface[];
  /** the first up interface with an IPv4 address: the one a suggested value names */
  defaultNic: NetInterface | undefined;
  problems: Problem[];
  checked: Say[];
  evidence: Record<string, unknown>;
}

/** This node's address as the script sets it: the first good value, and every origin judged. */
interface NodeAddress {
  ip: string | undefined;
  /** `NAME@line` of the assignments judged, so that a value reused elsewhere is judged once */
  roots: Set<string>;
}

/** A place the script names the data-parallel master: --data-parallel-address or a variable. */
interface MasterCandidate {
  label: Say;
  value: string;
  known: boolean;
  dynamic?: string;
  root: string;
  fix: (w: Words, value: string, comment: string) => string;
}

/** What a master's address is judged against: the server's layout and this node's address. */
interface MasterSetting {
  layout: Parallelism | undefined;
  /** this node runs data-parallel rank 0 and the API server */
  isMaster: boolean;
  nodeIp: string | undefined;
  rpcPort: IntegerFlag | undefined;
}

function labelOf(view: LaunchView, variable: ShellVariable): Say {
  return (w) => describeVariable(view, variable, w.launch);
}

function rootKeyOf(variable: ShellVariable): string {
  const root = rootOf(variable);
  return `${root.name}@${root.line}`;
}

/** The value of a variable that is built at run time: the literal to write instead. */
function computedValue(scan: Scan, variable: ShellVariable, suggestion: Say): Problem {
  const label = labelOf(scan.view, variable);
  const dynamic = variable.value.dynamic[0] ?? '';
  return { level: 'warn', text: (w) => w.t.computed({ variable: label(w), dynamic }), fix: (w) => fixLine(w, scan.view, variable, suggestion(w), w.t.writtenLiterally) };
}

/** Rule 1: HCCL_IF_IP and its kin name an address of this node, on an up interface, that the other nodes can reach. */
function checkNodeAddresses(scan: Scan): NodeAddress {
  const address: NodeAddress = { ip: undefined, roots: new Set() };
  const addressEvidence: Array<Record<string, unknown>> = [];
  for (const variable of variablesNamed(scan.view, LOCAL_ADDRESS_VARIABLES)) {
    const rootKey = rootKeyOf(variable);
    if (address.roots.has(rootKey)) continue;
    address.roots.add(rootKey);
    const value = variable.value;
    addressEvidence.push({ name: variable.name, line: variable.line, value: value.text, known: value.known });
    const ip = judgeNodeAddress(scan, variable);
    if (ip !== undefined) address.ip ??= ip;
  }
  scan.evidence.addresses = addressEvidence;
  return address;
}

/** One variable naming this node's address: its IP when it is good, else the problem is recorded. */
function judgeNodeAddress(scan: Scan, variable: ShellVariable): string | undefined {
  const { view, interfaces, defaultNic, problems } = scan;
  const value = variable.value;
  const label = labelOf(view, variable);
  const defaultIp = defaultNic ? ipv4Of(defaultNic)! : undefined;
  const suggestion = (w: Words) => defaultIp ?? w.t.thisHostAddress;
  const hostAddress: Say = (w) => fixLine(w, view, variable, suggestion(w), w.t.hostAddressOn({ nic: defaultNic ? defaultNic.name : null }));
  if (!value.known) {
    problems.push(computedValue(scan, variable, suggestion));
    return undefined;
  }
  const ip = value.text.trim();
  if (ip === '') {
    problems.push({ level: 'fail', text: (w) => w.t.empty({ variable: label(w) }), fix: hostAddress });
    return undefined;
  }
  if (!isIP(ip)) {
    problems.push({ level: 'fail', text: (w) => w.t.notIp({ variable: label(w), value: ip }), fix: hostAddress });
    return undefined;
  }
  const holder = owner(interfaces, ip);
  if (!holder) {
    const local = interfaces.filter((i) => !i.loopback).flatMap((i) => i.addresses.filter((a) => a.family === 'IPv4').map((a) => `${a.address} (${i.name})`));
    problems.push({
      level: 'fail',
      text: (w) => w.t.notLocal({ variable: label(w), ip, local: summarizeList(local, 3, w.list) || w.t.noIpv4 }),
      fix: hostAddress,
    });
    return undefined;
  }
  if (!isUp(holder)) {
    problems.push({ level: 'fail', text: (w) => w.t.addressDown({ variable: label(w), ip, nic: holder.name }), fix: (w) => w.t.addressUpFix({ nic: holder.name }) });
    return undefined;
  }
  const layout = view.serve ? parallelism(view.serve.parsed) : undefined;
  if (isLoopbackOrLinkLocal(ip) && layout && layout.dp > layout.dpLocal) {
    const nodes = layout.dp / Math.max(1, layout.dpLocal);
    problems.push({ level: 'fail', text: (w) => w.t.unreachableLocal({ variable: label(w), ip, nodes }), fix: (w) => fixLine(w, view, variable, suggestion(w), w.t.reachableAddress) });
    return undefined;
  }
  const name = variable.name;
  scan.checked.push((w) => w.t.checkedAddress({ name, ip, nic: holder.name }));
  return ip;
}

/** Rule 2: HCCL_SOCKET_IFNAME, GLOO_SOCKET_IFNAME and their kin select up interfaces, the one carrying this node's address. */
function checkInterfaces(scan: Scan, nodeIp: string | undefined): void {
  const interfaceEvidence: Array<Record<string, unknown>> = [];
  const seenInterfaceRoots = new Set<string>();
  for (const variable of variablesNamed(scan.view, INTERFACE_VARIABLES)) {
    const value = variable.value;
    interfaceEvidence.push({ name: variable.name, line: variable.line, value: value.text, known: value.known });
    // GLOO_/TP_/HCCL_SOCKET_IFNAME=$nic_name: one value, judged once
    const rootKey = rootKeyOf(variable);
    if (seenInterfaceRoots.has(rootKey)) continue;
    seenInterfaceRoots.add(rootKey);
    judgeInterfaceVariable(scan, variable, nodeIp);
  }
  scan.evidence.interfaces = interfaceEvidence;
}

/** One interface variable, with the interface name its fix suggests. */
interface InterfaceSetting {
  variable: ShellVariable;
  label: Say;
  nodeIp: string | undefined;
  /** the interface carrying this node's address, or the default one */
  suggestion: string;
  /** the fix that writes `suggestion` where the value is set */
  suggested: Say;
}

function judgeInterfaceVariable(scan: Scan, variable: ShellVariable, nodeIp: string | undefined): void {
  const { view, interfaces, defaultNic, problems } = scan;
  const value = variable.value;
  const carrying = nodeIp ? owner(interfaces, nodeIp) : defaultNic;
  const suggestion = carrying?.name ?? '<interface>';
  const carriedIp = nodeIp ?? (carrying ? ipv4Of(carrying) : undefined);
  const label = labelOf(view, variable);
  const comment = (w: Words) => w.t.interfaceOf({ ip: carriedIp ?? null });
  const suggested: Say = (w) => fixLine(w, view, variable, suggestion, comment(w));
  if (!value.known) {
    problems.push(computedValue(scan, variable, () => suggestion));
    return;
  }
  if (value.text.trim() === '') {
    problems.push({ level: 'fail', text: (w) => w.t.empty({ variable: label(w) }), fix: suggested });
    return;
  }
  const setting: InterfaceSetting = { variable, label, nodeIp, suggestion, suggested };
  const names = variable.name === 'HCCL_SOCKET_IFNAME' ? hcclSelectedInterfaces(scan, setting) : value.text.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) judgeInterfaceName(scan, setting, name);
}

/** The interface HCCL takes from an HCCL_SOCKET_IFNAME selector (none when it only excludes, or matches nothing). */
function hcclSelectedInterfaces(scan: Scan, setting: InterfaceSetting): string[] {
  const { interfaces, problems } = scan;
  const { variable, label, nodeIp, suggested } = setting;
  const value = variable.value;
  const spec = hcclInterfaceSpec(value.text);
  if (spec.excludes) {
    const excluded = value.text.replace(/^\^=?/, '');
    scan.checked.push((w) => w.t.checkedExcludes({ name: variable.name, excluded }));
    return [];
  }
  const matched = interfaces.filter((i) => spec.exact.includes(i.name) || spec.prefixes.some((p) => i.name.startsWith(p))).map((i) => i.name);
  if (matched.length === 0) {
    problems.push({
      level: 'fail',
      text: (w) => w.t.noMatch({ variable: label(w), value: value.text, interfaces: summarizeList(interfaces.map((i) => i.name), 6, w.list) }),
      fix: suggested,
    });
    return [];
  }
  // HCCL takes the first match: the one carrying HCCL_IF_IP must be it, or the only one
  let names = matched.length === 1 || !nodeIp ? matched.slice(0, 1) : matched.filter((n) => owner(interfaces, nodeIp)?.name === n).slice(0, 1);
  if (names.length === 0) names = matched.slice(0, 1);
  if (matched.length > 1) {
    const first = names[0];
    problems.push({
      level: 'warn',
      text: (w) => w.t.manyMatch({ variable: label(w), value: value.text, count: matched.length, matched: summarizeList(matched, 4, w.list) }),
      fix: (w) => fixLine(w, scan.view, variable, `=${first}`, w.t.exactName),
    });
  }
  return names;
}

/** One selected interface: it exists, is up, and carries this node's address. */
function judgeInterfaceName(scan: Scan, setting: InterfaceSetting, name: string): void {
  const { view, interfaces, problems } = scan;
  const { variable, label, nodeIp, suggestion, suggested } = setting;
  const iface = interfaces.find((i) => i.name === name);
  if (!iface) {
    problems.push({ level: 'fail', text: (w) => w.t.noSuchInterface({ variable: label(w), name, interfaces: summarizeList(interfaces.map((i) => i.name), 6, w.list) }), fix: suggested });
    return;
  }
  if (!isUp(iface)) {
    problems.push({ level: 'fail', text: (w) => w.t.interfaceDown({ variable: label(w), name }), fix: (w) => w.t.interfaceUpFix({ name, suggestion }) });
    return;
  }
  if (nodeIp && !iface.addresses.some((a) => a.address === nodeIp)) {
    const actual = owner(interfaces, nodeIp);
    const ip = nodeIp;
    problems.push({
      level: 'fail',
      text: (w) => w.t.otherInterface({ variable: label(w), name, ip, actual: actual?.name ?? null }),
      fix: (w) => fixLine(w, view, variable, actual?.name ?? suggestion, w.t.interfaceOf({ ip })),
    });
    return;
  }
  const variableName = variable.name;
  scan.checked.push((w) => w.t.checkedUp({ name: variableName, nic: name }));
}

/** Rule 3: the master of the data-parallel group is named, is an address, and is this node or answers. */
async function checkMasters(ctx: CheckContext, scan: Scan, address: NodeAddress): Promise<void> {
  const { view } = scan;
  const serve = view.serve;
  const layout = serve ? parallelism(serve.parsed) : undefined;
  const rpcPort = serve ? integerFlag(serve.parsed, 'data-parallel-rpc-port', 1) : undefined;
  const masterEvidence: Array<Record<string, unknown>> = [];
  const addressFlag = serve ? lastFlag(serve.parsed, 'data-parallel-address') : undefined;
  const masters = masterCandidates(scan, addressFlag);
  if (serve && layout && layout.dp > layout.dpLocal && layout.backend !== 'ray' && !addressFlag?.value) {
    scan.problems.push(missingAddressFlag(scan, serve.line, layout, address.ip));
  }
  const isMaster = layout !== undefined && layout.startRank === 0 && !layout.headless;
  const setting: MasterSetting = { layout, isMaster, nodeIp: address.ip, rpcPort };
  for (const master of masters) {
    masterEvidence.push({ name: master.label(ENGLISH), value: master.value, known: master.known });
    // --data-parallel-address ${IP_ADDRESS} on the master: the value judged above as this node's address
    if (address.roots.has(master.root) && isMaster) continue;
    await judgeMaster(ctx, scan, master, setting);
  }
  scan.evidence.masters = masterEvidence;
}

/** --data-parallel-address first, then the master variables whose value it does not already give. */
function masterCandidates(scan: Scan, addressFlag: ServeFlag | undefined): MasterCandidate[] {
  const { view } = scan;
  const masters: MasterCandidate[] = [];
  if (addressFlag?.value) {
    const v = addressFlag.value;
    const source = v.origins.length > 0 ? v.origins[v.origins.length - 1]! : undefined;
    const variable = source ? view.script.variables.get(source.name) : undefined;
    masters.push({
      label: (w) => w.t.addressFlag({ at: at(view, addressFlag.line) }),
      root: source ? `${source.name}@${source.line}` : `--data-parallel-address@${addressFlag.line}`,
      value: v.text.trim(),
      known: v.known,
      ...(v.dynamic[0] ? { dynamic: v.dynamic[0] } : {}),
      fix: (w, value, comment) => (variable ? fixLine(w, view, variable, value, comment) : w.t.addressFlagFix({ script: view.name, line: addressFlag.line, value, comment })),
    });
  }
  for (const variable of variablesNamed(view, MASTER_VARIABLES)) {
    if (masters.some((m) => m.value === variable.value.text.trim())) continue;
    masters.push({
      label: labelOf(view, variable),
      root: rootKeyOf(variable),
      value: variable.value.text.trim(),
      known: variable.value.known,
      ...(variable.value.dynamic[0] ? { dynamic: variable.value.dynamic[0] } : {}),
      fix: (w, value, comment) => fixLine(w, view, variable, value, comment),
    });
  }
  return masters;
}

/** A server spread over nodes without --data-parallel-address: vLLM's default master address is 127.0.0.1, which the other nodes cannot reach. */
function missingAddressFlag(scan: Scan, serveLine: number, layout: Parallelism, nodeIp: string | undefined): Problem {
  const { view, defaultNic } = scan;
  const own = nodeIp ?? (defaultNic ? ipv4Of(defaultNic) : undefined);
  const starts = layout.startRank === 0;
  const { dpLocal, dp } = layout;
  return {
    level: 'fail',
    text: (w) => w.t.noAddressFlag({ script: view.name, local: dpLocal, dp }),
    fix: (w) => w.t.noAddressFlagFix({ script: view.name, line: serveLine, address: starts && own ? own : null, starts }),
  };
}

/** One named master: known, an address, local on the master and only there, and answering on the RPC port. */
async function judgeMaster(ctx: CheckContext, scan: Scan, master: MasterCandidate, setting: MasterSetting): Promise<void> {
  const { interfaces, defaultNic, problems } = scan;
  const { layout, isMaster, nodeIp, rpcPort } = setting;
  const defaultIp = defaultNic ? ipv4Of(defaultNic) : undefined;
  if (!master.known) {
    // $5 of a template, or a variable set nowhere: the caller's value, named by launch.flags / launch.placeholders
    if (/^\$(?:\d|\{\d+\})$|set nowhere/.test(master.dynamic ?? '')) return;
    problems.push({ level: 'warn', text: (w) => w.t.computed({ variable: master.label(w), dynamic: master.dynamic ?? '' }), fix: (w) => master.fix(w, w.t.nodeZeroAddress, w.t.writtenLiterally) });
    return;
  }
  if (!isIP(master.value)) {
    const own = nodeIp ?? defaultIp;
    problems.push({
      level: 'fail',
      text: (w) => w.t.notIp({ variable: master.label(w), value: master.value }),
      fix: (w) => master.fix(w, isMaster && own ? own : w.t.nodeZeroAddress, isMaster ? w.t.ownAddressNodeZero : w.t.nodeZeroLocalIp),
    });
    return;
  }
  const local = owner(interfaces, master.value) !== undefined;
  if (isMaster && layout!.dp > 1 && !local) {
    problems.push({
      level: 'fail',
      text: (w) => w.t.masterNotLocal({ master: master.label(w), value: master.value }),
      fix: (w) => master.fix(w, nodeIp ?? defaultIp ?? w.t.thisHostAddress, w.t.masterIsThis),
    });
    return;
  }
  if (!isMaster && local && layout && layout.dp > layout.dpLocal) {
    const { startRank, headless } = layout;
    problems.push({
      level: 'warn',
      text: (w) => w.t.notMaster({ master: master.label(w), value: master.value, start: startRank, headless }),
      fix: (w) => master.fix(w, w.t.nodeZeroAddress, w.t.nodeZeroLocalIp),
    });
    return;
  }
  if (!local && rpcPort?.state === 'ok') {
    await judgeMasterAnswers(ctx, scan, master, rpcPort.value);
    return;
  }
  scan.checked.push((w) => w.t.checkedMaster({ value: master.value, local }));
}

/** Another node's master: it answers on --data-parallel-rpc-port (a refusal is an answer). */
async function judgeMasterAnswers(ctx: CheckContext, scan: Scan, master: MasterCandidate, port: number): Promise<void> {
  const reach = await masterReachable(ctx, master.value, port);
  const said: Say = (w) => w.t.reachDetail({ master: master.label(w), detail: reach.detail(w) });
  if (reach.unknown) {
    scan.problems.push({ level: 'warn', text: said, fix: (w) => w.t.recordAgainFix({ file: scan.view.input.file }) });
    return;
  }
  if (!reach.ok) {
    scan.problems.push({ level: 'fail', text: said, fix: (w) => w.t.routeFix({ address: master.value, port }) });
    return;
  }
  scan.checked.push(reach.detail);
}

/** Rule 4: no proxy in the server's environment (the ranks would talk to each other through it). */
function checkProxies(scan: Scan): void {
  const { view } = scan;
  const proxies = PROXY_VARIABLES.filter((name) => (view.env.get(name)?.value.text ?? '') !== '');
  scan.evidence.proxies = Object.fromEntries(proxies.map((name) => [name, redactEnvValue(name, view.env.get(name)!.value.text)]));
  if (proxies.length > 0) {
    const where = (w: Words) => proxies.map((name) => w.t.proxyAt({ name, line: view.env.get(name)!.line }));
    scan.problems.push({ level: 'warn', text: (w) => w.t.proxies({ where: summarizeList(where(w), 4, w.list) }), fix: (w) => w.t.proxiesFix({ names: proxies.join(' '), script: view.name }) });
  }
}

/**
 * Rule master-addr.one-node: --master-addr names the master of a multi-node launch (--nnodes,
 * --node-rank); on one node it sets nothing a client reaches, and the address the API server
 * listens on is --host.
 */
async function checkMasterAddr(ctx: CheckContext, scan: Scan): Promise<void> {
  const { view } = scan;
  const args = view.serve!.parsed;
  const flag = lastFlag(args, 'master-addr');
  if (!flag) return;
  const layout = parallelism(args);
  if (layout.nnodes > 1 || layout.unknowns.some((u) => u.flag.replace(/_/g, '-') === '--nnodes')) return;
  const judged = await launchRule(ctx, 'master-addr.one-node');
  if (!judged.verdict || judged.verdict === 'info') return;
  const value = flag.value ? (flag.value.known ? flag.value.text : flag.value.source) : '';
  const host = lastFlag(args, 'host');
  scan.problems.push({
    level: judged.verdict,
    text: (w) => w.t.masterAddrOneNode({ flag: flag.written, value, at: at(view, flag.line), rule: ruleNote(judged, w.launch) }),
    fix: (w) => w.t.masterAddrOneNodeFix({ script: view.name, line: flag.line, flag: flag.written, value, hostGiven: host !== undefined }),
  });
  scan.evidence.rules = [...((scan.evidence.rules as unknown[] | undefined) ?? []), ruleEvidence(judged)];
}

/** The fails first, then the warnings; a pass names what was checked. */
function verdict(scan: Scan, words: Words): Outcome {
  const { view, problems, checked, evidence } = scan;
  const t = words.t;
  // for programs: English whatever the run's language
  evidence.problems = problems.map((p) => `${p.level}: ${p.text(ENGLISH)}`);
  if (problems.length === 0) {
    if (checked.length === 0) return pass(t.noneSet({ script: view.name }), { evidence });
    return pass(t.allGood({ script: view.name, checked: summarizeList(checked.map((c) => c(words)), 4, words.list) }), { evidence });
  }
  const worst: Level = problems.some((p) => p.level === 'fail') ? 'fail' : 'warn';
  const ordered = [...problems.filter((p) => p.level === 'fail'), ...problems.filter((p) => p.level === 'warn')];
  return (worst === 'fail' ? fail : warn)(t.andMore({ first: ordered[0]!.text(words), more: ordered.length - 1 }), {
    expected: 'a local address on an up interface, reachable master, no proxy',
    // for programs: English whatever the run's language
    actual: summarizeList(ordered.map((p) => p.text(ENGLISH)), 2),
    remediation: [...new Set(ordered.map((p) => p.fix(words)))].join('\n'),
    evidence,
  });
}

// title, why, fix, reads and every message: src/i18n/*/checks/launch.ts
export default defineCheck({
  id: 'launch.network',
  category: 'launch',
  order: 30,
  level: 'required',
  cost: { connects: true },
  action: 'reconfigure',
  async run(ctx) {
    const words: Words = { t: ctx.text.checks['launch.network'], launch: ctx.text.probes.launch, list: ctx.text.report.list };
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    const listed = await ctx.host.interfaces();
    if (!listed.ok) return error(words.t.noInterfaces({ problem: listed.message }), { remediation: words.t.noInterfacesFix });
    const interfaces = listed.value;
    const defaultNic = interfaces.find((i) => !i.loopback && isUp(i) && ipv4Of(i));
    const scan: Scan = { view, interfaces, defaultNic, problems: [], checked: [], evidence: { script: view.input.file } };
    const address = checkNodeAddresses(scan);
    checkInterfaces(scan, address.ip);
    await checkMasters(ctx, scan, address);
    checkProxies(scan);
    if (view.serve) await checkMasterAddr(ctx, scan);
    return verdict(scan, words);
  },
});
