import { fail, pass, warn } from '../src/core/outcome.js';
import { worstAction, type Action } from '../src/core/ids/actions.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { healthInfo, parseNpuSmiKeyValue, type NpuHealthInfo } from '../src/parsers/npu-smi-kv.js';
import { commandProblem } from '../src/probes/commands.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { deviceLabel, npuInventory, selectVisible, visibleDevices, type NpuDevice } from '../src/probes/npu.js';
import { summarizeList } from '../src/util/text.js';

/**
 * The action of a health status without a known fault code, as the Ascend device plugin handles
 * a fault it has no level for: a minor one is watched, any other takes the chip out of service.
 */
function statusAction(health: string): Action {
  return /^warning$/i.test(health) ? 'monitor' : 'isolate-npu';
}

/** Details are fetched for this many unhealthy chips at most: enough to act on, cheap on a sick node. */
const DETAIL_LIMIT = 4;

interface Unhealthy {
  device: NpuDevice;
  label: string;
  detail?: NpuHealthInfo;
  detailProblem?: string;
}

/** `npu-smi info -t health -i <card> -c <chip>`: the error codes behind a non-OK health. */
async function healthDetail(ctx: CheckContext, npuSmi: string, device: NpuDevice): Promise<{ detail?: NpuHealthInfo; problem?: string }> {
  const result = await ctx.host.run([npuSmi, 'info', '-t', 'health', '-i', String(device.card), '-c', String(device.chip)], { timeoutMs: ctx.timeoutMs });
  const problem = commandProblem(result, ctx.timeoutMs);
  if (problem) return { problem };
  return { detail: healthInfo(parseNpuSmiKeyValue(result.stdout)) };
}

function describe(ctx: CheckContext, entry: Unhealthy): string {
  return ctx.text.checks['npu.health'].device({
    label: entry.label,
    health: entry.device.health,
    codes: entry.detail?.errorCodes.length ? entry.detail.errorCodes.join(' ') : null,
    information: entry.detail?.errorInformation || null,
  });
}

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.health',
  category: 'npu',
  order: 60,
  level: 'required',
  depth: 'quick',
  // each non-OK outcome says its own, from the chips' health
  action: 'isolate-npu',
  async run(ctx) {
    const t = ctx.text.checks['npu.health'];
    const list = ctx.text.report.list;
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, t.what);
    const visible = visibleDevices(ctx);
    const used = new Set(selectVisible(inventory.devices, visible));
    const unhealthy: Unhealthy[] = inventory.devices
      .filter((d) => d.health.toUpperCase() !== 'OK')
      .map((device) => ({ device, label: deviceLabel(device, inventory.family, ctx.text) }));
    for (const entry of unhealthy.slice(0, DETAIL_LIMIT)) {
      const { detail, problem } = await healthDetail(ctx, inventory.argv[0]!, entry.device);
      // the evidence's problem stays English; the message does not quote it
      if (detail) entry.detail = detail;
      if (problem) entry.detailProblem = problem;
    }
    const evidence = {
      devices: inventory.devices.map((d) => ({ device: d.device, card: d.card, chip: d.chip, health: d.health })),
      unhealthy: unhealthy.map((u) => ({ device: u.device.device, card: u.device.card, chip: u.device.chip, health: u.device.health, ...u.detail, detailProblem: u.detailProblem })),
      visible,
    };
    const blocking = unhealthy.filter((u) => used.has(u.device));
    const first = (blocking[0] ?? unhealthy[0])?.device;
    const remediation = first
      ? [t.inspect({ card: first.card, chip: first.chip }), t.reset({ card: first.card, chip: first.chip }), t.leaveOut].join('\n')
      : '';
    if (blocking.length > 0) {
      return fail(t.notOk({ count: blocking.length, used: used.size, devices: summarizeList(blocking.map((u) => describe(ctx, u)), 3, list) }), {
        expected: 'OK',
        actual: blocking.map((u) => `${deviceLabel(u.device, inventory.family)}: ${u.device.health}`).join(', '),
        remediation,
        evidence,
        action: worstAction(blocking.map((u) => statusAction(u.device.health))),
      });
    }
    if (unhealthy.length > 0) {
      return warn(t.notOkOutside({ count: unhealthy.length, source: visible.source, devices: summarizeList(unhealthy.map((u) => describe(ctx, u)), 3, list) }), {
        remediation,
        evidence,
        action: worstAction(unhealthy.map((u) => statusAction(u.device.health))),
      });
    }
    return pass(t.allOk({ count: inventory.devices.length }), { evidence });
  },
});
