/**
 * Reads what a bash launch script does, without running it: which variables it assigns,
 * exports and unsets, and which commands it runs with which words. It understands the bash
 * that launch scripts are written in (quotes, `\` line continuations, `$VAR`, `${VAR}`,
 * `${VAR:-default}`, `export`, `unset`, `set -a`, comments, redirections, here-documents,
 * pipelines) and reports, with its line, every construct whose effect depends on running
 * something: command substitution, arithmetic, loops and conditionals, functions, `source`,
 * `eval`, `read`. Nothing is guessed: such a value is marked as not evaluated.
 *
 * Written by hand rather than with a shell-words library (shell-quote's `parse`, for one):
 * the checks must name the line of every variable and flag, and those libraries keep no
 * positions, expand `$(...)` as if it were text, and know nothing of `export` or blocks.
 *
 * Pure and total: any text (empty, binary, 10 MB, cut in the middle of a quote) gives a
 * result; what could not be read is in `notes`.
 */

import { linesIn, MAX_SCRIPT_TOKENS, tokenize } from './shell/lexer.js';
import { buildStatements } from './shell/statements.js';
import type { NoteSink, ScriptNote, ShellScript } from './shell/types.js';

export type { Assignment, Conditional, ScriptNote, ShellScript, Statement, Word, WordPart } from './shell/types.js';

/** Notes of one kind beyond this many are counted, not kept: a pathological input stays cheap. */
const MAX_NOTES = 200;

/**
 * The largest launch script qprep reads: real ones are a few kilobytes (the guides' longest is
 * under 4 KB), so 1 MiB is far above any of them and keeps a hostile one from costing seconds.
 */
export const MAX_LAUNCH_SCRIPT_BYTES = 1024 * 1024;

export { MAX_SCRIPT_TOKENS };

/** What the size errors say of the tokens counted: the units a person recognises, and what counts as one. */
export const TOKENS_CAP_TEXT = `${MAX_SCRIPT_TOKENS} words and operators (each quoted piece or expansion of a word, and each ;, &&, |, redirection or line end, counts as one)`;

/** UTF-8 length without encoding the text. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The size of a script over MAX_LAUNCH_SCRIPT_BYTES, or undefined when it is within it. */
export function oversizedScript(text: string): number | undefined {
  if (text.length > MAX_LAUNCH_SCRIPT_BYTES) return utf8Length(text);
  if (text.length * 3 <= MAX_LAUNCH_SCRIPT_BYTES) return undefined;
  const bytes = utf8Length(text);
  return bytes > MAX_LAUNCH_SCRIPT_BYTES ? bytes : undefined;
}

/**
 * Whether a script within the byte cap has more tokens than qprep reads (MAX_SCRIPT_TOKENS): it
 * is read until the cap, so the answer costs no more than a script at the cap.
 */
export function overTokenCap(text: string): boolean {
  return tokenize(text, () => undefined) === null;
}

/**
 * Reads a launch script. Never throws; see `notes` for what was not understood. Linear in the
 * script: no recursion per nesting level, no array spread into a call, no rescan per token.
 */
export function parseShellScript(input: string): ShellScript {
  const notes: ScriptNote[] = [];
  let text = typeof input === 'string' ? input : '';
  const oversized = oversizedScript(text);
  if (oversized !== undefined) {
    // a snapshot may carry any text: it is refused here as --launch refuses the file
    notes.push({ line: 1, severity: 'error', construct: 'size', message: `the script is ${oversized} bytes, over the ${MAX_LAUNCH_SCRIPT_BYTES} bytes (1 MiB) qprep reads of a launch script: it was not read` });
    return { statements: [], notes, lines: 0 };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text === '' ? 0 : linesIn(text) + (text.endsWith('\n') ? 0 : 1);
  const crlf = text.indexOf('\r\n');
  if (crlf !== -1) {
    const line = linesIn(text.slice(0, crlf)) + 1;
    notes.push({
      line,
      severity: 'error',
      construct: 'crlf',
      message: `the script has Windows line ends (CRLF, first on line ${line}): bash reads the \\r as part of every line, so continuations break and values end in \\r`,
    });
    // read the script as it was meant, so the rest of the report is still useful
    text = text.replace(/\r\n/g, '\n');
  }
  if (text.includes('\0')) {
    notes.push({ line: linesIn(text.slice(0, text.indexOf('\0'))) + 1, severity: 'error', construct: 'binary', message: 'the file holds NUL bytes: it is not a shell script' });
    return { statements: [], notes, lines };
  }
  const note: NoteSink = (line, severity, construct, message) => {
    if (notes.length < MAX_NOTES) notes.push({ line, severity, construct, message });
  };
  const tokens = tokenize(text, note);
  if (tokens === null) {
    // the byte cap's twin: a script of that many words is refused, not read in part
    return { statements: [], notes: [{ line: 1, severity: 'error', construct: 'size', message: `the script has more than ${TOKENS_CAP_TEXT}, the most qprep reads of a launch script: it was not read` }], lines };
  }
  const statements = buildStatements(tokens, note);
  notes.sort((a, b) => a.line - b.line);
  return { statements, notes, lines };
}

