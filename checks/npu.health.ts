import { fail, pass, warn } from '../src/core/outcome.js';
import { defineCheck, type CheckContext } from '../src/core/types.js';
import { healthInfo, parseNpuSmiKeyValue, type NpuHealthInfo } from '../src/parsers/npu-smi-kv.js';
import { commandProblem } from '../src/probes/commands.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { deviceLabel, npuInventory, selectVisible, visibleDevices, type NpuDevice } from '../src/probes/npu.js';
import { plural, summarizeList } from '../src/util/text.js';

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

function describe(entry: Unhealthy): string {
  const codes = entry.detail?.errorCodes.length ? ` error code ${entry.detail.errorCodes.join(' ')}` : '';
  const info = entry.detail?.errorInformation ? ` (${entry.detail.errorInformation})` : '';
  return `${entry.label} ${entry.device.health}${codes}${info}`;
}

export default defineCheck({
  id: 'npu.health',
  title: 'NPU health',
  category: 'npu',
  level: 'required',
  why:
    'npu-smi reports each chip\'s health as OK, Warning, Alarm, Critical or UNKNOWN. vllm-ascend\'s own worker health ' +
    'check raises on anything but OK, and a chip in alarm fails collectives unpredictably, so a chip the workload will ' +
    'use must be OK: required. A non-OK chip outside ASCEND_RT_VISIBLE_DEVICES (or the profile\'s npu.visibleDevices) only ' +
    'warns. The error codes come from npu-smi info -t health.',
  reads: ['npu-smi info', 'npu-smi info -t health -i <card> -c <chip> (for non-OK chips)', 'ASCEND_RT_VISIBLE_DEVICES'],
  fix: 'Read the error codes (npu-smi info -t health), reset or replace the chip, or leave it out of ASCEND_RT_VISIBLE_DEVICES and the device mapping.',
  async run(ctx) {
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, 'NPU health');
    const visible = visibleDevices(ctx);
    const used = new Set(selectVisible(inventory.devices, visible));
    const unhealthy: Unhealthy[] = inventory.devices
      .filter((d) => d.health.toUpperCase() !== 'OK')
      .map((device) => ({ device, label: deviceLabel(device, inventory.family) }));
    for (const entry of unhealthy.slice(0, DETAIL_LIMIT)) {
      const { detail, problem } = await healthDetail(ctx, inventory.argv[0]!, entry.device);
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
      ? [
          `npu-smi info -t health -i ${first.card} -c ${first.chip}   # inspect: the error codes and what raised them`,
          `or: npu-smi set -t reset -i ${first.card} -c ${first.chip}   # reset the chip, or have it replaced`,
          "or: leave it out of ASCEND_RT_VISIBLE_DEVICES and the container's --device flags",
        ].join('\n')
      : '';
    if (blocking.length > 0) {
      return fail(`${blocking.length} of ${plural(used.size, 'NPU device')} the workload uses ${blocking.length === 1 ? 'is' : 'are'} not OK: ${summarizeList(blocking.map(describe), 3)}`, {
        expected: 'OK',
        actual: blocking.map((u) => `${u.label}: ${u.device.health}`).join(', '),
        remediation,
        evidence,
      });
    }
    if (unhealthy.length > 0) {
      return warn(`${unhealthy.length} NPU device${unhealthy.length === 1 ? '' : 's'} outside ${visible.source} not OK: ${summarizeList(unhealthy.map(describe), 3)}`, {
        remediation,
        evidence,
      });
    }
    return pass(inventory.devices.length === 1 ? 'the NPU device reports OK' : `all ${inventory.devices.length} NPU devices report OK`, { evidence });
  },
});
