import type { CheckContext } from '../core/types.js';
import { en } from '../i18n/en/index.js';
import { describeProbeError } from '../host/types.js';
import type { ConfigIssue } from '../i18n/types.js';
import type { Field } from '../parsers/launch-script.js';
import type { LaunchView } from './launch.js';

/**
 * Where the weights of `vllm serve MODEL` are on this host: MODEL itself when it is a path,
 * else the Hugging Face or ModelScope cache entry vLLM would use for a hub id, and what the
 * directory holds (config.json, shards, the shard index, Ascend quantization description).
 */

export type ModelLocation =
  | { kind: 'path'; path: string }
  | { kind: 'cached'; id: string; hub: 'huggingface' | 'modelscope'; path: string; searched: string[] }
  | { kind: 'not-cached'; id: string; hub: 'huggingface' | 'modelscope'; searched: string[]; offline: boolean }
  | { kind: 'relative'; text: string }
  | { kind: 'dynamic'; text: string; reason: string }
  /** a snapshot replay of a script whose cache look-ups were not recorded */
  | { kind: 'not-captured'; id: string; searched: string[] };

export interface ModelFiles {
  /** config.json parsed; null when absent or not JSON */
  config: Record<string, unknown> | null;
  /** why config.json is not usable, in English (what programs read) */
  configProblem?: string;
  /** the same, for ctx.text.probes.model.configProblem to say in the run's language */
  configIssue?: ConfigIssue;
  shards: Array<{ name: string; bytes: number | null }>;
  /** `*.bin`, `*.pt`, `*.gguf` when there is no safetensors */
  otherWeights: string[];
  index: { name: string; shards: string[]; /** metadata.total_size: the tensors' bytes */ totalSize: number | null } | null;
  indexProblem?: string;
  /** shards the index lists that are not in the directory */
  missing: string[];
  /** Ascend (msModelSlim) quantization description files */
  quantDescriptions: string[];
  totalBytes: number;
}

function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

function envText(view: LaunchView, name: string): string | undefined {
  const variable = view.env.get(name);
  return variable?.value.known ? variable.value.text : undefined;
}

function home(view: LaunchView): string {
  return envText(view, 'HOME') || '/root';
}

/** true, false, or undefined when a snapshot replay did not record the answer */
async function isDirectory(ctx: CheckContext, path: string, uncaptured?: { seen: boolean }): Promise<boolean> {
  const stat = await ctx.host.stat(path);
  if (!stat.ok && stat.code === 'ENOTCAPTURED' && uncaptured) uncaptured.seen = true;
  return stat.ok && stat.value.kind === 'directory';
}

/** The snapshot directory of a Hugging Face hub cache entry: refs/main, else the only snapshot. */
async function huggingFaceSnapshot(ctx: CheckContext, entry: string): Promise<string | undefined> {
  const ref = await ctx.host.readFile(`${entry}/refs/main`);
  if (ref.ok && /^[0-9a-f]{7,64}$/i.test(ref.value.trim()) && (await isDirectory(ctx, `${entry}/snapshots/${ref.value.trim()}`))) {
    return `${entry}/snapshots/${ref.value.trim()}`;
  }
  const listed = await ctx.host.readDir(`${entry}/snapshots`);
  if (!listed.ok) return undefined;
  const dirs = listed.value.filter((e) => e.kind === 'directory' || e.kind === 'symlink').map((e) => e.name).sort();
  return dirs.length > 0 ? `${entry}/snapshots/${dirs[dirs.length - 1]}` : undefined;
}

export async function locateModel(ctx: CheckContext, view: LaunchView, model: Field): Promise<ModelLocation> {
  if (!model.known) return { kind: 'dynamic', text: model.text, reason: model.dynamic[0] ?? model.text };
  // "$MODEL_PATH" quoted, the variable set nowhere: an empty argument, not a relative path
  if (model.text.trim() === '' && model.unset.length > 0) return { kind: 'dynamic', text: model.source, reason: `$${model.unset[0]} (set nowhere in the script or its environment)` };
  const text = model.text.trim();
  if (text.startsWith('/')) return { kind: 'path', path: text.replace(/\/+$/, '') || '/' };
  if (text.startsWith('./') || text.startsWith('../') || text === '.' || text === '..') {
    // cd /models && vllm serve ./q: the script said where it is
    const cwd = view.serve?.cwd;
    if (cwd) return { kind: 'path', path: normalizePath(`${cwd}/${text}`) };
    return { kind: 'relative', text };
  }
  if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)?$/.test(text)) return { kind: 'relative', text };

  const modelscope = truthy(envText(view, 'VLLM_USE_MODELSCOPE'));
  const searched: string[] = [];
  const uncaptured = { seen: false };
  const [org, name] = text.includes('/') ? (text.split('/') as [string, string]) : ['', text];
  if (modelscope) {
    const cache = envText(view, 'MODELSCOPE_CACHE') || `${home(view)}/.cache/modelscope/hub`;
    // ModelScope writes "." in a name as "___" in its cache directories
    const names = [...new Set([name, name.replace(/\./g, '___')])];
    const orgs = [...new Set([org, org.replace(/\./g, '___')])];
    for (const o of orgs) {
      for (const n of names) {
        for (const candidate of [`${cache}/models/${o ? `${o}/` : ''}${n}`, `${cache}/${o ? `${o}/` : ''}${n}`]) {
          searched.push(candidate);
          if (await isDirectory(ctx, candidate, uncaptured)) return { kind: 'cached', id: text, hub: 'modelscope', path: candidate, searched };
        }
      }
    }
    if (uncaptured.seen) return { kind: 'not-captured', id: text, searched };
    return { kind: 'not-cached', id: text, hub: 'modelscope', searched, offline: truthy(envText(view, 'HF_HUB_OFFLINE')) };
  }
  const hfHome = envText(view, 'HF_HOME');
  const cache = envText(view, 'HF_HUB_CACHE') || envText(view, 'HUGGINGFACE_HUB_CACHE') || (hfHome ? `${hfHome}/hub` : `${home(view)}/.cache/huggingface/hub`);
  const entry = `${cache}/models--${text.replace(/\//g, '--')}`;
  searched.push(entry);
  const snapshot = await huggingFaceSnapshot(ctx, entry);
  if (snapshot) return { kind: 'cached', id: text, hub: 'huggingface', path: snapshot, searched };
  const listed = await ctx.host.readDir(`${entry}/snapshots`);
  if (!listed.ok && listed.code === 'ENOTCAPTURED') return { kind: 'not-captured', id: text, searched };
  return { kind: 'not-cached', id: text, hub: 'huggingface', searched, offline: truthy(envText(view, 'HF_HUB_OFFLINE')) || truthy(envText(view, 'TRANSFORMERS_OFFLINE')) };
}

