import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { DRIVER_PATHS } from '../src/data/container-mounts.js';
import { knownFamily, mountSetOf, needsHccnTool, npuSmiFlag } from '../src/probes/npu-advice.js';
import { HCCN_TOOL_DIRS, locateHccnTool, locateNpuSmi, NPU_SMI_DIRS } from '../src/probes/npu.js';

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.tools',
  category: 'npu',
  order: 10,
  level: 'required',
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
    const missing: string[] = [];
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
      return fail(t.notFound({ tools: where.join('; ') }), {
        expected: wantHccn ? 'npu-smi and hccn_tool' : 'npu-smi',
        actual: `missing: ${missing.join(', ')}`,
        remediation: container.inContainer ? t.addFlags({ flags: flags.join(' ') }) : t.installDriver,
        evidence,
      });
    }
    const found = [t.foundAt({ tool: 'npu-smi', path: npuSmi.path! })];
    if (hccnTool.path) found.push(t.foundAt({ tool: 'hccn_tool', path: hccnTool.path }));
    else found.push(t.hccnNotNeeded({ family, pro: set === '200i-pro' }));
    return pass(found.join(ctx.text.report.list.separator), { evidence });
  },
});
