import type { Field } from './launch-script.js';

/**
 * The arguments of `vllm serve` as vLLM's own parser reads them: `--flag value` and
 * `--flag=value`, underscores in flag names read as dashes (`--max-num_seqs`,
 * `--speculative_config`), the short spellings (`-tp`, `-dp`, `-dpl`, ...), `--no-X` for a
 * boolean X, the model as the positional argument or `--model`. Pure and total.
 */

export interface ServeFlag {
  /** canonical name without dashes: "tensor-parallel-size" */
  name: string;
  /** as written: "--max-num_seqs", "-tp", "--port=8000" */
  written: string;
  /** the value; null for a boolean flag */
  value: Field | null;
  /** `--no-enable-prefix-caching` */
  negated: boolean;
  line: number;
}

export interface ServeArgs {
  model: Field | null;
  /** "positional" or "--model" */
  modelFrom: 'positional' | 'flag' | null;
  flags: ServeFlag[];
  /** positional arguments after the model (vLLM refuses them) */
  extraPositionals: Field[];
  /** a value flag written last with nothing after it */
  missingValues: ServeFlag[];
}

/** vLLM's short spellings (engine/arg_utils.py). */
const ALIASES: Record<string, string> = {
  tp: 'tensor-parallel-size',
  pp: 'pipeline-parallel-size',
  dp: 'data-parallel-size',
  dpl: 'data-parallel-size-local',
  dpn: 'data-parallel-rank',
  dpr: 'data-parallel-start-rank',
  dpa: 'data-parallel-address',
  dpp: 'data-parallel-rpc-port',
  dpb: 'data-parallel-backend',
  dph: 'data-parallel-hybrid-lb',
  dpe: 'data-parallel-external-lb',
  pcp: 'prefill-context-parallel-size',
  dcp: 'decode-context-parallel-size',
  ep: 'enable-expert-parallel',
  n: 'nnodes',
  r: 'node-rank',
  q: 'quantization',
  O: 'compilation-config',
};

/**
 * Flags that take no value. vLLM declares most of them with argparse's BooleanOptionalAction
 * (so `--no-X` exists too); anything spelled `--no-...` is boolean as well. A flag not listed
 * here takes the next word as its value unless that word is another flag.
 */
export const BOOLEAN_FLAGS = new Set([
  'trust-remote-code',
  'enforce-eager',
  'enable-expert-parallel',
  'enable-eplb',
  'enable-dbo',
  'enable-prefix-caching',
  'enable-chunked-prefill',
  'enable-lora',
  'enable-auto-tool-choice',
  'enable-sleep-mode',
  'enable-log-requests',
  'enable-log-outputs',
  'enable-prompt-tokens-details',
  'enable-server-load-tracking',
  'enable-force-include-usage',
  'enable-request-id-headers',
  'enable-tokenizer-info-endpoint',
  'enable-ssl-refresh',
  'enable-multimodal-encoder-data-parallel',
  'disable-log-stats',
  'disable-log-requests',
  'disable-hybrid-kv-cache-manager',
  'disable-custom-all-reduce',
  'disable-sliding-window',
  'disable-cascade-attn',
  'disable-chunked-mm-input',
  'disable-frontend-multiprocessing',
  'disable-uvicorn-access-log',
  'disable-fastapi-docs',
  'disable-async-output-proc',
  'headless',
  'async-scheduling',
  'skip-tokenizer-init',
  'data-parallel-hybrid-lb',
  'data-parallel-external-lb',
  'data-parallel-multi-port-external-lb',
  'fully-sharded-loras',
  'calculate-kv-scales',
  'use-tqdm-on-load',
  'ray-workers-use-nsight',
  'return-tokens-as-token-ids',
]);

/** Flags whose value is JSON (a number is valid JSON too: `-O 3`). */
export const JSON_FLAGS = new Set([
  'speculative-config',
  'compilation-config',
  'additional-config',
  'kv-transfer-config',
  'kv-events-config',
  'ec-transfer-config',
  'hf-overrides',
  'override-generation-config',
  'limit-mm-per-prompt',
  'mm-processor-kwargs',
  'structured-outputs-config',
  'override-pooler-config',
  'pooler-config',
]);

function canonical(raw: string): { name: string; negated: boolean } {
  const body = raw.replace(/^-+/, '');
  const alias = raw.startsWith('--') ? undefined : ALIASES[body];
  const name = alias ?? body.replace(/_/g, '-');
  if (name.startsWith('no-') && name.length > 3) return { name: name.slice(3), negated: true };
  return { name, negated: false };
}

function looksLikeFlag(text: string): boolean {
  // a negative number is a value, as argparse reads it
  return /^-{1,2}[A-Za-z]/.test(text);
}

