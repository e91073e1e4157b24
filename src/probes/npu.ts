import { en, type Catalogue } from '../i18n/en/index.js';
import type { CheckContext } from '../core/types.js';
import { dcmiError, type DcmiError } from '../data/dcmi-errors.js';
import type { CommandLocation, CommandResult } from '../host/types.js';
import { boardInfo, parseNpuSmiKeyValue, type NpuBoardInfo } from '../parsers/npu-smi-kv.js';
import { preview } from '../parsers/lines.js';
import { deviceIdOf, familyOf, parseNpuSmiInfo, type NpuFamily, type NpuSmiInfo, type NpuSmiLayout, type NpuSmiTable } from '../parsers/npu-smi-info.js';
import { commandLine } from '../host/command-line.js';
import { commandProblem } from './commands.js';
import { parseIdRanges } from '../parsers/id-ranges.js';
import { HCCN_TOOL_DIRS, NPU_SMI_DIRS } from '../host/tool-dirs.js';

/**
 * The shared NPU probe: `npu-smi info` found, run once per run, parsed, and turned into the
 * devices the rest of qprep talks about. The HCCN checks use `devices[].device` as the id
 * for `hccn_tool -i`; `visibleIndex` is what ASCEND_RT_VISIBLE_DEVICES counts.
 *
 * Usage:
 *   const inventory = await npuInventory(ctx);
 *   if (!inventory.ok) return error(`cannot list the NPUs: ${inventory.problem.message}`);
 *   for (const npu of inventory.devices) ... hccn_tool -i npu.device ...
 */


export function locateNpuSmi(ctx: CheckContext): Promise<CommandLocation> {
  return ctx.shared('which:npu-smi', () => ctx.host.which('npu-smi', NPU_SMI_DIRS));
}

export function locateHccnTool(ctx: CheckContext): Promise<CommandLocation> {
  return ctx.shared('which:hccn_tool', () => ctx.host.which('hccn_tool', HCCN_TOOL_DIRS));
}

export interface NpuProcessInfo {
  pid: number;
  /** may be empty or truncated: the tool prints what it has */
  name: string;
  memoryMB: number | null;
  /** the pid inside the process's own container, from the 26.x `Process id in container` column */
  containerPid: number | null;
}

/** One NPU device (a chip; an A3 card holds two, a 300I Duo card holds two). */
export interface NpuDevice {
  /** npu-smi's NPU column: the card id of `npu-smi ... -i` */
  card: number;
  /** the chip (die) index on the card */
  chip: number;
  /**
   * The physical device id: /dev/davinci<device>, `hccn_tool -i <device>`, `address_<device>` in
   * /etc/hccn.conf. On A3 it is the Phy-ID (card × 2 + die), on the 310 family the Device column,
   * on A2 the card id.
   */
  device: number;
  /**
   * The id ASCEND_RT_VISIBLE_DEVICES and the runtime use: the device's rank among the devices
   * this host (or container) sees. Equal to `device` when all NPUs of a box are visible.
   */
  visibleIndex: number;
  name: string;
  /** as printed: OK, Warning, Alarm, Critical, UNKNOWN, ... */
  health: string;
  busId: string | null;
  powerW: number | null;
  temperatureC: number | null;
  aicorePercent: number | null;
  /** the memory a model uses: HBM on A2/A3, DDR on the 310 family */
  memory: { kind: 'hbm' | 'ddr'; usedMB: number; totalMB: number } | null;
  processes: NpuProcessInfo[];
}

export type NpuProblem =
  | { kind: 'not-found'; message: string; searched: string[] }
  | { kind: 'timeout'; message: string }
  | { kind: 'not-run'; message: string }
  /** killed by a signal it did not ask for (a crash: SIGSEGV, SIGABRT; the OOM killer's SIGKILL) */
  | { kind: 'killed'; message: string; signal: string; output: string }
  | { kind: 'failed'; message: string; exitCode: number | null; output: string }
  | { kind: 'dcmi'; message: string; code: number; line: string; dcmi: DcmiError }
  | { kind: 'library-missing'; message: string; library: string; line: string }
  | { kind: 'no-npu'; message: string; line: string }
  | { kind: 'unparseable'; message: string; line: number; text: string; reason: string };

