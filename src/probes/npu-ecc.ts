import type { CheckContext } from '../core/types.js';
import { en } from '../i18n/en/index.js';
import { commandLine } from '../host/command-line.js';
import { parseNpuSmiEcc, type NpuEccInfo } from '../parsers/npu-smi-ecc.js';
import { commandProblem } from './commands.js';
import type { NpuDevice } from './npu.js';

/** What `npu-smi info -t ecc -i <card>` gave for one card. */
export type CardEcc =
  | { card: number; ok: true; info: NpuEccInfo }
  /** the driver says this board has no such query: nothing to judge, nothing wrong */
  | { card: number; ok: false; unsupported: true; message: string }
  /** `problem` is English (evidence), `problemText` the same in the run's language; `notCaptured`: a snapshot recorded without this call */
  | { card: number; ok: false; unsupported: false; problem: string; problemText: string; notCaptured: boolean };

/** A driver's refusal of the query, as npu-smi words it for an unsupported `-t` type. */
const UNSUPPORTED = /not support/i;
/** What the replay of a snapshot says of a command it did not record (src/host/snapshot.ts). */
const NOT_CAPTURED = /not captured in the snapshot/;

/**
 * `npu-smi info -t ecc -i <card>` for each card of the inventory, once per run (serve's metrics
 * and the check share it). One call a card, whatever its chips: the card's answer lists them.
 */
export function cardsEcc(ctx: CheckContext, npuSmi: string, devices: readonly NpuDevice[]): Promise<CardEcc[]> {
  return ctx.shared('npu-ecc', async () => {
    const cards = [...new Set(devices.map((d) => d.card))].sort((a, b) => a - b);
    return Promise.all(cards.map((card) => cardEcc(ctx, npuSmi, card)));
  });
}

async function cardEcc(ctx: CheckContext, npuSmi: string, card: number): Promise<CardEcc> {
  const result = await ctx.host.run([npuSmi, 'info', '-t', 'ecc', '-i', String(card)], { timeoutMs: ctx.timeoutMs });
  const info = parseNpuSmiEcc(result.stdout);
  const said = `${result.stdout}\n${result.stderr}`.split('\n').find((line) => UNSUPPORTED.test(line));
  if (info.chips.length === 0 && said !== undefined && !result.timedOut) return { card, ok: false, unsupported: true, message: said.trim() };
  const line = commandLine(result.argv);
  // a snapshot recorded before npu.ecc existed: said in the run's language, not the replay's English
  if (result.failure !== undefined && NOT_CAPTURED.test(result.failure)) {
    return { card, ok: false, unsupported: false, problem: en.probes.npu.eccNotCaptured({ line }), problemText: ctx.text.probes.npu.eccNotCaptured({ line }), notCaptured: true };
  }
  const problem = commandProblem(result, ctx.timeoutMs);
  if (problem) return { card, ok: false, unsupported: false, problem, problemText: commandProblem(result, ctx.timeoutMs, ctx.text)!, notCaptured: false };
  if (info.chips.length === 0) {
    return { card, ok: false, unsupported: false, problem: en.probes.npu.noEccCounters({ line }), problemText: ctx.text.probes.npu.noEccCounters({ line }), notCaptured: false };
  }
  return { card, ok: true, info };
}
