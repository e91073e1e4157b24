import { sedLineEdit } from '../src/util/sed.js';
import { fail, pass, skip } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import type { Field, LaunchScript, Value, ValueOrigin } from '../src/parsers/launch-script.js';
import { LAUNCH_REMEDIATION, launchView, NO_LAUNCH_SCRIPT, nodeAddress, parallelism, placeholderIn, type LaunchView } from '../src/probes/launch.js';
import type { NodeAddress } from '../src/probes/node-address.js';
import { redactEnvValue } from '../src/util/redact.js';
import { plural, summarizeList } from '../src/util/text.js';

/** Variables an empty value breaks: the guides' node address, interface and device variables. */
const MUST_NOT_BE_EMPTY =
  /^(HCCL_IF_IP|HCCL_SOCKET_IFNAME|GLOO_SOCKET_IFNAME|TP_SOCKET_IFNAME|ASCEND_RT_VISIBLE_DEVICES|nic_name|local_ip|node0_ip|IP_ADDRESS|MASTER_IP_ADDRESS|MASTER_ADDR|NETWORK_CARD_NAME)$/;
const NIC = /(^|_)(nic|ifname|network_card|netcard|iface|interface)(_|$)/i;
const LOCAL_IP = /^(local_ip|hccl_if_ip|ip_address|local_addr(ess)?|node_ip|node-ip-address|host_ip|pod_ip|host)$/i;
const MASTER = /(node0|master|head|rank0|data-parallel-address|^address$)/i;

interface Finding {
  /** the variable or the flag as written */
  name: string;
  line: number;
  /** the placeholder, or "" for an empty value */
  placeholder: string;
  /** the whole value, for the message */
  value: string;
  kind: 'variable' | 'flag' | 'argument';
  usedBy: string[];
  /** empty because it refers to variables set nowhere */
  unsetRefs: string[];
}

const key = (name: string, line: number) => `${name}@${line}`;

/** Flags of the commands around the server that take no value (ray start, the proxies). */
const BOOLEAN_COMMAND_FLAGS = new Set(['--head', '--block', '--disable-usage-stats', '--verbose', '-v']);

function originKeys(value: Value): string[] {
  return value.origins.map((o: ValueOrigin) => key(o.name, o.line));
}

/** The flag values of any command: `--flag value` and `--flag=value`. */
function flagValues(fields: readonly Field[]): Array<{ flag: string; value: Field }> {
  const out: Array<{ flag: string; value: Field }> = [];
  for (let i = 0; i < fields.length; i++) {
    const text = fields[i]!.text;
    if (!/^-{1,2}[A-Za-z]/.test(text)) continue;
    const eq = text.indexOf('=');
    if (eq > 0) {
      out.push({ flag: text.slice(0, eq), value: { ...fields[i]!, text: text.slice(eq + 1) } });
      continue;
    }
    const next = fields[i + 1];
    if (next?.vanished && BOOLEAN_COMMAND_FLAGS.has(text)) continue;
    if (next && !/^-{1,2}[A-Za-z]/.test(next.text)) {
      out.push({ flag: text, value: next });
      i++;
    }
  }
  return out;
}