export type NpuInventory =
  | {
      ok: true;
      argv: string[];
      /** `npu-smi 25.3.rc1` */
      toolVersion: string | null;
      /** `Version: 25.3.rc1`, the driver as the tool reports it */
      driverVersion: string | null;
      family: NpuFamily;
      layout: NpuSmiLayout;
      devices: NpuDevice[];
      /** false when the driver printed no process table: "no process" cannot be told from "not shown" */
      processSection: boolean;
      /** `[WARNING]` lines after the table */
      warnings: string[];
      /** the capture was cut by hand (`...`): devices may be missing */
      elided: boolean;
      /** the output begins mid-table (no banner or header): devices may be missing */
      truncated: boolean;
      /** the output stops after a row without its closing border (that row's line): devices may be missing after it */
      cutAfterLine: number | null;
      skippedRows: Array<{ line: number; text: string }>;
      table: NpuSmiTable;
    }
  | { ok: false; argv: string[] | null; problem: NpuProblem };

/** The first lines of a tool's output for a message, with control characters made visible. */
function firstLines(text: string, count = 3): string {
  return preview(
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(0, count)
      .join(' / '),
    300,
  );
}

/** The table may lack NPUs: it begins mid-table, stops after a row without its closing border, or was cut by hand (`...`). */
export function partialTable(inventory: { truncated: boolean; cutAfterLine: number | null; elided: boolean }): boolean {
  return inventory.truncated || inventory.cutAfterLine !== null || inventory.elided;
}

/** Turns the parsed table into devices with their ids and processes. */
export function devicesOf(table: NpuSmiTable): NpuDevice[] {
  const chipsPerCard = new Map<number, number>();
  for (const chip of table.chips) chipsPerCard.set(chip.npu, Math.max(chipsPerCard.get(chip.npu) ?? 0, chip.chip + 1));
  const devices = table.chips.map((chip) => {
    const memory =
      chip.hbm && (chip.hbm.totalMB > 0 || !chip.ddr)
        ? { kind: 'hbm' as const, ...chip.hbm }
        : chip.ddr
          ? { kind: 'ddr' as const, ...chip.ddr }
          : null;
    const processes = table.processes
      .filter((p) => p.npu === chip.npu && (p.chip === null || p.chip === chip.chip))
      .map((p) => ({ pid: p.pid, name: p.name, memoryMB: p.memoryMB, containerPid: p.containerPid }));
    return {
      card: chip.npu,
      chip: chip.chip,
      device: deviceIdOf(chip, table.layout === 'a3' ? 2 : (chipsPerCard.get(chip.npu) ?? 1)),
      visibleIndex: 0,
      name: chip.name,
      health: chip.health,
      busId: chip.busId,
      powerW: chip.powerW,
      temperatureC: chip.temperatureC,
      aicorePercent: chip.aicorePercent,
      memory,
      processes,
    };
  });
  const order = [...new Set(devices.map((d) => d.device))].sort((a, b) => a - b);
  for (const device of devices) device.visibleIndex = order.indexOf(device.device);
  return devices.sort((a, b) => a.device - b.device || a.card - b.card || a.chip - b.chip);
}

/**
 * A problem's `message` is English: it is evidence, which a program reads, and the same in every
 * language. What a person reads is this text, in the run's language, kept beside it.
 */
const problemTexts = new WeakMap<NpuProblem, string>();

/** An npu-smi problem as the run's language says it (its English message when none was kept). */
export function npuProblemText(problem: NpuProblem): string {
  return problemTexts.get(problem) ?? problem.message;
}

/** `make(en)` is the problem with its evidence; `make(ctx.text)` gives what a person reads. */
function worded<P extends NpuProblem>(ctx: CheckContext, make: (text: Catalogue) => P): P {
  const problem = make(en);
  if (ctx.text !== en) problemTexts.set(problem, make(ctx.text).message);
  return problem;
}

