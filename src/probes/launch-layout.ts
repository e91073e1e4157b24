import type { ShellVariable } from '../parsers/launch-script.js';
import { integerFlag, jsonFlag, lastFlag, type ServeArgs, type ServeFlag } from '../parsers/vllm-args.js';
import type { LaunchLayout } from '../report/schema.js';
import { parallelism, rootOf, type LaunchView } from './launch.js';

/**
 * The serve layout of a launch script: what this node's server contributes to its instance
 * (role, TP, DP, the ranks it serves, the master's address) with the line of every value. The
 * report carries it, so that `qprep aggregate` can judge what no single node can: the ranks of
 * the nodes of one instance, their master address, and the P/D sizes the KV connector expects.
 */

/** This node's address as the guides' scripts name it (the first one set wins). */
export const LOCAL_ADDRESS_VARIABLES = ['HCCL_IF_IP', 'IP_ADDRESS', 'local_ip'] as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The line of a key inside a JSON flag value written over several lines: `["decode", "tp_size"]`
 * finds "decode", then the first "tp_size" after it. The flag's line when the JSON is not written
 * there (it came through a variable) or the keys are not found.
 */
export function jsonKeyLine(flag: ServeFlag, path: readonly string[]): number {
  const value = flag.value;
  if (!value) return flag.line;
  const source = value.source;
  let from = 0;
  for (const key of path) {
    const at = source.indexOf(`"${key}"`, from);
    if (at === -1) return value.line;
    from = at + key.length + 2;
  }
  const at = from - path[path.length - 1]!.length - 2;
  let newlines = 0;
  for (let i = 0; i < at; i++) if (source.charCodeAt(i) === 10) newlines++;
  return value.line + newlines;
}

function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,9}$/.test(value.trim())) return Number(value.trim());
  return null;
}

function roleOf(kvRole: unknown): LaunchLayout['role'] {
  if (kvRole === 'kv_producer') return 'prefill';
  if (kvRole === 'kv_consumer') return 'decode';
  if (kvRole === 'kv_both') return 'both';
  return null;
}

function kvLayout(args: ServeArgs): LaunchLayout['kv'] {
  const parsed = jsonFlag(args, 'kv-transfer-config');
  if (parsed.state !== 'ok' || !isObject(parsed.value)) return null;
  const config = parsed.value;
  const flag = parsed.flag;
  const extra = config.kv_connector_extra_config;
  const side = (name: 'prefill' | 'decode') => {
    const sizes = isObject(extra) ? extra[name] : undefined;
    if (!isObject(sizes)) return null;
    return {
      dp: wholeNumber(sizes.dp_size),
      tp: wholeNumber(sizes.tp_size),
      dpLine: jsonKeyLine(flag, ['kv_connector_extra_config', name, 'dp_size']),
      tpLine: jsonKeyLine(flag, ['kv_connector_extra_config', name, 'tp_size']),
    };
  };
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);
  return {
    connector: text(config.kv_connector),
    role: text(config.kv_role),
    port: text(config.kv_port),
    engineId: text(config.engine_id),
    line: flag.line,
    prefill: side('prefill'),
    decode: side('decode'),
  };
}

function addressOf(variable: ShellVariable | undefined): LaunchLayout['nodeAddress'] {
  if (!variable) return null;
  return { value: variable.value.text.trim(), known: variable.value.known, name: variable.name, line: variable.line };
}

/** The layout of the view's server command; null without one. */
export function launchLayout(view: LaunchView): LaunchLayout | null {
  const serve = view.serve;
  if (!serve) return null;
  const args = serve.parsed;
  const layout = parallelism(args);
  const number = (name: string, min = 0) => {
    const flag = integerFlag(args, name, min);
    return flag.state === 'ok' ? flag.value : null;
  };
  const lineOf = (name: string) => lastFlag(args, name)?.line ?? null;
  const kv = kvLayout(args);
  const addressFlag = lastFlag(args, 'data-parallel-address');
  let dpAddress: LaunchLayout['dpAddress'] = null;
  if (addressFlag?.value) {
    const origins = addressFlag.value.origins;
    const root = origins.length > 0 ? origins[origins.length - 1]! : null;
    dpAddress = { value: addressFlag.value.text.trim(), known: addressFlag.value.known, line: addressFlag.line, from: root ? { name: root.name, line: root.line } : null };
  }
  const local = LOCAL_ADDRESS_VARIABLES.map((name) => view.env.get(name) ?? view.script.variables.get(name)).find((v) => v !== undefined);
  const nodeAddress = addressOf(local);
  if (nodeAddress && local && local.line !== null) {
    const root = rootOf(local);
    if (root.line !== null) nodeAddress.line = root.line;
  }
  return {
    role: kv ? roleOf(kv.role) : null,
    tp: layout.tp,
    pp: layout.pp,
    dp: layout.dp,
    dpLocal: layout.dpLocal,
    startRank: layout.startRank,
    nnodes: layout.nnodes,
    nodeRank: number('node-rank') ?? 0,
    headless: layout.headless,
    port: layout.headless ? null : (number('port', 1) ?? 8000),
    rpcPort: number('data-parallel-rpc-port', 1),
    dpAddress,
    nodeAddress,
    maxNumSeqs: number('max-num-seqs', 1),
    kv,
    lines: {
      serve: serve.line,
      tp: lineOf('tensor-parallel-size'),
      dp: lineOf('data-parallel-size'),
      dpLocal: lineOf('data-parallel-size-local'),
      startRank: lineOf('data-parallel-start-rank'),
      rpcPort: lineOf('data-parallel-rpc-port'),
      maxNumSeqs: lineOf('max-num-seqs'),
    },
  };
}
