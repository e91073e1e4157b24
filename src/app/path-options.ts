import { dirname, resolve } from 'node:path';
import { usageError } from '../core/errors.js';
import { kindOfStat, statInputPath } from '../host/inputs.js';

/**
 * Every path-valued option is judged here, once, before a command reads a profile, opens a host
 * or runs a check: an empty value or a path of the wrong kind is a usage error naming the flag.
 * Left to the commands, `--snapshot ""` meant the live host, `--root ""` the current directory
 * and `-o ""` standard output, each a verdict on something the operator did not name.
 */

type PathKind =
  /** an input document: a regular file (absent is left to its reader, which says so) */
  | 'input'
  /** an input document, or "-" for standard input */
  | 'input-or-stdin'
  /** a built-in profile name, or a profile file */
  | 'profile'
  /** an existing directory */
  | 'directory'
  /** a file to write, or "-" for standard output */
  | 'output';

const PATH_OPTIONS: Record<string, PathKind> = {
  snapshot: 'input',
  cluster: 'input',
  launch: 'input-or-stdin',
  profile: 'profile',
  root: 'directory',
  output: 'output',
};

function flagOf(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** A profile given as a file rather than a built-in name: it has a path separator or a YAML/JSON extension. */
export function looksLikeProfileFile(spec: string): boolean {
  return /[/\\]/.test(spec) || /\.(ya?ml|json)$/i.test(spec);
}

function checkInputFile(flag: string, value: string): void {
  const stat = statInputPath(value);
  if (stat && !stat.isFile()) throw usageError(`${flag} ${value}: it is a ${kindOfStat(stat)}, not a regular file`);
}

function checkOption(flag: string, kind: PathKind, value: string): void {
  if (value.trim() === '') throw usageError(`${flag} expects a path, got an empty value`);
  switch (kind) {
    case 'input':
      return checkInputFile(flag, value);
    case 'input-or-stdin':
      return value === '-' ? undefined : checkInputFile(flag, value);
    case 'profile':
      return looksLikeProfileFile(value) ? checkInputFile(flag, value) : undefined;
    case 'directory': {
      const stat = statInputPath(value);
      if (!stat) throw usageError(`${flag} ${value}: no such directory`);
      if (!stat.isDirectory()) throw usageError(`${flag} ${value}: it is a ${kindOfStat(stat)}, not a directory`);
      return;
    }
    case 'output': {
      if (value === '-') return;
      const stat = statInputPath(value);
      // a device or a FIFO would be replaced by the atomic rename, not written to
      if (stat && !stat.isFile()) throw usageError(`${flag} ${value}: it is a ${kindOfStat(stat)}, not a regular file (use - for standard output)`);
      const dir = dirname(resolve(value));
      const parent = statInputPath(dir);
      if (!parent) throw usageError(`${flag} ${value}: directory ${dir} does not exist`);
      if (!parent.isDirectory()) throw usageError(`${flag} ${value}: ${dir} is not a directory`);
      return;
    }
  }
}

/**
 * Validates the path options of a parsed command and normalizes them: `-o -` becomes standard
 * output (no output file). Returns the options to set on the command.
 */
export function validatePathOptions(options: Record<string, unknown>): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(PATH_OPTIONS)) {
    const value = options[key];
    // a repeatable option (--launch) holds every value given: each is judged
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string') checkOption(flagOf(key), kind, item);
      if (kind === 'input-or-stdin' && value.filter((item) => item === '-').length > 1) throw usageError(`${flagOf(key)} - is given twice: standard input can be read once`);
      continue;
    }
    if (typeof value !== 'string') continue;
    checkOption(flagOf(key), kind, value);
    if (kind === 'output' && value === '-') changes[key] = undefined;
  }
  return changes;
}

/** The operands of `qprep aggregate`: files, directories, or "-" for standard input. */
export function validateReportOperands(operands: readonly string[]): void {
  for (const operand of operands) {
    if (operand.trim() === '') throw usageError('aggregate: a report operand is an empty path');
    if (operand === '-') continue;
    const stat = statInputPath(operand);
    if (stat && !stat.isFile() && !stat.isDirectory()) throw usageError(`aggregate: ${operand}: it is a ${kindOfStat(stat)}, not a report file or a directory`);
  }
}
