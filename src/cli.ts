import { Command, CommanderError, Option } from 'commander';
import { parseTimeout } from './util/duration.js';
import { closest } from './util/suggest.js';
import { resolveLang } from './i18n/lang.js';
import { en } from './i18n/en/index.js';
import { zh } from './i18n/zh/index.js';

type CliText = typeof en.cli;
type ErrorText = typeof en.errors;
import { validatePathOptions, validateReportOperands } from './app/path-options.js';
import { claimDocument, describeRun, holdSignals, routeSignals, runIdentity } from './app/signals.js';
import { VERSION } from './version.js';

/**
 * Commander wiring only: every action imports its implementation lazily, so that
 * `qprep --version` and `--help` load nothing but commander.
 */

export interface Exit {
  code: number;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The words of the usage errors commander's parsers raise: set with the help's language. */
let usageWords: ErrorText = en.errors;

function positiveInt(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) <= 0) {
      throw new CommanderError(2, 'qprep.usage', usageWords.positiveInteger({ flag, value }));
    }
    return Number(value);
  };
}

/** --timeout and the other durations: 10s, 500ms, 2m; a bare number is milliseconds, as it always was. */
function duration(flag: string) {
  return (value: string): number => {
    const ms = parseTimeout(value);
    if (ms === undefined) throw new CommanderError(2, 'qprep.usage', usageWords.duration({ flag, value }));
    return ms;
  };
}

function formatOption(t: CliText, formats: string[]): Option {
  return new Option('-f, --format <format>', t['format --format']).choices(formats).default('human');
}

function addHostOptions(t: CliText, command: Command, { snapshot = true }: { snapshot?: boolean } = {}): Command {
  command
    .option('--profile <name|file>', t['host --profile'])
    .option('--root <dir>', t['host --root']);
  if (snapshot) command.option('--snapshot <file>', t['host --snapshot']);
  return command.option('--timeout <duration>', t['host --timeout'], duration('--timeout'), 10000);
}

function addClusterOptions(t: CliText, command: Command): Command {
  return command
    .option('--cluster <file>', t['cluster --cluster'])
    .option('--node <name>', t['cluster --node'])
    .option('--hccn-concurrency <n>', t['cluster --hccn-concurrency'], positiveInt('--hccn-concurrency'));
}

function addLaunchOption(t: CliText, command: Command): Command {
  return command.option('--launch <script>', t['launch --launch'], collect, []);
}

function addSelectionOptions(t: CliText, command: Command): Command {
  return command
    .option('--only <ids>', t['selection --only'], collect, [])
    .option('--skip <ids>', t['selection --skip'], collect, [])
    .option('--jobs <n>', t['selection --jobs'], positiveInt('--jobs'), 8);
}

/** Every command speaks the run's language; the value is resolved with the environment before the action runs. */
function addLangOption(t: CliText, command: Command): Command {
  return command.option('--lang <lang>', t['lang --lang']);
}

