import { error, fail, pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { INSTALL_INFO_PATH } from '../src/probes/ascend-versions.js';
import { mountSetOf, npuSmiRemediation } from '../src/probes/npu-advice.js';
import { npuInventory, npuProblemText } from '../src/probes/npu.js';
import { formatRanges, plural } from '../src/util/text.js';

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.smi',
  category: 'npu',
  order: 40,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.smi'];
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) {
      const { problem } = inventory;
      const [container, set] = await Promise.all([ctx.container(), mountSetOf(ctx)]);
      const remediation = npuSmiRemediation(problem, container.inContainer, set, ctx.text, ctx.host.root);
      const evidence = { argv: inventory.argv, problem, inContainer: container.inContainer };
      if (problem.kind === 'timeout' || problem.kind === 'not-run' || problem.kind === 'killed' || problem.kind === 'unparseable') {
        return error(npuProblemText(problem), { remediation, evidence });
      }
      return fail(npuProblemText(problem), { expected: 'the npu-smi table', actual: problem.kind, remediation, evidence });
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
    if (!inventory.truncated && (inventory.cutAfterLine !== null || inventory.elided)) {
      const processes = inventory.table.processes.length;
      return warn(t.cut({ line: inventory.cutAfterLine, devices: devices.length, family, processes }), {
        expected: 'the whole npu-smi info table, to its closing border',
        actual:
          inventory.cutAfterLine !== null
            ? `stops after line ${inventory.cutAfterLine}, a row without its closing border; ${plural(devices.length, 'device row')} read`
            : `rows cut by hand ("..."); ${plural(devices.length, 'device row')} read`,
        remediation: t.recordWhole,
        evidence: { ...evidence, cutAfterLine: inventory.cutAfterLine, elided: inventory.elided, processes },
      });
    }
    if (inventory.truncated) {
      const processes = inventory.table.processes.length;
      return warn(
        t.truncated({ deviceRows: devices.length > 0, devices: devices.length, family, processes }),
        {
          expected: 'the whole npu-smi info table, from its banner',
          actual: `${plural(devices.length, 'device row')}${devices.length > 0 ? '' : `, ${plural(processes, 'process row')}`}, no header`,
          remediation: t.recordWhole,
          evidence: { ...evidence, truncated: true, processes },
        },
      );
    }
    if (devices.length === 0) {
      return fail(t.noDevice, {
        remediation: t.noDeviceFix,
        evidence,
      });
    }
    const summary = t.summary({
      tool: inventory.toolVersion ?? '?',
      driver: inventory.driverVersion ?? '?',
      devices: devices.length,
      ids: formatRanges(devices.map((d) => d.device)),
      family,
    });
    if (inventory.warnings.length > 0) {
      const container = await ctx.container();
      return warn(t.warns({ summary, warning: inventory.warnings[0]! }), {
        remediation: container.inContainer ? t.mountInstallInfo({ path: INSTALL_INFO_PATH }) : t.reinstallDriver({ path: INSTALL_INFO_PATH }),
        evidence,
      });
    }
    return pass(summary, { evidence });
  },
});
