import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import { worstAction, type Action } from '../src/core/ids/actions.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { hbmEccFindings, type HbmEccRule } from '../src/knowledge/hbm-ecc.js';
import type { EccCounters, NpuEccChip } from '../src/parsers/npu-smi-ecc.js';
import { cardsEcc, type CardEcc } from '../src/probes/npu-ecc.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { deviceLabel, npuInventory, selectVisible, visibleDevices, type NpuDevice, type NpuInventory } from '../src/probes/npu.js';
import { summarizeList } from '../src/util/text.js';

type Inventory = Extract<NpuInventory, { ok: true }>;

/** One chip's HBM as read, with the rules its counters reach (most severe first). */
interface JudgedChip {
  device: NpuDevice;
  label: string;
  hbm: EccCounters;
  ddr: EccCounters | null;
  findings: HbmEccRule[];
  used: boolean;
}

/** The chips of the cards read, each matched to its device of the inventory. */
function judgeChips(inventory: Inventory, cards: readonly CardEcc[], used: ReadonlySet<NpuDevice>, ctx: CheckContext): { chips: JudgedChip[]; unmatched: Array<{ card: number; chip: number }> } {
  const chips: JudgedChip[] = [];
  const unmatched: Array<{ card: number; chip: number }> = [];
  for (const card of cards) {
    if (!card.ok) continue;
    for (const chip of card.info.chips) {
      const device = inventory.devices.find((d) => d.card === card.card && d.chip === chip.chip);
      if (!device) unmatched.push({ card: card.card, chip: chip.chip });
      else if (chip.hbm) chips.push(judged(device, chip, chip.hbm, used.has(device), inventory, ctx));
    }
  }
  return { chips, unmatched };
}

function judged(device: NpuDevice, chip: NpuEccChip, hbm: EccCounters, used: boolean, inventory: Inventory, ctx: CheckContext): JudgedChip {
  return { device, label: deviceLabel(device, inventory.family, ctx.text), hbm, ddr: chip.ddr, findings: hbmEccFindings(hbm), used };
}

/** A chip in words: its worst rule first, then the others it reaches. */
function describeChip(ctx: CheckContext, chip: JudgedChip): string {
  const t = ctx.text.checks['npu.ecc'];
  const counts = { errors: chip.hbm.doubleBitErrors ?? 0, retired: chip.hbm.doubleBitIsolatedPages ?? 0, pending: chip.hbm.doubleBitPendingPages ?? 0 };
  const words = chip.findings.map((rule) => t.rules[rule.id](counts));
  return t.chip({ label: chip.label, findings: words.join(ctx.text.report.clauseSeparator) });
}

/** The remediation lines of the worst action among the chips, then those of the milder ones. */
function remediationOf(ctx: CheckContext, chips: readonly JudgedChip[], usedDevices: readonly NpuDevice[]): string {
  const t = ctx.text.checks['npu.ecc'];
  const byAction = (action: Action) => chips.filter((c) => c.findings.some((r) => r.action === action));
  const lines: string[] = [];
  const replace = byAction('replace-part');
  if (replace.length > 0) lines.push(t.replaceCard({ labels: replace.map((c) => c.label).join(', ') }));
  const isolate = [...replace, ...byAction('isolate-npu')];
  if (isolate.length > 0) {
    const others = usedDevices.filter((d) => !isolate.some((c) => c.device === d)).map((d) => d.visibleIndex);
    lines.push(others.length > 0 ? t.leaveOut({ devices: others.join(','), labels: isolate.map((c) => c.label).join(', ') }) : t.leaveOutAll);
    if (byAction('isolate-npu').length > 0) lines.push(t.diagnose);
  }
  for (const chip of byAction('reset-npu')) lines.push(t.reset({ card: chip.device.card, chip: chip.device.chip }));
  for (const chip of byAction('monitor').slice(0, 2)) lines.push(t.watch({ card: chip.device.card }));
  return [...new Set(lines)].join('\n');
}

function evidenceOf(chips: readonly JudgedChip[], cards: readonly CardEcc[], unmatched: ReadonlyArray<{ card: number; chip: number }>, ctx: CheckContext) {
  return {
    chips: chips.map((c) => ({
      device: c.device.device,
      card: c.device.card,
      chip: c.device.chip,
      used: c.used,
      hbm: c.hbm,
      ddr: c.ddr,
      findings: c.findings.map((r) => ({ rule: r.id, field: r.field, value: c.hbm[r.field], atLeast: r.atLeast, status: r.status, action: r.action })),
    })),
    unread: cards.flatMap((c) => (!c.ok && !c.unsupported ? [{ card: c.card, problem: c.problem }] : [])),
    unsupported: cards.flatMap((c) => (!c.ok && c.unsupported ? [{ card: c.card, message: c.message }] : [])),
    unmatched,
    visible: visibleDevices(ctx),
  };
}