export function buildProgram(exit: Exit, t: CliText = en.cli): Command {
  const program = new Command();
  program
    .name('qprep')
    .description(t['program'])
    .version(VERSION, '-V, --version', t['program --version'])
    .addOption(new Option('--color <when>', t['program --color']).choices(['auto', 'always', 'never']))
    .option('--no-color', t['program --no-color'])
    .configureOutput({ outputError: () => undefined })
    .exitOverride()
    .addHelpText(
      'after',
      t['program examples'],
    );

  const check = program
    .command('check')
    .description(t['check'])
    .addOption(formatOption(t, ['human', 'json', 'junit', 'prometheus']))
    .option('-o, --output <file>', t['check --output'])
    .option('--ignore <ids>', t['check --ignore'], collect, [])
    .option('--strict', t['check --strict'], false)
    .option('-v, --verbose', t['check --verbose'])
    .option('-q, --quiet', t['check --quiet']);
  addHostOptions(t, check);
  addSelectionOptions(t, check);
  addClusterOptions(t, check);
  addLaunchOption(t, check);
  check.action(async (options, command: Command) => {
    const { runCheckCommand } = await import('./app/commands.js');
    exit.code = await runCheckCommand({ ...options, ...command.optsWithGlobals() });
  });

  const serve = program
    .command('serve')
    .description(t['serve'])
    .option('--listen <address:port>', t['serve --listen'], '127.0.0.1:9105')
    .option('--interval <duration>', t['serve --interval'], '5m')
    .option('--budget <duration>', t['serve --budget'])
    .option('--allow-trigger', t['serve --allow-trigger'], false)
    .option('--ignore <ids>', t['serve --ignore'], collect, [])
    .option('--strict', t['serve --strict'], false);
  addHostOptions(t, serve);
  addSelectionOptions(t, serve);
  addClusterOptions(t, serve);
  addLaunchOption(t, serve);
  serve.action(async (options, command: Command) => {
    // serve's signals are its lifecycle (stop with exit 0, reload), never an interruption
    holdSignals();
    const { runServeCommand } = await import('./app/serve.js');
    exit.code = await runServeCommand({ ...options, ...command.optsWithGlobals() });
  });

  const snapshot = program
    .command('snapshot')
    .description(t['snapshot'])
    .requiredOption('-o, --output <file>', t['snapshot --output']);
  addHostOptions(t, snapshot, { snapshot: false });
  addSelectionOptions(t, snapshot);
  addClusterOptions(t, snapshot);
  addLaunchOption(t, snapshot);
  snapshot.action(async (options, command: Command) => {
    const { runSnapshotCommand } = await import('./app/commands.js');
    exit.code = await runSnapshotCommand({ ...options, ...command.optsWithGlobals() });
  });

  const facts = program
    .command('facts')
    .description(t['facts'])
    .addOption(formatOption(t, ['json']).default('json'))
    .option('-o, --output <file>', t['facts --output'])
    .option('--include-serial', t['facts --include-serial'], false)
    .option('--include-mac', t['facts --include-mac'], false);
  addHostOptions(t, facts);
  facts.action(async (options, command: Command) => {
    const { runFactsCommand } = await import('./app/commands.js');
    exit.code = await runFactsCommand({ ...options, ...command.optsWithGlobals() });
  });

  const tune = program
    .command('tune')
    .description(t['tune'])
    .addOption(formatOption(t, ['human', 'json']))
    .option('--dry-run', t['tune --dry-run'], false)
    .option('--persist', t['tune --persist'], false)
    .option('--force', t['tune --force'], false);
  addHostOptions(t, tune);
  tune
    .option('--only <ids>', t['tune --only'], collect, [])
    .option('--skip <ids>', t['tune --skip'], collect, []);
  tune.action(async (options, command: Command) => {
    const { runTuneCommand } = await import('./app/tune.js');
    exit.code = await runTuneCommand({ ...options, ...command.optsWithGlobals() });
  });

  const rollback = program
    .command('rollback')
    .description(t['rollback'])
    .addOption(formatOption(t, ['human', 'json']))
    .option('--dry-run', t['rollback --dry-run'], false)
    .option('--force', t['rollback --force'], false)
    .option('--root <dir>', t['rollback --root'])
    .option('--snapshot <file>', t['rollback --snapshot'])
    .option('--timeout <duration>', t['rollback --timeout'], duration('--timeout'), 10000);
  rollback.action(async (options, command: Command) => {
    const { runRollbackCommand } = await import('./app/tune.js');
    exit.code = await runRollbackCommand({ ...options, ...command.optsWithGlobals() });
  });

  const env = program
    .command('env')
    .description(t['env'])
    .addOption(new Option('-f, --format <format>', t['env --format']).choices(['sh', 'json']).default('sh'))
    .option('--ip <address>', t['env --ip'])
    .option('--nic <name>', t['env --nic'])
    .option('--cluster <file>', t['env --cluster'])
    .option('--node <name>', t['env --node']);
  addHostOptions(t, env);
  env.action(async (options, command: Command) => {
    const { runEnvCommand } = await import('./app/env.js');
    exit.code = await runEnvCommand({ ...options, ...command.optsWithGlobals() });
  });

  const aggregate = program
    .command('aggregate')
    .description(t['aggregate'])
    .argument('<reports...>', t['aggregate <reports...>'])
    .addOption(formatOption(t, ['human', 'json']))
    .option('-o, --output <file>', t['aggregate --output'])
    .option('--cluster <file>', t['aggregate --cluster'])
    .option('--profile <name|file>', t['aggregate --profile'])
    .option('--max-age <duration>', t['aggregate --max-age'])
    .option('--strict', t['aggregate --strict'], false);
  aggregate.action(async (reports: string[], options, command: Command) => {
    const { runAggregateCommand } = await import('./app/aggregate.js');
    exit.code = await runAggregateCommand(reports, { ...options, ...command.optsWithGlobals() });
  });

  program
    .command('list')
    .description(t['list'])
    .addOption(formatOption(t, ['human', 'json']))
    .option('--profiles', t['list --profiles'])
    .option('--profile <name|file>', t['list --profile'])
    .action(async (options, command: Command) => {
      const { runListCommand } = await import('./app/commands.js');
      exit.code = await runListCommand({ ...options, ...command.optsWithGlobals() });
    });

  program
    .command('explain')
    .description(t['explain'])
    .argument('<id>', t['explain <id>'])
    .addOption(formatOption(t, ['human', 'json']))
    .action(async (id: string, options, command: Command) => {
      const { runExplainCommand } = await import('./app/commands.js');
      exit.code = await runExplainCommand(id, { ...options, ...command.optsWithGlobals() });
    });

  program
    .command('version')
    .description(t['version'])
    .action(() => {
      process.stdout.write(`${VERSION}\n`);
    });

  program
    .command('schema')
    .description(t['schema'])
    .argument('[document]', t['schema [document]'], 'report')
    .action(async (document: string) => {
      const { runSchemaCommand } = await import('./app/commands.js');
      exit.code = await runSchemaCommand(document);
    });

  for (const command of program.commands) addLangOption(t, command);
  return program;
}

