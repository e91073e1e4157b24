import { QprepError, type ErrorCode } from '../errors.js';
import { redactMessage } from '../util/redact.js';
import { VERSION } from '../version.js';
import type { ErrorReport } from './schema.js';

/** The commands whose documents carry a readiness verdict: their error documents say `ready: false`. */
const VERDICT_COMMANDS = new Set(['check', 'aggregate']);

/**
 * The error document of every command (exit code 2): `{schemaVersion, tool, command, error}`,
 * plus `ready: false` where the command gives a readiness verdict, so that a gate reading
 * `ready` never finds it missing.
 */
export function errorDocument(code: ErrorCode, message: string, command: string | null, hint?: string): ErrorReport {
  const error: ErrorReport['error'] = hint === undefined ? { code, message } : { code, message, hint };
  const verdict = command === null || VERDICT_COMMANDS.has(command);
  return { schemaVersion: 1, tool: { name: 'qprep', version: VERSION }, command, ...(verdict ? { ready: false as const } : {}), error };
}

/**
 * The code, the one-line message and the hint of exit code 2 for any thrown value, in the run's
 * language when the error was worded from the catalogue (English otherwise).
 */
export function describeFailure(error: unknown, lang = 'en'): { code: ErrorCode; message: string; hint?: string } {
  // a message may quote the input it choked on: the redaction policy applies to it too
  if (error instanceof QprepError) {
    const words = error.wordsIn(lang);
    const described: { code: ErrorCode; message: string; hint?: string } = { code: error.code, message: redactMessage(words.message.split('\n')[0] ?? '') };
    const hints = hintLines(words.message, words.hint);
    if (hints.length > 0) described.hint = redactMessage(hints.join('; '));
    return described;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: redactMessage(`internal error: ${message.split('\n')[0] ?? ''} (set QPREP_DEBUG=1 for the stack)`) };
}

function hintLines(message: string, hint: string | undefined): string[] {
  const lines = message.split('\n').slice(1).filter((line) => line.trim() !== '');
  return hint === undefined ? lines : [...lines, hint];
}

/**
 * What to do about an error: the lines after the first of its message (such as
 * `did you mean "check"?`) and its hint, printed after the error on stderr and carried in the
 * error document's `hint`.
 */
export function hintsOf(error: unknown, lang = 'en'): string[] {
  if (!(error instanceof QprepError)) return [];
  const words = error.wordsIn(lang);
  return hintLines(words.message, words.hint);
}
