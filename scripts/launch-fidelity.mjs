#!/usr/bin/env node
// Measures `qprep check --launch` against the launch scripts of the vllm-ascend documentation:
// every shell block of docs/source/tutorials/, docs/source/user_guide/ and examples/ that starts
// a server (vllm serve, the OpenAI api_server module) is judged on the demo A2, A3 and 300I Duo
// hosts (examples/snapshots, replayed with --snapshot). It reads a vllm-ascend checkout that is
// already on disk, a work tree or a bare git directory, and fetches nothing:
//
//   npm run build
//   node scripts/launch-fidelity.mjs /path/to/vllm-ascend [--ref TAG] [--out findings.json] [--only PATH_SUBSTRING]
//
// --ref reads the files of a tag or commit with git (a release tree: --ref v0.25.1rc1) instead of
// HEAD, or of the work tree's files as they are.
//
// Prints one line per script and host with the fails and warnings of the launch checks, then the
// totals. The JSON written with --out holds every block (source, lines, text) and every finding,
// to be read by hand: which findings a maintainer would call false is a judgement, not computed.
import { execFileSync, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';

const run = promisify(execFile);
const here = new URL('..', import.meta.url).pathname;
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, only: { type: 'string' }, ref: { type: 'string' }, jobs: { type: 'string', default: '2' } },
});

function usage(message) {
  process.stderr.write(`launch-fidelity: ${message}\nusage: node scripts/launch-fidelity.mjs VLLM_ASCEND_CHECKOUT [--ref TAG] [--out FILE] [--only PATH_SUBSTRING] [--jobs N]\n`);
  process.exit(2);
}

const checkout = positionals[0];
if (!checkout) usage('give the path of a vllm-ascend checkout (a work tree or a bare git directory)');
if (!existsSync(checkout)) usage(`${checkout}: no such directory`);
if (!existsSync(join(here, 'dist/src/cli.js'))) usage('build qprep first: npm run build');

const HOSTS = {
  A2: 'examples/snapshots/a2-healthy.json',
  A3: 'examples/snapshots/a3-healthy.json',
  '300I Duo': 'examples/snapshots/300i-duo-healthy.json',
};
const ROOTS = ['docs/source/tutorials/', 'docs/source/user_guide/', 'examples/'];

/** The files of the checkout: from the work tree, or with git from a bare repository or at --ref. */
function source(root, ref) {
  const bare = existsSync(join(root, 'HEAD')) && existsSync(join(root, 'objects'));
  if (bare || ref) {
    const base = bare ? [`--git-dir=${root}`] : ['-C', root];
    const git = (...args) => execFileSync('git', [...base, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const at = ref ?? 'HEAD';
    const commit = git('rev-parse', `${at}^{commit}`).trim();
    const files = git('ls-tree', '-r', '--name-only', commit).split('\n').filter(Boolean);
    return { commit, ref: ref ?? null, files, read: (path) => git('show', `${commit}:${path}`) };
  }
  let commit = 'work tree';
  try {
    commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // not a git checkout: the files as they are
  }
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(relative(root, full));
    }
  };
  for (const top of ROOTS) if (existsSync(join(root, top))) walk(join(root, top));
  return { commit, files, read: (path) => readFileSync(join(root, path), 'utf8') };
}

const SERVER = /\bvllm\s+serve\b|vllm\.entrypoints\.(openai\.)?api_server|vllm\.entrypoints\.cli\.main\s+serve/;

