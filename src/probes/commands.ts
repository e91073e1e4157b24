import { commandLine } from '../host/command-line.js';
import type { CommandResult } from '../host/types.js';
import { preview } from '../parsers/lines.js';
import { en, type Catalogue } from '../i18n/en/index.js';

/**
 * Why a command gave no usable answer, in one line, or undefined when it ran and exited 0.
 * Names the command and, for a hang, the timeout.
 */
export function commandProblem(result: CommandResult, timeoutMs: number, text: Catalogue = en): string | undefined {
  const line = commandLine(result.argv);
  const t = text.probes.command;
  if (result.timedOut) return t.timedOut({ line, timeoutMs });
  if (result.notFound) return t.notFound({ line });
  if (result.failure) return t.failure({ line, failure: result.failure });
  if (result.signal) return t.killed({ line, signal: result.signal });
  if (result.exitCode !== 0) {
    const detail = (result.stderr.trim() || result.stdout.trim()).split('\n').filter(Boolean).pop();
    // a tool's own words may hold terminal escapes or NULs: made visible, never passed raw to a terminal
    return t.exited({ line, exitCode: result.exitCode, detail: detail ? preview(detail, 200) : null });
  }
  return undefined;
}
