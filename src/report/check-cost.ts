import type { Catalogue } from '../i18n/en/index.js';
import type { CheckCost } from '../core/types.js';

/**
 * What a check costs, in the words of `qprep list`: "hccn_tool 2/device: -stat -g x2; waits 3 s".
 * Empty for a check that costs nothing beyond the probes every check shares.
 */
export function describeCost(cost: CheckCost | undefined, words: Catalogue['commands']['list']['cost'], separator: string): string {
  if (!cost) return '';
  const parts: string[] = [];
  const queries = cost.hccnTool ?? [];
  const counted = queries.filter((q) => q.onlyWhen === undefined);
  if (queries.length > 0) {
    const count = Math.max(...['a2', 'a3'].map((family) => counted.filter((q) => !q.families || q.families.includes(family as 'a2' | 'a3')).reduce((sum, q) => sum + (q.reads ?? 1), 0)));
    const shown = queries.map((q) => `${q.args}${(q.reads ?? 1) > 1 ? ` x${q.reads}` : ''}${q.families ? ` (${q.families.join(', ')})` : ''}${q.onlyWhen !== undefined ? ` ${words.whenNeeded}` : ''}`);
    parts.push(words.hccnTool({ count, queries: shown.join(', ') }));
  }
  if (cost.pings) parts.push(words.pings);
  if (cost.npuSmiPerDie) parts.push(words.npuSmi({ count: cost.npuSmiPerDie }));
  if (cost.waitMs) parts.push(words.wait({ seconds: cost.waitMs / 1000 }));
  if (cost.readsStorage) parts.push(words.storage);
  if (cost.connects) parts.push(words.connects);
  return parts.join(separator);
}
