import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck, type CheckContext, type Outcome } from '../src/core/types.js';
import { at, describeCallerValues, describeVariable, invocationViews, worstOfInvocations, LAUNCH_REMEDIATION, launchView, NO_LAUNCH_SCRIPT, parallelism, rootOf, type LaunchView } from '../src/probes/launch.js';
import { npuInventory, parseDeviceList } from '../src/probes/npu.js';
import { formatRanges, plural } from '../src/util/text.js';

type Inventory = Extract<Awaited<ReturnType<typeof npuInventory>>, { ok: true }>;

/** One invocation's devices and layout against the NPUs here. */
async function judge(ctx: CheckContext, view: LaunchView, inventory: Inventory): Promise<Outcome> {
  const container = await ctx.container();
  const present = [...new Set(inventory.devices.map((d) => d.visibleIndex))].sort((a, b) => a - b);
  const evidence: Record<string, unknown> = { script: view.input.file, visibleHere: present, inContainer: container.inContainer };

  // ASCEND_RT_VISIBLE_DEVICES as the server will see it
  const variable = view.env.get('ASCEND_RT_VISIBLE_DEVICES');
  let ids: number[] = present;
  let source = `all ${plural(present.length, 'NPU')} this ${container.inContainer ? 'container' : 'host'} sees`;
  if (variable) {
    const where = describeVariable(view, variable);
    evidence.ascendRtVisibleDevices = { value: variable.value.text, line: variable.line, known: variable.value.known };
    const argument = variable.value.known ? undefined : variable.value.dynamic.find((d) => /^\$(?:\d|\{\d+\})$/.test(d));
    if (argument) {
      return skip(`${where} is the script's argument ${argument}: the caller picks the devices, so they are judged where the values are written in`, {
        remediation: `check the launcher's command line, or a copy of ${view.name} with the devices written in`,
        evidence,
      });
    }
    if (!variable.value.known) {
      return warn(`${where} is computed at run time (${variable.value.dynamic[0]}): the devices cannot be checked`, {
        remediation: `write the ids literally: export ASCEND_RT_VISIBLE_DEVICES=${present.join(',') || '0'}`,
        evidence,
      });
    }
    const parsed = parseDeviceList(variable.value.text.trim());
    if (!parsed || parsed.length === 0) {
      return fail(`${where} is "${variable.value.text}", not a list of device ids such as 0,1,4-7`, {
        expected: 'device ids separated by commas',
        actual: variable.value.text,
        remediation: `${variable.line === null ? '' : `${view.name} line ${rootOf(variable).line}: `}export ASCEND_RT_VISIBLE_DEVICES=${present.join(',')}`,
        evidence,
      });
    }
    const missing = parsed.filter((id) => !present.includes(id));
    if (missing.length > 0) {
      const renumbered = container.inContainer ? ' (inside a container the ids are renumbered from 0: use 0..n-1, not the host ids)' : '';
      const wanted = present.slice(0, parsed.length);
      return fail(`${where} lists ${formatRanges(missing)}, which this ${container.inContainer ? 'container' : 'host'} does not have: it sees ${plural(present.length, 'NPU')} (ids ${formatRanges(present) || 'none'})${renumbered}`, {
        expected: `ids among ${formatRanges(present) || 'none'}`,
        actual: variable.value.text,
        remediation: `${variable.line === null ? '' : `${view.name} line ${rootOf(variable).line}: `}export ASCEND_RT_VISIBLE_DEVICES=${wanted.join(',') || '0'}${container.inContainer ? '   # and map the devices with docker run --device /dev/davinciN for each host id' : ''}`,
        evidence,
      });
    }
    ids = parsed;
    source = `${plural(parsed.length, 'NPU')} of ASCEND_RT_VISIBLE_DEVICES (${variable.value.text})`;
  }
  evidence.devices = ids;

  const serve = view.serve;
  if (!serve) return pass(`the devices of ${view.name} exist here (${source}); no server command to size`, { evidence });
  const layout = parallelism(serve.parsed);
  evidence.layout = { tp: layout.tp, pp: layout.pp, pcp: layout.pcp, dp: layout.dp, dpLocal: layout.dpLocal, nnodes: layout.nnodes, perNode: layout.perNode, backend: layout.backend };
  if (layout.unknowns.length > 0) {
    return skip(`cannot size the server of ${view.name}: ${describeCallerValues(layout.unknowns)} come from the caller (launch.flags says so)`, {
      remediation: `check a copy of ${view.name} with the sizes written in`,
      evidence,
    });
  }
  if (layout.problems.length > 0) {
    return skip(`cannot size the server of ${view.name}: ${layout.problems[0]} (launch.flags reports it)`, {
      remediation: `correct the flag at ${at(view, serve.line)} (qprep explain launch.flags)`,
      evidence,
    });
  }
  if (layout.backend === 'ray' && layout.perNode > ids.length) {
    // Ray places the workers over the nodes of its cluster: this node is one of them
    return pass(`${layout.text} = ${plural(layout.perNode, 'NPU')} over the Ray cluster; this node contributes ${source}`, { evidence });
  }
  if (layout.perNode > ids.length) {
    const fixes: string[] = [];
    if (variable && present.length >= layout.perNode) fixes.push(`export ASCEND_RT_VISIBLE_DEVICES=${present.slice(0, layout.perNode).join(',')}`);
    const maxLocal = Math.floor(ids.length / Math.max(1, Math.ceil((layout.tp * layout.pp * layout.pcp) / layout.nnodes)));
    if (maxLocal >= 1 && layout.dpLocal > maxLocal) fixes.push(`--data-parallel-size-local ${maxLocal}   # in ${view.name} at line ${serve.line}`);
    else if (ids.length >= 1) fixes.push(`--tensor-parallel-size ${Math.max(1, Math.floor(ids.length / Math.max(1, layout.dpLocal)))} or more NPUs (docker run --device /dev/davinciN)`);
    return fail(`${view.name} needs ${layout.text} = ${plural(layout.perNode, 'NPU')} on this node, but it gets ${source}`, {
      expected: `${layout.perNode} NPUs`,
      actual: `${ids.length}`,
      remediation: fixes.join('\n'),
      evidence,
    });
  }
  const spare = ids.length > layout.perNode ? `; ${ids.length - layout.perNode} more visible and unused` : '';
  return pass(`${layout.text} = ${plural(layout.perNode, 'NPU')} fit${layout.perNode === 1 ? 's' : ''} ${source}${spare}`, { evidence });
}