export function parseServeArgs(args: readonly Field[]): ServeArgs {
  const flags: ServeFlag[] = [];
  const positionals: Field[] = [];
  const missingValues: ServeFlag[] = [];
  for (let i = 0; i < args.length; i++) {
    const field = args[i]!;
    const text = field.text;
    if (text === '--') {
      for (let j = i + 1; j < args.length; j++) positionals.push(args[j]!);
      break;
    }
    if (!looksLikeFlag(text)) {
      // an unset $EXTRA_ARGS after the model is nothing to bash; only the model itself is kept
      if (!field.vanished || positionals.length === 0) positionals.push(field);
      continue;
    }
    const eq = text.indexOf('=');
    if (eq > 0) {
      const { name, negated } = canonical(text.slice(0, eq));
      flags.push({ name, written: text.slice(0, eq), value: { ...field, text: text.slice(eq + 1) }, negated, line: field.line });
      continue;
    }
    // -O3: vLLM's optimization level written against the flag
    if (/^-O\d$/.test(text)) {
      flags.push({ name: 'compilation-config', written: '-O', value: { ...field, text: text.slice(2) }, negated: false, line: field.line });
      continue;
    }
    const { name, negated } = canonical(text);
    if (negated || BOOLEAN_FLAGS.has(name)) {
      flags.push({ name, written: text, value: null, negated, line: field.line });
      continue;
    }
    const next = args[i + 1];
    if (next === undefined || looksLikeFlag(next.text)) {
      const flag: ServeFlag = { name, written: text, value: null, negated: false, line: field.line };
      flags.push(flag);
      // an unknown boolean flag looks the same; only a flag known to take a value is "missing" one
      if (next === undefined && VALUE_FLAGS.has(name)) missingValues.push(flag);
      continue;
    }
    flags.push({ name, written: text, value: next, negated: false, line: field.line });
    i++;
  }
  const modelFlag = [...flags].reverse().find((f) => f.name === 'model' && f.value);
  const model = positionals[0] ?? modelFlag?.value ?? null;
  return {
    model,
    modelFrom: positionals[0] ? 'positional' : modelFlag ? 'flag' : null,
    flags,
    extraPositionals: positionals.slice(1),
    missingValues,
  };
}

/** Flags the checks read, all of which take a value. */
const VALUE_FLAGS = new Set([
  ...JSON_FLAGS,
  'model',
  'host',
  'port',
  'tensor-parallel-size',
  'pipeline-parallel-size',
  'data-parallel-size',
  'data-parallel-size-local',
  'data-parallel-start-rank',
  'data-parallel-rank',
  'data-parallel-address',
  'data-parallel-rpc-port',
  'prefill-context-parallel-size',
  'decode-context-parallel-size',
  'distributed-executor-backend',
  'nnodes',
  'node-rank',
  'gpu-memory-utilization',
  'dtype',
  'quantization',
  'mamba-ssm-cache-dtype',
  'mamba-cache-mode',
  'max-model-len',
  'max-num-seqs',
  'served-model-name',
]);

/** The last occurrence of a flag: what vLLM uses. */
export function lastFlag(args: ServeArgs, name: string): ServeFlag | undefined {
  for (let i = args.flags.length - 1; i >= 0; i--) if (args.flags[i]!.name === name) return args.flags[i];
  return undefined;
}

/** true, false (`--no-X`), or undefined when the flag is absent. */
export function booleanFlag(args: ServeArgs, name: string): boolean | undefined {
  const flag = lastFlag(args, name);
  if (!flag) return undefined;
  if (flag.negated) return false;
  if (flag.value && /^(false|0|no)$/i.test(flag.value.text)) return false;
  return true;
}

/**
 * Why a flag's value cannot be used, as facts: a message in any language is built from them
 * (src/probes/launch.ts, flagReason); `reason` beside it is the English, for evidence.
 */
export type FlagProblem =
  | { kind: 'no-value' }
  | { kind: 'unknown'; text: string }
  | { kind: 'not-whole'; text: string }
  | { kind: 'below'; value: number; min: number }
  | { kind: 'run-time'; dynamic: string }
  | { kind: 'not-json'; line: number; detail: string };

export type IntegerFlag =
  | { state: 'absent' }
  | { state: 'ok'; value: number; flag: ServeFlag }
  | { state: 'invalid'; flag: ServeFlag; reason: string; problem: FlagProblem };

/** A flag that must be a whole number (sizes, ranks, ports). */
export function integerFlag(args: ServeArgs, name: string, min = 0): IntegerFlag {
  const flag = lastFlag(args, name);
  if (!flag) return { state: 'absent' };
  const value = flag.value;
  if (!value) return { state: 'invalid', flag, reason: `${flag.written} has no value`, problem: { kind: 'no-value' } };
  if (!value.known) return { state: 'invalid', flag, reason: `${flag.written} is ${value.text}, which only a run can tell`, problem: { kind: 'unknown', text: value.text } };
  if (!/^\d{1,9}$/.test(value.text.trim())) return { state: 'invalid', flag, reason: `${flag.written} is "${value.text}", not a whole number`, problem: { kind: 'not-whole', text: value.text } };
  const number = Number(value.text.trim());
  if (number < min) return { state: 'invalid', flag, reason: `${flag.written} is ${number}, below ${min}`, problem: { kind: 'below', value: number, min } };
  return { state: 'ok', value: number, flag };
}

export type JsonFlag = { state: 'absent' } | { state: 'ok'; value: unknown; flag: ServeFlag } | { state: 'invalid'; flag: ServeFlag; reason: string; problem: FlagProblem };

/** A JSON-valued flag, parsed. */
export function jsonFlag(args: ServeArgs, name: string): JsonFlag {
  const flag = lastFlag(args, name);
  if (!flag) return { state: 'absent' };
  if (!flag.value) return { state: 'invalid', flag, reason: `${flag.written} has no value`, problem: { kind: 'no-value' } };
  if (!flag.value.known) {
    const dynamic = flag.value.dynamic[0] ?? '';
    return { state: 'invalid', flag, reason: `${flag.written} is built at run time (${dynamic})`, problem: { kind: 'run-time', dynamic } };
  }
  try {
    return { state: 'ok', value: JSON.parse(flag.value.text) as unknown, flag };
  } catch (error) {
    const detail = (error as Error).message;
    return { state: 'invalid', flag, reason: `${flag.written} (line ${flag.line}) is not valid JSON: ${detail}`, problem: { kind: 'not-json', line: flag.line, detail } };
  }
}
