import type { CommandResult } from './types.js';

/** A result with no exit status and no output yet: what a command has before it has run. */
export function emptyCommandResult(argv: readonly string[]): CommandResult {
  return {
    argv: [...argv],
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    durationMs: 0,
    timedOut: false,
    notFound: false,
  };
}

/** A command qprep did not start, with the reason a check shows in its `error`. */
export function commandNotRun(argv: readonly string[], failure: string): CommandResult {
  return { ...emptyCommandResult(argv), failure };
}
