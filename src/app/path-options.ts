import { dirname, resolve } from 'node:path';
import type { Stats } from 'node:fs';
import { usageError } from '../errors.js';
import { kindOfStat, statInputPath } from '../host/inputs.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import { formatsOf, longFlag, optionNamed, optionsOf, PATH_KINDS, type CommandName, type PathKind } from './cli-options.js';

/**
 * Every path-valued option is judged here, once, before a command reads a profile, opens a host
 * or runs a check: an empty value or a path of the wrong kind is a usage error naming the flag.
 * Left to the commands, `--snapshot ""` meant the live host, `--root ""` the current directory
 * and `-o ""` standard output, each a verdict on something the operator did not name.
 */

/** A profile given as a file rather than a built-in name: it has a path separator or a YAML/JSON extension. */
export function looksLikeProfileFile(spec: string): boolean {
  return /[/\\]/.test(spec) || /\.(ya?ml|json)$/i.test(spec);
}

type Words = Catalogue['errors'];

function kindIn(words: Words, stat: Stats): string {
  const kind = kindOfStat(stat);
  return words.pathKinds[kind] ?? kind;
}

function checkInputFile(flag: string, value: string, words: Words): void {
  const stat = statInputPath(value);
  if (stat && !stat.isFile()) throw usageError(words.pathNotFile({ flag, value, kind: kindIn(words, stat) }));
}

function checkOption(flag: string, kind: PathKind, value: string, words: Words): void {
  if (value.trim() === '') throw usageError(words.pathEmpty({ flag }));
  switch (kind) {
    case 'input':
      return checkInputFile(flag, value, words);
    case 'input-or-stdin':
      return value === '-' ? undefined : checkInputFile(flag, value, words);
    case 'profile':
      return looksLikeProfileFile(value) ? checkInputFile(flag, value, words) : undefined;
    case 'directory': {
      const stat = statInputPath(value);
      if (!stat) throw usageError(words.pathNoDirectory({ flag, value }));
      if (!stat.isDirectory()) throw usageError(words.pathNotDirectory({ flag, value, kind: kindIn(words, stat) }));
      return;
    }
    case 'output': {
      if (value === '-') return;
      const stat = statInputPath(value);
      // a device or a FIFO would be replaced by the atomic rename, not written to
      if (stat && !stat.isFile()) throw usageError(words.outputNotFile({ flag, value, kind: kindIn(words, stat) }));
      const dir = dirname(resolve(value));
      const parent = statInputPath(dir);
      if (!parent) throw usageError(words.outputNoParent({ flag, value, dir }));
      if (!parent.isDirectory()) throw usageError(words.outputParentNotDirectory({ flag, value, dir }));
      return;
    }
  }
}

/**
 * Validates the path options of a parsed command (those the option table gives a path kind) and
 * normalizes them: `-o -` becomes standard output (no output file). Returns the options to set
 * on the command.
 */
export function validatePathOptions(command: CommandName, options: Record<string, unknown>, words: Words = en.errors): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const { option } of optionsOf(command)) {
    if (!PATH_KINDS.includes(option.kind)) continue;
    const kind = option.kind as PathKind;
    const flag = longFlag(option);
    const value = options[option.name];
    // a repeatable option (--launch) holds every value given: each is judged
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string') checkOption(flag, kind, item, words);
      if (kind === 'input-or-stdin' && value.filter((item) => item === '-').length > 1) throw usageError(words.stdinTwice({ flag }));
      continue;
    }
    if (typeof value !== 'string') continue;
    checkOption(flag, kind, value, words);
    if (kind === 'output' && value === '-') changes[option.name] = undefined;
  }
  return changes;
}

/**
 * `-o json` without `-f`: the name of one of the command's formats given as the output file.
 * It would write the human report to a file named "json"; it is a usage error that suggests
 * `-f json`. A file of that name is still written when asked for as a path (`-o ./json`) or
 * with the format given (`-f json -o json`).
 */
export function refuseFormatAsOutput(command: CommandName, options: Record<string, unknown>, formatGiven: boolean, words: Words = en.errors): void {
  const output = options['output'];
  if (formatGiven || typeof output !== 'string' || optionNamed(command, 'format') === undefined) return;
  const format = formatsOf(command).find((name) => name === output.trim().toLowerCase());
  if (format === undefined) return;
  throw usageError(`${words.outputIsAFormat({ value: output })}\n${words.didYouMean({ name: `-f ${format}` })}`);
}

/** The operands of `qprep aggregate`: files, directories, or "-" for standard input. */
export function validateReportOperands(operands: readonly string[], words: Words = en.errors): void {
  for (const operand of operands) {
    if (operand.trim() === '') throw usageError(words.operandEmpty);
    if (operand === '-') continue;
    const stat = statInputPath(operand);
    if (stat && !stat.isFile() && !stat.isDirectory()) throw usageError(words.operandKind({ operand, kind: kindIn(words, stat) }));
  }
}