function collect(view: LaunchView): Finding[] {
  const script: LaunchScript = view.script;
  const findings = new Map<string, Finding>();
  const used = new Set<string>();
  for (const a of script.assignments) for (const k of originKeys(a.value)) used.add(k);
  for (const c of script.commands) for (const f of c.fields) for (const k of originKeys(f)) used.add(k);

  const attach = (value: Value, placeholder: string, usedBy: string, line: number, kind: Finding['kind']) => {
    const root = value.origins[value.origins.length - 1];
    const rootKey = root ? key(root.name, root.line) : undefined;
    const existing = rootKey ? findings.get(rootKey) : undefined;
    if (existing) {
      if (!existing.usedBy.includes(usedBy)) existing.usedBy.push(usedBy);
      return;
    }
    findings.set(key(usedBy, line), { name: usedBy, line, placeholder, value: value.text, kind, usedBy: [], unsetRefs: [] });
  };

  for (const a of script.assignments) {
    const placeholder = a.value.text === '' ? undefined : placeholderIn(a.value.text);
    if (placeholder !== undefined) {
      if (a.source.includes(placeholder)) {
        findings.set(key(a.name, a.line), { name: a.name, line: a.line, placeholder, value: a.value.text, kind: 'variable', usedBy: [], unsetRefs: [] });
      } else attach(a.value, placeholder, a.name, a.line, 'variable');
      continue;
    }
    if (!a.value.known || a.value.text !== '') continue;
    if (!MUST_NOT_BE_EMPTY.test(a.name) && !used.has(key(a.name, a.line))) continue;
    const root = a.value.origins[a.value.origins.length - 1];
    const rootFinding = root ? findings.get(key(root.name, root.line)) : undefined;
    if (rootFinding) {
      if (!rootFinding.usedBy.includes(a.name)) rootFinding.usedBy.push(a.name);
      continue;
    }
    findings.set(key(a.name, a.line), { name: a.name, line: a.line, placeholder: '', value: '', kind: 'variable', usedBy: [], unsetRefs: [...a.value.unset] });
  }

  const serve = view.serve;
  for (const command of script.commands) {
    const isServe = serve !== null && command.line === serve.line;
    const values: Array<{ flag: string; value: Field; kind: Finding['kind'] }> = isServe
      ? [
          ...(serve.parsed.model ? [{ flag: 'the model', value: serve.parsed.model, kind: 'argument' as const }] : []),
          ...serve.parsed.flags.filter((f) => f.value).map((f) => ({ flag: f.written, value: f.value!, kind: 'flag' as const })),
        ]
      : flagValues(command.fields).map((v) => ({ ...v, kind: 'flag' as const }));
    for (const { flag, value, kind } of values) {
      if (value.unset.length > 0 && value.origins.length === 0) {
        // --dp-address $node_p0_ip with node_p0_ip set nowhere: the caller's value, or a line lost in the copy
        const refs = value.unset.map((n) => `$${n}`).join(', ');
        findings.set(key(flag, value.line), { name: flag, line: value.line, placeholder: refs, value: value.vanished ? '' : value.text, kind, usedBy: [], unsetRefs: [...value.unset] });
        continue;
      }
      const placeholder = value.text === '' ? undefined : placeholderIn(value.text);
      if (placeholder === undefined) continue;
      if (value.source.includes(placeholder)) {
        findings.set(key(flag, value.line), { name: flag, line: value.line, placeholder, value: value.text, kind, usedBy: [], unsetRefs: [] });
      } else attach(value, placeholder, `${flag} (line ${value.line})`, value.line, kind);
    }
  }
  return [...findings.values()].sort((a, b) => a.line - b.line);
}

/** The value this host gives the placeholder, when qprep knows it (its interface, its address). */
function knownValue(finding: Finding, node: NodeAddress, isMaster: boolean): string | undefined {
  if (!node.ok || finding.placeholder === '') return undefined;
  const name = finding.name.replace(/^-+/, '');
  if (NIC.test(name)) return node.nic;
  if (MASTER.test(name)) return isMaster ? node.ip : undefined;
  if (LOCAL_IP.test(name)) return node.ip;
  return undefined;
}

function suggestion(finding: Finding, node: NodeAddress, isMaster: boolean): string {
  const name = finding.name.replace(/^-+/, '');
  const literal = (value: string) => (finding.kind === 'variable' ? `${finding.name}="${value}"` : `${finding.name} ${value}`);
  if (NIC.test(name)) {
    return node.ok ? `${literal(node.nic)}   # the interface carrying ${node.ip}` : `${literal('<interface>')}   # the interface that carries this node's address (ip -br addr)`;
  }
  if (MASTER.test(name)) {
    if (isMaster && node.ok) return `${literal(node.ip)}   # this node is node 0 (data-parallel start rank 0): its own address`;
    return `${literal('<address of node 0>')}   # the local_ip set in node 0's (the master's) script`;
  }
  if (LOCAL_IP.test(name)) {
    return node.ok ? `${literal(node.ip)}   # this host's address on ${node.nic}` : `${literal('<this host address>')}   # the address HCCL and vLLM should use (ip -br addr)`;
  }
  if (finding.placeholder === '') return `${literal('<value>')}   # it is empty`;
  if (finding.kind === 'argument') return `vllm serve <the weights directory or hub id>   # instead of ${finding.value}`;
  return `replace ${finding.placeholder} in ${finding.kind === 'variable' ? finding.name : `the value of ${finding.name}`} with the real value`;
}

