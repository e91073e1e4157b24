import { CommanderError, type Command } from 'commander';
import { resolveLang } from '../i18n/lang.js';
import { en } from '../i18n/en/index.js';
import { zh } from '../i18n/zh/index.js';
import { COMMAND_NAMES, commandSpec, formatsOf, type CommandName } from './cli-options.js';
import { refuseFormatAsOutput, validatePathOptions, validateReportOperands } from './path-options.js';
import { rawOption } from './raw-argv.js';
import { claimDocument, describeRun, routeSignals, runIdentity, type RunIdentity } from './signals.js';
import { closest } from '../util/suggest.js';

/**
 * The life of one qprep process, from the first line of main() to its exit: the signals before
 * a command takes them, the standard streams, the language of the help, the judging of the
 * options before a command runs, the usage errors, and the exit code. src/cli.ts gives the
 * commander program; everything else about the process is here. Nothing here loads a command's
 * code: `qprep --version` and `--help` run this and commander alone.
 */

export interface Exit {
  code: number;
}

type Text = typeof en;
type ErrorText = Text['errors'];

/** How main() gets the program: built in the language of the help, each action setting `exit.code`. */
export type ProgramBuilder = (exit: Exit, text: Text) => Command;

/** The command named on the command line, known even when parsing failed. */
function requestedCommand(argv: readonly string[]): CommandName | null {
  const word = argv.slice(2).find((arg) => !arg.startsWith('-'));
  return word !== undefined && (COMMAND_NAMES as readonly string[]).includes(word) ? (word as CommandName) : null;
}

/**
 * The --format the user asked for, known even when parsing failed: else the command's default
 * (facts prints JSON only, so its failures print the error document without being asked, as its
 * interruptions do).
 */
function requestedFormat(argv: readonly string[]): string {
  const command = requestedCommand(argv);
  return rawOption(argv, '--format', '-f') ?? (command !== null ? (formatsOf(command)[0] ?? commandSpec(command).documentFormat) : undefined) ?? 'human';
}

function hasDocumentOutput(command: CommandName | null): boolean {
  return command !== null && commandSpec(command).documentOutput === true;
}

/** What an interruption says before the options are parsed: read from the raw command line. */
function identityFromArgv(argv: readonly string[]): RunIdentity {
  const command = requestedCommand(argv);
  const output = hasDocumentOutput(command) ? rawOption(argv, '--output', '-o') : undefined;
  return { command, format: requestedFormat(argv), ...(output && output !== '-' ? { output } : {}) };
}

/**
 * Commander's error as qprep prints it: the error first, then one hint: its "(Did you mean X?)"
 * as one suggestion, the closest of the allowed choices of an option, or where the usage is.
 * qprep's own parsers put their suggestion on the message's second line.
 */
