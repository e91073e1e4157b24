import { error, fail, skip, warn } from '../core/outcome.js';
import type { CheckContext, Outcome } from '../core/types.js';
import { DRIVER_PATHS } from '../data/container-mounts.js';
import type { NpuFamily } from '../parsers/npu-smi-info.js';
import { parseSpodInfo, type SpodInfoEntry } from '../parsers/spod-info.js';
import { inIPv4Network } from '../util/ip.js';
import { summarizeList } from '../util/text.js';
import { commandLine } from '../host/command-line.js';
import { commandProblem } from './commands.js';
import { hccnProblemText, type HccnAnswer } from './hccn.js';
import { inventoryUnavailable } from './npu-advice.js';
import { npuInventory, selectVisible, visibleDevices, type NpuDevice, type VisibleDevices } from './npu.js';

/**
 * What every HCCN check starts from: the NPU devices whose network it examines, and how much a
 * problem weighs on this run. The devices are those the workload uses (ASCEND_RT_VISIBLE_DEVICES
 * or the profile's npu.visibleDevices, else all), with the ids `hccn_tool -i` takes.
 */

export interface HccnTargets {
  ok: true;
  family: NpuFamily;
  devices: NpuDevice[];
  visible: VisibleDevices;
}

export type HccnScope = HccnTargets | { ok: false; outcome: Outcome };

/**
 * The devices to examine, or the outcome of a check that has nothing to examine: the 310P family
 * has no NPU network (skip); without the NPU table the node cannot be assessed (error, pointing at
 * npu.smi, as every NPU check does: a node whose NPUs cannot be listed is not ready, and a skip
 * would let `--only hccn` call it ready).
 */
export async function hccnScope(ctx: CheckContext, what: string): Promise<HccnScope> {
  const text = ctx.text.probes.hccn;
  const inventory = await npuInventory(ctx);
  if (!inventory.ok) return { ok: false, outcome: await inventoryUnavailable(ctx, inventory.problem, what) };
  if (inventory.family === '310p') {
    return {
      ok: false,
      outcome: skip(text.noNpuNetwork310p({ what }), { remediation: text.noNpuNetwork310pFix }),
    };
  }
  const visible = visibleDevices(ctx);
  const devices = selectVisible(inventory.devices, visible);
  if (devices.length === 0) {
    return {
      ok: false,
      outcome: skip(text.noDeviceSelected({ source: visible.source, selection: visible.text, listed: inventory.devices.length }), {
        remediation: text.selectionFix({ source: visible.source }),
      }),
    };
  }
  return { ok: true, family: inventory.family, devices, visible };
}

/**
 * Whether HCCN problems block readiness: a cluster of two or more nodes, a profile whose
 * deployment spans two or more (deployment.nodes), or one that moves KV caches over the NPU
 * network (hccn.kvTransfer).
 */
export function hccnBlocking(ctx: CheckContext): boolean {
  const nodes = ctx.cluster?.cluster.nodes.length ?? 0;
  return nodes >= 2 || ctx.profile.deployment.nodes >= 2 || ctx.profile.hccn.kvTransfer;
}

/**
 * A problem of the NPU network: a fail in a multi-node run, a warning that says why on a single
 * node, where HCCL keeps to HCCS inside the box.
 */
export function hccnProblem(ctx: CheckContext, message: string, details: Omit<Outcome, 'status' | 'message'>): Outcome {
  if (hccnBlocking(ctx)) return fail(message, details);
  return warn(ctx.text.probes.hccn.singleNode({ message }), details);
}

export function devName(device: number): string {
  return `dev${device}`;
}

export interface DeviceAnswer<T> {
  device: NpuDevice;
  answer: HccnAnswer<T>;
}

/**
 * A check's prefetch: as soon as the NPU table is in, the devices the check will examine are
 * asked its questions, so that they wait on hccn_tool's queue from then on and not from when
 * the check gets a slot among the running checks (--jobs). The queue is the run's critical
 * path, and it stands idle while its next questions wait for a slot. The answers are shared:
 * the check reads the same ones when it runs, and asks nothing it would not have asked.
 */
export function prefetchEvery(queries: (family: NpuFamily) => ReadonlyArray<(ctx: CheckContext, device: number) => Promise<HccnAnswer<unknown>>>): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    const inventory = await npuInventory(ctx);
    // what hccnScope returns early for: the check asks nothing then
    if (!inventory.ok || inventory.family === '310p') return;
    const devices = selectVisible(inventory.devices, visibleDevices(ctx));
    await Promise.all(queries(inventory.family).map((query) => askEvery(ctx, devices, query)));
  };
}

/** Asks every device the same question (serialized per host by the hccn_tool limit). */
export function askEvery<T>(ctx: CheckContext, devices: readonly NpuDevice[], query: (ctx: CheckContext, device: number) => Promise<HccnAnswer<T>>): Promise<Array<DeviceAnswer<T>>> {
  return Promise.all(devices.map(async (device) => ({ device, answer: await query(ctx, device.device) })));
}

