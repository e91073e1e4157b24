import type { LaunchInput } from '../core/launch-input.js';
import type { CheckContext, Outcome } from '../core/types.js';
import { skip } from '../core/outcome.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import { evaluateLaunchScript, invocationsOf, readLaunchScript, type Invocation, type LaunchScript, type ServeCommand, type ShellVariable, type Value } from '../parsers/launch-script.js';
import { integerFlag, lastFlag, parseServeArgs, booleanFlag, type FlagProblem, type ServeArgs, type ServeFlag } from '../parsers/vllm-args.js';
import { quoteAnglePlaceholders, type AnglePlaceholder } from '../parsers/angle-placeholders.js';
import { resolveNodeAddress, type NodeAddress } from './node-address.js';

/**
 * The launch script of `--launch SCRIPT` as the checks see it: read once per run against the
 * environment qprep runs in, with the server command's arguments parsed.
 *
 * Usage:
 *   const view = await launchView(ctx);
 *   if (!view) return noLaunchScript(ctx);
 *   const port = integerFlag(view.serve.args, 'port');
 */

export type { LaunchInput };

export interface ServeView extends ServeCommand {
  parsed: ServeArgs;
}

export interface LaunchView {
  input: LaunchInput;
  /** the file name for messages: "run_p.sh" */
  name: string;
  script: LaunchScript;
  serve: ServeView | null;
  /** the environment the server starts with (or, without a server command, what the script exports) */
  env: Map<string, ShellVariable>;
  /** unquoted `<host_ip>` placeholders, which bash reads as redirections; the script is read with them quoted */
  anglePlaceholders: AnglePlaceholder[];
  /**
   * where $1..$9 come from when a given script runs this one: the invocation the values were
   * bound from (the first found) and the others with other values, whose devices and ports
   * launch.devices and launch.ports judge too (invocationViews)
   */
  arguments?: { used: LauncherInvocation; others: LauncherInvocation[] };
}

export function launchView(ctx: CheckContext): Promise<LaunchView | undefined> {
  return ctx.shared('launch-script', async () => (ctx.launch ? viewOf(ctx.launch, ctx.host.env()) : undefined));
}

