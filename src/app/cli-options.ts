import type { cli } from '../i18n/en/cli.js';
import type { Lang } from '../i18n/lang.js';
import { DEPTHS } from '../core/ids/depths.js';
import { REPORT_FORMATS, type FormatName } from '../report/formats.js';
import { MAX_TIMER_MS } from '../util/timeout.js';

/**
 * The command line as data: every command and every option of every command. The commander
 * program (src/cli.ts), the options each command's code receives (CommandOptions), the path
 * checks before a command runs, and the option table of docs/cli.md are built from these two
 * tables: an option is added here, with its text in the catalogue (src/i18n/en/cli.ts and
 * src/i18n/zh/cli.ts, keyed as its row).
 */

/** A key of the catalogue's command-line section: "check --output", "host --timeout", "explain <id>". */
export type CliText = keyof typeof cli;

export interface CommandSpec {
  /** the formats its --format takes, the first of them the default */
  formats?: readonly FormatName[];
  /** its operands, as commander writes them ("<reports...>"); each described by the catalogue key "COMMAND <operand>" */
  operands?: readonly string[];
  /** the default of an optional operand */
  operandDefault?: string;
  /** its --output is a verdict or a document that an interruption must replace */
  documentOutput?: boolean;
  /** the format of its document when it takes no --format (a snapshot is JSON): its error documents are written in it */
  documentFormat?: FormatName;
  /** it starts probes on a host: an interruption kills them */
  examinesHost?: boolean;
}

