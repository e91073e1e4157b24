/**
 * "npu-smi info" as a person would type it (for messages, never for execution): every argument
 * that a POSIX shell would split or expand is in single quotes. It lives with the host seam
 * because every floor above it names the commands the seam ran (the tool limiter, the probes,
 * the report).
 */
export function commandLine(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}