function fileName(input: LaunchInput): string {
  return input.file === '-' ? 'the script on stdin' : input.file.replace(/^.*\//, '');
}

/**
 * The script judged among those given: the first that starts a server (a launcher given first
 * is read for the arguments it passes), with $1..$9 bound from the first invocation of it found
 * in the given scripts, the launchers first.
 */
export function viewOf(given: LaunchInput, inherited: Readonly<Record<string, string>>): LaunchView {
  const inputs = [given, ...(given.launchers ?? [])];
  const read = inputs.map((input) => {
    const angles = quoteAnglePlaceholders(input.text);
    return { input, angles, script: readLaunchScript(angles.text, inherited) };
  });
  const judged = read.find((r) => r.script.serve) ?? read[0]!;
  const input = judged.input === given ? given : { ...judged.input, launchers: inputs.filter((i) => i !== judged.input).map((i) => ({ ...i, launchers: [] })) };
  const name = fileName(input);
  const target = input.file === '-' ? '' : input.file;
  const invocations: LauncherInvocation[] = [];
  for (const r of [...read.filter((r) => r !== judged), judged]) {
    for (const call of invocationsOf(r.script, target)) invocations.push({ ...call, file: fileName(r.input) });
  }
  const used = invocations.find((call) => call.args.length > 0);
  const script = used ? readLaunchScript(judged.angles.text, inherited, { positional: used.args }) : judged.script;
  const serve = script.serve ? { ...script.serve, parsed: parseServeArgs(script.serve.args) } : null;
  let env = serve?.env;
  if (!env) {
    env = new Map();
    for (const variable of script.variables.values()) if (variable.exported) env.set(variable.name, variable);
  }
  const view: LaunchView = { input, name, script, serve, env, anglePlaceholders: judged.angles.placeholders };
  const argv = (call: Invocation) => call.args.map((a) => a.text).join('\0');
  if (used) view.arguments = { used, others: invocations.filter((call) => call !== used && call.args.length > 0 && argv(call) !== argv(used)) };
  return view;
}

/**
 * The judged script once per invocation of it with other arguments: the view itself first,
 * then one view per other invocation (`bash run_dp_template.sh 4,5,6,7 9001 4 1 ...`). The checks
 * whose verdict depends on the arguments (devices, ports) judge each, so that the second rank's
 * devices are not left unchecked.
 */
export function invocationViews(ctx: CheckContext, view: LaunchView): Promise<LaunchView[]> {
  return ctx.shared('launch-script:invocations', async () => {
    if (!view.arguments || view.arguments.others.length === 0) return [view];
    const inherited = ctx.host.env();
    return [
      view,
      ...view.arguments.others.map((call) => {
        const script = evaluateLaunchScript(view.script.parsed, inherited, { positional: call.args });
        const serve = script.serve ? { ...script.serve, parsed: parseServeArgs(script.serve.args) } : null;
        let env = serve?.env;
        if (!env) {
          env = new Map();
          for (const variable of script.variables.values()) if (variable.exported) env.set(variable.name, variable);
        }
        return { ...view, script, serve, env, arguments: { used: call, others: [] } };
      }),
    ];
  });
}

const SEVERITY: Record<string, number> = { fail: 4, error: 3, warn: 2, pass: 1, skip: 0 };

/**
 * The verdict over every invocation (outcomes in the order of `invocationViews`): the worst, its
 * message led by the invocation it comes from when that is not the first.
 */
export function worstOfInvocations(views: readonly LaunchView[], outcomes: readonly Outcome[]): Outcome {
  let worst = 0;
  outcomes.forEach((outcome, i) => {
    if ((SEVERITY[outcome.status] ?? 0) > (SEVERITY[outcomes[worst]!.status] ?? 0)) worst = i;
  });
  const chosen = outcomes[worst]!;
  const call = views[worst]!.arguments?.used;
  return worst === 0 || !call ? chosen : { ...chosen, message: `with the arguments of ${call.file}:${call.line}: ${chosen.message}` };
}

/** A launcher's command that runs the judged script with its arguments. */
export interface LauncherInvocation extends Invocation {
  /** the launcher's file name: "launch.sh" */
  file: string;
}

/** "launch.sh:3 (bash run_dp_template.sh 0,1,2,3 9000 4 0 ...)" */
export function describeInvocation(call: LauncherInvocation): string {
  const args = call.args.map((a) => (a.known ? a.text : a.source));
  const shown = args.length > 8 ? [...args.slice(0, 8), '...'] : args;
  return `${call.file}:${call.line} (${call.script} ${shown.join(' ')})`;
}

/** "run_p.sh:35" */
export function at(view: LaunchView, line: number): string {
  return `${view.name}:${line}`;
}

/** Where a value was written: the deepest assignment it came through, or the variable itself. */
export function rootOf(variable: { name: string; line: number | null; value: Value }): { name: string; line: number | null } {
  const origins = variable.value.origins;
  return origins.length > 0 ? origins[origins.length - 1]! : { name: variable.name, line: variable.line };
}

/** The address of this node for suggestions in fixes: the default-route interface (as `qprep env` picks it). */
export function nodeAddress(ctx: CheckContext): Promise<NodeAddress> {
  return ctx.shared('launch:node-address', () => resolveNodeAddress(ctx, {}));
}

export interface Parallelism {
  tp: number;
  pp: number;
  pcp: number;
  dp: number;
  /** data-parallel ranks on this node */
  dpLocal: number;
  startRank: number;
  nnodes: number;
  /** no API server here: --headless, or a node after the first of --nnodes */
  headless: boolean;
  backend: string | null;
  /** NPUs this node's server uses: TP x PP x PCP / nnodes x DP-local */
  perNode: number;
  /** "TP 2 x DP-local 8" for messages */
  text: string;
  /** flags that could not be read as numbers (English: "--tensor-parallel-size is "x", not a whole number (line 9)") */
  problems: string[];
  /** the same flags as facts, for a message in the run's language (flagReasonAt) */
  invalid: Array<{ flag: ServeFlag; problem: FlagProblem }>;
  /**
   * sizes the script leaves to whoever starts it: a positional parameter (`--tensor-parallel-size $7`)
   * or a variable set nowhere in the script. Nothing is derived from them: the layout above uses
   * vLLM's defaults in their place and is not a judgement.
   */
  unknowns: CallerValue[];
}

/** A flag whose value comes from the caller of the script. */
export interface CallerValue {
  /** as written: "--data-parallel-size" */
  flag: string;
  /** what the script writes: "$3", "$TP" */
  source: string;
  line: number;
  /** a positional parameter ($1..$9, ${10}) rather than a variable */
  positional: boolean;
}

const POSITIONAL = /^\$(?:\d|\{\d+\})$/;

/** The flag's value is filled in by the caller: a positional parameter, or a variable set nowhere. */
export function callerValue(flag: ServeFlag): CallerValue | undefined {
  const value = flag.value;
  if (!value || value.known) return undefined;
  const positional = value.dynamic.find((d) => POSITIONAL.test(d));
  if (positional) return { flag: flag.written, source: positional, line: flag.line, positional: true };
  if (value.unset.length > 0) return { flag: flag.written, source: `$${value.unset[0]}`, line: flag.line, positional: false };
  return undefined;
}

/** A flag whose value is left to fill in: the caller's, or a tutorial placeholder (`--port <port>`, `--tensor-parallel-size xx`). */
export function unfilledValue(flag: ServeFlag): CallerValue | undefined {
  const fromCaller = callerValue(flag);
  if (fromCaller) return fromCaller;
  const value = flag.value;
  const placeholder = value?.known ? placeholderIn(value.text) : undefined;
  return placeholder ? { flag: flag.written, source: placeholder, line: flag.line, positional: false } : undefined;
}

/** "$3 = --data-parallel-size, $7 = --tensor-parallel-size" */
export function describeCallerValues(values: readonly CallerValue[]): string {
  return values.map((v) => `${v.source} = ${v.flag}`).join(', ');
}

/** The parallel layout of the server, with vLLM's defaults for what is not given. */
export function parallelism(args: ServeArgs): Parallelism {
  const problems: string[] = [];
  const invalid: Parallelism['invalid'] = [];
  const unknowns: CallerValue[] = [];
  const read = (name: string, fallback: number, min = 1): { value: number; given: boolean } => {
    const flag = integerFlag(args, name, min);
    if (flag.state === 'ok') return { value: flag.value, given: true };
    const fromCaller = flag.state === 'invalid' ? unfilledValue(flag.flag) : undefined;
    if (fromCaller) unknowns.push(fromCaller);
    else if (flag.state === 'invalid') {
      problems.push(`${flag.reason} (line ${flag.flag.line})`);
      invalid.push({ flag: flag.flag, problem: flag.problem });
    }
    return { value: fallback, given: false };
  };
  const tp = read('tensor-parallel-size', 1);
  const pp = read('pipeline-parallel-size', 1);
  const pcp = read('prefill-context-parallel-size', 1);
  const dp = read('data-parallel-size', 1);
  // --data-parallel-rank: one rank per server, the external load-balancing of launch_online_dp.py
  const rankGiven = lastFlag(args, 'data-parallel-rank') !== undefined;
  const local = read('data-parallel-size-local', rankGiven ? 1 : dp.value, 0);
  const start = read('data-parallel-start-rank', 0, 0);
  const nodes = read('nnodes', 1);
  const nodeRank = read('node-rank', 0, 0);
  const backendFlag = lastFlag(args, 'distributed-executor-backend');
  const backend = backendFlag?.value?.known ? backendFlag.value.text : null;
  // with --nnodes, the nodes after the first run workers only, as --headless does
  const headless = booleanFlag(args, 'headless') === true || (nodes.value > 1 && nodeRank.value > 0);
  const model = tp.value * pp.value * pcp.value;
  const perNode = Math.ceil(model / nodes.value) * local.value;
  const parts = [`TP ${tp.value}`];
  if (pp.value > 1) parts.push(`PP ${pp.value}`);
  if (pcp.value > 1) parts.push(`PCP ${pcp.value}`);
  if (nodes.value > 1) parts.push(`/ ${nodes.value} nodes`);
  parts.push(local.given ? `DP-local ${local.value}` : `DP ${local.value}`);
  return {
    tp: tp.value,
    pp: pp.value,
    pcp: pcp.value,
    dp: dp.value,
    dpLocal: local.value,
    startRank: start.value,
    nnodes: nodes.value,
    headless,
    backend,
    perNode,
    text: parts.join(' x ').replace(' x /', ' /'),
    problems,
    invalid,
    unknowns,
  };
}

/** "HCCL_IF_IP (run_p.sh:19, from local_ip at line 7)", in the run's language when given its text */
export function describeVariable(view: LaunchView, variable: ShellVariable, text: LaunchText = en.probes.launch): string {
  if (variable.line === null) return text.inherited({ name: variable.name });
  const root = rootOf(variable);
  const fromOther = root.name !== variable.name && root.line !== null;
  return text.variableAt({ name: variable.name, at: at(view, variable.line), from: fromOther ? root.name : null, fromLine: fromOther ? root.line : null });
}

type LaunchText = Catalogue['probes']['launch'];

/** Why a server flag's value cannot be used, in a catalogue's language (English when left out: evidence). */
export function flagReason(invalid: { flag: ServeFlag; problem: FlagProblem }, text: LaunchText = en.probes.launch): string {
  return text.flagProblem({ flag: invalid.flag.written, problem: invalid.problem });
}

/** flagReason with the flag's line: one of Parallelism.problems, in a catalogue's language. */
export function flagReasonAt(invalid: { flag: ServeFlag; problem: FlagProblem }, text: LaunchText = en.probes.launch): string {
  return text.flagProblemAt({ reason: flagReason(invalid, text), line: invalid.flag.line });
}

/** The skip of a launch check run without --launch, in the run's language. */
export function noLaunchScript(ctx: CheckContext): Outcome {
  return skip(ctx.text.probes.launch.noScript, { remediation: ctx.text.probes.launch.remediation });
}

/**
 * Values left as in a tutorial: xxx, x.x.x.x, 141.xx.xx.1, <node0_ip>, {local_ip}, {服务器ip}, /path/to/model, path/to/model,
 * path-to-weights, your_path, your_ip_here, model_path.
 */
export function placeholderIn(text: string): string | undefined {
  const value = text.trim();
  if (/^x{2,}$/i.test(value)) return value;
  // the vllm-ascend examples' stand-ins for the weights directory
  if (/^\/?model[_/-]path$/i.test(value)) return value;
  for (const segment of value.split(/[\s/:,;@='"{}[\]]+/)) {
    if (/^x{3,}$/i.test(segment)) return segment;
    if (/x/i.test(segment) && /^(?:\d{1,3}|x{1,3})(?:\.(?:\d{1,3}|x{1,3})){3}$/i.test(segment)) return segment;
  }
  const angle = /<(?:[A-Za-z_\u0080-\uffff]|\d(?=[^<>\n]*[A-Za-z_]))[^<>\n]{0,60}>/.exec(value);
  if (angle) return angle[0];
  // {local_ip}, { node0 ip }, {服务器ip}: a name in braces, not JSON (no quote, no colon) nor a brace expansion
  const brace = /\{\s*[A-Za-z_\u0080-\uffff][^{}"':,\n]{0,40}\}/.exec(value);
  if (brace && !brace[0].includes('..')) return brace[0];
  const template = /(?:^|\/)path\/to\/[^\s'"]*|(?:^|\/)path[-_]to[-_][^\s'"/]*|(?:^|[/_-])your[_-][A-Za-z0-9_./-]*/i.exec(value);
  if (template) return template[0].replace(/^[/_-](?=your)/i, '').replace(/^\/(?=path[-_]to[-_])/i, '');
  return undefined;
}
