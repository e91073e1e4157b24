import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { at, describeCallerValues, describeVariable, flagReasonAt, invocationViews, launchView, type LaunchView, noLaunchScript, parallelism, placeholderIn, rootOf, worstOfInvocations } from '../src/probes/launch.js';
import { npuInventory, npuProblemText, parseDeviceList } from '../src/probes/npu.js';
import { formatRanges } from '../src/util/text.js';

type Inventory = Extract<Awaited<ReturnType<typeof npuInventory>>, { ok: true }>;

/** One invocation's devices and layout against the NPUs here. */
async function judge(ctx: CheckContext, view: LaunchView, inventory: Inventory): Promise<Outcome> {
  const t = ctx.text.checks['launch.devices'];
  const container = await ctx.container();
  const present = [...new Set(inventory.devices.map((d) => d.visibleIndex))].sort((a, b) => a - b);
  const evidence: Record<string, unknown> = { script: view.input.file, visibleHere: present, inContainer: container.inContainer };

  // ASCEND_RT_VISIBLE_DEVICES as the server will see it
  const variable = view.env.get('ASCEND_RT_VISIBLE_DEVICES');
  let ids: number[] = present;
  let source = t.allSeen({ count: present.length, inContainer: container.inContainer });
  if (variable) {
    const where = describeVariable(view, variable, ctx.text.probes.launch);
    evidence.ascendRtVisibleDevices = { value: variable.value.text, line: variable.line, known: variable.value.known };
    const argument = variable.value.known ? undefined : variable.value.dynamic.find((d) => /^\$(?:\d|\{\d+\})$/.test(d));
    if (argument) {
      return skip(t.fromArgument({ where, argument }), {
        remediation: t.checkLauncher({ script: view.name }),
        evidence,
      });
    }
    if (!variable.value.known) {
      return warn(t.computed({ where, dynamic: variable.value.dynamic[0] ?? '' }), {
        remediation: t.writeLiterally({ ids: present.join(',') || '0' }),
        evidence,
      });
    }
    // a value left to fill in (<device_id>, xxx) is launch.placeholders' finding, not judged twice
    const placeholder = placeholderIn(variable.value.text);
    if (placeholder !== undefined) {
      return skip(t.placeholder({ where, placeholder }), { remediation: t.placeholderFix, evidence: { ...evidence, placeholder } });
    }
    const parsed = parseDeviceList(variable.value.text.trim());
    if (!parsed || parsed.length === 0) {
      return fail(t.notAList({ where, value: variable.value.text }), {
        expected: 'device ids separated by commas',
        actual: variable.value.text,
        remediation: t.exportDevices({ prefix: variable.line === null ? '' : t.atLine({ script: view.name, line: rootOf(variable).line ?? variable.line }), ids: present.join(','), inContainer: false }),
        evidence,
      });
    }
    const missing = parsed.filter((id) => !present.includes(id));
    if (missing.length > 0) {
      const wanted = present.slice(0, parsed.length);
      return fail(t.missing({ where, missing: formatRanges(missing), inContainer: container.inContainer, count: present.length, present: formatRanges(present) }), {
        expected: `ids among ${formatRanges(present) || 'none'}`,
        actual: variable.value.text,
        remediation: t.exportDevices({ prefix: variable.line === null ? '' : t.atLine({ script: view.name, line: rootOf(variable).line ?? variable.line }), ids: wanted.join(',') || '0', inContainer: container.inContainer }),
        evidence,
      });
    }
    ids = parsed;
    source = t.ofVariable({ count: parsed.length, value: variable.value.text });
  }
  evidence.devices = ids;

  const serve = view.serve;
  if (!serve) return pass(t.noServer({ script: view.name, source }), { evidence });
  const layout = parallelism(serve.parsed);
  evidence.layout = { tp: layout.tp, pp: layout.pp, pcp: layout.pcp, dp: layout.dp, dpLocal: layout.dpLocal, nnodes: layout.nnodes, perNode: layout.perNode, backend: layout.backend };
  if (layout.unknowns.length > 0) {
    return skip(t.sizesFromCaller({ script: view.name, values: describeCallerValues(layout.unknowns) }), {
      remediation: t.checkCopy({ script: view.name }),
      evidence,
    });
  }
  if (layout.problems.length > 0) {
    // an invalid size flag is worded in the run's language; the other problems are the parser's English
    const first = layout.invalid[0];
    const problem = first && flagReasonAt(first) === layout.problems[0] ? flagReasonAt(first, ctx.text.probes.launch) : (layout.problems[0] ?? '');
    return skip(t.badSize({ script: view.name, problem }), {
      remediation: t.correctFlag({ at: at(view, serve.line) }),
      evidence,
    });
  }
  if (layout.backend === 'ray' && layout.perNode > ids.length) {
    // Ray places the workers over the nodes of its cluster: this node is one of them
    return pass(t.overRay({ layout: layout.text, count: layout.perNode, source }), { evidence });
  }
  if (layout.perNode > ids.length) {
    const fixes: string[] = [];
    if (variable && present.length >= layout.perNode) fixes.push(`export ASCEND_RT_VISIBLE_DEVICES=${present.slice(0, layout.perNode).join(',')}`);
    const maxLocal = Math.floor(ids.length / Math.max(1, Math.ceil((layout.tp * layout.pp * layout.pcp) / layout.nnodes)));
    if (maxLocal >= 1 && layout.dpLocal > maxLocal) fixes.push(t.lowerLocal({ local: maxLocal, script: view.name, line: serve.line }));
    else if (ids.length >= 1) fixes.push(t.lowerTp({ tp: Math.max(1, Math.floor(ids.length / Math.max(1, layout.dpLocal))) }));
    return fail(t.tooMany({ script: view.name, layout: layout.text, count: layout.perNode, source }), {
      expected: `${layout.perNode} NPUs`,
      actual: `${ids.length}`,
      remediation: fixes.join('\n'),
      evidence,
    });
  }
  return pass(t.fits({ layout: layout.text, count: layout.perNode, source, spare: Math.max(0, ids.length - layout.perNode) }), { evidence });
}

// title, why, fix, reads and every message: src/i18n/*/checks/launch.ts
export default defineCheck({
  id: 'launch.devices',
  category: 'launch',
  order: 40,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) {
      return error(ctx.text.checks['launch.devices'].noInventory({ script: view.name, problem: npuProblemText(inventory.problem) }), {
        remediation: ctx.text.checks['launch.devices'].fixNpuSmi,
        evidence: { script: view.input.file, problem: inventory.problem.kind },
      });
    }
    const views = await invocationViews(ctx, view);
    const outcomes: Outcome[] = [];
    for (const each of views) outcomes.push(await judge(ctx, each, inventory));
    return worstOfInvocations(views, outcomes);
  },
});
