/** How a language writes a list: the separator, and the cut of a long one (ctx.text.report.list). */
export interface ListWords {
  separator: string;
  andMore: (p: { list: string; more: number }) => string;
}

const ENGLISH_LIST: ListWords = { separator: ', ', andMore: (p) => `${p.list} and ${p.more} more` };

/** "a, b, c, d and 4 more": lists in messages that must stay on one line; English unless told. */
export function summarizeList(items: readonly string[], max = 4, words: ListWords = ENGLISH_LIST): string {
  if (items.length <= max) return items.join(words.separator);
  return words.andMore({ list: items.slice(0, max).join(words.separator), more: items.length - max });
}

/** "1 CPU", "2 CPUs" */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Collapses a sorted list of integers into ranges: [0,1,2,5] -> "0-2,5" (the kernel's cpulist format). */
export function formatRanges(values: readonly number[]): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const parts: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    const start = sorted[i]!;
    let end = start;
    while (i + 1 < sorted.length && sorted[i + 1] === end + 1) end = sorted[++i]!;
    parts.push(start === end ? String(start) : `${start}-${end}`);
    i++;
  }
  return parts.join(',');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The string with lone UTF-16 surrogates (not encodable as UTF-8) replaced by U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Characters a terminal or a log viewer interprets instead of showing: the C0 controls (ESC
 * starts every escape sequence), DEL, the C1 controls (U+009B is a one-byte CSI on some
 * terminals), and the Unicode controls that reorder or hide text (bidi overrides and isolates).
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeControl(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * The one way qprep shows text that came from outside (a tool's output, a host file, a
 * snapshot, a document): every control character as \xNN (\uNNNN for the Unicode ones), so
 * that nothing it prints can move the cursor, recolour, retitle or clear an operator's
 * terminal, or fake a line. `keepNewlines` for text qprep itself splits into lines.
 */
export function escapeControls(text: string, options: { keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL, escapeControl);
}

/**
 * A message quoting input that may hold anything (V8's JSON.parse quotes the text it choked
 * on, newlines, NULs and terminal escapes included), as one visible line: control characters
 * shown as \xNN, cut to `max` characters.
 */
export function visibleLine(text: string, max = 200): string {
  const visible = escapeControls(text);
  return visible.length > max ? `${visible.slice(0, max)}…` : visible;
}

/**
 * The longest start of `text` that is at most `maxBytes` long in UTF-8, cut between characters
 * (never inside one) and ended with "…" when cut. For readers that cut by bytes and would
 * otherwise split a character (node-problem-detector's max_output_length).
 */
export function cutUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const ellipsis = '…';
  const budget = maxBytes - Buffer.byteLength(ellipsis);
  let used = 0;
  let out = '';
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (used + size > budget) break;
    used += size;
    out += char;
  }
  return `${out}${ellipsis}`;
}

/** 557696 -> "557,696", as vLLM prints token counts (without the cost of loading the locale data toLocaleString needs). */
export function thousands(n: number): string {
  const [whole, fraction] = String(Math.abs(n)).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${n < 0 ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}
