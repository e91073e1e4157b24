#!/usr/bin/env node
// Refreshes the knowledge tables of knowledge/ from a vllm-ascend git checkout, in two stages:
//
//   extract: reads every release tag (v*) and main of the checkout with git (a bare git directory
//            or a work tree; nothing is built, imported or fetched) and writes the few doc lines
//            the tables are made of, each with its path, line and the ref's commit, into
//            knowledge/sources/vllm-ascend.json: the compatibility matrix rows, the Requirements
//            of the installation page, the FAQ's device list, the support-matrix rows of the
//            model families of knowledge/models.json, and the lines that state each rule of
//            knowledge/rules.json and knowledge/quantization.json (their `match`);
//   build:   turns that extract, with the reviewed fields of the tables, into the tables
//            (scripts/knowledge-lib.mjs, pure), and writes them.
//
//   node scripts/refresh-knowledge.mjs --repo /path/to/vllm-ascend   # extract, then build
//   node scripts/refresh-knowledge.mjs build                         # build from the committed extract
//   node scripts/refresh-knowledge.mjs build --check                 # exit 1 when a table would change
//
// knowledge/README.md says when to run which and how to review the result.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildKnowledge, compareVersions, ruleTakes, selectLines, TABLES } from './knowledge-lib.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
const KNOWLEDGE = join(here, 'knowledge');
const EXTRACT = join(KNOWLEDGE, 'sources', 'vllm-ascend.json');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { repo: { type: 'string' }, check: { type: 'boolean', default: false } },
});
const stage = positionals[0] ?? 'all';

function usage(message) {
  process.stderr.write(`refresh-knowledge: ${message}\nusage: node scripts/refresh-knowledge.mjs [extract|build|all] [--repo VLLM_ASCEND_GIT_DIR] [--check]\n`);
  process.exit(2);
}

if (!['extract', 'build', 'all'].includes(stage)) usage(`unknown stage "${stage}"`);
if (stage !== 'build' && !values.repo) usage('extract needs --repo: a vllm-ascend git checkout (a work tree or a bare git directory)');

function readTable(name) {
  return JSON.parse(readFileSync(join(KNOWLEDGE, `${name}.json`), 'utf8'));
}

