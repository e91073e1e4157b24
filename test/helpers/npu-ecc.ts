import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ascendFixture, syntheticFixture } from './fixtures.js';

/**
 * What `npu-smi info -t ecc -i <card>` prints on a card with clean counters: the 910A capture of
 * mind-cluster's log-collection guide (one chip), or for a card of two chips (A3) the derived
 * answer that repeats its chip block (test/fixtures/synthetic/README.md), with the card's id in
 * its `NPU ID` line. Nothing else is changed.
 */
export function cleanEccAnswer(card: number, chips: 1 | 2 = 1): string {
  const capture = chips === 2 ? syntheticFixture('npu-smi-info-t-ecc-two-chips-derived.txt') : ascendFixture('npu-smi-info-t-ecc-910a-23.0.5-mindcluster-doc.txt');
  return capture.replace(/^(\s*NPU ID\s+: )\d+$/m, `$1${card}`);
}

/**
 * The `-t ecc` answers of `cards` as files under `dir` (one per card, for a fake npu-smi that
 * cats them): clean, unless `answers` gives a card's text.
 */
export function writeEccAnswers(dir: string, cards: readonly number[], chips: 1 | 2 = 1, answers: Record<number, string> = {}): Record<number, string> {
  mkdirSync(dir, { recursive: true });
  return Object.fromEntries(
    cards.map((card) => {
      const file = join(dir, `ecc-${card}.txt`);
      writeFileSync(file, answers[card] ?? cleanEccAnswer(card, chips));
      return [card, file];
    }),
  );
}
