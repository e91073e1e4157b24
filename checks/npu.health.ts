import { fail, pass, warn } from '../src/core/outcome.js';
import { ACTIONS, worstAction, type Action } from '../src/core/ids/actions.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { FAULT_LEVELS, faultCodeOf, type FaultCodeRow } from '../src/knowledge/fault-codes.js';
import { healthInfo, parseNpuSmiKeyValue, type NpuHealthInfo } from '../src/parsers/npu-smi-kv.js';
import { commandProblem } from '../src/probes/commands.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { deviceLabel, npuInventory, selectVisible, visibleDevices, type NpuDevice } from '../src/probes/npu.js';
import { summarizeList } from '../src/util/text.js';

/**
 * The action of a health status without a fault code the table knows, as the Ascend device
 * plugin handles a fault it has no level for: a minor one is watched, any other takes the chip
 * out of service.
 */
function statusAction(health: string): Action {
  return /^warning$/i.test(health) ? 'monitor' : 'isolate-npu';
}

/** Details are fetched for this many unhealthy chips at most: enough to act on, cheap on a sick node. */
const DETAIL_LIMIT = 4;

/** A code of `-t health` with its row of knowledge/fault-codes.json, if the table lists it. */
interface Fault {
  code: string;
  row?: FaultCodeRow;
}

interface Unhealthy {
  device: NpuDevice;
  label: string;
  detail?: NpuHealthInfo;
  detailProblem?: string;
  /** the codes, worst level first; unknown codes last, in the order printed */
  faults: Fault[];
  action: Action;
}

/** `npu-smi info -t health -i <card> -c <chip>`: the error codes behind a non-OK health. */
async function healthDetail(ctx: CheckContext, npuSmi: string, device: NpuDevice): Promise<{ detail?: NpuHealthInfo; problem?: string }> {
  const result = await ctx.host.run([npuSmi, 'info', '-t', 'health', '-i', String(device.card), '-c', String(device.chip)], { timeoutMs: ctx.timeoutMs });
  const problem = commandProblem(result, ctx.timeoutMs);
  if (problem) return { problem };
  return { detail: healthInfo(parseNpuSmiKeyValue(result.stdout)) };
}

const levelRank = (fault: Fault) => (fault.row ? FAULT_LEVELS.indexOf(fault.row.level) : -1);

/**
 * The codes judged by the table, worst first. The chip's action is the worst code's; a code the
 * table does not list counts as its health status says (the device plugin isolates a chip for
 * an unknown code unless the fault is minor), and so does a chip without codes.
 */
function judge(entry: Pick<Unhealthy, 'device' | 'detail'>): { faults: Fault[]; action: Action } {
  const faults: Fault[] = (entry.detail?.errorCodes ?? []).map((code) => {
    const row = faultCodeOf(code);
    return row ? { code, row } : { code };
  });
  const sorted = faults.map((fault, index) => ({ fault, index })).sort((a, b) => levelRank(b.fault) - levelRank(a.fault) || a.index - b.index).map((f) => f.fault);
  const unknown = faults.length === 0 || faults.some((f) => !f.row);
  return { faults: sorted, action: worstAction([...faults.map((f) => f.row?.action), unknown ? statusAction(entry.device.health) : undefined]) };
}

function describeFault(ctx: CheckContext, fault: Fault): string {
  const t = ctx.text.checks['npu.health'];
  if (!fault.row) return t.unknownCode({ code: fault.code });
  return t.code({ code: fault.code, level: fault.row.level, meaning: fault.row.meaning?.[ctx.lang] ?? null });
}

function describe(ctx: CheckContext, entry: Unhealthy): string {
  const t = ctx.text.checks['npu.health'];
  // the tool's own words only where the table has none for any code
  const described = entry.faults.some((f) => f.row?.meaning);
  return t.device({
    label: entry.label,
    health: entry.device.health,
    codes: entry.faults.length > 0 ? entry.faults.map((f) => describeFault(ctx, f)).join(t.codeSeparator) : null,
    information: described ? null : entry.detail?.errorInformation || null,
  });
}

