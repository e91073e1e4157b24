import type { ShellVariable } from '../parsers/launch-script.js';
import { jsonFlag, type ServeArgs } from '../parsers/vllm-args.js';

/**
 * The Mooncake KV connectors of a server's --kv-transfer-config (vllm-ascend's
 * MooncakeConnectorV1, its layerwise and store variants, or those inside a MultiConnector), and
 * the settings their Ascend transport reads from the environment. Pure.
 */

export interface MooncakeConnector {
  /** kv_connector as written: "MooncakeConnectorV1" */
  name: string;
  kvRole: string | null;
  /** NPUs of the decode instance, from kv_connector_extra_config.decode (dp_size x tp_size) */
  decodeCards: number | null;
  /** "use_ascend_direct" anywhere in its extra config, as written */
  useAscendDirect: boolean | null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positive(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n > 0 ? n : null;
}

function connectorOf(config: Json): MooncakeConnector | undefined {
  const name = typeof config.kv_connector === 'string' ? config.kv_connector : '';
  if (!/mooncake/i.test(name)) return undefined;
  const extra = isObject(config.kv_connector_extra_config) ? config.kv_connector_extra_config : {};
  const decode = isObject(extra.decode) ? extra.decode : undefined;
  const dp = decode ? positive(decode.dp_size) : null;
  const tp = decode ? positive(decode.tp_size) : null;
  const direct = extra.use_ascend_direct;
  return {
    name,
    kvRole: typeof config.kv_role === 'string' ? config.kv_role : null,
    decodeCards: dp !== null && tp !== null ? dp * tp : null,
    useAscendDirect: typeof direct === 'boolean' ? direct : null,
  };
}

/** The Mooncake connectors of --kv-transfer-config, a MultiConnector's children included. */
export function mooncakeConnectors(args: ServeArgs): MooncakeConnector[] {
  const parsed = jsonFlag(args, 'kv-transfer-config');
  if (parsed.state !== 'ok' || !isObject(parsed.value)) return [];
  const top = parsed.value;
  const found: MooncakeConnector[] = [];
  const own = connectorOf(top);
  if (own) found.push(own);
  const extra = isObject(top.kv_connector_extra_config) ? top.kv_connector_extra_config : {};
  if (Array.isArray(extra.connectors)) {
    for (const child of extra.connectors) {
      const connector = isObject(child) ? connectorOf(child) : undefined;
      if (connector) found.push(connector);
    }
  }
  return found;
}

/** An environment variable as the server starts with it: its value when known, null when computed, undefined when unset. */
export function envText(env: ReadonlyMap<string, ShellVariable>, name: string): string | null | undefined {
  const variable = env.get(name);
  if (!variable) return undefined;
  return variable.value.known ? variable.value.text.trim().replace(/^"(.*)"$/, '$1') : null;
}

/** 4.096 us x 2^timeout: the RDMA retransmission timeout of HCCL_RDMA_TIMEOUT, in ms. */
export function rdmaTimeoutMs(exponent: number): number {
  return 4.096e-3 * 2 ** exponent;
}