/** Every command, in the order of the help; each described by the catalogue key of its name. */
export const COMMANDS = {
  check: { formats: REPORT_FORMATS, documentOutput: true, examinesHost: true },
  serve: { examinesHost: true },
  snapshot: { documentOutput: true, documentFormat: 'json', examinesHost: true },
  facts: { formats: ['json'], documentOutput: true, examinesHost: true },
  tune: { formats: ['human', 'json'], examinesHost: true },
  rollback: { formats: ['human', 'json'], examinesHost: true },
  env: { formats: ['sh', 'json'], examinesHost: true },
  aggregate: { operands: ['<reports...>'], formats: ['human', 'json'], documentOutput: true },
  list: { formats: ['human', 'json'] },
  explain: { operands: ['<id>'], formats: ['human', 'json'], examinesHost: true },
  version: {},
  schema: { operands: ['[document]'], operandDefault: 'report' },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

/**
 * What an option's value is, and so how it is parsed and judged before the command runs:
 * a `flag` takes none; a `duration` needs its unit (10s, 500ms, 2m); a `count` is a positive
 * integer; the path kinds are judged by src/app/path-options.ts (an `output` may be "-" for
 * standard output, an `input-or-stdin` "-" for standard input).
 */
export type ValueKind = 'flag' | 'text' | 'count' | 'duration' | 'format' | 'lang' | 'choice' | PathKind;
export type PathKind = 'input' | 'input-or-stdin' | 'profile' | 'directory' | 'output';
export const PATH_KINDS: readonly ValueKind[] = ['input', 'input-or-stdin', 'profile', 'directory', 'output'];

export interface OptionSpec {
  /** the option's property in the parsed options, camelCase of its long flag */
  name: string;
  /** `--no-NAME`: sets NAME to false */
  negated?: boolean;
  short?: string;
  /** the value's placeholder in the help (`--output <file>`); none for a flag */
  value?: string;
  kind: ValueKind;
  /** given more than once, every value is kept (a list; values may also be comma-separated where the command says so) */
  repeatable?: boolean;
  /** as the user would type it ("10s", "8"); a flag's is false */
  default?: string | false;
  /** the shortest duration it takes, in milliseconds (durations only; default: anything over 0) */
  minMs?: number;
  /**
   * the longest duration it takes, in milliseconds (durations only): a duration that a timer
   * waits for takes at most MAX_TIMER_MS, beyond which Node fires the timer at once
   */
  maxMs?: number;
  choices?: readonly string[];
  required?: boolean;
  /** the commands that take it; `program` options come before the command (`qprep --color=never check`) */
  commands: readonly CommandName[] | 'program';
}

const HOST = ['check', 'serve', 'snapshot', 'facts', 'tune', 'env', 'explain'] as const satisfies readonly CommandName[];
const CHECKS = ['check', 'serve', 'snapshot'] as const satisfies readonly CommandName[];

/** Every option, keyed by the catalogue key of its description. */
export const OPTIONS = {
  'program --color': { name: 'color', value: 'when', kind: 'choice', choices: ['auto', 'always', 'never'], commands: 'program' },
  'program --no-color': { name: 'color', negated: true, kind: 'flag', commands: 'program' },

  'format --format': { name: 'format', short: 'f', value: 'format', kind: 'format', commands: ['check', 'facts', 'tune', 'rollback', 'aggregate', 'list', 'explain'] },
  'env --format': { name: 'format', short: 'f', value: 'format', kind: 'format', commands: ['env'] },
  'check --output': { name: 'output', short: 'o', value: 'file', kind: 'output', commands: ['check'] },
  'snapshot --output': { name: 'output', short: 'o', value: 'file', kind: 'output', required: true, commands: ['snapshot'] },
  'facts --output': { name: 'output', short: 'o', value: 'file', kind: 'output', commands: ['facts'] },
  'aggregate --output': { name: 'output', short: 'o', value: 'file', kind: 'output', commands: ['aggregate'] },

  'check --ignore': { name: 'ignore', value: 'ids', kind: 'text', repeatable: true, commands: ['check'] },
  'serve --ignore': { name: 'ignore', value: 'ids', kind: 'text', repeatable: true, commands: ['serve'] },
  'check --strict': { name: 'strict', kind: 'flag', default: false, commands: ['check'] },
  'serve --strict': { name: 'strict', kind: 'flag', default: false, commands: ['serve'] },
  'aggregate --strict': { name: 'strict', kind: 'flag', default: false, commands: ['aggregate'] },
  'check --verbose': { name: 'verbose', short: 'v', kind: 'flag', commands: ['check'] },
  'check --quiet': { name: 'quiet', short: 'q', kind: 'flag', commands: ['check'] },

  'serve --listen': { name: 'listen', value: 'address:port', kind: 'text', default: '127.0.0.1:9105', commands: ['serve'] },
  'serve --interval': { name: 'interval', value: 'duration', kind: 'duration', default: '5m', minMs: 1000, maxMs: MAX_TIMER_MS, commands: ['serve'] },
  'serve --budget': { name: 'budget', value: 'duration', kind: 'duration', maxMs: MAX_TIMER_MS, commands: ['serve'] },
  'serve --deep-every': { name: 'deepEvery', value: 'duration', kind: 'duration', minMs: 1000, maxMs: MAX_TIMER_MS, commands: ['serve'] },
  'serve --allow-trigger': { name: 'allowTrigger', kind: 'flag', default: false, commands: ['serve'] },
  'serve --allow-host': { name: 'allowHost', value: 'names', kind: 'text', repeatable: true, commands: ['serve'] },
  // sized in docs/robustness.md: a node agent's clients, far inside a 256 file limit beside a run's descriptors
  'serve --max-connections': { name: 'maxConnections', value: 'n', kind: 'count', default: '32', commands: ['serve'] },
  'serve --nfd-features': { name: 'nfdFeatures', value: 'file', kind: 'output', commands: ['serve'] },
  'serve --annotate': { name: 'annotate', value: 'node', kind: 'text', commands: ['serve'] },

  'host --profile': { name: 'profile', value: 'name|file', kind: 'profile', commands: HOST },
  'aggregate --profile': { name: 'profile', value: 'name|file', kind: 'profile', commands: ['aggregate'] },
  'list --profile': { name: 'profile', value: 'name|file', kind: 'profile', commands: ['list'] },
  'host --root': { name: 'root', value: 'dir', kind: 'directory', commands: HOST },
  'rollback --root': { name: 'root', value: 'dir', kind: 'directory', commands: ['rollback'] },
  // snapshot records the host: it replays none
  'host --snapshot': { name: 'snapshot', value: 'file', kind: 'input', commands: ['check', 'serve', 'facts', 'tune', 'env', 'explain'] },
  'rollback --snapshot': { name: 'snapshot', value: 'file', kind: 'input', commands: ['rollback'] },
  'host --timeout': { name: 'timeout', value: 'duration', kind: 'duration', default: '10s', maxMs: MAX_TIMER_MS, commands: HOST },
  'rollback --timeout': { name: 'timeout', value: 'duration', kind: 'duration', default: '10s', maxMs: MAX_TIMER_MS, commands: ['rollback'] },

  'selection --only': { name: 'only', value: 'ids', kind: 'text', repeatable: true, commands: CHECKS },
  'selection --skip': { name: 'skip', value: 'ids', kind: 'text', repeatable: true, commands: CHECKS },
  'selection --jobs': { name: 'jobs', value: 'n', kind: 'count', default: '8', commands: CHECKS },
  // no default here: a replay runs at the depth its snapshot recorded unless --depth is given (standard otherwise)
  'selection --depth': { name: 'depth', value: 'depth', kind: 'choice', choices: DEPTHS, commands: CHECKS },
  'tune --only': { name: 'only', value: 'ids', kind: 'text', repeatable: true, commands: ['tune'] },
  'tune --skip': { name: 'skip', value: 'ids', kind: 'text', repeatable: true, commands: ['tune'] },

  'cluster --cluster': { name: 'cluster', value: 'file', kind: 'input', commands: CHECKS },
  'env --cluster': { name: 'cluster', value: 'file', kind: 'input', commands: ['env'] },
  'aggregate --cluster': { name: 'cluster', value: 'file', kind: 'input', commands: ['aggregate'] },
  'cluster --node': { name: 'node', value: 'name', kind: 'text', commands: CHECKS },
  'env --node': { name: 'node', value: 'name', kind: 'text', commands: ['env'] },
  'cluster --hccn-concurrency': { name: 'hccnConcurrency', value: 'n', kind: 'count', commands: CHECKS },
  'launch --launch': { name: 'launch', value: 'script', kind: 'input-or-stdin', repeatable: true, commands: [...CHECKS, 'explain'] },
  'launch --no-io-probe': { name: 'ioProbe', negated: true, kind: 'flag', commands: CHECKS },

  'facts --include-serial': { name: 'includeSerial', kind: 'flag', default: false, commands: ['facts'] },
  'facts --include-mac': { name: 'includeMac', kind: 'flag', default: false, commands: ['facts'] },
  'tune --dry-run': { name: 'dryRun', kind: 'flag', default: false, commands: ['tune'] },
  'tune --persist': { name: 'persist', kind: 'flag', default: false, commands: ['tune'] },
  'tune --force': { name: 'force', kind: 'flag', default: false, commands: ['tune'] },
  'rollback --dry-run': { name: 'dryRun', kind: 'flag', default: false, commands: ['rollback'] },
  'rollback --force': { name: 'force', kind: 'flag', default: false, commands: ['rollback'] },
  'env --ip': { name: 'ip', value: 'address', kind: 'text', commands: ['env'] },
  'env --nic': { name: 'nic', value: 'name', kind: 'text', commands: ['env'] },
  // an age compared with the reports' times, never waited for: no timer bounds it
  'aggregate --max-age': { name: 'maxAge', value: 'duration', kind: 'duration', commands: ['aggregate'] },
  'list --profiles': { name: 'profiles', kind: 'flag', commands: ['list'] },

  'lang --lang': { name: 'lang', value: 'lang', kind: 'lang', commands: COMMAND_NAMES },
} as const satisfies Partial<Record<CliText, OptionSpec>>;

export type OptionKey = keyof typeof OPTIONS;
type Row<K extends OptionKey> = (typeof OPTIONS)[K];

/** The long flag of an option: `--hccn-concurrency` for hccnConcurrency, `--no-color` for a negated color. */
export function longFlag(option: OptionSpec): string {
  return `--${option.negated ? 'no-' : ''}${option.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** As commander takes it: `-o, --output <file>`. */
export function flagsOf(option: OptionSpec): string {
  const value = option.value === undefined ? '' : ` <${option.value}>`;
  return `${option.short !== undefined ? `-${option.short}, ` : ''}${longFlag(option)}${value}`;
}

/** The options of a command, in the order of the table, each with its catalogue key. */
export function optionsOf(command: CommandName | 'program'): Array<{ key: OptionKey; option: OptionSpec }> {
  return (Object.entries(OPTIONS) as Array<[OptionKey, OptionSpec]>)
    .filter(([, option]) => (command === 'program' ? option.commands === 'program' : option.commands !== 'program' && option.commands.includes(command)))
    .map(([key, option]) => ({ key, option }));
}

/** The option of a command that has this property (`output`), if it takes one. */
export function optionNamed(command: CommandName, name: string): OptionSpec | undefined {
  return optionsOf(command).find(({ option }) => option.name === name)?.option;
}

export function commandSpec(command: CommandName): CommandSpec {
  return COMMANDS[command];
}

export function formatsOf(command: CommandName): readonly FormatName[] {
  return commandSpec(command).formats ?? [];
}

// ---- the options a command's code receives, derived from the table ----

/** The rows every one of the commands C takes (a union C: the options they share). */
type RowsOf<C extends CommandName> = {
  [K in OptionKey]: Row<K>['commands'] extends readonly CommandName[] ? ([C] extends [Row<K>['commands'][number]] ? K : never) : never;
}[OptionKey];

type FormatOf<C extends CommandName> = (typeof COMMANDS)[C] extends { formats: readonly (infer F)[] } ? F : never;

type ValueOf<R extends OptionSpec, C extends CommandName> = R extends { repeatable: true }
  ? string[]
  : R['kind'] extends 'flag'
    ? boolean
    : R['kind'] extends 'count' | 'duration'
      ? number
      : R['kind'] extends 'format'
        ? FormatOf<C>
        : R['kind'] extends 'lang'
          ? Lang
          : R extends { kind: 'choice'; choices: readonly (infer C extends string)[] }
            ? C
            : string;

/** Always present once parsed: a default, a list (empty when not given), a format, the language. */
type Given<R extends OptionSpec> = R extends { default: string | false } | { repeatable: true } | { kind: 'format' | 'lang' } ? true : false;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** What every command receives of the options before its name. */
export interface ProgramOptions {
  /** --color WHEN, or false for --no-color */
  color?: string | boolean;
}

/**
 * The parsed options of command C, as its code receives them: a property for every option of
 * the table that C takes, typed by its kind; `lang` resolved (--lang, QPREP_LANG, the locale);
 * `output` undefined for standard output ("-"). Code that reads an option the table does not
 * give C does not compile.
 */
export type CommandOptions<C extends CommandName> = Simplify<
  { [K in RowsOf<C> as Given<Row<K>> extends true ? Row<K>['name'] : never]: ValueOf<Row<K>, C> } & {
    [K in RowsOf<C> as Given<Row<K>> extends true ? never : Row<K>['name']]?: ValueOf<Row<K>, C>;
  } & ProgramOptions
>;
