import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { npuInventory, partialTable, visibleDevices } from '../src/probes/npu.js';
import { formatRanges } from '../src/util/text.js';

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.count',
  category: 'npu',
  order: 50,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.count'];
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, t.what);
    const { devices, family } = inventory;
    const { minCount, family: wantedFamily } = ctx.profile.npu;
    const visible = visibleDevices(ctx);
    const cards = new Set(devices.map((d) => d.card)).size;
    // a table cut short holds some of the NPUs: its count is a lower bound and its card x chip shape no fact
    const partial = partialTable(inventory);
    const shape = cards !== devices.length && !partial ? t.shape({ cards, chips: Math.round(devices.length / Math.max(cards, 1)) }) : '';
    const evidence = { devices: devices.length, cards, family, minCount, wantedFamily, visible, partial };

    if (wantedFamily !== 'any' && family !== wantedFamily) {
      return fail(t.wrongFamily({ family, layout: inventory.layout, wanted: wantedFamily }), {
        expected: `family ${wantedFamily}`,
        actual: `family ${family}`,
        remediation: t.useProfile,
        evidence,
      });
    }
    const beyondRead = visible.ids?.some((id) => id >= devices.length) ?? false;
    if (partial && (devices.length < Math.max(minCount, 1) || beyondRead)) {
      return error(t.partialTooFew({ devices: devices.length, minCount, visible: beyondRead ? visible.text : null, source: visible.source }), {
        remediation: ctx.text.checks['npu.smi'].recordWhole,
        evidence,
      });
    }
    if (devices.length < Math.max(minCount, 1)) {
      return fail(t.tooFew({ devices: devices.length, minCount }), {
        expected: `>= ${minCount} devices`,
        actual: `${devices.length}: ${formatRanges(devices.map((d) => d.device))}`,
        remediation: t.passAll({ last: minCount - 1 }),
        evidence,
      });
    }
    if (visible.invalid) {
      return fail(t.invalid({ source: visible.source, problem: visible.invalid }), {
        remediation: t.writeIds,
        evidence,
      });
    }
    if (visible.ids) {
      const beyond = visible.ids.filter((id) => id >= devices.length);
      if (beyond.length > 0) {
        return fail(t.beyond({ source: visible.source, text: visible.text, count: beyond.length, ids: formatRanges(beyond), devices: devices.length }), {
          expected: `ids in 0-${devices.length - 1}`,
          actual: visible.text,
          remediation: t.renumber({ devices: devices.length }),
          evidence,
        });
      }
      if (visible.ids.length < minCount) {
        return fail(t.tooFewSelected({ source: visible.source, text: visible.text, selected: visible.ids.length, minCount }), {
          expected: `>= ${minCount} selected`,
          actual: String(visible.ids.length),
          remediation: t.selectMore({ minCount }),
          evidence,
        });
      }
    }
    return pass(
      t.passed({
        devices: devices.length,
        atLeast: partial,
        shape,
        family,
        selected: visible.ids ? visible.ids.length : null,
        source: visible.source,
        minCount,
        wanted: wantedFamily !== 'any' ? wantedFamily : null,
      }),
      { evidence },
    );
  },
});
