/** The options that decide whether human output is colored. */
export interface ColorOptions {
  output?: string;
  color?: boolean;
}

/** Colors only on a terminal, never into a file, and never against --no-color or NO_COLOR. */
export function useColor(options: ColorOptions): boolean {
  if (options.color === false) return false;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (options.output) return false;
  return process.stdout.isTTY === true;
}