/** git in the checkout: a bare directory is given with --git-dir, a work tree with -C. */
function gitOf(root) {
  const bare = existsSync(join(root, 'HEAD')) && existsSync(join(root, 'objects'));
  const base = bare ? [`--git-dir=${root}`] : ['-C', root];
  return (...args) => execFileSync('git', [...base, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
}

/** The release tags in version order, then main. */
function refsOf(git) {
  const tags = git('tag', '--list', 'v*')
    .split('\n')
    .filter((t) => /^v\d/.test(t))
    .sort(compareVersions);
  return [...tags, 'main'];
}

const PARTS = [
  { part: 'compat-matrix', paths: ['docs/source/community/versioning_policy.md'] },
  { part: 'installation', paths: ['docs/source/installation.md'] },
  { part: 'faq-devices', paths: ['docs/source/faqs.md'] },
  { part: 'supported-models', paths: ['docs/source/user_guide/support_matrix/supported_models.md', 'docs/source/user_guide/supported_models.md'] },
  { part: 'main-versions', paths: ['mkdocs.yml'], only: 'main' },
  { part: 'vllm-release-tag', paths: ['.github/vllm-release-tag.commit'] },
];

function extract(root) {
  const git = gitOf(root);
  const families = readTable('models').rows.map((f) => f.matrix);
  const rules = [...readTable('rules').rows, ...readTable('quantization').rows].filter((r) => r.match);
  const refs = [];
  const parts = [];
  const ruleEntries = [];
  const previous = new Map();
  const remember = (key, ref, value) => {
    const before = previous.get(key);
    if (before && JSON.stringify(before.value) === JSON.stringify(value)) return before.ref;
    previous.set(key, { ref, value });
    return undefined;
  };
  for (const ref of refsOf(git)) {
    const commit = git('rev-parse', `${ref}^{commit}`).trim();
    const date = git('log', '-1', '--format=%cs', commit).trim();
    refs.push({ ref, commit, date });
    const files = new Set(git('ls-tree', '-r', '--name-only', commit).split('\n').filter(Boolean));
    const cache = new Map();
    const read = (path) => {
      if (!cache.has(path)) cache.set(path, git('show', `${commit}:${path}`));
      return cache.get(path);
    };
    for (const { part, paths, only } of PARTS) {
      if (only && only !== ref) continue;
      const path = paths.find((p) => files.has(p));
      if (!path) continue;
      const lines = selectLines(part, read(path), { ref, all: ref === 'main', families });
      if (lines.length === 0) continue;
      const same = remember(`part:${part}`, ref, { path, lines });
      parts.push(same ? { ref, part, sameAs: same } : { ref, part, path, lines });
    }
    for (const rule of rules) {
      const hits = [];
      for (const match of rule.match) {
        const pattern = new RegExp(match.pattern);
        for (const path of [...files].filter((p) => ruleTakes(match, p)).sort()) {
          read(path)
            .split('\n')
            .forEach((text, i) => {
              if (pattern.test(text)) hits.push([path, i + 1, text]);
            });
        }
      }
      if (hits.length === 0) continue;
      const same = remember(`rule:${rule.id}`, ref, hits);
      ruleEntries.push(same ? { rule: rule.id, ref, sameAs: same } : { rule: rule.id, ref, hits });
    }
  }
  return {
    repo: 'vllm-project/vllm-ascend',
    description:
      'The lines of vllm-ascend\'s docs (and the few log and list lines of its code that rules quote) that the knowledge tables are built from, ' +
      'per release tag and main: [line, text] per part, [path, line, text] per rule; an entry equal to the previous ref\'s says sameAs. ' +
      'Written by scripts/refresh-knowledge.mjs extract; read by its build stage.',
    refs,
    parts,
    rules: ruleEntries,
  };
}

/**
 * JSON with one line per value where that keeps it readable: an array of numbers and strings (a
 * [line, text] pair) or an object of them stays on its line, anything larger opens one line per item;
 * `git diff` of the extract then shows the lines that changed.
 */
function stringifyLines(value, indent = '') {
  const flat = (v) => v === null || typeof v !== 'object' || (Array.isArray(v) ? v : Object.values(v)).every((x) => x === null || typeof x !== 'object');
  if (flat(value)) return JSON.stringify(value);
  const inner = `${indent} `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + stringifyLines(v, inner)).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${stringifyLines(v, inner)}`);
  return `{\n${entries.join(',\n')}\n${indent}}`;
}

function build() {
  const source = JSON.parse(readFileSync(EXTRACT, 'utf8'));
  const reviewed = { models: readTable('models'), rules: readTable('rules'), quantization: readTable('quantization') };
  const texts = buildKnowledge(source, reviewed);
  let changed = 0;
  for (const name of TABLES) {
    const file = join(KNOWLEDGE, `${name}.json`);
    const now = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (now === texts[name]) continue;
    changed++;
    if (values.check) process.stderr.write(`refresh-knowledge: knowledge/${name}.json would change\n`);
    else writeFileSync(file, texts[name]);
  }
  process.stdout.write(`${TABLES.length} tables, ${changed} ${values.check ? 'out of date' : 'written'}\n`);
  return changed;
}

if (stage !== 'build') {
  const result = extract(resolve(values.repo));
  const text = `${stringifyLines(result)}\n`;
  if (values.check) {
    if (readFileSync(EXTRACT, 'utf8') !== text) {
      process.stderr.write('refresh-knowledge: knowledge/sources/vllm-ascend.json would change\n');
      process.exitCode = 1;
    }
  } else writeFileSync(EXTRACT, text);
  process.stdout.write(`extract: ${result.refs.length} refs, ${result.parts.length} parts, ${result.rules.length} rule entries\n`);
}
if (stage !== 'extract' && build() > 0 && values.check) process.exitCode = 1;
