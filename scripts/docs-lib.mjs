// The generated parts of README.md and docs/ (run `npm run build` first):
// the check table and the check reference of docs/checks.md from the check descriptors, the
// option table of docs/cli.md from the option table of the CLI, the redaction rule's tables of
// docs/security.md from src/util/secrets.ts, the fields qprep aggregate compares (docs/cluster.md)
// from src/aggregate/node-record.ts, and every sample output
// (<!-- sample: SPEC -->, see src/report/doc-samples.ts) by running the built CLI on the demo snapshots.
// scripts/gen-docs.mjs writes them; test/e2e/docs.test.ts fails while a page differs.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { catalogue } from '../dist/checks/index.js';
import { REFERENCE_END, REFERENCE_START, renderCheckReference, renderCheckTable, replaceBetween, replaceCheckTable } from '../dist/src/report/catalogue-table.js';
import { replaceSamples } from '../dist/src/report/doc-samples.js';
import { OPTIONS_END, OPTIONS_START, renderOptionTable } from '../dist/src/app/cli-reference.js';
import { COMPARED_FIELDS_END, COMPARED_FIELDS_START, renderComparedFields } from '../dist/src/aggregate/compared-fields-table.js';
import { renderSecretTables, SECRET_TABLES_END, SECRET_TABLES_START } from '../dist/src/report/secret-tables.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** `qprep ARGV` as a reader would run it in a checkout: no NPU tools on PATH, no colors. */
function run(argv, input) {
  const result = spawnSync(process.execPath, [`${REPO}bin/qprep.js`, ...argv], {
    cwd: REPO,
    env: { PATH: '/nonexistent', HOME: process.env.HOME ?? '/root', NO_COLOR: '1', QPREP_LANG: 'en' },
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function regenerate(page, name) {
  let text = replaceSamples(page, run);
  if (name === 'docs/checks.md') {
    text = replaceCheckTable(text, renderCheckTable(catalogue));
    text = text === undefined ? undefined : replaceBetween(text, REFERENCE_START, REFERENCE_END, renderCheckReference(catalogue));
    if (text === undefined) throw new Error('docs/checks.md lacks the check-table or check-reference markers');
  }
  if (name === 'docs/security.md') {
    text = replaceBetween(text, SECRET_TABLES_START, SECRET_TABLES_END, renderSecretTables());
    if (text === undefined) throw new Error('docs/security.md lacks the secret-tables markers');
  }
  if (name === 'docs/cluster.md') {
    text = replaceBetween(text, COMPARED_FIELDS_START, COMPARED_FIELDS_END, renderComparedFields());
    if (text === undefined) throw new Error('docs/cluster.md lacks the compared-fields markers');
  }
  if (name === 'docs/cli.md') {
    text = replaceBetween(text, OPTIONS_START, OPTIONS_END, renderOptionTable());
    if (text === undefined) throw new Error('docs/cli.md lacks the option-table markers');
  }
  return text;
}

/** The pages with generated parts: the README and every page of docs/. */
export function pages() {
  return ['README.md', ...readdirSync(`${REPO}docs`).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

export { REPO };
