import { error, fail, pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { INSTALL_INFO_PATH } from '../src/probes/ascend-versions.js';
import { mountSetOf, npuSmiRemediation } from '../src/probes/npu-advice.js';
import { npuInventory } from '../src/probes/npu.js';
import { formatRanges, plural } from '../src/util/text.js';

export default defineCheck({
  id: 'npu.smi',
  title: 'npu-smi runs and its table parses',
  category: 'npu',
  level: 'required',
  why:
    'npu-smi is the driver\'s own view of the NPUs. When it cannot start, vllm-ascend cannot either, and the reason is in ' +
    'its output: "dcmi module initialize failed. ret is -8005" (the NPUs are held by another container), -8020 (the ' +
    'device is used), a missing shared library (driver lib64 not mounted), or a hang (a wedged driver). qprep translates ' +
    'each into the cause and the fix. Required: the other NPU checks read this table.',
  reads: ['npu-smi info'],
  fix: 'Follow the cause printed: free the NPUs, add the missing mount, or repair the driver; then run npu-smi info by hand.',
  async run(ctx) {
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) {
      const { problem } = inventory;
      const [container, set] = await Promise.all([ctx.container(), mountSetOf(ctx)]);
      const remediation = npuSmiRemediation(problem, container.inContainer, set);
      const evidence = { argv: inventory.argv, problem, inContainer: container.inContainer };
      if (problem.kind === 'timeout' || problem.kind === 'not-run' || problem.kind === 'killed' || problem.kind === 'unparseable') {
        return error(problem.message, { remediation, evidence });
      }
      return fail(problem.message, { expected: 'the npu-smi table', actual: problem.kind, remediation, evidence });
    }

    const { devices, family } = inventory;
    const evidence = {
      argv: inventory.argv,
      toolVersion: inventory.toolVersion,
      driverVersion: inventory.driverVersion,
      layout: inventory.layout,
      family,
      devices: devices.length,
      warnings: inventory.warnings,
      skippedRows: inventory.skippedRows,
    };
    if (inventory.truncated) {
      const processes = inventory.table.processes.length;
      return warn(
        `npu-smi's output begins mid-table (${devices.length > 0 ? 'device rows' : 'a process table'} without the banner and header): it is read for what it holds, ` +
          `${plural(devices.length, 'NPU device')}${devices.length > 0 ? ` (family ${family})` : ''} and ${plural(processes, 'process', 'processes')}, and may be cut`,
        {
          expected: 'the whole npu-smi info table, from its banner',
          actual: `${plural(devices.length, 'device row')}${devices.length > 0 ? '' : `, ${plural(processes, 'process row')}`}, no header`,
          remediation: 'record the whole output of npu-smi info (qprep snapshot on the host), not an excerpt',
          evidence: { ...evidence, truncated: true, processes },
        },
      );
    }
    if (devices.length === 0) {
      return fail('npu-smi printed its table but no NPU in it', {
        remediation: 'check that the NPUs are visible (lspci | grep -i d80) and that the driver is loaded; in a container pass them with --device /dev/davinciN',
        evidence,
      });
    }
    const summary =
      `npu-smi ${inventory.toolVersion ?? '?'} (driver ${inventory.driverVersion ?? '?'}): ${devices.length} NPU device${devices.length === 1 ? '' : 's'} ` +
      `${formatRanges(devices.map((d) => d.device))}, family ${family}`;
    if (inventory.warnings.length > 0) {
      const container = await ctx.container();
      return warn(`${summary}; npu-smi warns: ${inventory.warnings[0]}`, {
        remediation: container.inContainer
          ? `add -v ${INSTALL_INFO_PATH}:${INSTALL_INFO_PATH} to docker run; if the host's npu-smi warns too, reinstall the driver there`
          : `reinstall the NPU driver package so that ${INSTALL_INFO_PATH} records Driver_Install_Status=complete (./Ascend-hdk-*-npu-driver_*.run --full)`,
        evidence,
      });
    }
    return pass(summary, { evidence });
  },
});
