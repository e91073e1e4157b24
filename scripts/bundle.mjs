#!/usr/bin/env node
// Builds dist/qprep.mjs: the whole CLI and its dependencies in one ES module that runs with a
// plain `node` (>= 20) and no node_modules, for hosts without npm (air-gapped NPU nodes).
// Usage: node scripts/bundle.mjs [--outfile FILE]
import { appendFileSync, chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { outfile: { type: 'string', default: join(repo, 'dist', 'qprep.mjs') } } });
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

/**
 * zod's `z.locales` namespace pulls every translation of its error messages (about 260 KiB)
 * into the bundle. qprep's messages are English and never switch locale, so the barrel is
 * replaced by one that exports English only; zod registers English by default.
 */
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      return { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-locales' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  // identifiers keep their names: a check that throws carries its stack in the report
  minifyIdentifiers: false,
  legalComments: 'none',
  define: { __QPREP_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
  metafile: true,
  write: false,
};

/*
 * Four parts in one file, each module of src/ in exactly one of them:
 *
 *   head            src/main.ts: catches the signals and starts the first tool calls of a check.
 *                   The only code Node parses with the file: a signal from the first moment the
 *                   process runs JavaScript ends the run with its document, and npu-smi and
 *                   hccn_tool start before the rest is compiled.
 *   early           src/host/early-calls.ts and what it needs (the process runner, the sweep):
 *                   compiled by the head when a check starts its calls early, else when first used.
 *   start-up        src/cli.ts: commander, the catalogues, the process around a command. Compiled
 *                   by the head at once.
 *   implementation  every command's code (zod, yaml, the checks): compiled when cli.ts's first
 *                   lazy import needs it, so that `qprep --version` and `--help` never compile it.
 *
 * The parts after the head are CommonJS kept in line comments at the end of the file: Node skips
 * a comment while it parses the file much faster than a string literal, and compiles nothing of
 * it; the head reads its own file and compiles a part (vm.compileFunction) on its first use.
 * One module, one copy: a part takes the modules of the other parts from them (`qprep-part:PATH`,
 * resolved at run time), never a copy of its own. Two copies would be two states and two
 * classes: the signal handler a command installs would not be the one the process calls, and a
 * usage error thrown by one copy would not be an `instanceof QprepError` of the other. Every lazy
 * `import()` of a module of src/ becomes a call of the loader, with a turn of the event loop
 * before and after a part is compiled, as the import() of files gives them: a signal that came
 * meanwhile is handled before the command's code runs (which, started at once, could finish the
 * whole command before the signal's turn).
 */
const PARTS = ['head', 'early', 'start-up', 'implementation'];
const ENTRIES = { head: 'src/main.ts', early: 'src/host/early-calls.ts', 'start-up': 'src/cli.ts' };
const LAZY_IMPORT = /\bimport\(\s*(['"])(\.{1,2}\/[^'"]+)\1\s*\)/g;
const isSource = (path) => /^(src|checks)\//.test(path) && path.endsWith('.ts');
const sourceOf = (resolveDir, specifier) => relative(repo, resolve(resolveDir, specifier)).replace(/\.js$/, '.ts');

/** The modules of src/ an entry loads statically (lazy imports not followed), and the targets of its lazy imports. */
async function staticClosure(entries) {
  const lazy = new Set();
  const result = await build({
    ...common,
    format: 'esm',
    stdin: { contents: entries.map((entry, i) => `export * as m${i} from ${JSON.stringify(`./${entry}`)};`).join('\n'), resolveDir: repo, sourcefile: 'closure.ts', loader: 'ts' },
    outfile: 'closure.mjs',
    plugins: [
      englishOnlyZodLocales,
      {
        name: 'lazy-imports-not-followed',
        setup(b) {
          b.onLoad({ filter: /[\\/](src|checks)[\\/].*\.ts$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replace(LAZY_IMPORT, (_, _quote, specifier) => {
              lazy.add(sourceOf(dirname(args.path), specifier));
              return 'undefined';
            }),
            loader: 'ts',
            resolveDir: dirname(args.path),
          }));
        },
      },
    ],
    logOverride: { 'empty-import-meta': 'silent' },
  });
  // every module the entries load, not only those whose code survived tree shaking: a part keeps
  // the whole of a module another part takes from it, and with it imports the closure's own
  // build dropped (a function only the implementation calls)
  const inputs = Object.keys(result.metafile.inputs).filter(isSource);
  return { modules: new Set(inputs), lazy };
}

/** Which part each module of src/ is in: the first part whose entry loads it, the implementation for the rest. */
async function partsOfModules() {
  const owner = new Map();
  const lazyTargets = new Set();
  const closures = {};
  for (const part of ['head', 'early', 'start-up']) {
    const { modules, lazy } = await staticClosure([ENTRIES[part]]);
    closures[part] = modules;
    for (const target of lazy) lazyTargets.add(target);
  }
  // A module both the early and the start-up part load goes in the head: the early part is
  // compiled only when a check starts early, and the start-up part must not compile it for
  // `qprep --version` (nor the early part wait for the start-up part's 480 KiB).
  for (const module of closures.early) if (closures['start-up'].has(module)) closures.head.add(module);
  for (const part of ['head', 'early', 'start-up']) for (const module of closures[part]) if (!owner.has(module)) owner.set(module, part);
  // the implementation: what the lazy imports reach, and what its own lazy imports reach, to the end
  let pending = [...lazyTargets].filter((target) => !owner.has(target));
  while (pending.length > 0) {
    const { modules, lazy } = await staticClosure(pending);
    for (const module of modules) if (!owner.has(module)) owner.set(module, 'implementation');
    pending = [...lazy].filter((target) => !owner.has(target));
  }
  return { owner, lazyTargets };
}

const { owner, lazyTargets } = await partsOfModules();
for (const [part, entry] of Object.entries(ENTRIES)) {
  if (owner.get(entry) !== part) throw new Error(`bundle: ${entry} is loaded by an earlier part (${owner.get(entry)}): the layout of src/main.ts changed`);
}

/** One part's build: the other parts' modules external (`qprep-part:PATH`), lazy imports through the loader; `refs` collects what it takes from elsewhere. */
function partPlugins(part, refs) {
  const elsewhere = (path) => owner.has(path) && owner.get(path) !== part;
  return [
    englishOnlyZodLocales,
    {
      name: 'modules-of-other-parts',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, (args) => {
          const path = sourceOf(args.resolveDir, args.path);
          if (!elsewhere(path)) return undefined;
          refs.add(path);
          return { path: `qprep-part:${path}`, external: true };
        });
        b.onLoad({ filter: /[\\/](src|checks)[\\/].*\.ts$/ }, (args) => {
          const text = readFileSync(args.path, 'utf8');
          return {
            contents: text.replace(LAZY_IMPORT, (_, _quote, specifier) => {
              const path = sourceOf(dirname(args.path), specifier);
              if (!owner.has(path)) throw new Error(`bundle: ${specifier} of ${args.path} is in no part`);
              refs.add(path);
              return `__qprepImport(${JSON.stringify(path)})`;
            }),
            loader: 'ts',
            resolveDir: dirname(args.path),
          };
        });
      },
    },
  ];
}

/** The modules of `part` that the other parts take, in a fixed order (their index is their name in the part's exports). */
const exportsOf = (part, refs) => [...refs].filter((path) => owner.get(path) === part).sort();

async function buildPart(part, exported) {
  const refs = new Set();
  if (part === 'head') {
    const imports = exported.map((path, i) => `import * as __qprepHead${i} from ${JSON.stringify(`./${path}`)};\n`).join('');
    const table = `export const __qprepHeadModules = { ${exported.map((path, i) => `${JSON.stringify(path)}: __qprepHead${i}`).join(', ')} };\n`;
    const result = await build({
      ...common,
      format: 'esm',
      stdin: { contents: `import { start } from './src/main.ts';\n${imports}${table}await start(process.argv);\n`, resolveDir: repo, sourcefile: 'qprep-head.ts', loader: 'ts' },
      outfile: 'qprep.mjs',
      plugins: partPlugins(part, refs),
    });
    return { result, refs };
  }
  const roots = part === 'implementation' ? exported : [...new Set([ENTRIES[part], ...exported])];
  const result = await build({
    ...common,
    format: 'cjs',
    stdin: { contents: roots.map((path, i) => `export * as m${i} from ${JSON.stringify(`./${path}`)};`).join('\n'), resolveDir: repo, sourcefile: `qprep-${part}.ts`, loader: 'ts' },
    outfile: `${part}.cjs`,
    plugins: partPlugins(part, refs),
    // a bundled CommonJS module that reads __filename gets its part's name, not a ReferenceError
    define: { ...common.define, __filename: JSON.stringify(`qprep-${part}.cjs`) },
    // src/version.ts reads import.meta only where __QPREP_VERSION__ is not defined: dead code here,
    // which the check below proves after minification took it out
    logOverride: { 'empty-import-meta': 'silent' },
  });
  return { result, refs, roots };
}

/*
 * Twice: the first round finds what each part takes from the others; the second exports exactly
 * those modules from each part (and must find the same references).
 */
const firstRefs = new Set();
for (const part of PARTS) {
  const roots = part === 'implementation' ? [...lazyTargets].filter((path) => owner.get(path) === part).sort() : [];
  for (const path of (await buildPart(part, roots)).refs) firstRefs.add(path);
}
const built = {};
const allRefs = new Set();
for (const part of PARTS) {
  built[part] = await buildPart(part, exportsOf(part, firstRefs));
  for (const path of built[part].refs) allRefs.add(path);
}
const missing = [...allRefs].filter((path) => !firstRefs.has(path));
if (missing.length > 0) throw new Error(`bundle: the second round found references the first did not: ${missing.slice(0, 3).join(', ')}`);

/**
 * A part's code with every character beyond ASCII written as its \\u escape (esbuild leaves
 * a few in regular expressions): Node reads an all-ASCII file into a one-byte string, half the
 * memory and a faster read than a two-byte one. The escape means the same character in a
 * string, a template, a regular expression and an identifier.
 */
const asciiOnly = (code) => code.replace(/[\u{80}-\u{10ffff}]/gu, (ch) => Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
const textOf = (part) => asciiOnly(built[part].result.outputFiles[0].text);
for (const part of PARTS.slice(1)) {
  if (/\bimport_meta\b|import\.meta/.test(textOf(part))) throw new Error(`bundle: the ${part} part uses import.meta, which a CommonJS part cannot answer`);
  // a line comment ends at any line terminator: the payload must have none but \n
  if (/[\r\u2028\u2029]/.test(textOf(part))) throw new Error(`bundle: the ${part} part holds a line terminator other than \\n (CR, U+2028 or U+2029): it would end its line comment`);
}
const inputsOf = (part) => Object.keys(Object.values(built[part].result.metafile.outputs)[0].inputs);
const heavy = [...inputsOf('head'), ...inputsOf('start-up')].filter((input) => /node_modules[\\/](zod|yaml)[\\/]/.test(input));
if (heavy.length > 0) throw new Error(`bundle: the head or the start-up part pulls in ${heavy.slice(0, 3).join(', ')}: a static import in src/cli.ts or src/app/lifecycle.ts?`);
const packagesOf = (part) => new Set(inputsOf(part).map((input) => /node_modules[\\/]((?:@[^/\\]+[\\/])?[^/\\]+)/.exec(input)?.[1]).filter(Boolean));
// a package that src modules of two parts import is in both (chalk: the human report's and the
// tune report's); one that keeps state across modules (zod's registries) must not be
const twice = [];
for (const [i, a] of PARTS.entries()) for (const b of PARTS.slice(i + 1)) for (const name of packagesOf(a)) if (packagesOf(b).has(name)) twice.push(`${name} (${a}, ${b})`);
if (twice.some((entry) => /^(zod|yaml|commander) /.test(entry))) throw new Error(`bundle: bundled twice: ${twice.join(', ')}`);

/** The exported modules of each CommonJS part, by path: index i is `m${i}` of the part's exports. */
const partModules = Object.fromEntries(PARTS.slice(1).map((part) => [part, built[part].roots]));
const moduleIndex = {};
for (const [part, roots] of Object.entries(partModules)) roots.forEach((path, i) => (moduleIndex[path] = [part, `m${i}`]));
for (const path of allRefs) if (owner.get(path) !== 'head' && !moduleIndex[path]) throw new Error(`bundle: ${path} is taken from the ${owner.get(path)} part, which does not export it`);

const MARK = '//@qprep-part ';
/** The parts kept in a string of the head rather than in the comments: the early part, which the head compiles at once for a check, before the file has been read again. */
const INLINE = ['early'];
/** The loader: compiles each part on first use, from its string or from the file's own comments (read as bytes; only the part is decoded). */
const loader = `
var __qprepModuleIndex = ${JSON.stringify(moduleIndex)};
var __qprepInlineParts = { ${INLINE.map((part) => `${JSON.stringify(part)}: () => ${JSON.stringify(textOf(part))}`).join(', ')} };
var __qprepPartExports = {};
var __qprepFileBytes;
function __qprepPartSource(part) {
  const inline = __qprepInlineParts[part];
  if (inline) return inline();
  __qprepFileBytes ??= require('node:fs').readFileSync(require('node:url').fileURLToPath(import.meta.url));
  const start = __qprepFileBytes.indexOf('\\n${MARK}' + part + '\\n');
  const end = __qprepFileBytes.indexOf('\\n${MARK}end\\n', start + 1);
  if (start < 0 || end < 0) throw new Error('qprep: the ' + part + ' part is missing from this file: a damaged copy of the single file?');
  return __qprepFileBytes.toString('utf8', start + ${MARK.length + 4} + part.length, end).replaceAll('\\n//', '\\n');
}
function __qprepPart(part) {
  const loaded = __qprepPartExports[part];
  if (loaded) return loaded;
  const module = { exports: {} };
  const run = require('node:vm').compileFunction(__qprepPartSource(part), ['module', 'exports', 'require', '__qprepImport'], { filename: 'qprep-' + part + '.cjs' });
  run(module, module.exports, (id) => (id.startsWith('qprep-part:') ? __qprepModule(id.slice(11)) : require(id)), __qprepImport);
  __qprepPartExports[part] = module.exports;
  if (Object.keys(__qprepPartExports).length === ${PARTS.length - 1}) __qprepFileBytes = undefined;
  return module.exports;
}
function __qprepModule(path) {
  const head = __qprepHeadModules[path];
  if (head) return head;
  const [part, name] = __qprepModuleIndex[path] ?? [];
  if (!part) throw new Error('qprep: ' + path + ' is in no part of this file');
  return __qprepPart(part)[name];
}
function __qprepImport(path) {
  const [part] = __qprepModuleIndex[path] ?? [];
  if (!part || __qprepPartExports[part]) return Promise.resolve(__qprepModule(path));
  return new Promise((resolve) => setImmediate(resolve)).then(() => {
    const loaded = __qprepModule(path);
    return new Promise((resolve) => setImmediate(() => resolve(loaded)));
  });
}
`;

const headText = textOf('head');
const isAscii = (text) => !/[\u0080-\uffff]/.test(text);
// an ES module cannot take another part's module by import: the head must stand alone
if (headText.includes('qprep-part:')) throw new Error('bundle: the head imports a module of another part statically; only lazy import() may reach them');
// exported so that it is kept: the loader's use of it is invisible to the bundler
if (!/\b__qprepHeadModules\s*=/.test(headText)) throw new Error('bundle: the table of the head\'s modules was renamed in the output');

/** The licence text of every npm package in the bundle: their licences ask for it to travel with the code. */
function licenceNotices() {
  const packages = new Set();
  for (const part of PARTS) {
    for (const input of inputsOf(part)) {
      const match = /^([^:]*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match) packages.add(match[1]);
    }
  }
  return [...packages].sort().map((dir) => {
    const pkg = JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(repo, dir)).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name));
    const text = file ? readFileSync(join(repo, dir, file), 'utf8').trim() : `licence: ${pkg.license ?? 'unknown'} (no licence file in the package)`;
    return `${pkg.name}@${pkg.version} (${pkg.license ?? 'unknown'})\n\n${text}`;
  });
}

