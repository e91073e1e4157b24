import { QprepError, type ErrorCode } from '../core/errors.js';
import type { ErrorReport } from '../report/schema.js';
import { VERSION } from '../version.js';

export function errorDocument(code: ErrorCode, message: string): ErrorReport {
  return { schemaVersion: 1, tool: { name: 'qprep', version: VERSION }, ready: false, error: { code, message } };
}

/**
 * Exit code 2: one line on stderr naming the file, field or command; with a machine format
 * stdout still carries one valid document with an `error` object.
 */
export function reportFailure(code: ErrorCode, message: string, format: string): 2 {
  const line = message.split('\n')[0];
  process.stderr.write(`qprep: error: ${line}\n`);
  if (format === 'json') process.stdout.write(`${JSON.stringify(errorDocument(code, line ?? ''), null, 2)}\n`);
  return 2;
}

export function reportError(error: unknown, format: string): 2 {
  if (error instanceof QprepError) return reportFailure(error.code, error.message, format);
  const message = error instanceof Error ? error.message : String(error);
  if (process.env.QPREP_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return reportFailure('internal', `internal error: ${message} (set QPREP_DEBUG=1 for the stack)`, format);
}