function tableInventory(argv: string[], parsed: NpuSmiTable): NpuInventory {
  return {
    ok: true,
    argv,
    toolVersion: parsed.toolVersion,
    driverVersion: parsed.driverVersion,
    family: familyOf(parsed),
    layout: parsed.layout,
    devices: devicesOf(parsed),
    processSection: parsed.processSection,
    warnings: parsed.warnings,
    elided: parsed.elided,
    truncated: parsed.truncated,
    cutAfterLine: parsed.cutAfterLine,
    skippedRows: parsed.skippedRows,
    table: parsed,
  };
}

/** An error npu-smi is known to print (a DCMI code, a missing library, no NPU), from either stream. */
function reportedError(ctx: CheckContext, argv: string[], combined: NpuSmiInfo): NpuInventory | undefined {
  const line = `"${commandLine(argv)}"`;
  switch (combined.kind) {
    case 'dcmi-error': {
      const dcmi = dcmiError(combined.code);
      return {
        ok: false,
        argv,
        problem: worded(ctx, (text) => ({
          kind: 'dcmi',
          code: combined.code,
          line: combined.text,
          dcmi,
          message: text.probes.npu.problems.dcmi({ line, text: combined.text, name: dcmi.name, cause: dcmi.cause }),
        })),
      };
    }
    case 'library-missing':
      return {
        ok: false,
        argv,
        problem: worded(ctx, (text) => ({
          kind: 'library-missing',
          library: combined.library,
          line: combined.text,
          message: text.probes.npu.problems.libraryMissing({ line, library: combined.library, text: combined.text }),
        })),
      };
    case 'no-npu':
      return { ok: false, argv, problem: worded(ctx, (text) => ({ kind: 'no-npu', line: combined.text, message: text.probes.npu.problems.noNpu({ line, text: combined.text }) })) };
    default:
      return undefined;
  }
}

/** No table to trust: killed by a signal, a non-zero exit, or output that is not npu-smi's. */
function failedInventory(ctx: CheckContext, argv: string[], result: CommandResult, parsed: NpuSmiInfo): NpuInventory {
  const line = `"${commandLine(argv)}"`;
  if (result.signal !== null) {
    const output = firstLines(`${result.stdout}\n${result.stderr}`);
    const signal = result.signal;
    return {
      ok: false,
      argv,
      problem: worded(ctx, (text) => ({ kind: 'killed', signal, output, message: text.probes.npu.problems.killed({ problem: commandProblem(result, ctx.timeoutMs, text)!, output: output || null }) })),
    };
  }
  if (result.exitCode !== 0) {
    const output = firstLines(`${result.stdout}\n${result.stderr}`);
    return {
      ok: false,
      argv,
      problem: worded(ctx, (text) => ({ kind: 'failed', exitCode: result.exitCode, output, message: text.probes.npu.problems.exited({ line, exitCode: result.exitCode, output: output || null }) })),
    };
  }
  const invalid = parsed.kind === 'invalid' ? parsed : { line: 1, text: '', reason: 'unexpected output' };
  return {
    ok: false,
    argv,
    problem: worded(ctx, (text) => ({
      kind: 'unparseable',
      line: invalid.line,
      text: invalid.text,
      reason: invalid.reason,
      message: text.probes.npu.problems.unparseable({ line, lineNumber: invalid.line, reason: invalid.reason, text: invalid.text || null }),
    })),
  };
}

/** Runs `npu-smi info` once per run and parses it; every failure is a structured problem, never an exception. */
export function npuInventory(ctx: CheckContext): Promise<NpuInventory> {
  return ctx.shared('npu-inventory', async (): Promise<NpuInventory> => {
    const location = await locateNpuSmi(ctx);
    if (!location.path) {
      return {
        ok: false,
        argv: null,
        problem: worded(ctx, (text) => ({ kind: 'not-found', message: text.probes.npu.problems.notFound({ dirs: NPU_SMI_DIRS.join(' or ') }), searched: location.searched })),
      };
    }
    const argv = [location.path, 'info'];
    const result = await ctx.host.run(argv, { timeoutMs: ctx.timeoutMs });
    if (result.timedOut) return { ok: false, argv, problem: worded(ctx, (text) => ({ kind: 'timeout', message: commandProblem(result, ctx.timeoutMs, text)! })) };
    if (result.notFound || result.failure) return { ok: false, argv, problem: worded(ctx, (text) => ({ kind: 'not-run', message: commandProblem(result, ctx.timeoutMs, text)! })) };

    const parsed = parseNpuSmiInfo(result.stdout);
    // A table printed by a process that then crashed may be cut short: never trust it.
    if (parsed.kind === 'table' && result.signal === null) return tableInventory(argv, parsed);
    // errors go to either stream depending on the driver; the loader's go to stderr
    return reportedError(ctx, argv, parseNpuSmiInfo(`${result.stdout}\n${result.stderr}`)) ?? failedInventory(ctx, argv, result, parsed);
  });
}

