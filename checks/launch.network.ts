import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck, type CheckContext, type Outcome } from '../src/core/types.js';
import type { NetInterface } from '../src/host/types.js';
import type { ShellVariable } from '../src/parsers/launch-script.js';
import { integerFlag, lastFlag } from '../src/parsers/vllm-args.js';
import { at, describeVariable, LAUNCH_REMEDIATION, launchView, NO_LAUNCH_SCRIPT, parallelism, rootOf, type LaunchView } from '../src/probes/launch.js';
import { isIP, isLoopbackOrLinkLocal } from '../src/util/ip.js';
import { redactEnvValue } from '../src/util/redact.js';
import { summarizeList } from '../src/util/text.js';

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
interface Problem {
  level: Level;
  text: string;
  fix: string;
}

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
function fixLine(view: LaunchView, variable: ShellVariable, value: string, comment: string): string {
  const root = rootOf(variable);
  if (root.line === null) return `export ${variable.name}="${value}"   # ${comment}`;
  return `${view.name} line ${root.line}: ${root.name}="${value}"   # ${comment}`;
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

async function masterReachable(ctx: CheckContext, address: string, port: number): Promise<{ ok: boolean; unknown?: boolean; detail: string }> {
  const result = await ctx.host.tcpConnect(address, port, Math.min(ctx.timeoutMs, 5000));
  if (result.ok) return { ok: true, detail: `${address}:${port} accepts connections` };
  // a replay of a snapshot that never tried this address cannot tell
  if (result.error && /not captured/.test(result.error)) return { ok: false, unknown: true, detail: `whether ${address}:${port} answers was not captured in the snapshot` };
  if (result.error && REACHABLE_ERRORS.has(result.error)) return { ok: true, detail: `${address} answers (port ${port} refused: nothing listens yet)` };
  return { ok: false, detail: `${address}:${port} does not answer (${result.error ?? 'no answer'})` };
}

export default defineCheck({
  id: 'launch.network',
  title: "Launch script's addresses and interfaces belong to this host",
  category: 'launch',
  level: 'required',
  why:
    'HCCL_IF_IP must be an address of this host and the *_SOCKET_IFNAME interface must be up and carry it, or HCCL ' +
    'root-info, Gloo and the TP sockets bind elsewhere or nowhere ("Connection closed by peer", link-establish ' +
    'timeouts after the weights are loaded). The master address (--data-parallel-address, node0_ip) must be an IP the ' +
    'other nodes reach, and proxy variables left set send internal requests to the proxy.',
  reads: ['the --launch script (never executed)', 'network interfaces', 'TCP connect to the master (with --data-parallel-rpc-port)'],
  fix: 'Set HCCL_IF_IP / local_ip to an address of this host, the interface variables to the interface that carries it, and the master address to node 0\'s local_ip; unset the proxy variables at the top of the script.',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return skip(NO_LAUNCH_SCRIPT, { remediation: LAUNCH_REMEDIATION });
    const listed = await ctx.host.interfaces();
    if (!listed.ok) return error(`cannot list the network interfaces: ${listed.message}`, { remediation: 'run qprep where it sees the host network (docker run --net=host), then re-run' });
    const interfaces = listed.value;
    const problems: Problem[] = [];
    const checked: string[] = [];
    const evidence: Record<string, unknown> = { script: view.input.file };
    const defaultNic = interfaces.find((i) => !i.loopback && isUp(i) && ipv4Of(i));

    // 1. this node's address
    let nodeIp: string | undefined;
    const seenRoots = new Set<string>();
    const addressEvidence: Array<Record<string, unknown>> = [];
    for (const variable of variablesNamed(view, LOCAL_ADDRESS_VARIABLES)) {
      const root = rootOf(variable);
      const rootKey = `${root.name}@${root.line}`;
      if (seenRoots.has(rootKey)) continue;
      seenRoots.add(rootKey);
      const value = variable.value;
      addressEvidence.push({ name: variable.name, line: variable.line, value: value.text, known: value.known });
      if (!value.known) {
        problems.push({ level: 'warn', text: `${describeVariable(view, variable)} is computed at run time (${value.dynamic[0]})`, fix: fixLine(view, variable, defaultNic ? ipv4Of(defaultNic)! : '<this host address>', 'written literally, so it can be checked') });
        continue;
      }
      const ip = value.text.trim();
      const suggestion = defaultNic ? ipv4Of(defaultNic)! : '<this host address>';
      if (ip === '') {
        problems.push({ level: 'fail', text: `${describeVariable(view, variable)} is empty`, fix: fixLine(view, variable, suggestion, `this host's address${defaultNic ? ` on ${defaultNic.name}` : ''}`) });
        continue;
      }
      if (!isIP(ip)) {
        problems.push({ level: 'fail', text: `${describeVariable(view, variable)} is "${ip}", not an IP address`, fix: fixLine(view, variable, suggestion, `this host's address${defaultNic ? ` on ${defaultNic.name}` : ''}`) });
        continue;
      }
      const holder = owner(interfaces, ip);
      if (!holder) {
        const local = interfaces.filter((i) => !i.loopback).flatMap((i) => i.addresses.filter((a) => a.family === 'IPv4').map((a) => `${a.address} (${i.name})`));
        problems.push({
          level: 'fail',
          text: `${describeVariable(view, variable)} is ${ip}, which is not an address of this host (it has ${summarizeList(local, 3) || 'no IPv4 address'})`,
          fix: fixLine(view, variable, suggestion, `this host's address${defaultNic ? ` on ${defaultNic.name}` : ''}`),
        });
        continue;
      }
      if (!isUp(holder)) {
        problems.push({ level: 'fail', text: `${describeVariable(view, variable)} ${ip} is on ${holder.name}, which is down`, fix: `sudo ip link set ${holder.name} up   # or use the address of an interface that is up` });
        continue;
      }
      const layout = view.serve ? parallelism(view.serve.parsed) : undefined;
      if (isLoopbackOrLinkLocal(ip) && layout && layout.dp > layout.dpLocal) {
        problems.push({ level: 'fail', text: `${describeVariable(view, variable)} is ${ip}, which other nodes cannot reach (data parallel spans ${layout.dp / Math.max(1, layout.dpLocal)} nodes)`, fix: fixLine(view, variable, suggestion, 'an address the other nodes reach') });
        continue;
      }
      nodeIp ??= ip;
      checked.push(`${variable.name} ${ip} on ${holder.name}`);
    }
    evidence.addresses = addressEvidence;

    // 2. the interfaces
    const interfaceEvidence: Array<Record<string, unknown>> = [];
    const seenInterfaceRoots = new Set<string>();
    for (const variable of variablesNamed(view, INTERFACE_VARIABLES)) {
      const value = variable.value;
      interfaceEvidence.push({ name: variable.name, line: variable.line, value: value.text, known: value.known });
      // GLOO_/TP_/HCCL_SOCKET_IFNAME=$nic_name: one value, judged once
      const root = rootOf(variable);
      const rootKey = `${root.name}@${root.line}`;
      if (seenInterfaceRoots.has(rootKey)) continue;
      seenInterfaceRoots.add(rootKey);
      const carrying = nodeIp ? owner(interfaces, nodeIp) : defaultNic;
      const suggestion = carrying?.name ?? '<interface>';
      const carriedIp = nodeIp ?? (carrying ? ipv4Of(carrying) : undefined);
      const comment = carriedIp ? `the interface carrying ${carriedIp}` : "the interface of this node's address";
      if (!value.known) {
        problems.push({ level: 'warn', text: `${describeVariable(view, variable)} is computed at run time (${value.dynamic[0]})`, fix: fixLine(view, variable, suggestion, 'written literally, so it can be checked') });
        continue;
      }
      if (value.text.trim() === '') {
        problems.push({ level: 'fail', text: `${describeVariable(view, variable)} is empty`, fix: fixLine(view, variable, suggestion, comment) });
        continue;
      }
      let names: string[];
      if (variable.name === 'HCCL_SOCKET_IFNAME') {
        const spec = hcclInterfaceSpec(value.text);
        if (spec.excludes) {
          checked.push(`${variable.name} excludes ${value.text.replace(/^\^=?/, '')}`);
          continue;
        }
        const matched = interfaces.filter((i) => spec.exact.includes(i.name) || spec.prefixes.some((p) => i.name.startsWith(p))).map((i) => i.name);
        if (matched.length === 0) {
          problems.push({
            level: 'fail',
            text: `${describeVariable(view, variable)} is "${value.text}", and no interface of this host matches it (interfaces: ${summarizeList(interfaces.map((i) => i.name), 6)})`,
            fix: fixLine(view, variable, suggestion, comment),
          });
          continue;
        }
        // HCCL takes the first match: the one carrying HCCL_IF_IP must be it, or the only one
        names = matched.length === 1 || !nodeIp ? matched.slice(0, 1) : matched.filter((n) => owner(interfaces, nodeIp!)?.name === n).slice(0, 1);
        if (names.length === 0) names = matched.slice(0, 1);
        if (matched.length > 1) {
          problems.push({ level: 'warn', text: `${describeVariable(view, variable)} "${value.text}" matches ${matched.length} interfaces (${summarizeList(matched, 4)}) and HCCL takes the first one`, fix: fixLine(view, variable, `=${names[0]}`, 'an exact name ("=" prefix) leaves HCCL no choice') });
        }
      } else names = value.text.split(',').map((s) => s.trim()).filter(Boolean);
      for (const name of names) {
        const iface = interfaces.find((i) => i.name === name);
        if (!iface) {
          problems.push({ level: 'fail', text: `${describeVariable(view, variable)} names ${name}, which does not exist here (interfaces: ${summarizeList(interfaces.map((i) => i.name), 6)})`, fix: fixLine(view, variable, suggestion, comment) });
          continue;
        }
        if (!isUp(iface)) {
          problems.push({ level: 'fail', text: `${describeVariable(view, variable)} names ${name}, which is down`, fix: `sudo ip link set ${name} up   # or name an interface that is up (${suggestion})` });
          continue;
        }
        if (nodeIp && !iface.addresses.some((a) => a.address === nodeIp)) {
          const actual = owner(interfaces, nodeIp);
          problems.push({
            level: 'fail',
            text: `${describeVariable(view, variable)} names ${name}, but HCCL_IF_IP ${nodeIp} is on ${actual?.name ?? 'another interface'}: they must name one interface`,
            fix: fixLine(view, variable, actual?.name ?? suggestion, `the interface carrying ${nodeIp}`),
          });
          continue;
        }
        checked.push(`${variable.name} ${name} up`);
      }
    }
    evidence.interfaces = interfaceEvidence;

    // 3. the master of the data-parallel group
    const serve = view.serve;
    const layout = serve ? parallelism(serve.parsed) : undefined;
    const rpcPort = serve ? integerFlag(serve.parsed, 'data-parallel-rpc-port', 1) : undefined;
    const masterEvidence: Array<Record<string, unknown>> = [];
    const masters: Array<{ label: string; value: string; known: boolean; dynamic?: string; root: string; fix: (v: string, c: string) => string }> = [];
    const addressFlag = serve ? lastFlag(serve.parsed, 'data-parallel-address') : undefined;
    if (addressFlag?.value) {
      const v = addressFlag.value;
      const source = v.origins.length > 0 ? v.origins[v.origins.length - 1]! : undefined;
      const variable = source ? view.script.variables.get(source.name) : undefined;
      masters.push({
        label: `--data-parallel-address (${at(view, addressFlag.line)})`,
        root: source ? `${source.name}@${source.line}` : `--data-parallel-address@${addressFlag.line}`,
        value: v.text.trim(),
        known: v.known,
        ...(v.dynamic[0] ? { dynamic: v.dynamic[0] } : {}),
        fix: (value, comment) => (variable ? fixLine(view, variable, value, comment) : `${view.name} line ${addressFlag.line}: --data-parallel-address ${value}   # ${comment}`),
      });
    }
    for (const variable of variablesNamed(view, MASTER_VARIABLES)) {
      if (masters.some((m) => m.value === variable.value.text.trim())) continue;
      const root = rootOf(variable);
      masters.push({
        label: describeVariable(view, variable),
        root: `${root.name}@${root.line}`,
        value: variable.value.text.trim(),
        known: variable.value.known,
        ...(variable.value.dynamic[0] ? { dynamic: variable.value.dynamic[0] } : {}),
        fix: (value, comment) => fixLine(view, variable, value, comment),
      });
    }
    if (serve && layout && layout.dp > layout.dpLocal && layout.backend !== 'ray' && !addressFlag?.value) {
      // vLLM's default master address is 127.0.0.1: the other nodes of the instance cannot reach it
      const own = nodeIp ?? (defaultNic ? ipv4Of(defaultNic) : undefined);
      const starts = layout.startRank === 0;
      problems.push({
        level: 'fail',
        text: `${view.name} serves ${layout.dpLocal} of ${layout.dp} data-parallel ranks (the rest on other nodes) without --data-parallel-address: vLLM then uses 127.0.0.1, which the other nodes cannot reach`,
        fix: `${view.name} line ${serve.line}: --data-parallel-address ${starts && own ? own : '<address of the node that starts rank 0>'}   # ${starts ? 'this node starts rank 0: its own address' : "node 0's local_ip"}, the same on every node of the instance`,
      });
    }
    const isMaster = layout !== undefined && layout.startRank === 0 && !layout.headless;
    const defaultIp = defaultNic ? ipv4Of(defaultNic) : undefined;
    for (const master of masters) {
      masterEvidence.push({ name: master.label, value: master.value, known: master.known });
      // --data-parallel-address ${IP_ADDRESS} on the master: the value judged above as this node's address
      if (seenRoots.has(master.root) && isMaster) continue;
      if (!master.known) {
        // $5 of a template, or a variable set nowhere: the caller's value, named by launch.flags / launch.placeholders
        if (/^\$(?:\d|\{\d+\})$|set nowhere/.test(master.dynamic ?? '')) continue;
        problems.push({ level: 'warn', text: `${master.label} is computed at run time (${master.dynamic ?? ''})`, fix: master.fix('<address of node 0>', 'written literally, so it can be checked') });
        continue;
      }
      if (!isIP(master.value)) {
        const own = nodeIp ?? defaultIp;
        problems.push({ level: 'fail', text: `${master.label} is "${master.value}", not an IP address`, fix: master.fix(isMaster && own ? own : '<address of node 0>', isMaster ? 'this node is node 0 (start rank 0): its own address' : "node 0's local_ip") });
        continue;
      }
      const local = owner(interfaces, master.value) !== undefined;
      if (isMaster && layout!.dp > 1 && !local) {
        problems.push({
          level: 'fail',
          text: `this node starts data-parallel rank 0 (the master) but ${master.label} ${master.value} is not one of its addresses`,
          fix: master.fix(nodeIp ?? defaultIp ?? '<this host address>', 'the master is this node: its own address'),
        });
        continue;
      }
      if (!isMaster && local && layout && layout.dp > layout.dpLocal) {
        problems.push({
          level: 'warn',
          text: `${master.label} ${master.value} is this host, but this node is not the master (start rank ${layout.startRank}${layout.headless ? ', --headless' : ''})`,
          fix: master.fix('<address of node 0>', "node 0's local_ip"),
        });
        continue;
      }
      if (!local && rpcPort?.state === 'ok') {
        const reach = await masterReachable(ctx, master.value, rpcPort.value);
        if (reach.unknown) {
          problems.push({ level: 'warn', text: `${master.label}: ${reach.detail}`, fix: `record the snapshot with this script (qprep snapshot --launch ${view.input.file})` });
          continue;
        }
        if (!reach.ok) {
          problems.push({ level: 'fail', text: `${master.label}: ${reach.detail}`, fix: `check the route and firewall from this node to ${master.value} (ping ${master.value}; nc -vz ${master.value} ${rpcPort.value}), or correct the address` });
          continue;
        }
        checked.push(reach.detail);
        continue;
      }
      checked.push(`master ${master.value}${local ? ' (this host)' : ''}`);
    }
    evidence.masters = masterEvidence;

    // 4. proxies in the server's environment
    const proxies = PROXY_VARIABLES.filter((name) => (view.env.get(name)?.value.text ?? '') !== '');
    evidence.proxies = Object.fromEntries(proxies.map((name) => [name, redactEnvValue(name, view.env.get(name)!.value.text)]));
    if (proxies.length > 0) {
      const where = proxies.map((name) => {
        const variable = view.env.get(name)!;
        return variable.line === null ? `${name} (inherited)` : `${name} (line ${variable.line})`;
      });
      problems.push({ level: 'warn', text: `proxy variables reach vllm: ${summarizeList(where, 4)}`, fix: `unset ${proxies.join(' ')}   # at the top of ${view.name}, as the guides do` });
    }

    evidence.problems = problems.map((p) => `${p.level}: ${p.text}`);
    if (problems.length === 0) {
      if (checked.length === 0) return pass(`${view.name} sets no HCCL_IF_IP, socket interface or master address: HCCL and Gloo pick an interface themselves (fine on one node)`, { evidence });
      return pass(`${view.name}: ${summarizeList(checked, 4)}`, { evidence });
    }
    const worst: Level = problems.some((p) => p.level === 'fail') ? 'fail' : 'warn';
    const ordered = [...problems.filter((p) => p.level === 'fail'), ...problems.filter((p) => p.level === 'warn')];
    const outcome: Outcome = (worst === 'fail' ? fail : warn)(
      `${ordered[0]!.text}${ordered.length > 1 ? ` (and ${ordered.length - 1} more)` : ''}`,
      {
        expected: 'a local address on an up interface, reachable master, no proxy',
        actual: summarizeList(ordered.map((p) => p.text), 2),
        remediation: [...new Set(ordered.map((p) => p.fix))].join('\n'),
        evidence,
      },
    );
    return outcome;
  },
});
