import type { CommandResult } from '../host/types.js';
import { preview } from '../parsers/lines.js';

/** "npu-smi info" as a person would type it (for messages, never for execution). */
export function commandLine(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * Why a command gave no usable answer, in one line, or undefined when it ran and exited 0.
 * Names the command and, for a hang, the timeout.
 */
export function commandProblem(result: CommandResult, timeoutMs: number): string | undefined {
  const line = commandLine(result.argv);
  if (result.timedOut) return `"${line}" did not finish within ${timeoutMs} ms and was killed with its child processes`;
  if (result.notFound) return `"${line}": command not found`;
  if (result.failure) return `"${line}": ${result.failure}`;
  if (result.signal) return `"${line}" was killed by ${result.signal}`;
  if (result.exitCode !== 0) {
    const detail = (result.stderr.trim() || result.stdout.trim()).split('\n').filter(Boolean).pop();
    // a tool's own words may hold terminal escapes or NULs: made visible, never passed raw to a terminal
    return `"${line}" exited with code ${result.exitCode}${detail ? `: ${preview(detail, 200)}` : ''}`;
  }
  return undefined;
}