/** The verdict of the chips that reach a rule: fail for a used chip with a failing rule, else warn. */
function verdict(ctx: CheckContext, found: readonly JudgedChip[], inventory: Inventory, usedDevices: readonly NpuDevice[], evidence: ReturnType<typeof evidenceOf>): Outcome {
  const t = ctx.text.checks['npu.ecc'];
  const describeAll = (chips: readonly JudgedChip[]) => summarizeList(chips.map((c) => describeChip(ctx, c)), 3, ctx.text.report.list);
  const failing = (c: JudgedChip) => c.findings.some((r) => r.status === 'fail');
  const blocking = found.filter((c) => c.used && failing(c));
  const shown = blocking.length > 0 ? blocking : found;
  const details = {
    expected: 'HBM: no uncorrectable error since the driver loaded, no page pending isolation, fewer than 16 retired pages',
    actual: shown.map((c) => `${deviceLabel(c.device, inventory.family)}: ${c.findings.map((r) => `${r.field}=${c.hbm[r.field]}`).join(' ')}`).join(', '),
    remediation: remediationOf(ctx, shown, usedDevices),
    evidence,
    // a chip outside the workload's devices only warns, but what to do about it is the same
    action: worstAction(shown.flatMap((c) => c.findings.map((r) => r.action))),
  };
  if (blocking.length > 0) return fail(t.failing({ count: blocking.length, used: usedDevices.length, chips: describeAll(blocking) }), details);
  const outside = found.filter((c) => !c.used && failing(c));
  const watched = found.filter((c) => !outside.includes(c));
  const sentences = [
    ...(outside.length > 0 ? [t.failingOutside({ count: outside.length, source: evidence.visible.source, chips: describeAll(outside) })] : []),
    ...(watched.length > 0 ? [t.watching({ chips: describeAll(watched) })] : []),
  ];
  return warn(sentences.join(ctx.text.report.clauseSeparator), details);
}

/** A pass, with what is worth knowing although nothing fails: pages retired before, corrected errors. */
function clean(ctx: CheckContext, chips: readonly JudgedChip[], evidence: ReturnType<typeof evidenceOf>): Outcome {
  const t = ctx.text.checks['npu.ecc'];
  const notes = chips
    .filter((c) => (c.hbm.doubleBitIsolatedPages ?? 0) > 0 || (c.hbm.singleBitErrors ?? 0) > 0)
    .map((c) => t.note({ label: c.label, retired: c.hbm.doubleBitIsolatedPages ?? 0, corrected: c.hbm.singleBitErrors ?? 0 }));
  return pass(t.clean({ count: chips.length, notes: notes.length > 0 ? summarizeList(notes, 3, ctx.text.report.list) : null }), { evidence });
}

// title, why, fix, reads and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.ecc',
  category: 'npu',
  order: 65,
  depth: 'standard',
  // one npu-smi info -t ecc per card: at most one call per die
  cost: { npuSmiPerDie: 1 },
  level: 'required',
  // each non-pass outcome says its own, from the rules of knowledge/hbm-ecc.json its chips reach
  action: { fail: 'isolate-npu', warn: 'monitor' },
  async run(ctx) {
    const t = ctx.text.checks['npu.ecc'];
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, t.what);
    // the 310P keeps its model in DDR: no HBM to judge
    if (inventory.family === '310p') return skip(t.noHbm, { remediation: t.noHbmFix, evidence: { family: inventory.family } });
    if (inventory.devices.length === 0) return skip(t.noDevices, { remediation: t.noDevicesFix });
    const usedDevices = selectVisible(inventory.devices, visibleDevices(ctx));
    const cards = await cardsEcc(ctx, inventory.argv[0]!, inventory.devices);
    const { chips, unmatched } = judgeChips(inventory, cards, new Set(usedDevices), ctx);
    const evidence = evidenceOf(chips, cards, unmatched, ctx);
    const found = chips.filter((c) => c.findings.length > 0);
    if (found.length > 0) return verdict(ctx, found, inventory, usedDevices, evidence);
    const unread = cards.filter((c): c is Extract<CardEcc, { unsupported: false }> => !c.ok && !c.unsupported);
    // a snapshot recorded before this check: nothing to judge, and nothing known to be wrong
    if (unread.length > 0 && unread.length === cards.length && unread.every((c) => c.notCaptured)) {
      return skip(t.notCaptured, { remediation: ctx.text.probes.npu.remediation.notCaptured, evidence });
    }
    if (unread.length > 0) {
      return error(t.unread({ count: unread.length, problems: summarizeList(unread.map((c) => c.problemText), 2, ctx.text.report.list) }), { evidence, remediation: t.readByHand({ card: unread[0]!.card }) });
    }
    if (chips.length === 0) {
      const unsupported = cards.every((c) => !c.ok && c.unsupported);
      return skip(unsupported ? t.unsupported : t.noHbmCounters, { remediation: unsupported ? t.unsupportedFix : t.noHbmFix, evidence });
    }
    return clean(ctx, chips, evidence);
  },
});
