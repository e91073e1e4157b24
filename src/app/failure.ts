import { QprepError, type ErrorCode } from '../errors.js';
import { formatErrorReport } from '../report/formats.js';
import type { ErrorReport } from '../report/schema.js';
import { redactMessage } from '../util/redact.js';
import { VERSION } from '../version.js';
import { escapeControls } from '../util/text.js';
import { claimDocument, type RunIdentity } from './signals.js';

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

/** The code, the one-line message and the hint of exit code 2 for any thrown value. */
export function describeFailure(error: unknown): { code: ErrorCode; message: string; hint?: string } {
  // a message may quote the input it choked on: the redaction policy applies to it too
  if (error instanceof QprepError) {
    const described: { code: ErrorCode; message: string; hint?: string } = { code: error.code, message: redactMessage(error.message.split('\n')[0] ?? '') };
    const hints = hintsOf(error);
    if (hints.length > 0) described.hint = redactMessage(hints.join('; '));
    return described;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: redactMessage(`internal error: ${message.split('\n')[0] ?? ''} (set QPREP_DEBUG=1 for the stack)`) };
}

/**
 * What to do about an error: the lines after the first of its message (such as
 * `did you mean "check"?`) and its hint, printed after the error on stderr and carried in the
 * error document's `hint`.
 */
export function hintsOf(error: unknown): string[] {
  if (!(error instanceof QprepError)) return [];
  const lines = error.message.split('\n').slice(1).filter((line) => line.trim() !== '');
  return error.hint === undefined ? lines : [...lines, error.hint];
}

export function writeHints(hints: readonly string[]): void {
  for (const hint of hints) process.stderr.write(`qprep: hint: ${escapeControls(hint)}\n`);
}

/**
 * Exit code 2: one line on stderr naming the file, field or command, then its hints; with a
 * machine format stdout still carries one valid document saying why. Nothing goes to stdout
 * when the run's document is already out (a signal raced the result).
 */
export function reportFailure(code: ErrorCode, message: string, format: string, command: string | null, hints: readonly string[] = []): 2 {
  const [line, ...more] = message.split('\n');
  const allHints = [...more.filter((l) => l.trim() !== ''), ...hints];
  process.stderr.write(`qprep: error: ${escapeControls(line ?? '')}\n`);
  writeHints(allHints);
  if (!claimDocument()) return 2;
  const hint = allHints.length > 0 ? allHints.join('; ') : undefined;
  const document = formatErrorReport(errorDocument(code, line ?? '', command, hint), format, new Date());
  if (document !== undefined) process.stdout.write(document);
  return 2;
}

export function reportError(error: unknown, format: string, command: string | null): 2 {
  if (!(error instanceof QprepError) && process.env.QPREP_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  const { code, message, hint } = describeFailure(error);
  return reportFailure(code, message, format, command, hint === undefined ? [] : [hint]);
}

/**
 * A signal to a run that has no partial result to give (before a command started, or facts,
 * env, aggregate, list, explain, schema, tune, rollback): the running probes are killed, one
 * line on stderr, the error document on stdout in a machine format, and the --output file
 * replaced by it (a verdict file must not go on saying what an earlier run found). Exit code 2.
 * The caller has claimed the run's document already, synchronously in the signal handler.
 */
export async function endInterrupted(signal: NodeJS.Signals, run: RunIdentity, killProbes: boolean): Promise<never> {
  const [{ exitProcess }, { writeOutputFile }] = await Promise.all([import('../host/exit.js'), import('../host/output.js')]);
  if (killProbes) (await import('../host/exec.js')).killAllCommandGroups();
  const message = `interrupted by ${signal}; ${killProbes ? 'running probes were killed' : 'no verdict'}${run.advice ? `; ${run.advice}` : ''}`;
  process.stderr.write(`\nqprep: error: ${message}\n`);
  const document = formatErrorReport(errorDocument('interrupted', message, run.command), run.format, new Date());
  if (document !== undefined) process.stdout.write(document);
  if (run.output) await writeOutputFile(run.output, document ?? `qprep: error: ${message}\n`).catch(() => undefined);
  return exitProcess(2);
}
