import { QprepError, type ErrorCode } from '../errors.js';
import { describeFailure, errorDocument } from '../report/error-document.js';
import { formatErrorReport, outputFileMode } from '../report/formats.js';
import { escapeControls } from '../util/text.js';
import { invokedAs } from '../util/invocation.js';
import { qprepInvocation } from '../host/invocation.js';
import { claimDocument, type RunIdentity } from './signals.js';

/** The hints on stderr, their commands as this install starts qprep (`npx qprep list`); the error document keeps `qprep`. */
export function writeHints(hints: readonly string[]): void {
  const invocation = hints.some((hint) => hint.includes('qprep')) ? qprepInvocation() : undefined;
  for (const hint of hints) process.stderr.write(`qprep: hint: ${escapeControls(invokedAs(hint, invocation))}\n`);
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

export function reportError(error: unknown, format: string, command: string | null, lang = 'en'): 2 {
  if (!(error instanceof QprepError) && process.env.QPREP_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  const { code, message, hint } = describeFailure(error, lang);
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
  if (run.output) await writeOutputFile(run.output, document ?? `qprep: error: ${message}\n`, outputFileMode(run.format)).catch(() => undefined);
  return exitProcess(2);
}
