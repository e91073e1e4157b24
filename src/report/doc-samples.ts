/**
 * Sample outputs in the docs, kept true by regenerating them: a page marks each with
 * `<!-- sample: SPEC -->` and `<!-- sample:end -->`, and what lies between is what qprep prints
 * for SPEC (on a demo snapshot: the same on every machine) in a text block, led by the command
 * as a reader would type it.
 *
 * SPEC is a command, then options after ` · `:
 * - `check --snapshot examples/snapshots/a2-broken.json`: `npx qprep check ...` and its stdout;
 * - `A ; B | aggregate -`: the stdout of `npx qprep A` and `npx qprep B` piped into the last;
 * - `· exit: 2`: a usage example, its stderr (the run must end with exit code 2);
 * - `· json: .inventory`: a part of a JSON document, as `| jq .inventory` prints it;
 * - `· sections: Launch layout, Across the cluster`: only the paragraphs that start with those
 *   lines, after a `...` line.
 * Anything else is refused, so that a sample cannot say what qprep did not print.
 */

const SAMPLE = /<!-- sample: (.+?) -->\n([\s\S]*?)<!-- sample:end -->/g;

export interface SampleSpec {
  /** the qprep runs whose stdout is the standard input of the last one, in order */
  producers: string[][];
  /** the run whose output is the sample */
  argv: string[];
  exitCode?: 2;
  json?: string;
  sections?: string[];
}

/** What one run of qprep gave: its exit code and its two streams. */
export interface SampleRun {
  status: number;
  stdout: string;
  stderr: string;
}

export type SampleRunner = (argv: string[], stdin?: string) => SampleRun;

/** Splits sample arguments as a shell would split these simple ones (no quotes are used in samples). */
export function sampleArgv(args: string): string[] {
  if (/["'`$\\|;&<>]/.test(args)) throw new Error(`a sample command takes plain words only: ${args}`);
  return args.split(/\s+/).filter(Boolean);
}

export function parseSample(spec: string): SampleSpec {
  const [command = '', ...options] = spec.split(' · ');
  const stages = command.split(' | ');
  if (stages.length > 2) throw new Error(`a sample pipes into one qprep command: ${spec}`);
  const last = stages.pop()!;
  const parsed: SampleSpec = { producers: stages.length === 0 ? [] : stages[0]!.split(' ; ').map(sampleArgv), argv: sampleArgv(last) };
  for (const option of options) {
    const [, name, value = ''] = /^(\w+): (.+)$/.exec(option) ?? [];
    if (name === 'exit' && value === '2') parsed.exitCode = 2;
    else if (name === 'json' && /^(\.[\w-]+)+$/.test(value)) parsed.json = value;
    else if (name === 'sections') parsed.sections = value.split(', ');
    else throw new Error(`unknown sample option "${option}" in: ${spec}`);
  }
  return parsed;
}

/** The command line of a sample as a reader types it. */
function commandLine(spec: SampleSpec): string {
  const qprep = (argv: string[]) => `npx qprep ${argv.join(' ')}`;
  const producers = spec.producers.map(qprep);
  const input = producers.length === 0 ? '' : producers.length === 1 ? `${producers[0]} | ` : `(${producers.join('; ')}) | `;
  return `${input}${qprep(spec.argv)}${spec.json ? ` | jq ${spec.json}` : ''}`;
}

function selectJson(text: string, path: string): string {
  let value: unknown = JSON.parse(text);
  for (const key of path.slice(1).split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
  if (value === undefined) throw new Error(`the sample's document has no ${path}`);
  return `${JSON.stringify(value, null, 2)}\n`;
}

function selectSections(text: string, headings: readonly string[]): string {
  const paragraphs = text.replace(/\n+$/, '').split(/\n{2,}/);
  const chosen = headings.map((heading) => {
    const found = paragraphs.find((p) => p.split('\n')[0]!.trim() === heading);
    if (found === undefined) throw new Error(`the sample's output has no paragraph "${heading}"`);
    return found;
  });
  return `...\n${chosen.join('\n\n')}\n`;
}

/** What the sample shows of its run: stdout (stderr for a usage example), or the part of it asked for. */
export function sampleOutput(spec: SampleSpec, run: SampleRunner): string {
  const input = spec.producers.map((argv) => {
    const produced = run(argv);
    if (produced.status !== 0 && produced.status !== 1) throw new Error(`qprep ${argv.join(' ')}: exit ${produced.status}: ${produced.stderr}`);
    return produced.stdout;
  });
  const result = run(spec.argv, spec.producers.length > 0 ? input.join('') : undefined);
  const expected = spec.exitCode === 2 ? [2] : [0, 1];
  // exit code 1 (not ready) is a verdict, and its report is the sample
  if (!expected.includes(result.status)) throw new Error(`qprep ${spec.argv.join(' ')}: exit ${result.status}: ${result.stderr}`);
  const output = spec.exitCode === 2 ? result.stderr : result.stdout;
  if (spec.json) return selectJson(output, spec.json);
  if (spec.sections) return selectSections(output, spec.sections);
  return output;
}

/** The run time printed in the summary line ("· 0.1 s"), the one part of a replay that varies. */
const RUN_TIME = /· \d+(\.\d+)? s\b/g;
/** The AGE column of `qprep aggregate`, in seconds for reports replayed a moment before: it varies too. */
const REPORT_AGE = /(?<= )\d+s(?= )/g;

export function sampleBlock(spec: string, output: string): string {
  return `\`\`\`text\n$ ${commandLine(parseSample(spec))}\n${output.replace(/\n*$/, '\n')}\`\`\`\n`;
}

/** Two versions of a sample that differ only in what varies from run to run. */
export function sameSample(spec: string, a: string, b: string): boolean {
  const stable = (text: string) => {
    const timed = text.replace(RUN_TIME, '· T s');
    return parseSample(spec).argv[0] === 'aggregate' ? timed.replace(REPORT_AGE, 'Ns') : timed;
  };
  return stable(a) === stable(b);
}

/**
 * The page with every sample replaced by what its command prints. A sample that differs from
 * the new output only in what varies (its run time, a report's age) is kept as it is, so that regenerating is idempotent.
 */
export function replaceSamples(page: string, run: SampleRunner): string {
  return page.replace(SAMPLE, (_whole, spec: string, old: string) => {
    const fresh = sampleBlock(spec, sampleOutput(parseSample(spec), run));
    return `<!-- sample: ${spec} -->\n${sameSample(spec, old, fresh) ? old : fresh}<!-- sample:end -->`;
  });
}

/**
 * The commands of a page shown with what they print (in a fenced block, `$ qprep ...` or
 * `$ npx qprep ...` followed by a line of output) that are not samples: written by hand, they
 * drift from what qprep prints. Their command lines.
 */
export function handWrittenSamples(page: string): string[] {
  const found: string[] = [];
  for (const [, body = ''] of page.replace(SAMPLE, '').matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)) {
    const lines = body.split('\n');
    lines.forEach((line, i) => {
      const next = lines[i + 1] ?? '';
      if (/^\$ (?:sudo )?(?:\(?npx )?qprep\b/.test(line) && next !== '' && !next.startsWith('$ ')) found.push(line);
    });
  }
  return found;
}
