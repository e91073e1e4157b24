import { escapeControls } from '../util/text.js';

/**
 * A document as a formatter for people may print it: every string with its control characters
 * shown as \xNN (escapeControls), whichever check, tool, file or snapshot it came from. The
 * formatters that write to a terminal or a CI page (human, JUnit) call this once on the
 * document they are given, so that no field can be forgotten.
 *
 * `multiline` names the members whose line breaks the formatter itself lays out (the fix of a
 * check is one command per line); everywhere else a line break is shown too, so that a value
 * cannot fake a line of the report.
 */
export function visibleStrings<T>(document: T, multiline: readonly string[] = ['remediation']): T {
  const keep = new Set(multiline);
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === 'string') return escapeControls(value, { keepNewlines: key !== undefined && keep.has(key) });
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined));
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) out[name] = walk(member, name);
      return out;
    }
    return value;
  };
  return walk(document, undefined) as T;
}
