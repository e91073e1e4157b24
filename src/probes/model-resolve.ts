import type { CheckContext } from '../core/types.js';
import type { Field } from '../parsers/launch-script.js';
import type { LaunchView } from './launch.js';
import { inspectModel, locateModel, type ModelDirectory, type ModelFiles, type ModelLocation } from './model.js';

/**
 * The model of `vllm serve MODEL` as every launch check sees it: where its weights are on this
 * host and what model it is. One answer per run (ctx.shared), whatever check asks first.
 *
 * MODEL is written in many forms: a plain path (`/models/Qwen3-8B/`, with or without the slash),
 * a Hugging Face hub id that vLLM looks up in its cache (HF_HUB_CACHE, HF_HOME/hub or
 * ~/.cache/huggingface/hub, `models--ORG--NAME/snapshots/REVISION`), the path of such a cache
 * entry written out (`.../models--Qwen--Qwen3-235B-A22B/snapshots/b51c43...`), a ModelScope id
 * with VLLM_USE_MODELSCOPE (its cache writes "." as "___"), or the path of a ModelScope cache
 * entry. `--served-model-name` is the name clients send; vLLM never reads the weights by it, and
 * neither does this.
 *
 * The identity is what the weights say of themselves when their config.json is here (a
 * directory named Qwen3-0.6B can hold a 36-layer model), else the hub id the argument resolves
 * to (the cache path's ORG/NAME, not its revision hash), else the directory's name.
 *
 * Usage:
 *   const model = await resolveModel(ctx, view);
 *   if (model?.config) heads = configNumber(model.config, 'num_attention_heads');
 *   else row = modelHeadsOf(model.identity.name);
 */

export interface ModelIdentity {
  /** the hub id (ORG/NAME): the argument itself, or read from the cache path it points into */
  id: string | null;
  /** the model's name for the built-in tables: the id's NAME, else the directory's last segment */
  name: string;
  /**
   * what the identity rests on: `config.json` (the weights' own, here), `hub-id` (the argument
   * is an id), `cache-path` (a path into a hub cache names the id), `path` (the directory's name)
   */
  from: 'config.json' | 'hub-id' | 'cache-path' | 'path';
  /** config.json's model_type (the text model's when the top level has none) */
  modelType: string | null;
  /** config.json's architectures */
  architectures: string[];
}

export interface ResolvedModel {
  /** the argument as the script writes it */
  argument: Field;
  location: ModelLocation;
  /** the local directory of the weights, when the argument leads to one */
  directory: string | null;
  /** what reading that directory gave (null without a directory) */
  inspected: ModelDirectory | null;
  /** the directory's files, when it could be read */
  files: ModelFiles | null;
  /** config.json parsed, when it is here and is a JSON object */
  config: Record<string, unknown> | null;
  identity: ModelIdentity;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `models--ORG--NAME`, as huggingface_hub names a repository's cache folder (repo_id with "/" as "--"). */
const HF_ENTRY = /(?:^|\/)models--([^/]+?)--([^/]+)(?:\/snapshots\/[^/]+)?\/*$/;
/** a ModelScope cache entry: `.../modelscope/hub/models/ORG/NAME` (newer) or `.../modelscope/hub/ORG/NAME` */
const MODELSCOPE_ENTRY = /\/modelscope\/hub\/(?:models\/)?([^/]+)\/([^/]+)\/*$/;

/** The hub id a path into a hub cache stands for, or null for another path. */
export function idFromCachePath(path: string): string | null {
  const hf = HF_ENTRY.exec(path);
  if (hf) return `${hf[1]}/${hf[2]}`;
  const ms = MODELSCOPE_ENTRY.exec(path);
  // ModelScope writes "." in a name as "___" in its cache directories
  if (ms) return `${ms[1]!.replace(/___/g, '.')}/${ms[2]!.replace(/___/g, '.')}`;
  return null;
}

/** The last segment of a path or id, trailing slashes ignored. */
function lastSegment(text: string): string {
  return text.replace(/\/+$/, '').replace(/^.*\//, '');
}

/** A value of config.json: the top level first, then the text model's (`text_config` of multimodal models). */
export function configValue(config: Json | null, key: string): unknown {
  if (!config) return undefined;
  if (config[key] !== undefined) return config[key];
  const text = config.text_config;
  return isObject(text) ? text[key] : undefined;
}

/** A positive whole number of config.json (top level, then text_config), or undefined. */
export function configNumber(config: Json | null, key: string): number | undefined {
  const value = configValue(config, key);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function identityOf(argument: Field, location: ModelLocation, config: Json | null): ModelIdentity {
  const text = argument.text.trim();
  let id: string | null = null;
  let from: ModelIdentity['from'] = 'path';
  if (location.kind === 'cached' || location.kind === 'not-cached' || location.kind === 'not-captured') {
    id = location.id;
    from = 'hub-id';
  } else if (location.kind === 'path') {
    id = idFromCachePath(location.path);
    if (id) from = 'cache-path';
  }
  const name = id ? lastSegment(id) : lastSegment(location.kind === 'path' ? location.path : text);
  const textConfig = config && isObject(config.text_config) ? config.text_config : null;
  const type = typeof config?.model_type === 'string' ? config.model_type : typeof textConfig?.model_type === 'string' ? textConfig.model_type : null;
  const architectures = Array.isArray(config?.architectures) ? config.architectures.filter((a): a is string => typeof a === 'string') : [];
  return { id, name, from: config ? 'config.json' : from, modelType: type, architectures };
}

async function resolve(ctx: CheckContext, view: LaunchView, argument: Field): Promise<ResolvedModel> {
  const location = await locateModel(ctx, view, argument);
  const directory = 'path' in location ? location.path : null;
  const inspected = directory ? await inspectModel(ctx, directory) : null;
  const files = inspected?.ok ? inspected.files : null;
  const config = files?.config ?? null;
  return { argument, location, directory, inspected, files, config, identity: identityOf(argument, location, config) };
}

/** The model of the judged script's server command, or undefined when there is none (no server, no model). */
export function resolveModel(ctx: CheckContext, view: LaunchView): Promise<ResolvedModel | undefined> {
  const argument = view.serve?.parsed.model;
  if (!argument) return Promise.resolve(undefined);
  return ctx.shared(`model-resolve:${view.input.file}:${argument.line}:${argument.text}`, () => resolve(ctx, view, argument));
}
