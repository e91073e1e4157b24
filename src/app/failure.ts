import { QprepError, type ErrorCode } from '../core/errors.js';
import { formatErrorReport } from '../report/formats.js';
import type { ErrorReport } from '../report/schema.js';
import { redactMessage } from '../util/redact.js';
import { VERSION } from '../version.js';
import { escapeControls } from '../util/text.js';

export function errorDocument(code: ErrorCode, message: string): ErrorReport {
  return { schemaVersion: 1, tool: { name: 'qprep', version: VERSION }, ready: false, error: { code, message } };
}

/** The code and the one-line message of exit code 2 for any thrown value. */
export function describeFailure(error: unknown): { code: ErrorCode; message: string } {
  // a message may quote the input it choked on: the redaction policy applies to it too
  if (error instanceof QprepError) return { code: error.code, message: redactMessage(error.message.split('\n')[0] ?? '') };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: redactMessage(`internal error: ${message.split('\n')[0] ?? ''} (set QPREP_DEBUG=1 for the stack)`) };
}

/**
 * The lines after the first of an error message: hints such as `did you mean "check"?`, printed
 * after the error on stderr (never in the error document, whose message is one line).
 */
export function hintsOf(error: unknown): string[] {
  if (!(error instanceof QprepError)) return [];
  return error.message.split('\n').slice(1).filter((line) => line.trim() !== '');
}

export function writeHints(hints: readonly string[]): void {
  for (const hint of hints) process.stderr.write(`qprep: hint: ${escapeControls(hint)}\n`);
}

/**
 * Exit code 2: one line on stderr naming the file, field or command, then its hints; with a
 * machine format stdout still carries one valid document saying why.
 */
export function reportFailure(code: ErrorCode, message: string, format: string, hints: readonly string[] = []): 2 {
  const [line, ...more] = message.split('\n');
  process.stderr.write(`qprep: error: ${escapeControls(line ?? '')}\n`);
  writeHints([...more.filter((l) => l.trim() !== ''), ...hints]);
  const document = formatErrorReport(errorDocument(code, line ?? ''), format, new Date());
  if (document !== undefined) process.stdout.write(document);
  return 2;
}

export function reportError(error: unknown, format: string): 2 {
  if (!(error instanceof QprepError) && process.env.QPREP_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  const { code, message } = describeFailure(error);
  return reportFailure(code, message, format, hintsOf(error));
}
