import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { lastFlag } from '../src/parsers/vllm-args.js';
import { at, launchView, placeholderIn, type LaunchView } from '../src/probes/launch.js';
import type { ModelDirectory, ModelFiles, ModelLocation } from '../src/probes/model.js';
import { resolveModel } from '../src/probes/model-resolve.js';
import { formatBytes } from '../src/util/size.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { summarizeList } from '../src/util/text.js';

type Text = (typeof en)['checks']['model.weights'];

function filesSummary(ctx: CheckContext, files: ModelFiles): string {
  const t = ctx.text.checks['model.weights'];
  const parts: string[] = [];
  const size = formatBytes(files.totalBytes);
  if (files.shards.length > 0) parts.push(t.shards({ count: files.shards.length, size }));
  else if (files.otherWeights.length > 0) parts.push(t.otherWeights({ files: summarizeList(files.otherWeights, 2, ctx.text.report.list), size }));
  if (files.index) parts.push(t.allInIndex({ count: files.index.shards.length, index: files.index.name }));
  if (files.quantDescriptions.length > 0) parts.push(files.quantDescriptions[0]!);
  return parts.join(t.partsSeparator);
}

/** A model named where no directory can be read yet: computed, relative, or a hub id not in the cache. */
function unlocatedModel(ctx: CheckContext, view: LaunchView, location: Exclude<ModelLocation, { path: string }>, line: number, evidence: Record<string, unknown>): Outcome {
  const t = ctx.text.checks['model.weights'];
  const list = ctx.text.report.list;
  if (location.kind === 'dynamic') {
    return warn(t.dynamic({ script: view.name, at: at(view, line), reason: location.reason }), {
      remediation: t.dynamicFix({ script: view.name, line }),
      evidence,
    });
  }
  if (location.kind === 'relative') {
    return warn(t.relative({ model: location.text, at: at(view, line) }), {
      remediation: t.relativeFix({ script: view.name, line, path: location.text.replace(/^\.{1,2}\//, '') }),
      evidence,
    });
  }
  if (location.kind === 'not-captured') {
    return error(t.cacheNotCaptured({ id: location.id, searched: summarizeList(location.searched, 2, list) }), {
      remediation: t.recordSnapshot({ script: view.input.file === '-' ? 'SCRIPT' : view.input.file }),
      evidence,
    });
  }
  // not cached: filling the cache vLLM reads needs no change to the script
  const download = location.hub === 'modelscope' ? t.downloadModelscope({ id: location.id }) : t.downloadHuggingFace({ id: location.id });
  const text = t.notCached({ id: location.id, at: at(view, line), hub: location.hub, searched: summarizeList(location.searched, 2, list) });
  const remediation = t.downloadElsewhere({ download, script: view.name, line, name: location.id.replace(/^.*\//, '') });
  if (location.offline) return fail(t.notCachedOffline({ text }), { remediation, evidence });
  return warn(t.notCachedOnline({ text }), { remediation, evidence });
}

/** The model's directory could not be read: not recorded, absent, a single GGUF file, or unreadable. */
function unreadableDirectory(ctx: CheckContext, view: LaunchView, path: string, inspected: ModelDirectory & { ok: false }, line: number, evidence: Record<string, unknown>): Outcome {
  const t = ctx.text.checks['model.weights'];
  if (inspected.code === 'ENOTCAPTURED') {
    return error(t.dirNotCaptured({ path }), {
      remediation: t.recordSnapshot({ script: view.input.file === '-' ? 'SCRIPT' : view.input.file }),
      evidence,
    });
  }
  if (inspected.code === 'ENOENT') {
    return fail(t.noDirectory({ path, at: at(view, line) }), {
      expected: 'a directory with config.json and the weights',
      actual: 'no such directory',
      remediation: t.downloadTo({ path, script: view.name, line, live: ctx.host.root === '/' }),
      evidence,
    });
  }
  if (inspected.code === 'ENOTDIR' && /\.gguf$/.test(path)) return pass(t.gguf({ path }), { evidence });
  return fail(t.cannotReadDir({ path, problem: inspected.problem }), { remediation: t.makeReadableDir({ path }), evidence });
}

/**
 * What the directory lacks: config.json, its index, shards, any weights, the msModelSlim
 * description that --quantization ascend needs. Each problem in a catalogue's words: the
 * run's for the message, English for `actual` (programs read it).
 */
function missingFiles(ctx: CheckContext, view: LaunchView, files: ModelFiles, location: ModelLocation, path: string, whereIn: (text: Text) => string): { problems: Array<(text: Catalogue) => string>; fixes: string[] } {
  const t = ctx.text.checks['model.weights'];
  const serve = view.serve!;
  const problems: Array<(text: Catalogue) => string> = [];
  const entry = (text: Catalogue) => text.checks['model.weights'];
  const fixes: string[] = [];
  if (!files.config) {
    const issue = files.configIssue;
    problems.push((text) => entry(text).configProblem({ where: whereIn(entry(text)), problem: issue ? text.probes.model.configProblem(issue) : null }));
    fixes.push(t.copyConfig({ path }));
  }
  if (files.indexProblem) {
    const problem = files.indexProblem;
    problems.push((text) => entry(text).indexProblem({ where: whereIn(entry(text)), problem }));
    fixes.push(t.downloadIndex({ path }));
  }
  if (files.missing.length > 0) {
    problems.push((text) =>
      entry(text).missingShards({ where: whereIn(entry(text)), count: files.missing.length, shards: summarizeList(files.missing, 3, text.report.list) }),
    );
    fixes.push(location.kind === 'cached' ? t.downloadAgain({ id: location.id }) : t.copyShards({ path }));
  }
  if (files.shards.length === 0 && files.otherWeights.length === 0) {
    problems.push((text) => entry(text).noWeights({ where: whereIn(entry(text)) }));
    fixes.push(t.downloadWeights({ path }));
  }
  const quantization = lastFlag(serve.parsed, 'quantization')?.value?.text;
  if (quantization === 'ascend' && files.quantDescriptions.length === 0) {
    problems.push((text) => entry(text).notQuantized({ where: whereIn(entry(text)) }));
    fixes.push(t.useQuantized({ at: at(view, lastFlag(serve.parsed, 'quantization')!.line) }));
  }
  return { problems, fixes };
}

export default defineCheck({
  id: 'model.weights',
  category: 'launch',
  order: 80,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  // title, why, fix, reads and every message: src/i18n/*/checks/tuning.ts
  async run(ctx) {
    const t = ctx.text.checks['model.weights'];
    const view = await launchView(ctx);
    const launch = ctx.text.probes.launch;
    if (!view) return skip(launch.noScript, { remediation: launch.remediation });
    const serve = view.serve;
    if (!serve?.parsed.model) return skip(t.namesNoModel({ script: view.name }), { remediation: launch.remediation });
    const model = serve.parsed.model;
    const line = model.line;
    const placeholder = model.known ? placeholderIn(model.text) : undefined;
    if (placeholder !== undefined) {
      return skip(t.placeholder({ script: view.name, at: at(view, line), placeholder }), {
        remediation: t.placeholderFix({ script: view.name, line }),
        evidence: { script: view.input.file, model: model.text, line, placeholder },
      });
    }
    const resolved = (await resolveModel(ctx, view))!;
    const { location } = resolved;
    const evidence: Record<string, unknown> = { script: view.input.file, model: model.text, line, location };
    if (!('path' in location)) return unlocatedModel(ctx, view, location, line, evidence);

    const path = location.path;
    const whereIn = (text: Text) => (location.kind === 'cached' ? text.cachedAt({ id: location.id, path }) : path);
    // the resolver reads every directory the argument leads to
    const inspected = resolved.inspected!;
    if (!inspected.ok) return unreadableDirectory(ctx, view, path, inspected, line, evidence);
    const files = inspected.files;
    evidence.files = {
      config: files.config ? { model_type: files.config.model_type ?? null } : null,
      shards: files.shards.length,
      bytes: files.totalBytes,
      index: files.index?.name ?? null,
      missing: files.missing,
      quantDescriptions: files.quantDescriptions,
    };
    const { problems, fixes } = missingFiles(ctx, view, files, location, path, whereIn);
    if (problems.length > 0) {
      return fail(t.problems({ first: problems[0]!(ctx.text), more: problems.length - 1 }), {
        expected: 'config.json and every shard',
        actual: summarizeList(problems.map((problem) => problem(en)), 2),
        remediation: fixes.join('\n'),
        evidence,
      });
    }
    // whether they fit the NPUs' memory is model.fit's
    return pass(t.fits({ where: whereIn(t), files: filesSummary(ctx, files) }), { evidence });
  },
});