const COMMANDS = ['check', 'snapshot', 'facts', 'tune', 'rollback', 'env', 'aggregate', 'list', 'explain', 'schema'];
/** The commands whose --output is a verdict or a document that an interruption must replace. */
const DOCUMENT_OUTPUTS = new Set(['check', 'facts', 'aggregate']);

/** The command named on the command line, known even when parsing failed. */
function requestedCommand(argv: readonly string[]): string | null {
  const word = argv.slice(2).find((arg) => !arg.startsWith('-'));
  return word !== undefined && COMMANDS.includes(word) ? word : null;
}

/** The value of an option on the raw command line (`--output F`, `--output=F`, `-o F`, `-oF`). */
function rawOption(argv: readonly string[], long: string, short?: string): string | undefined {
  let found: string | undefined;
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === long || (short !== undefined && arg === short)) found = argv[++i];
    else if (arg.startsWith(`${long}=`)) found = arg.slice(long.length + 1);
    else if (short !== undefined && arg.startsWith(short) && !arg.startsWith('--')) found = arg.slice(short.length);
  }
  return found;
}

/**
 * The --format the user asked for, known even when parsing failed. facts prints JSON only, so
 * its failures print the error document without being asked, as its interruptions do.
 */
function requestedFormat(argv: readonly string[]): string {
  return rawOption(argv, '--format', '-f') ?? (requestedCommand(argv) === 'facts' ? 'json' : 'human');
}

/** What an interruption says before the options are parsed: read from the raw command line. */
function identityFromArgv(argv: readonly string[]): Parameters<typeof describeRun>[0] {
  const command = requestedCommand(argv);
  const output = command !== null && DOCUMENT_OUTPUTS.has(command) ? rawOption(argv, '--output', '-o') : undefined;
  return { command, format: requestedFormat(argv), ...(output && output !== '-' ? { output } : {}) };
}

/**
 * Commander's error as qprep prints it: the error first, then one hint: its "(Did you mean X?)"
 * as one suggestion, the closest of the allowed choices of an option, or where the usage is.
 */
function usageMessage(error: CommanderError, words: ErrorText): { message: string; hints: string[] } {
  const [first = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  const suggestion = rest.map((line) => /^\(Did you mean (?:one of )?([^,?]+)/.exec(line)?.[1]).find(Boolean);
  if (suggestion) return { message: first, hints: [words.didYouMean({ name: suggestion })] };
  const choices = /argument '(.*)' is invalid\. Allowed choices are (.*)\.$/.exec(first);
  if (choices) {
    const match = closest(choices[1]!, choices[2]!.split(', '));
    if (match) return { message: first, hints: [words.didYouMean({ name: match })] };
  }
  // qprep's own messages say what the value must be; commander's generic ones point at the help
  if (error.code === 'qprep.usage') return { message: first, hints: [] };
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

async function flushAndExit(code: number): Promise<never> {
  // an interruption owns the end of the run: its document is the one this run prints
  if (interruption) return interruption;
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
  if (!actionStarted) process.exit(code);
  const { exitProcess } = await import('./host/exit.js');
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
  // only the commands that examine a host start probes
  const probing = actionStarted && !['aggregate', 'list', 'explain', 'schema'].includes(run.command ?? '');
  interruption = import('./app/failure.js').then(({ endInterrupted }) => endInterrupted(signal, run, probing));
}

export async function main(argv: readonly string[]): Promise<never> {
  // before anything else: a signal in the first moments must end the run like any other
  routeSignals(onSignalBeforeCommand);
  describeRun(identityFromArgv(argv));
  guardStandardStreams();
  const exit: Exit = { code: 0 };
  const text = helpLanguage(argv) === 'zh' ? zh : en;
  usageWords = text.errors;
  const program = buildProgram(exit, text.cli);
  program.hook('preAction', (_program, actionCommand) => {
    const options = actionCommand.opts();
    const lang = resolveLang({ flag: options.lang as string | undefined, env: process.env });
    const words = (lang === 'zh' ? zh : en).errors;
    for (const [key, value] of Object.entries(validatePathOptions(options, words))) actionCommand.setOptionValue(key, value);
    actionCommand.setOptionValue('lang', lang);
    if (actionCommand.name() === 'aggregate') validateReportOperands(actionCommand.args, words);
    const output = DOCUMENT_OUTPUTS.has(actionCommand.name()) ? (actionCommand.opts().output as string | undefined) : undefined;
    describeRun({ command: actionCommand.name(), format: (options.format as string | undefined) ?? 'human', ...(output ? { output } : { output: undefined }) });
    actionStarted = true;
  });
  if (argv.length <= 2) {
    // no arguments asks what qprep does: the help, on stdout, and no error
    process.stdout.write(program.helpInformation());
    return flushAndExit(0);
  }
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return flushAndExit(0);
      }
      const { reportFailure } = await import('./app/failure.js');
      const { message, hints } = usageMessage(error, usageWords);
      exit.code = reportFailure('usage', message, requestedFormat(argv), requestedCommand(argv), hints);
    } else {
      const { reportError } = await import('./app/failure.js');
      exit.code = reportError(error, runIdentity().format, runIdentity().command);
    }
  }
  return flushAndExit(exit.code);
}