/** The chip whose action is the worst (the first of them): the remediation is written for it. */
function worstOf(entries: readonly Unhealthy[]): Unhealthy | undefined {
  let worst: Unhealthy | undefined;
  for (const entry of entries) if (!worst || ACTIONS.indexOf(entry.action) > ACTIONS.indexOf(worst.action)) worst = entry;
  return worst;
}

/** What to do first, by the chip's action; the other ways follow as alternatives. */
function remediationOf(ctx: CheckContext, entry: Unhealthy | undefined): string {
  if (!entry) return '';
  const t = ctx.text.checks['npu.health'];
  const place = { card: entry.device.card, chip: entry.device.chip };
  const worst = entry.faults[0]?.row ? entry.faults[0] : undefined;
  const explain = worst ? [t.explainCode({ code: worst.code })] : [];
  switch (entry.action) {
    case 'reset-npu':
      return [t.resetFirst(place), ...explain, t.leaveOut].join('\n');
    case 'restart-workload':
      return [t.restartWorkload, ...explain, t.reset(place)].join('\n');
    case 'isolate-npu':
      return [t.leaveOutFirst, ...explain, t.inspect(place)].join('\n');
    default:
      return [t.inspect(place), ...explain, t.reset(place), t.leaveOut].join('\n');
  }
}

function evidenceOf(inventory: { devices: NpuDevice[] }, unhealthy: readonly Unhealthy[], ctx: CheckContext) {
  return {
    devices: inventory.devices.map((d) => ({ device: d.device, card: d.card, chip: d.chip, health: d.health })),
    unhealthy: unhealthy.map((u) => ({
      device: u.device.device,
      card: u.device.card,
      chip: u.device.chip,
      health: u.device.health,
      ...u.detail,
      detailProblem: u.detailProblem,
      faults: u.faults.map((f) => (f.row ? { code: f.code, known: true, level: f.row.level, action: f.row.action } : { code: f.code, known: false })),
      action: u.action,
    })),
    visible: visibleDevices(ctx),
  };
}

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.health',
  category: 'npu',
  order: 60,
  level: 'required',
  depth: 'quick',
  // each non-OK outcome says its own, from the chips' fault codes and health
  action: 'isolate-npu',
  async run(ctx) {
    const t = ctx.text.checks['npu.health'];
    const list = ctx.text.report.list;
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, t.what);
    const visible = visibleDevices(ctx);
    const used = new Set(selectVisible(inventory.devices, visible));
    const unhealthy: Unhealthy[] = [];
    for (const [index, device] of inventory.devices.filter((d) => d.health.toUpperCase() !== 'OK').entries()) {
      const entry: Pick<Unhealthy, 'device' | 'detail' | 'detailProblem'> = { device };
      if (index < DETAIL_LIMIT) {
        const { detail, problem } = await healthDetail(ctx, inventory.argv[0]!, device);
        // the evidence's problem stays English; the message does not quote it
        if (detail) entry.detail = detail;
        if (problem) entry.detailProblem = problem;
      }
      unhealthy.push({ ...entry, label: deviceLabel(device, inventory.family, ctx.text), ...judge(entry) });
    }
    const evidence = evidenceOf(inventory, unhealthy, ctx);
    const blocking = unhealthy.filter((u) => used.has(u.device));
    if (blocking.length > 0) {
      return fail(t.notOk({ count: blocking.length, used: used.size, devices: summarizeList(blocking.map((u) => describe(ctx, u)), 3, list) }), {
        expected: 'OK',
        actual: blocking.map((u) => `${deviceLabel(u.device, inventory.family)}: ${u.device.health}${u.faults.length > 0 ? ` ${u.faults.map((f) => f.code).join(' ')}` : ''}`).join(', '),
        remediation: remediationOf(ctx, worstOf(blocking)),
        evidence,
        action: worstAction(blocking.map((u) => u.action)),
      });
    }
    if (unhealthy.length > 0) {
      return warn(t.notOkOutside({ count: unhealthy.length, source: visible.source, devices: summarizeList(unhealthy.map((u) => describe(ctx, u)), 3, list) }), {
        remediation: remediationOf(ctx, worstOf(unhealthy)),
        evidence,
        action: worstAction(unhealthy.map((u) => u.action)),
      });
    }
    return pass(t.allOk({ count: inventory.devices.length }), { evidence });
  },
});
