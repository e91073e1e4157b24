import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { DRIVER_PATHS } from '../src/data/container-mounts.js';
import { knownFamily, mountSetOf, needsHccnTool, npuSmiFlag } from '../src/probes/npu-advice.js';
import { HCCN_TOOL_DIRS, locateHccnTool, locateNpuSmi, NPU_SMI_DIRS } from '../src/probes/npu.js';

export default defineCheck({
  id: 'npu.tools',
  title: 'npu-smi and hccn_tool resolvable',
  category: 'npu',
  level: 'required',
  why:
    'Every NPU check, vllm-ascend\'s own health probe and CPU binding run npu-smi, and Mooncake/HIXL call hccn_tool for ' +
    'the device IPs of A2 and A3 NPUs. Neither is on PATH in a container unless it is mounted ("bash: /usr/local/bin/npu-smi: ' +
    'No such file or directory"), and npu-smi sits in /usr/local/sbin on some hosts. Required: without them the node cannot ' +
    'be assessed, and the 310P family, which has no NPU network, is not asked for hccn_tool.',
  reads: [`PATH, ${NPU_SMI_DIRS.join(', ')} (npu-smi)`, `PATH, ${HCCN_TOOL_DIRS.join(', ')} (hccn_tool)`],
  fix: 'In a container add the guide\'s -v flags for npu-smi and hccn_tool; on a host install the NPU driver package, which ships both.',
  async run(ctx) {
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
      const where = missing.map((name) => `${name} (not on PATH, not in ${(name === 'npu-smi' ? NPU_SMI_DIRS : HCCN_TOOL_DIRS).join(' or ')})`);
      return fail(`not found: ${where.join('; ')}`, {
        expected: wantHccn ? 'npu-smi and hccn_tool' : 'npu-smi',
        actual: `missing: ${missing.join(', ')}`,
        remediation: container.inContainer
          ? `add ${flags.join(' ')} to docker run`
          : 'install the NPU driver package (it ships npu-smi and hccn_tool), or add their directories to PATH',
        evidence,
      });
    }
    const found = [`npu-smi at ${npuSmi.path}`];
    if (hccnTool.path) found.push(`hccn_tool at ${hccnTool.path}`);
    else found.push(`no hccn_tool (not needed for family ${family}${set === '200i-pro' ? ', 200I Pro' : ''})`);
    return pass(found.join(', '), { evidence });
  },
});
