/**
 * Sample outputs in the docs, kept true by regenerating them: a page marks each with
 * `<!-- sample: ARGS -->` and `<!-- sample:end -->`, and what lies between is the output of
 * `qprep ARGS` (on a demo snapshot: the same on every machine) in a text block.
 */

const SAMPLE = /<!-- sample: (.+?) -->\n([\s\S]*?)<!-- sample:end -->/g;

/** The run time printed in the summary line ("· 0.1 s"), the one part of a replay that varies. */
const RUN_TIME = /· \d+(\.\d+)? s\b/g;

export function sampleBlock(args: string, output: string): string {
  return `\`\`\`text\n$ npx qprep ${args}\n${output.replace(/\n*$/, '\n')}\`\`\`\n`;
}

/**
 * The page with every sample replaced by what `run(args)` prints. A sample that differs from
 * the new output only in its run time is kept as it is, so that regenerating is idempotent.
 */
export function replaceSamples(page: string, run: (args: string) => string): string {
  return page.replace(SAMPLE, (_whole, args: string, old: string) => {
    const fresh = sampleBlock(args, run(args));
    const same = old.replace(RUN_TIME, '· T s') === fresh.replace(RUN_TIME, '· T s');
    return `<!-- sample: ${args} -->\n${same ? old : fresh}<!-- sample:end -->`;
  });
}

/** Splits sample arguments as a shell would split these simple ones (no quotes are used in samples). */
export function sampleArgv(args: string): string[] {
  if (/["'`$\\|;&<>]/.test(args)) throw new Error(`a sample command takes plain words only: ${args}`);
  return args.split(/\s+/).filter(Boolean);
}
