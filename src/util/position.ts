/** Where in a text a parser stopped: "line 3, column 1", as editors count (both from 1). */

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return { line, column };
}

function at(text: string, offset: number): string {
  const { line, column } = lineColumn(text, offset);
  return `line ${line}, column ${column}`;
}

/**
 * The reason of a YAML parse error with its place: the yaml package gives the offsets of the
 * offending range in `pos` (its pretty message, with a code excerpt, would take several lines).
 */
export function yamlErrorReason(error: unknown, text: string): string {
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const pos = (error as { pos?: unknown }).pos;
  if (Array.isArray(pos) && typeof pos[0] === 'number') return `${at(text, pos[0])}: ${message}`;
  return message;
}

/**
 * The reason of a JSON.parse error with its place. V8 says "at position N" for most errors;
 * for an unexpected token it quotes the text instead, and the message is kept as it is rather
 * than a place guessed.
 */
export function jsonErrorReason(error: unknown, text: string): string {
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const position = /at position (\d+)/.exec(message);
  if (position) {
    const plain = message.replace(/ in JSON at position \d+.*$/, '').replace(/ at position \d+.*$/, '');
    return `${at(text, Number(position[1]))}: ${plain}`;
  }
  return message;
}
