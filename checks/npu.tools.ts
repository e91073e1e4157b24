import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import type { CheckContext } from '../src/core/types.js';
import { DRIVER_PATHS } from '../src/data/container-mounts.js';
import { commandsFromElsewhere, knownFamily, mountSetOf, needsHccnTool, npuSmiFlag, underRootRemediation, type NpuTool } from '../src/probes/npu-advice.js';
import { HCCN_TOOL_DIRS, NPU_SMI_DIRS } from '../src/host/tool-dirs.js';
import { locateHccnTool, locateNpuSmi } from '../src/probes/npu.js';

/** The standard places of the missing tools that exist in the --root tree (the host's own copies). */
async function toolsInRootTree(ctx: CheckContext, tools: readonly NpuTool[]): Promise<string[]> {
  const candidates = tools.flatMap((tool) => (tool === 'npu-smi' ? NPU_SMI_DIRS : HCCN_TOOL_DIRS).map((dir) => `${dir}/${tool}`));
  const found = await Promise.all(candidates.map(async (path) => ((await ctx.host.stat(path)).ok ? path : undefined)));
  return found.filter((path): path is string => path !== undefined);
}

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.tools',
  category: 'npu',
  order: 10,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.tools'];
    const [npuSmi, hccnTool, family, container, set] = await Promise.all([
      locateNpuSmi(ctx),
      locateHccnTool(ctx),
      knownFamily(ctx),
      ctx.container(),
      mountSetOf(ctx),
    ]);
    const wantHccn = needsHccnTool(family) && set === 'standard';
    const evidence = { npuSmi: npuSmi.path, hccnTool: hccnTool.path, family, searched: { npuSmi: npuSmi.searched, hccnTool: hccnTool.searched } };
    const missing: NpuTool[] = [];
    const flags: string[] = [];
    if (!npuSmi.path) {
      missing.push('npu-smi');
      flags.push(npuSmiFlag(set));
    }
    if (wantHccn && !hccnTool.path) {
      missing.push('hccn_tool');
      flags.push(DRIVER_PATHS.standard.find((p) => p.path.endsWith('/hccn_tool'))!.flag);
    }
    if (missing.length > 0) {
      const where = missing.map((name) => t.notIn({ tool: name, dirs: (name === 'npu-smi' ? NPU_SMI_DIRS : HCCN_TOOL_DIRS).join(' or ') }));
      // under --root the tools come from qprep's own environment: the host tree may well have them
      const underRoot = commandsFromElsewhere(ctx.host.root, container.inContainer);
      const onHost = underRoot ? await toolsInRootTree(ctx, missing) : undefined;
      const message = t.notFound({ tools: where.join('; ') }) + (onHost && onHost.length > 0 ? t.inRootTree({ root: ctx.host.root, paths: onHost.join(', ') }) : '');
      return fail(message, {
        expected: wantHccn ? 'npu-smi and hccn_tool' : 'npu-smi',
        actual: `missing: ${missing.join(', ')}`,
        remediation: underRoot ? underRootRemediation(ctx.host.root, set, missing, ctx.text) : container.inContainer ? t.addFlags({ flags: flags.join(' ') }) : t.installDriver,
        evidence: underRoot ? { ...evidence, commandsFrom: 'qprep-environment', root: ctx.host.root, inRootTree: onHost } : evidence,
      });
    }
    const found = [t.foundAt({ tool: 'npu-smi', path: npuSmi.path! })];
    if (hccnTool.path) found.push(t.foundAt({ tool: 'hccn_tool', path: hccnTool.path }));
    else found.push(t.hccnNotNeeded({ family, pro: set === '200i-pro' }));
    return pass(found.join(ctx.text.report.list.separator), { evidence });
  },
});