/** The remediation of a failed hccn_tool call, by what went wrong. */
export async function hccnToolRemediation(ctx: CheckContext, answer: Extract<HccnAnswer<unknown>, { ok: false }>): Promise<string> {
  const text = ctx.text.probes.hccn;
  switch (answer.kind) {
    case 'not-found': {
      const container = await ctx.container();
      const flag = DRIVER_PATHS.standard.find((p) => p.path.endsWith('/hccn_tool'))!.flag;
      return container.inContainer ? text.toolMissingInContainerFix({ flag }) : text.toolMissingOnHostFix;
    }
    case 'busy':
      return text.toolBusyFix;
    case 'refused':
      return text.toolRefusedFix;
    case 'expired':
      return text.toolExpiredFix;
    case 'failed':
    case 'unparsable':
      return text.toolFailedFix({ command: commandLine(answer.argv) });
  }
}

/**
 * The error of a check that could not ask some devices: names how many, the first problem, and
 * its fix. Undefined when every device answered.
 */
export async function unanswered<T>(ctx: CheckContext, answers: ReadonlyArray<DeviceAnswer<T>>, what: string): Promise<Outcome | undefined> {
  const failed = answers.filter((a): a is DeviceAnswer<T> & { answer: Extract<HccnAnswer<T>, { ok: false }> } => !a.answer.ok);
  if (failed.length === 0) return undefined;
  const first = failed[0]!.answer;
  const devices = summarizeList(failed.map((f) => devName(f.device.device)), 6, ctx.text.report.list);
  return error(ctx.text.probes.hccn.cannotRead({ what, failed: failed.length, total: answers.length, devices, problem: hccnProblemText(first) }), {
    remediation: await hccnToolRemediation(ctx, first),
    evidence: { problems: failed.map((f) => ({ device: f.device.device, kind: f.answer.kind, problem: f.answer.problem })) },
    // a missing hccn_tool is npu.tools' finding: every HCCN check that needed it follows from it
    ...(failed.every((f) => f.answer.kind === 'not-found') ? { causedBy: 'npu.tools' } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// Address ranges

/**
 * The vNIC ranges `hccn_tool -ip -s` refuses for RoCE addresses (reference §3.9): an address
 * there collides with the vNIC routes of the HCCS plane.
 */
export function vnicReservedRange(family: NpuFamily, superPodMember: boolean): { network: string; prefix: number; label: string } {
  if (family === 'a3') {
    return superPodMember
      ? { network: '192.0.0.0', prefix: 8, label: '192.0.0.0/8 (A3 super pod member vNIC range)' }
      : { network: '192.168.0.0', prefix: 21, label: '192.168.0.0/21 (A3 vNIC range)' };
  }
  return { network: '192.168.2.0', prefix: 24, label: '192.168.2.0/24 (A1/A2 vNIC range)' };
}

export function inReservedRange(address: string, range: { network: string; prefix: number }): boolean {
  return inIPv4Network(address, range.network, range.prefix);
}

// ---------------------------------------------------------------------------------------------
// npu-smi info -t spod-info (A3)

export interface DieSpod {
  device: number;
  card: number;
  chip: number;
  argv: string[];
  entry?: SpodInfoEntry;
  /** "This device does not support querying spod-info." */
  unsupported?: string;
  problem?: string;
}

export type SpodProbe = { ok: true; dies: DieSpod[]; superPodId: number | null; consistent: boolean } | { ok: false; problem: string };

/**
 * `npu-smi info -t spod-info -i <card> -c <chip>` for every die of an A3 node, once per run.
 * `-i` is the npu-smi card id (0..7 on an 8-card A3) and `-c` the die, not the Phy-ID the
 * vllm-ascend loop passes (reference §2.8, §6.21).
 */
export function spodProbe(ctx: CheckContext): Promise<SpodProbe> {
  return ctx.shared('npu-smi:spod-info', async (): Promise<SpodProbe> => {
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return { ok: false, problem: inventory.problem.message };
    const npuSmi = inventory.argv[0]!;
    const dies = await Promise.all(
      inventory.devices.map(async (device): Promise<DieSpod> => {
        const argv = [npuSmi, 'info', '-t', 'spod-info', '-i', String(device.card), '-c', String(device.chip)];
        const die: DieSpod = { device: device.device, card: device.card, chip: device.chip, argv };
        const result = await ctx.host.run(argv, { timeoutMs: ctx.timeoutMs });
        const parsed = parseSpodInfo(`${result.stdout}\n${result.stderr}`);
        const value = parsed.ok ? parsed.value : undefined;
        if (value && !value.supported) die.unsupported = value.message;
        else if (value?.supported && value.entries.length > 0 && !result.timedOut) die.entry = value.entries[0]!;
        else die.problem = commandProblem(result, ctx.timeoutMs) ?? `"${commandLine(argv)}" printed no super pod id${parsed.ok ? '' : `: ${parsed.reason}`}`;
        return die;
      }),
    );
    const ids = new Set(dies.map((d) => d.entry?.superPodId).filter((id): id is number => typeof id === 'number'));
    const superPodId = ids.size === 1 ? [...ids][0]! : null;
    return { ok: true, dies, superPodId, consistent: ids.size <= 1 };
  });
}
