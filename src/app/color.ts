/** The options that decide how human output looks. */
export interface ColorOptions {
  output?: string;
  /** --color=auto|always|never; false from --no-color */
  color?: boolean | string;
}

/** FORCE_COLOR as chalk and Node read it: set and not "0" or "false" forces colors on. */
function forcedByEnvironment(): boolean | undefined {
  const value = process.env.FORCE_COLOR;
  if (value === undefined) return undefined;
  return !(value === '0' || value.toLowerCase() === 'false');
}

/**
 * Colors on a terminal, never into a file or a pipe: --color=always|never decide first
 * (--no-color is never), then FORCE_COLOR (set to 0: never), then NO_COLOR, then whether stdout
 * is a terminal.
 */
export function useColor(options: ColorOptions): boolean {
  if (options.color === false || options.color === 'never') return false;
  if (options.color === 'always') return true;
  const forced = forcedByEnvironment();
  if (forced !== undefined) return forced;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (options.output) return false;
  return process.stdout.isTTY === true;
}

/**
 * The width human messages wrap at: the terminal's (COLUMNS first, as a shell exports it), and
 * none when stdout is not a terminal or the report goes to a file: logs keep whole lines.
 */
export function terminalWidth(options: { output?: string }): number | undefined {
  if (options.output || process.stdout.isTTY !== true) return undefined;
  const columns = Number(process.env.COLUMNS);
  if (Number.isInteger(columns) && columns > 0) return columns;
  return process.stdout.columns || 80;
}
