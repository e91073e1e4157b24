import { sedLineEdit } from '../src/util/sed.js';
import { fail, pass } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import type { Field, LaunchScript, Value, ValueOrigin } from '../src/parsers/launch-script.js';
import { launchView, noLaunchScript, nodeAddress, parallelism, placeholderIn, type LaunchView } from '../src/probes/launch.js';
import type { NodeAddress } from '../src/probes/node-address.js';
import { redactEnvValue } from '../src/util/redact.js';
import { summarizeList } from '../src/util/text.js';

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

/**
 * A placeholder in a string of a JSON value, which the whole value's text hides: the guides'
 * `--speculative-config '{"method": "eagle3", "model": "your_eagle3_model_path"}'`.
 */
function jsonPlaceholder(text: string): string | undefined {
  if (!/^\s*[{[]/.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const strings = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(strings) : typeof value === 'object' && value !== null ? Object.values(value).flatMap(strings) : [];
  for (const leaf of strings(parsed)) {
    const found = leaf === '' ? undefined : placeholderIn(leaf);
    if (found !== undefined) return found;
  }
  return undefined;
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
      const placeholder = value.text === '' ? undefined : (placeholderIn(value.text) ?? jsonPlaceholder(value.text));
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

function suggestion(t: Text, finding: Finding, node: NodeAddress, isMaster: boolean): string {
  const name = finding.name.replace(/^-+/, '');
  const literal = (value: string) => (finding.kind === 'variable' ? `${finding.name}="${value}"` : `${finding.name} ${value}`);
  if (NIC.test(name)) {
    return node.ok ? t.nic({ literal: literal(node.nic), ip: node.ip }) : t.nicUnknown({ literal: literal('<interface>') });
  }
  if (MASTER.test(name)) {
    if (isMaster && node.ok) return t.masterSelf({ literal: literal(node.ip) });
    return t.masterOther({ literal: literal(t.nodeZero) });
  }
  if (LOCAL_IP.test(name)) {
    return node.ok ? t.localIp({ literal: literal(node.ip), nic: node.nic }) : t.localIpUnknown({ literal: literal(t.thisHost) });
  }
  if (finding.placeholder === '') return t.emptyValue({ literal: literal('<value>') });
  if (finding.kind === 'argument') return t.model({ value: finding.value });
  return t.replaceIn({ placeholder: finding.placeholder, name: finding.name, variable: finding.kind === 'variable' });
}

type Text = CheckContext['text']['checks']['launch.placeholders'];

// title, why, fix, reads and every message: src/i18n/*/checks/launch.ts
export default defineCheck({
  id: 'launch.placeholders',
  category: 'launch',
  order: 20,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['launch.placeholders'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    const findings = collect(view);
    const evidence = {
      script: view.input.file,
      placeholders: findings.map((f) => ({ name: f.name, line: f.line, value: redactEnvValue(f.name, f.value), placeholder: f.placeholder, usedBy: f.usedBy })),
    };
    if (findings.length === 0) return pass(t.none({ script: view.name, assignments: view.script.assignments.length }), { evidence });

    const node = await nodeAddress(ctx);
    const layout = view.serve ? parallelism(view.serve.parsed) : undefined;
    const isMaster = layout !== undefined && layout.startRank === 0 && !layout.headless;
    const angleOn = (f: Finding) => view.anglePlaceholders.find((a) => a.token === f.placeholder && a.line <= f.line && f.line - a.line < 3);
    const shown = findings.map((f) => {
      if (f.placeholder === '') return t.empty({ name: f.name, line: f.line, unset: f.unsetRefs[0] ?? null });
      if (f.unsetRefs.length > 0) return t.setNowhere({ name: f.name, placeholder: f.placeholder, line: f.line });
      const angle = angleOn(f);
      const value = redactEnvValue(f.name, f.value);
      const written = value.length > 40 ? t.holds({ placeholder: f.placeholder }) : `${f.kind === 'variable' ? '=' : ' '}"${value}"`;
      return t.found({ name: f.name, written, line: f.line, redirection: angle ? angle.token : null });
    });
    // beside each sentence, the edit as a command when the value is known and the file is here
    const editable = view.input.from === 'file';
    const remediation = findings.flatMap((f) => {
      const used = f.usedBy.length > 0 ? summarizeList(f.usedBy, 4, ctx.text.report.list) : null;
      const value = knownValue(f, node, isMaster);
      const sed = editable && value !== undefined && f.value.includes(f.placeholder) ? sedLineEdit(view.input.file, f.line, f.placeholder, value) : undefined;
      return [t.fixLine({ script: view.name, line: f.line, suggestion: suggestion(t, f, node, isMaster), usedBy: used }), ...(sed ? [sed] : [])];
    });
    return fail(t.left({ count: findings.length, script: view.name, list: summarizeList(shown, 4, ctx.text.report.list) }), {
      expected: 'real values',
      actual: summarizeList(findings.map((f) => (f.placeholder === '' ? `${f.name}=""` : f.placeholder)), 6),
      remediation: remediation.join('\n'),
      evidence,
    });
  },
});