export type ModelDirectory = { ok: true; files: ModelFiles } | { ok: false; problem: string; code: string };

/** What a model directory holds. Shard sizes come from stat (following the hub cache's symlinks). */
export async function inspectModel(ctx: CheckContext, path: string): Promise<ModelDirectory> {
  const stat = await ctx.host.stat(path);
  if (!stat.ok) return { ok: false, problem: describeProbeError(path, stat), code: stat.code };
  const text = ctx.text.probes.model;
  if (stat.value.kind !== 'directory') return { ok: false, problem: text.notDirectory({ path, kind: stat.value.kind }), code: 'ENOTDIR' };
  const listed = await ctx.host.readDir(path);
  if (!listed.ok) return { ok: false, problem: describeProbeError(path, listed), code: listed.code };
  const names = listed.value.map((e) => e.name).sort();
  const files: ModelFiles = { config: null, shards: [], otherWeights: [], index: null, missing: [], quantDescriptions: [], totalBytes: 0 };

  if (names.includes('config.json')) {
    const read = await ctx.host.readFile(`${path}/config.json`);
    if (!read.ok) files.configIssue = { kind: 'unreadable', problem: describeProbeError(`${path}/config.json`, read) };
    else {
      try {
        const parsed: unknown = JSON.parse(read.value);
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) files.config = parsed as Record<string, unknown>;
        else files.configIssue = { kind: 'not-object' };
      } catch (error) {
        files.configIssue = { kind: 'not-json', error: (error as Error).message };
      }
    }
  } else files.configIssue = { kind: 'missing' };
  if (files.configIssue) files.configProblem = en.probes.model.configProblem(files.configIssue);

  const indexName = names.find((n) => n === 'model.safetensors.index.json') ?? names.find((n) => n.endsWith('.safetensors.index.json'));
  if (indexName) {
    const read = await ctx.host.readFile(`${path}/${indexName}`);
    try {
      if (!read.ok) throw new Error(describeProbeError(`${path}/${indexName}`, read));
      const parsed = JSON.parse(read.value) as { weight_map?: Record<string, unknown>; metadata?: { total_size?: unknown } };
      const shards = [...new Set(Object.values(parsed.weight_map ?? {}).filter((v): v is string => typeof v === 'string'))].sort();
      const total = parsed.metadata?.total_size;
      files.index = { name: indexName, shards, totalSize: typeof total === 'number' && Number.isFinite(total) && total > 0 ? total : null };
    } catch (error) {
      files.indexProblem = `${indexName}: ${(error as Error).message.split('\n')[0]}`;
    }
  }
  const shardNames = names.filter((n) => n.endsWith('.safetensors'));
  const sizes = await Promise.all(shardNames.map((n) => ctx.host.stat(`${path}/${n}`)));
  files.shards = shardNames.map((name, i) => {
    const s = sizes[i]!;
    return { name, bytes: s.ok ? s.value.size : null };
  });
  if (files.index) {
    for (const shard of files.index.shards) {
      if (shardNames.includes(shard)) continue;
      // an index may name shards in subdirectories
      if (shard.includes('/') && (await ctx.host.stat(`${path}/${shard}`)).ok) continue;
      files.missing.push(shard);
    }
  }
  // a shard the index names but whose symlink points nowhere (interrupted hub download) is missing too
  for (const shard of files.shards) if (shard.bytes === null && !files.missing.includes(shard.name)) files.missing.push(shard.name);
  files.otherWeights = shardNames.length > 0 ? [] : names.filter((n) => /\.(bin|pt|pth|gguf)$/.test(n));
  files.quantDescriptions = names.filter((n) => /^quant_model_description.*\.json$/.test(n));
  files.totalBytes = files.shards.reduce((sum, s) => sum + (s.bytes ?? 0), 0);
  if (files.totalBytes === 0 && files.otherWeights.length > 0) {
    const other = await Promise.all(files.otherWeights.map((n) => ctx.host.stat(`${path}/${n}`)));
    files.totalBytes = other.reduce((sum, s) => sum + (s.ok ? s.value.size : 0), 0);
  }
  return { ok: true, files };
}
