import type { CheckContext } from '../core/types.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import { ruleEvidence, type RuleJudgement } from '../knowledge/judge.js';
import { booleanFlag, jsonFlag, lastFlag, type ServeArgs } from '../parsers/vllm-args.js';
import { readFitSettings } from './fit-settings.js';
import { at, parallelism, type LaunchView } from './launch.js';
import { jsonKeyLine } from './launch-layout.js';
import { launchRule, ruleNote } from './launch-rules.js';

/**
 * The server flags judged by rules of knowledge/rules.json, for launch.flags: each finding is
 * the rule's verdict for the installed vllm-ascend release, with the rule in its evidence.
 *
 * - eager.graph-config-ignored: --enforce-eager sets CompilationMode.NONE (vllm_ascend/platform.py,
 *   "Compilation disabled, using eager mode by default"), so the graph keys of a
 *   --compilation-config next to it capture nothing;
 * - 310p.tp-capture-sizes: with TP > 1 the 310P's event ids allow two capture sizes, and vLLM's
 *   default list (when --compilation-config gives none) is a list like any other.
 */

type FlagsText = Catalogue['checks']['launch.flags'];
type LaunchText = Catalogue['probes']['launch'];

export interface RuleProblem {
  level: 'fail' | 'warn';
  /** the finding in a catalogue's language (English for the evidence) */
  text: (t: FlagsText) => string;
  fix: (t: FlagsText) => string;
  /** the rule's id, source and the release it was judged for (ruleEvidence) */
  rule: Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The words of the launch probes matching a flags catalogue: English for English, the run's otherwise. */
function launchWords(ctx: CheckContext, t: FlagsText): LaunchText {
  return t === en.checks['launch.flags'] ? en.probes.launch : ctx.text.probes.launch;
}

function problem(ctx: CheckContext, judged: RuleJudgement, text: (t: FlagsText, rule: string) => string, fix: (t: FlagsText) => string): RuleProblem | undefined {
  if (!judged.verdict || judged.verdict === 'info') return undefined;
  return { level: judged.verdict, text: (t) => text(t, ruleNote(judged, launchWords(ctx, t))), fix, rule: ruleEvidence(judged) };
}

/** The graph keys a --compilation-config sets: a cudagraph_mode other than NONE, capture sizes. */
function graphKeys(compilation: Record<string, unknown>): string[] {
  const keys: string[] = [];
  const mode = compilation.cudagraph_mode;
  if (typeof mode === 'string' && mode.toUpperCase() !== 'NONE') keys.push(`cudagraph_mode ${mode}`);
  const sizes = compilation.cudagraph_capture_sizes;
  if (Array.isArray(sizes) && sizes.length > 0) keys.push(`cudagraph_capture_sizes [${sizes.join(', ')}]`);
  if (typeof compilation.max_cudagraph_capture_size === 'number') keys.push(`max_cudagraph_capture_size ${compilation.max_cudagraph_capture_size}`);
  return keys;
}

/** --enforce-eager next to a --compilation-config that asks for graphs. */
async function eagerWithGraphConfig(ctx: CheckContext, view: LaunchView, args: ServeArgs): Promise<RuleProblem | undefined> {
  if (booleanFlag(args, 'enforce-eager') !== true) return undefined;
  const parsed = jsonFlag(args, 'compilation-config');
  if (parsed.state !== 'ok' || !isObject(parsed.value)) return undefined;
  const keys = graphKeys(parsed.value);
  if (keys.length === 0) return undefined;
  const eager = lastFlag(args, 'enforce-eager')!;
  const compilation = lastFlag(args, 'compilation-config')!;
  const judged = await launchRule(ctx, 'eager.graph-config-ignored');
  const where = { eagerAt: at(view, eager.line), configAt: at(view, compilation.line), keys: keys.join(', ') };
  return problem(
    ctx,
    judged,
    (t, rule) => t.eagerIgnoresGraphs({ ...where, rule }),
    (t) => t.eagerIgnoresGraphsFix({ script: view.name, eagerLine: eager.line, configLine: compilation.line }),
  );
}

/** On 310P with TP > 1: more than two capture sizes, given or vLLM's default list. */
async function captureSizes310p(ctx: CheckContext, view: LaunchView, args: ServeArgs): Promise<RuleProblem | undefined> {
  const layout = parallelism(args);
  if (layout.unknowns.length > 0 || layout.problems.length > 0 || layout.tp <= 1) return undefined;
  const settings = readFitSettings(args, view.env);
  const sizes = settings.captureSizes;
  if (sizes.length <= 2) return undefined;
  const compilation = lastFlag(args, 'compilation-config');
  const line = compilation ? jsonKeyLine(compilation, ['cudagraph_capture_sizes']) : view.serve!.line;
  const given = settings.captureSizesGiven;
  const judged = await launchRule(ctx, '310p.tp-capture-sizes');
  const shown = sizes.length > 8 ? `${sizes.slice(0, 6).join(', ')}, ..., ${sizes.at(-1)}` : sizes.join(', ');
  // the guides' example for the default list is [1, 8]: its first size and its fourth
  const two = (given ? sizes.slice(0, 2) : [sizes[0]!, sizes[Math.min(3, sizes.length - 1)]!]).join(', ');
  return problem(
    ctx,
    judged,
    (t, rule) => t.captureSizes310pRule({ tp: layout.tp, count: sizes.length, sizes: shown, given, rule }),
    (t) => (given ? t.captureSizesFix({ script: view.name, line, sizes: two }) : t.captureSizesDefaultFix({ script: view.name, line, sizes: two, mode: settings.cudagraphMode })),
  );
}

/** The rule findings of launch.flags that do not depend on the NPU family. */
export async function flagRuleProblems(ctx: CheckContext, view: LaunchView, args: ServeArgs): Promise<RuleProblem[]> {
  const found = await eagerWithGraphConfig(ctx, view, args);
  return found ? [found] : [];
}

/** The rule findings of launch.flags on a 310P. */
export async function flagRuleProblems310p(ctx: CheckContext, view: LaunchView, args: ServeArgs): Promise<RuleProblem[]> {
  const found = await captureSizes310p(ctx, view, args);
  return found ? [found] : [];
}
