import { Command, CommanderError, Option } from 'commander';
import { COMMAND_NAMES, commandSpec, flagsOf, formatsOf, longFlag, optionsOf, type CommandName, type CommandOptions, type OptionKey, type OptionSpec } from './app/cli-options.js';
import { runCli, type Exit } from './app/lifecycle.js';
import { holdSignals } from './app/signals.js';
import { INVENTORY_PROCESS_ARG, rememberSelfCommand } from './host/self-command.js';
import type { en } from './i18n/en/index.js';
import { formatExactDuration, judgeDuration } from './util/duration.js';
import { VERSION } from './version.js';

/**
 * Commander wiring only: the program is built from the command and option tables
 * (src/app/cli-options.ts), the process around it is src/app/lifecycle.ts, and every action
 * imports its implementation lazily, so that `qprep --version` and `--help` load nothing but
 * commander and the catalogues.
 */

type Text = typeof en;
type ErrorText = Text['errors'];

/** A command's code: its parsed options and its operands in, the exit code out. */
type Action<C extends CommandName> = (options: CommandOptions<C>, operands: string[]) => Promise<number> | number;

const ACTIONS: { [C in CommandName]: Action<C> } = {
  check: async (options) => (await import('./app/commands.js')).runCheckCommand(options),
  serve: async (options) => {
    // serve's signals are its lifecycle (stop with exit 0, reload), never an interruption
    holdSignals();
    return (await import('./app/serve.js')).runServeCommand(options);
  },
  snapshot: async (options) => (await import('./app/commands.js')).runSnapshotCommand(options),
  facts: async (options) => (await import('./app/commands.js')).runFactsCommand(options),
  tune: async (options) => (await import('./app/tune.js')).runTuneCommand(options),
  rollback: async (options) => (await import('./app/tune.js')).runRollbackCommand(options),
  env: async (options) => (await import('./app/env.js')).runEnvCommand(options),
  aggregate: async (options, reports) => (await import('./app/aggregate.js')).runAggregateCommand(reports, options),
  list: async (options) => (await import('./app/commands.js')).runListCommand(options),
  explain: async (options, [id]) => (await import('./app/commands.js')).runExplainCommand(id!, options),
  version: () => {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  },
  schema: async (_options, [document]) => (await import('./app/commands.js')).runSchemaCommand(document!),
};

function usage(message: string): CommanderError {
  return new CommanderError(2, 'qprep.usage', message);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function positiveInt(flag: string, words: ErrorText) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) <= 0) throw usage(words.positiveInteger({ flag, value }));
    return Number(value);
  };
}

/** --timeout and every other duration: 10s, 500ms, 2m; a bare number is refused with the unit suggested. */
function duration(flag: string, option: OptionSpec, words: ErrorText) {
  return (value: string): number => {
    const judged = judgeDuration(value, option.minMs, option.maxMs);
    if ('ms' in judged) return judged.ms;
    if (judged.refused === 'no-unit') throw usage(`${words.durationUnit({ flag, value })}\n${words.didYouMean({ name: `${flag} ${value.trim()}s` })}`);
    if (judged.refused === 'too-short') throw usage(words.durationMinimum({ flag, value, minimum: `${(option.minMs ?? 0) / 1000}s` }));
    if (judged.refused === 'too-long') throw usage(words.durationMaximum({ flag, value, maximum: formatExactDuration(option.maxMs ?? 0) }));
    throw usage(words.duration({ flag, value }));
  };
}

/** How a value of the option's kind is read on the command line, and its default as commander holds it. */
type Parser = (value: string, previous: string[]) => unknown;

function valueHandling(option: OptionSpec, words: ErrorText): { parse?: Parser; initial?: unknown } {
  const flag = longFlag(option);
  if (option.repeatable) return { parse: collect, initial: [] };
  switch (option.kind) {
    case 'count': {
      const parse = positiveInt(flag, words);
      return { parse, ...(typeof option.default === 'string' ? { initial: parse(option.default) } : {}) };
    }
    case 'duration': {
      const parse = duration(flag, option, words);
      return { parse, ...(typeof option.default === 'string' ? { initial: parse(option.default) } : {}) };
    }
    default:
      return option.default !== undefined ? { initial: option.default } : {};
  }
}

/** One row of the option table as commander's Option, for `command`. */
function optionFor(command: CommandName | 'program', key: OptionKey, option: OptionSpec, text: Text): Option {
  const built = new Option(flagsOf(option), text.cli[key]);
  const { parse, initial } = valueHandling(option, text.errors);
  if (parse) built.argParser(parse as (value: string, previous: unknown) => unknown);
  if (option.kind === 'format' && command !== 'program') built.choices(formatsOf(command)).default(formatsOf(command)[0]);
  else if (initial !== undefined) built.default(initial, typeof option.default === 'string' && option.kind !== 'text' ? option.default : undefined);
  if (option.choices) built.choices(option.choices);
  if (option.required) built.makeOptionMandatory();
  return built;
}

/** `qprep NAME`: its description, operands, options and action (commander's settings inherited from the program). */
function addCommand(program: Command, name: CommandName, exit: Exit, text: Text): void {
  const command = program.command(name).description(text.cli[name]);
  const spec = commandSpec(name);
  for (const operand of spec.operands ?? []) command.argument(operand, text.cli[`${name} ${operand}` as keyof Text['cli']], spec.operandDefault);
  for (const { key, option } of optionsOf(name)) command.addOption(optionFor(name, key, option, text));
  const action = ACTIONS[name] as Action<CommandName>;
  command.action(async (...args: unknown[]) => {
    const self = args.at(-1) as Command;
    const operands = (self.processedArgs as unknown[]).flat().filter((value): value is string => typeof value === 'string');
    exit.code = await action(self.optsWithGlobals<CommandOptions<CommandName>>(), operands);
  });
}

/** The program itself: its name, version, help and the options before the command. */
function programFor(text: Text): Command {
  const program = new Command()
    .name('qprep')
    .description(text.cli['program'])
    .version(VERSION, '-V, --version', text.cli['program --version'])
    .configureOutput({ outputError: () => undefined })
    .exitOverride()
    .addHelpText('after', text.cli['program examples']);
  for (const { key, option } of optionsOf('program')) program.addOption(optionFor('program', key, option, text));
  return program;
}

/** The commander program of qprep, in the language of `text`; each action sets `exit.code`. */
export function buildProgram(exit: Exit, text: Text): Command {
  const program = programFor(text);
  for (const name of COMMAND_NAMES) addCommand(program, name, exit, text);
  return program;
}

export function main(argv: readonly string[]): Promise<never> {
  // qprep started again by itself to run systeminformation apart (src/host/inventory-process.ts)
  if (argv[2] === INVENTORY_PROCESS_ARG) return import('./host/inventory-worker.js').then((worker) => worker.runInventoryWorker(argv[3]));
  rememberSelfCommand(process.execPath, process.execArgv, argv[1]);
  return runCli(argv, buildProgram);
}
