/**
 * A fix to a line of a file as a command that pastes: `sed -i 'Ns/OLD/NEW/' FILE`. Undefined
 * when the edit cannot be said that way (a newline in either text, an empty OLD).
 */
export function sedLineEdit(file: string, line: number, from: string, to: string): string | undefined {
  if (from === '' || /[\n\r]/.test(from + to) || !Number.isInteger(line) || line < 1) return undefined;
  const pattern = from.replace(/[\\/.*[\]^$&]/g, (c) => `\\${c}`);
  const replacement = to.replace(/[\\/&]/g, (c) => `\\${c}`);
  return `sed -i ${shellQuote(`${line}s/${pattern}/${replacement}/`)} ${shellWord(file)}`;
}

/** One shell word in single quotes; a single quote inside becomes '\'' */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A path as one shell word: as it is when that is safe, else quoted. */
function shellWord(text: string): string {
  return /^[\w./+:@%-]+$/.test(text) ? text : shellQuote(text);
}
