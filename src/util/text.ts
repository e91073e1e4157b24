/** "a, b, c, d and 4 more": lists in messages that must stay on one line. */
export function summarizeList(items: readonly string[], max = 4): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
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
 * A message quoting input that may hold anything (V8's JSON.parse quotes the text it choked
 * on, newlines, NULs and terminal escapes included), as one visible line: control characters
 * shown as \xNN, cut to `max` characters.
 */
export function visibleLine(text: string, max = 200): string {
  const visible = text.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  return visible.length > max ? `${visible.slice(0, max)}…` : visible;
}
