import type { ListWords } from '../util/text.js';

/** Terminal layout of the human formatters: visible width and wrapping with a hanging indent. */

const ANSI = /\x1b\[[0-9;]*m/g;

/** East Asian wide and fullwidth characters (Chinese, its punctuation): two columns each. */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** Columns a string takes on a terminal (color codes take none, a Chinese character two). */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(ANSI, '')) width += WIDE.test(char) ? 2 : 1;
  return width;
}

/** Narrower than this, wrapping would make a column of words: such terminals get long lines. */
const MIN_WRAP_WIDTH = 40;

/**
 * `prefix + text` as lines no wider than `width`, every line after the first indented to where
 * the text started (a hanging indent). Breaks at spaces only: a word longer than the room left
 * (a path, a URL) stays whole on its own line. No width: one line, as written.
 */
export function wrapHanging(prefix: string, text: string, width: number | undefined): string[] {
  const indent = visibleWidth(prefix);
  if (width === undefined || width < MIN_WRAP_WIDTH || indent + visibleWidth(text) <= width || width - indent < 20) return [`${prefix}${text}`];
  const room = width - indent;
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current === '') current = word;
    else if (visibleWidth(current) + 1 + visibleWidth(word) <= room) current += ` ${word}`;
    else {
      lines.push(current);
      current = word;
    }
  }
  lines.push(current);
  const pad = ' '.repeat(indent);
  return lines.map((line, i) => `${i === 0 ? prefix : pad}${line}`);
}

/**
 * As many of `items` as fit on one line after `prefix`, then "and N more": a list of passed
 * checks is a summary, not a place to wrap. No width: every item.
 */
export function fitList(prefix: string, items: readonly string[], width: number | undefined, moreHint = '', words: ListWords = { separator: ', ', andMore: (p) => `${p.list} and ${p.more} more` }): string {
  // ids are listed with a comma in every language: they are names, not words
  const all = `${prefix}${items.join(', ')}`;
  if (width === undefined || width < MIN_WRAP_WIDTH || visibleWidth(all) <= width) return all;
  for (let shown = items.length - 1; shown >= 1; shown--) {
    const line = `${prefix}${words.andMore({ list: items.slice(0, shown).join(', '), more: items.length - shown })}${moreHint}`;
    if (visibleWidth(line) <= width) return line;
  }
  return `${prefix}${words.andMore({ list: items[0]!, more: items.length - 1 })}${moreHint}`;
}