const banner = [
  '#!/usr/bin/env node',
  `// qprep ${version}, single-file build (run: node qprep.mjs --help). Licences of the bundled packages are at the end of this file.`,
  // the parts' CommonJS (commander, the implementation's dependencies) require Node built-ins
  "import { createRequire as __qprepCreateRequire } from 'node:module';",
  'const require = __qprepCreateRequire(import.meta.url);',
].join('\n');
const payload = PARTS.slice(1)
  .filter((part) => !INLINE.includes(part))
  .map((part) => {
    const code = textOf(part).replace(/\n$/, '');
    if (`\n${code}`.includes(`\n${MARK.slice(2)}`)) throw new Error(`bundle: a line of the ${part} part begins with the part marker`);
    return `${MARK}${part}\n//${code.replaceAll('\n', '\n//')}\n${MARK}end`;
  })
  .join('\n');
const notices = licenceNotices();
const comment = notices.map((notice) => notice.replaceAll('*/', '* /')).join('\n\n----------------------------------------\n\n');
mkdirSync(dirname(values.outfile), { recursive: true });
// the loader first: the head's last statement awaits the whole run, and it calls the loader
const code = `${banner}\n${loader}${headText}${payload}\n`;
if (!isAscii(code)) throw new Error('bundle: the file holds a character beyond ASCII: Node would read it into a two-byte string');
writeFileSync(values.outfile, code);
appendFileSync(values.outfile, `\n/*\nThird-party packages bundled in this file and their licences:\n\n${comment}\n*/\n`);
chmodSync(values.outfile, 0o755);

const kib = (text) => `${(text.length / 1024).toFixed(0)} KiB`;
process.stderr.write(
  `bundle: wrote ${values.outfile}: head ${kib(headText)}; compiled on first use: early ${kib(textOf('early'))}, start-up ${kib(textOf('start-up'))}, ` +
    `implementation ${kib(textOf('implementation'))}; ${notices.length} bundled packages${twice.length > 0 ? ` (in two parts: ${twice.join(', ')})` : ''}, qprep ${version}\n`,
);
