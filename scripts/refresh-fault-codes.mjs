#!/usr/bin/env node
// Refreshes knowledge/fault-codes.json from an Ascend/mind-cluster git checkout, in two stages:
//
//   extract: reads, at one commit of the checkout (a bare git directory or a work tree; nothing is
//            built, imported or fetched), the device plugin's fault-code table and the lines of the
//            fault-diagnosis knowledge graph that name its codes, and writes them with their line
//            numbers and the commit into knowledge/sources/mind-cluster-fault-codes.json;
//   build:   turns that extract into the table (scripts/fault-codes-lib.mjs, pure) and writes it.
//
//   node scripts/refresh-fault-codes.mjs --repo /path/to/mind-cluster [--ref master]  # extract, then build
//   node scripts/refresh-fault-codes.mjs build                                       # build from the committed extract
//   node scripts/refresh-fault-codes.mjs build --check                               # exit 1 when the table would change
//
// --extract FILE and --table FILE write (and read) elsewhere than knowledge/. knowledge/README.md
// says when to run it and what to review.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildFaultCodes, extractFaultCodeSources, formatExtract, LEVELS_PATH, MEANINGS_PATH } from './fault-codes-lib.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    repo: { type: 'string' },
    ref: { type: 'string', default: 'HEAD' },
    extract: { type: 'string', default: join(here, 'knowledge', 'sources', 'mind-cluster-fault-codes.json') },
    table: { type: 'string', default: join(here, 'knowledge', 'fault-codes.json') },
    check: { type: 'boolean', default: false },
  },
});
const stage = positionals[0] ?? 'all';

function usage(message) {
  process.stderr.write(`refresh-fault-codes: ${message}\nusage: node scripts/refresh-fault-codes.mjs [extract|build|all] [--repo MIND_CLUSTER_GIT_DIR] [--ref REF] [--check]\n`);
  process.exit(2);
}

if (!['extract', 'build', 'all'].includes(stage)) usage(`unknown stage "${stage}"`);
if (stage !== 'build' && !values.repo) usage('extract needs --repo: an Ascend/mind-cluster checkout (a work tree or a bare git directory)');

/** git in the checkout: a bare directory is given with --git-dir, a work tree with -C. */
function gitOf(root) {
  const bare = existsSync(join(root, 'HEAD')) && existsSync(join(root, 'objects'));
  const base = bare ? [`--git-dir=${root}`] : ['-C', root];
  return (...args) => execFileSync('git', [...base, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

function extract(root, ref) {
  const git = gitOf(root);
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`).trim();
  const date = git('log', '-1', '--format=%cs', commit).trim();
  const show = (path) => {
    try {
      return git('show', `${commit}:${path}`);
    } catch {
      usage(`${path} is not in ${root} at ${commit}: the file moved, find its new path in the checkout`);
      return '';
    }
  };
  return extractFaultCodeSources({ levelsText: show(LEVELS_PATH), meaningsText: show(MEANINGS_PATH), commit, date });
}

if (stage !== 'build') {
  const result = extract(resolve(values.repo), values.ref);
  const text = formatExtract(result);
  if (values.check) {
    if (!existsSync(values.extract) || readFileSync(values.extract, 'utf8') !== text) {
      process.stderr.write(`refresh-fault-codes: ${values.extract} would change\n`);
      process.exitCode = 1;
    }
  } else writeFileSync(values.extract, text);
  process.stdout.write(`extract: ${result.commit} (${result.date}), ${result.levels.lines.length} lines of the fault-code table, ${result.meanings.entries.length} codes described\n`);
}
if (stage !== 'extract') {
  const table = buildFaultCodes(JSON.parse(readFileSync(values.extract, 'utf8')));
  const now = existsSync(values.table) ? readFileSync(values.table, 'utf8') : '';
  const rows = JSON.parse(table).rows.length;
  if (now === table) process.stdout.write(`build: ${rows} codes, unchanged\n`);
  else if (values.check) {
    process.stderr.write(`refresh-fault-codes: ${values.table} would change\n`);
    process.exitCode = 1;
  } else {
    writeFileSync(values.table, table);
    process.stdout.write(`build: ${rows} codes written to ${values.table}\n`);
  }
}
