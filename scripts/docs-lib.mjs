// The generated parts of README.md and docs/ (run `npm run build` first):
// the check table and the check reference of docs/checks.md from the check descriptors, and
// every sample output (<!-- sample: ARGS -->) by running the built CLI on the demo snapshots.
// scripts/gen-docs.mjs writes them; test/e2e/docs.test.ts fails while a page differs.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { catalogue } from '../dist/checks/index.js';
import { REFERENCE_END, REFERENCE_START, renderCheckReference, renderCheckTable, replaceBetween, replaceCheckTable } from '../dist/src/report/catalogue-table.js';
import { replaceSamples, sampleArgv } from '../dist/src/report/doc-samples.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** `qprep ARGS` as a reader would run it in a checkout: no NPU tools on PATH, no colors. */
function run(args) {
  try {
    return execFileSync(process.execPath, [`${REPO}bin/qprep.js`, ...sampleArgv(args)], {
      cwd: REPO,
      env: { PATH: '/nonexistent', HOME: process.env.HOME ?? '/root', NO_COLOR: '1' },
      encoding: 'utf8',
    });
  } catch (error) {
    // exit code 1 (not ready) is a verdict, and its report is the sample
    if (error.status === 1 && typeof error.stdout === 'string') return error.stdout;
    throw new Error(`qprep ${args}: exit ${error.status}: ${error.stderr}`);
  }
}

export function regenerate(page, name) {
  let text = replaceSamples(page, run);
  if (name === 'docs/checks.md') {
    text = replaceCheckTable(text, renderCheckTable(catalogue));
    text = text === undefined ? undefined : replaceBetween(text, REFERENCE_START, REFERENCE_END, renderCheckReference(catalogue));
    if (text === undefined) throw new Error('docs/checks.md lacks the check-table or check-reference markers');
  }
  return text;
}

/** The pages with generated parts: the README and every page of docs/. */
export function pages() {
  return ['README.md', ...readdirSync(`${REPO}docs`).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

export { REPO };
