import type { CheckContext } from '../core/types.js';
import { launchView, parallelism, placeholderIn, type LaunchView } from './launch.js';
import type { ModelFiles } from './model.js';
import { resolveModel } from './model-resolve.js';

/**
 * What this node reads from the storage when vLLM loads the weights of the judged script.
 *
 * vLLM's default loader walks every safetensors file on every rank (with tensor parallelism
 * each rank takes its slice of every tensor; with expert parallelism it still reads each file
 * to find its experts), memory-mapping them: the ranks of one node map the same files and
 * share their pages in the page cache, so the storage delivers each shard once per node.
 */

export interface LoadPlan {
  view: LaunchView;
  /** the model as the script writes it, and its line */
  model: string;
  line: number;
  /** the weights directory */
  directory: string;
  /** the directory no read may leave: the weights, or the Hugging Face cache entry whose blobs their links point into */
  boundary: string;
  files: ModelFiles;
  /** the shards as host paths, in the order a rank reads them */
  shardPaths: string[];
  bytesToRead: number;
  /** the files each rank opens */
  shardsPerRank: number;
  /** this node's ranks (NPUs of its server) */
  ranksOnNode: number;
}

export type LoadPlanResult =
  | { ok: true; plan: LoadPlan }
  | { ok: false; why: 'no-script' | 'no-model' | 'not-local' | 'unreadable' | 'no-weights'; view?: LaunchView };

/** A Hugging Face snapshot's shards link to ../../blobs/HASH: the entry (models--ORG--NAME) holds both. */
function boundaryOf(directory: string): string {
  const entry = /^(.*\/models--[^/]+--[^/]+)\/snapshots\/[^/]+\/*$/.exec(directory);
  return entry ? entry[1]! : directory;
}

/** The plan, once per run (the check and its prefetch share it). */
export function loadPlan(ctx: CheckContext): Promise<LoadPlanResult> {
  return ctx.shared('model.load-time:plan', async (): Promise<LoadPlanResult> => {
    const view = await launchView(ctx);
    if (!view) return { ok: false, why: 'no-script' };
    const model = view.serve?.parsed.model;
    if (!model || (model.known && placeholderIn(model.text) !== undefined)) return { ok: false, why: 'no-model', view };
    const resolved = await resolveModel(ctx, view);
    const directory = resolved?.directory;
    if (!resolved || !directory) return { ok: false, why: 'not-local', view };
    const files = resolved.files;
    if (!files) return { ok: false, why: 'unreadable', view };
    const names = files.shards.length > 0 ? files.shards.filter((s) => s.bytes !== null).map((s) => s.name) : files.otherWeights;
    if (names.length === 0 || files.totalBytes === 0) return { ok: false, why: 'no-weights', view };
    const layout = parallelism(view.serve!.parsed);
    return {
      ok: true,
      plan: {
        view,
        model: model.text,
        line: model.line,
        directory,
        boundary: boundaryOf(directory),
        files,
        shardPaths: names.map((name) => `${directory}/${name}`),
        bytesToRead: files.totalBytes,
        shardsPerRank: names.length,
        ranksOnNode: Math.max(1, layout.perNode),
      },
    };
  });
}
