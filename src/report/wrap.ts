/** Terminal layout of the human formatters: visible width and wrapping with a hanging indent. */

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/** Columns a string takes on a terminal (color codes take none). */
export function visibleWidth(text: string): number {
  return [...text.replace(ANSI, '')].length;
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
export function fitList(prefix: string, items: readonly string[], width: number | undefined, moreHint = ''): string {
  const all = `${prefix}${items.join(', ')}`;
  if (width === undefined || width < MIN_WRAP_WIDTH || visibleWidth(all) <= width) return all;
  for (let shown = items.length - 1; shown >= 1; shown--) {
    const line = `${prefix}${items.slice(0, shown).join(', ')} and ${items.length - shown} more${moreHint}`;
    if (visibleWidth(line) <= width) return line;
  }
  return `${prefix}${items[0]} and ${items.length - 1} more${moreHint}`;
}