export default defineCheck({
  id: 'launch.devices',
  title: 'Launch script fits the visible NPUs',
  category: 'launch',
  level: 'required',
  why:
    'vLLM starts tensor-parallel x pipeline-parallel x local data-parallel workers, one per NPU, taken from ' +
    'ASCEND_RT_VISIBLE_DEVICES. An id that does not exist fails with "set ASCEND_RT_VISIBLE_DEVICES:4 error, input ' +
    'data rang[0-2)" (inside a container the ids are renumbered from 0), and a layout larger than the NPUs there are ' +
    'fails after the model is loaded.',
  reads: ['the --launch script (never executed)', 'npu-smi info'],
  fix: 'List devices that exist here in ASCEND_RT_VISIBLE_DEVICES (0..n-1 inside a container), or lower --tensor-parallel-size / --data-parallel-size-local.',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return skip(NO_LAUNCH_SCRIPT, { remediation: LAUNCH_REMEDIATION });
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) {
      return error(`cannot list the NPUs to check ${view.name} against: ${inventory.problem.message}`, {
        remediation: 'fix npu-smi first (qprep explain npu.smi), then re-run',
        evidence: { script: view.input.file, problem: inventory.problem.kind },
      });
    }
    const views = await invocationViews(ctx, view);
    const outcomes: Outcome[] = [];
    for (const each of views) outcomes.push(await judge(ctx, each, inventory));
    return worstOfInvocations(views, outcomes);
  },
});
