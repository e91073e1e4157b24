/**
 * The command line as typed, before commander has parsed it: what the first lines of the process
 * (signals, the early tool calls) and the error paths of a command line that does not parse need
 * to know. Nothing here imports anything: the single file runs it before its start-up part is
 * compiled.
 */

/** Every value of an option on the raw command line (`--skip A --skip=B`, `-o F`, `-oF`), in order. */
export function rawOptions(argv: readonly string[], long: string, short?: string): string[] {
  const found: string[] = [];
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === long || (short !== undefined && arg === short)) {
      const value = argv[++i];
      if (value !== undefined) found.push(value);
    } else if (arg.startsWith(`${long}=`)) found.push(arg.slice(long.length + 1));
    else if (short !== undefined && arg.startsWith(short) && !arg.startsWith('--')) found.push(arg.slice(short.length));
  }
  return found;
}

/** The value of an option on the raw command line: the last one given, as commander keeps it. */
export function rawOption(argv: readonly string[], long: string, short?: string): string | undefined {
  return rawOptions(argv, long, short).at(-1);
}