export default defineCheck({
  id: 'launch.placeholders',
  title: 'No placeholder left in the launch script',
  category: 'launch',
  level: 'required',
  why:
    'The deployment guides publish scripts with values to fill in: nic_name="xxx", local_ip="xxx", node0_ip="xxxx", ' +
    '141.xx.xx.1 in the proxy. A copied script that still carries one fails only after minutes of weight loading, ' +
    'when HCCL or Gloo cannot bind "xxx", or hangs waiting for a master that is not there.',
  reads: ['the --launch script (never executed)', 'network interfaces (for the suggested values)'],
  fix: 'Fill in every value the check names, on the line it names; the suggested address and interface are those of this host.',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return skip(NO_LAUNCH_SCRIPT, { remediation: LAUNCH_REMEDIATION });
    const findings = collect(view);
    const evidence = {
      script: view.input.file,
      placeholders: findings.map((f) => ({ name: f.name, line: f.line, value: redactEnvValue(f.name, f.value), placeholder: f.placeholder, usedBy: f.usedBy })),
    };
    if (findings.length === 0) return pass(`no placeholder in ${view.name} (${plural(view.script.assignments.length, 'assignment')} and the server flags read)`, { evidence });

    const node = await nodeAddress(ctx);
    const layout = view.serve ? parallelism(view.serve.parsed) : undefined;
    const isMaster = layout !== undefined && layout.startRank === 0 && !layout.headless;
    const angleOn = (f: Finding) => view.anglePlaceholders.find((a) => a.token === f.placeholder && a.line <= f.line && f.line - a.line < 3);
    const shown = findings.map((f) => {
      if (f.placeholder === '') return `${f.name} empty (line ${f.line}${f.unsetRefs.length > 0 ? `: $${f.unsetRefs[0]} is set nowhere` : ''})`;
      if (f.unsetRefs.length > 0) return `${f.name} ${f.placeholder} (line ${f.line}: set nowhere in the script or the environment)`;
      const angle = angleOn(f);
      const redirection = angle ? `; unquoted, bash reads ${angle.token} as a redirection` : '';
      const value = redactEnvValue(f.name, f.value);
      const written = value.length > 40 ? `holds "${f.placeholder}"` : `${f.kind === 'variable' ? '=' : ''}"${value}"`;
      return `${f.name}${f.kind === 'variable' && value.length <= 40 ? '' : ' '}${written} (line ${f.line}${redirection})`;
    });
    // beside each sentence, the edit as a command when the value is known and the file is here
    const editable = view.input.from === 'file';
    const remediation = findings.flatMap((f) => {
      const used = f.usedBy.length > 0 ? `; used by ${summarizeList(f.usedBy, 4)}` : '';
      const value = knownValue(f, node, isMaster);
      const sed = editable && value !== undefined && f.value.includes(f.placeholder) ? sedLineEdit(view.input.file, f.line, f.placeholder, value) : undefined;
      return [`${view.name} line ${f.line}: ${suggestion(f, node, isMaster)}${used}`, ...(sed ? [sed] : [])];
    });
    return fail(`${plural(findings.length, 'placeholder')} left in ${view.name}: ${summarizeList(shown, 4)}`, {
      expected: 'real values',
      actual: summarizeList(findings.map((f) => (f.placeholder === '' ? `${f.name}=""` : f.placeholder)), 6),
      remediation: remediation.join('\n'),
      evidence,
    });
  },
});