/** Fenced shell blocks of a Markdown file, with their first line (1-based, the line after the fence). */
function markdownBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  let open = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^(\s*)(`{3,}|~{3,})\s*\{?([A-Za-z0-9_+-]*)/.exec(line);
    if (!open && fence) {
      open = { indent: fence[1].length, marker: fence[2], lang: fence[3].toLowerCase(), start: i + 2, body: [] };
      continue;
    }
    if (open && new RegExp(`^\\s*${open.marker[0] === '`' ? '`' : '~'}{${open.marker.length},}\\s*$`).test(line)) {
      if (['bash', 'shell', 'sh', 'console', ''].includes(open.lang)) blocks.push({ lang: open.lang, start: open.start, end: i, text: `${open.body.join('\n')}\n` });
      open = null;
      continue;
    }
    if (open) open.body.push(open.indent > 0 ? line.replace(new RegExp(`^ {0,${open.indent}}`), '') : line);
  }
  return blocks;
}

function extract(repo) {
  const scripts = [];
  for (const path of repo.files) {
    if (!ROOTS.some((r) => path.startsWith(r))) continue;
    if (path.endsWith('.md')) {
      for (const block of markdownBlocks(repo.read(path))) if (SERVER.test(block.text)) scripts.push({ path, lines: `${block.start}-${block.end}`, text: block.text });
    } else if (path.endsWith('.sh')) {
      const text = repo.read(path);
      if (SERVER.test(text)) scripts.push({ path, lines: 'whole file', text });
    }
  }
  return scripts.filter((s) => !values.only || `${s.path}:${s.lines}`.includes(values.only));
}

async function judge(file, snapshot) {
  const args = [join(here, 'bin/qprep.js'), 'check', '--only', 'launch', '--snapshot', join(here, snapshot), '--launch', file, '--format', 'json'];
  let stdout;
  try {
    ({ stdout } = await run(process.execPath, args, { maxBuffer: 64 << 20, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/root', LANG: 'C.UTF-8' } }));
  } catch (error) {
    stdout = error.stdout;
  }
  const report = JSON.parse(stdout);
  if (report.error) return { error: report.error.message, findings: [] };
  const findings = report.checks
    .filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error')
    .map((c) => ({ id: c.id, status: c.status, message: c.message, remediation: c.remediation ?? null }));
  return { ready: report.ready, findings };
}

const repo = source(resolve(checkout), values.ref);
const scripts = extract(repo);
const work = mkdtempSync(join(tmpdir(), 'qprep-launch-fidelity-'));
const results = [];
const queue = [];
scripts.forEach((script, index) => {
  const file = join(work, `${String(index).padStart(3, "0")}-${script.path.replace(/^.*\//, "").replace(/\.(md|sh)$/, "")}.sh`);
  writeFileSync(file, script.text);
  for (const [host, snapshot] of Object.entries(HOSTS)) queue.push({ script, index, file, host, snapshot });
});
const jobs = Math.max(1, Number(values.jobs) || 1);
await Promise.all(
  Array.from({ length: jobs }, async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const verdict = await judge(item.file, item.snapshot);
      results.push({ index: item.index, host: item.host, ...verdict });
    }
  }),
);
rmSync(work, { recursive: true, force: true });
results.sort((a, b) => a.index - b.index || Object.keys(HOSTS).indexOf(a.host) - Object.keys(HOSTS).indexOf(b.host));

const totals = { scripts: scripts.length, runs: results.length, fail: 0, warn: 0, error: 0, byCheck: {} };
for (const r of results) {
  const s = scripts[r.index];
  const shown = r.error ? `error: ${r.error}` : r.findings.map((f) => `${f.status} ${f.id}: ${f.message}`).join('\n      ') || 'no fail, no warning';
  process.stdout.write(`${s.path}:${s.lines} [${r.host}]\n      ${shown}\n`);
  for (const f of r.findings) {
    totals[f.status]++;
    const key = `${f.id} ${f.status}`;
    totals.byCheck[key] = (totals.byCheck[key] ?? 0) + 1;
  }
}
process.stdout.write(`\nvllm-ascend ${repo.ref ? `${repo.ref} (${repo.commit})` : repo.commit}: ${totals.scripts} scripts x ${Object.keys(HOSTS).length} hosts = ${totals.runs} runs; ${totals.fail} fails, ${totals.warn} warnings, ${totals.error} errors\n`);
for (const [key, count] of Object.entries(totals.byCheck).sort()) process.stdout.write(`  ${key}: ${count}\n`);
if (values.out) {
  writeFileSync(values.out, `${JSON.stringify({ commit: repo.commit, ref: repo.ref ?? null, totals, scripts: scripts.map((s, i) => ({ ...s, results: results.filter((r) => r.index === i) })) }, null, 1)}\n`);
}