export interface VisibleDevices {
  /** where the list came from */
  source: 'ASCEND_RT_VISIBLE_DEVICES' | 'profile' | 'all';
  /** as written */
  text: string;
  /** the ids, or null for "all" */
  ids: number[] | null;
  /** set when the text is not a list of ids */
  invalid?: string;
}

const MAX_DEVICE_IDS = 1000;

/**
 * "0,1,4-7" -> [0,1,4,5,6,7]; undefined for anything else. Ids stop below 1000 (no host has
 * that many devices), which also bounds the work on a hostile value.
 */
export function parseDeviceList(text: string): number[] | undefined {
  const parsed = parseIdRanges(text, MAX_DEVICE_IDS);
  return parsed.ok && parsed.ids.length > 0 ? parsed.ids : undefined;
}

/**
 * The devices the workload will use: ASCEND_RT_VISIBLE_DEVICES when it is set in the
 * environment qprep runs in (the launch environment), else the profile's npu.visibleDevices,
 * else all.
 */
export function visibleDevices(ctx: CheckContext): VisibleDevices {
  const env = ctx.host.env().ASCEND_RT_VISIBLE_DEVICES;
  const [source, text] =
    env !== undefined && env.trim() !== ''
      ? (['ASCEND_RT_VISIBLE_DEVICES', env.trim()] as const)
      : ctx.profile.npu.visibleDevices !== ''
        ? (['profile', ctx.profile.npu.visibleDevices] as const)
        : (['all', ''] as const);
  if (source === 'all') return { source, text, ids: null };
  const ids = parseDeviceList(text);
  return ids ? { source, text, ids } : { source, text, ids: null, invalid: `"${text}" is not a list of device ids such as 0,1,4-7` };
}

/** The devices of the inventory the workload will use. */
export function selectVisible(devices: readonly NpuDevice[], visible: VisibleDevices): NpuDevice[] {
  if (!visible.ids) return [...devices];
  const wanted = new Set(visible.ids);
  return devices.filter((d) => wanted.has(d.visibleIndex));
}

/** "NPU 3" on one-chip boards; "NPU 3 chip 1 (device 7)" where a card has several. */
export function deviceLabel(device: NpuDevice, family: NpuFamily, text: Catalogue = en): string {
  if (family === 'a3' || family === '310p' || device.chip !== 0 || device.card !== device.device) {
    return text.probes.npu.deviceOfChip({ device: device.device, card: device.card, chip: device.chip });
  }
  return text.probes.npu.card({ card: device.card });
}

/**
 * `npu-smi info -t board -i <card>` of the first NPU, once per run: the running firmware and
 * the driver's own compatibility verdict (`Compatibility OK|NOK`), visible in a container too.
 */
export function npuBoard(ctx: CheckContext): Promise<{ info?: NpuBoardInfo; problem?: string; problemText?: string }> {
  return ctx.shared('npu-board', async () => {
    const inventory = await npuInventory(ctx);
    // problem is English (evidence), problemText the same in the run's language
    if (!inventory.ok || inventory.devices.length === 0) return { problem: en.probes.npu.noNpuToAsk, problemText: ctx.text.probes.npu.noNpuToAsk };
    const card = inventory.devices[0]!.card;
    const result = await ctx.host.run([inventory.argv[0]!, 'info', '-t', 'board', '-i', String(card)], { timeoutMs: ctx.timeoutMs });
    const problem = commandProblem(result, ctx.timeoutMs);
    if (problem) return { problem, problemText: commandProblem(result, ctx.timeoutMs, ctx.text)! };
    return { info: boardInfo(parseNpuSmiKeyValue(result.stdout)) };
  });
}
