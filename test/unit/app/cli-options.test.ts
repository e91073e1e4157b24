import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, OPTIONS, flagsOf, formatsOf, longFlag, optionsOf, type CommandName, type CommandOptions } from '../../../src/app/cli-options.js';
import { buildProgram } from '../../../src/cli.js';
import { en } from '../../../src/i18n/en/index.js';
import { zh } from '../../../src/i18n/zh/index.js';
import { REPORT_FORMATS } from '../../../src/report/formats.js';

const program = buildProgram({ code: 0 }, en);
const commandNamed = (name: string): Command => program.commands.find((c) => c.name() === name)!;
const longFlags = (options: readonly Option[]) => options.map((o) => o.long).filter((flag) => flag !== '--help');

describe('the command and option tables', () => {
  it('commander is built from them: every command, and every option of each, in the order of the table', () => {
    expect(program.commands.map((c) => c.name())).toEqual(COMMAND_NAMES);
    for (const name of COMMAND_NAMES) {
      expect(longFlags(commandNamed(name).options), name).toEqual(optionsOf(name).map(({ option }) => longFlag(option)));
    }
    expect(longFlags(program.options)).toEqual(['--version', '--color', '--no-color']);
  });

  it('the property of each option is the one commander parses it into', () => {
    for (const name of COMMAND_NAMES) {
      for (const built of commandNamed(name).options) {
        if (built.long === '--help') continue;
        const row = optionsOf(name).find(({ option }) => longFlag(option) === built.long)!.option;
        expect(built.attributeName(), `${name} ${built.long}`).toBe(row.name);
        expect(built.flags).toBe(flagsOf(row));
      }
    }
  });

  it('derives the --format choices of each command from its formats, the first the default', () => {
    const check = commandNamed('check').options.find((o) => o.long === '--format')!;
    expect(check.argChoices).toEqual(REPORT_FORMATS);
    expect(check.defaultValue).toBe('human');
    expect(commandNamed('facts').options.find((o) => o.long === '--format')!.defaultValue).toBe('json');
    expect(commandNamed('env').options.find((o) => o.long === '--format')!.argChoices).toEqual(['sh', 'json']);
    // a command with formats has one --format; one without has none
    for (const name of COMMAND_NAMES) expect(optionsOf(name).filter(({ option }) => option.kind === 'format').length, name).toBe(formatsOf(name).length > 0 ? 1 : 0);
  });

  it('names the options docs/cli.md once lacked: --snapshot, --lang and --hccn-concurrency', () => {
    expect(optionsOf('check').map(({ option }) => longFlag(option))).toEqual(expect.arrayContaining(['--snapshot', '--lang', '--hccn-concurrency']));
  });

  it('every text of the command line is used, and is in both languages', () => {
    const used = new Set<string>([
      'program',
      'program examples',
      'program --version',
      ...Object.keys(OPTIONS),
      ...COMMAND_NAMES,
      ...COMMAND_NAMES.flatMap((name) => commandNamed(name).registeredArguments.map((a) => `${name} ${a.required ? `<${a.name()}${a.variadic ? '...' : ''}>` : `[${a.name()}]`}`)),
    ]);
    expect(Object.keys(en.cli).filter((key) => !used.has(key))).toEqual([]);
    expect(Object.keys(zh.cli).sort()).toEqual(Object.keys(en.cli).sort());
  });

  it('gives each command its options typed: an option the table does not give a command does not compile', () => {
    const check = { format: 'json', timeout: 10_000, only: [], skip: [], ignore: [], launch: [], jobs: 8, strict: false, lang: 'en' } satisfies CommandOptions<'check'>;
    // @ts-expect-error facts takes no --only
    const factsOnly: CommandOptions<'facts'>['only'] = [];
    // @ts-expect-error env's formats are sh and json
    const envJunit: CommandOptions<'env'>['format'] = 'junit';
    // @ts-expect-error snapshot records a host: it takes no --snapshot
    const snapshotOfSnapshot: CommandOptions<'snapshot'>['snapshot'] = 'x.json';
    expect([check.format, factsOnly, envJunit, snapshotOfSnapshot]).toHaveLength(4);
  });

  it('every duration option takes the same durations', () => {
    const durations = (Object.values(OPTIONS) as Array<{ kind: string; name: string; commands: readonly CommandName[] | 'program' }>).filter((o) => o.kind === 'duration');
    expect(durations.map((o) => o.name).sort()).toEqual(['budget', 'deepEvery', 'interval', 'maxAge', 'timeout', 'timeout']);
  });
});