function usageMessage(error: CommanderError, words: ErrorText): { message: string; hints: string[] } {
  const [first = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  if (error.code === 'qprep.usage') return { message: first, hints: rest.filter((line) => line.trim() !== '') };
  const suggestion = rest.map((line) => /^\(Did you mean (?:one of )?([^,?]+)/.exec(line)?.[1]).find(Boolean);
  if (suggestion) return { message: first, hints: [words.didYouMean({ name: suggestion })] };
  const choices = /argument '(.*)' is invalid\. Allowed choices are (.*)\.$/.exec(first);
  if (choices) {
    const match = closest(choices[1]!, choices[2]!.split(', '));
    if (match) return { message: first, hints: [words.didYouMean({ name: match })] };
  }
  return { message: first, hints: [words.seeHelp] };
}

/**
 * The language of the help, known before commander parses: --lang on the raw command line, then
 * the environment. A bad value gives English help here; the command itself reports it as a usage
 * error.
 */
function helpLanguage(argv: readonly string[]): 'en' | 'zh' {
  try {
    return resolveLang({ flag: rawOption(argv, '--lang'), env: process.env });
  } catch {
    return 'en';
  }
}

/**
 * Set when a command's action starts: only then can a host file operation be pending at exit.
 * Without one (--version, --help, a usage error) exit.js is not imported: in the single-file
 * build it lives in the implementation part, whose load would cost --version some 300 ms.
 */
let actionStarted = false;

/**
 * A signal that came while the document was still going out (a reader slower than the pipe) is
 * only a byte in the event loop's signal pipe until the loop polls again, and the write's last
 * callback can end the run before it does: the signal's handler would never say that it came.
 * The second turn of the loop passes through a poll, which delivers it.
 */
async function deliverPendingSignals(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

async function flushAndExit(code: number): Promise<never> {
  // an interruption owns the end of the run: its document is the one this run prints
  if (interruption) return interruption;
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
  if (!actionStarted) process.exit(code);
  await deliverPendingSignals();
  if (interruption) return interruption;
  const { exitProcess } = await import('../host/exit.js');
  return exitProcess(code);
}

/**
 * Standard output carries the verdict's document: when it cannot be written (stdout redirected
 * to a full disk, EIO), one line on stderr says so and the exit code is 2, never the crash of an
 * unhandled stream error (exit 1 would read as "not ready"). A reader that went away (EPIPE, as
 * with `| head`) is not an error: the exit code still gives the verdict.
 */
function guardStandardStreams(): void {
  let broken = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (broken || error.code === 'EPIPE') {
      broken = true;
      return;
    }
    broken = true;
    const reason = error.code === 'ENOSPC' ? 'no space left on device (ENOSPC)' : error.message;
    process.stderr.write(`qprep: error: cannot write the standard output: ${reason}\n`);
    process.exit(2);
  });
  process.stderr.on('error', () => undefined);
}

/**
 * A signal before a command took the signals over (while commander parses, while the command's
 * code loads), or during a command without a partial result to give: the error document of an
 * interrupted run, exit code 2. A second signal ends qprep at once.
 */
let ending = false;
let interruption: Promise<never> | undefined;
function onSignalBeforeCommand(signal: NodeJS.Signals): void {
  if (ending) {
    process.stderr.write(`\nqprep: error: ${signal} again: exiting without a report\n`);
    process.exit(2);
  }
  ending = true;
  if (!claimDocument()) {
    // the run's document is out already: it is the truth of the run, which ends on its own
    process.stderr.write(`\nqprep: note: ${signal} after the result was written; ending with it\n`);
    return;
  }
  const run = runIdentity();
  const command = COMMAND_NAMES.find((name) => name === run.command);
  const probing = actionStarted && command !== undefined && commandSpec(command).examinesHost === true;
  interruption = import('./failure.js').then(({ endInterrupted }) => endInterrupted(signal, run, probing));
}

/**
 * Before a command's code runs: the language resolved, every option judged by its kind (paths,
 * an --output that names a format), and the run described for an interruption. A bad value is a
 * usage error here, before a profile is read or a host opened.
 */
function prepareAction(actionCommand: Command): void {
  const name = actionCommand.name() as CommandName;
  const options = actionCommand.opts();
  const lang = resolveLang({ flag: options.lang as string | undefined, env: process.env });
  const words = (lang === 'zh' ? zh : en).errors;
  refuseFormatAsOutput(name, options, actionCommand.getOptionValueSource('format') === 'cli', words);
  for (const [key, value] of Object.entries(validatePathOptions(name, options, words))) actionCommand.setOptionValue(key, value);
  actionCommand.setOptionValue('lang', lang);
  if (name === 'aggregate') validateReportOperands(actionCommand.args, words);
  const output = hasDocumentOutput(name) ? (actionCommand.opts().output as string | undefined) : undefined;
  const format = (options.format as string | undefined) ?? commandSpec(name).documentFormat ?? 'human';
  describeRun({ command: name, format, lang, ...(output ? { output } : { output: undefined }) });
  actionStarted = true;
}

function isHelpOrVersion(error: CommanderError): boolean {
  return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help';
}

/** A failure of the command line or of the command: exit code 2, with the error document in a machine format. */
async function failureCode(error: unknown, argv: readonly string[], words: ErrorText): Promise<number> {
  if (error instanceof CommanderError) {
    const { reportFailure } = await import('./failure.js');
    const { message, hints } = usageMessage(error, words);
    return reportFailure('usage', message, requestedFormat(argv), requestedCommand(argv), hints);
  }
  const { reportError } = await import('./failure.js');
  const run = runIdentity();
  return reportError(error, run.format, run.command, run.lang ?? helpLanguage(argv));
}

/** Runs qprep on `argv` (process.argv) and exits with the run's exit code. */
export async function runCli(argv: readonly string[], buildProgram: ProgramBuilder): Promise<never> {
  // before anything else: a signal in the first moments (caught since the process's first line)
  // must end the run like any other, with the document the command line asked for
  describeRun(identityFromArgv(argv));
  routeSignals(onSignalBeforeCommand);
  guardStandardStreams();
  const exit: Exit = { code: 0 };
  const text = helpLanguage(argv) === 'zh' ? zh : en;
  const program = buildProgram(exit, text);
  program.hook('preAction', (_program, actionCommand) => prepareAction(actionCommand));
  if (argv.length <= 2) {
    // no arguments asks what qprep does: the help, on stdout, and no error
    process.stdout.write(program.helpInformation());
    return flushAndExit(0);
  }
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError && isHelpOrVersion(error)) return flushAndExit(0);
    exit.code = await failureCode(error, argv, text.errors);
  }
  return flushAndExit(exit.code);
}
