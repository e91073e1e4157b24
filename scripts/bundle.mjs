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
  format: 'esm',
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
 * Two parts in one file. src/cli.ts (and src/app/lifecycle.ts, which runs the process around
 * it) import every command's implementation lazily so that
 * `qprep --version` and `--help` load commander alone. In one flat bundle Node would still
 * compile all of it (zod, yaml and the checks) at every start, which costs more than
 * the start-up target allows on a slow or busy host. So the implementation is built apart, as
 * CommonJS kept in a string of the file and compiled (vm.compileFunction) when cli.ts's first
 * lazy import needs it; every lazy import gets the same instance.
 * One module, one file: nothing is resolved, read or linked per source file at start-up, which
 * is most of what loading ~300 modules from dist/ costs.
 */
const LAZY_IMPORT = /\bimport\(\s*(['"])(\.{1,2}\/[^'"]+)\1\s*\)/g;
/**
 * The modules the start-up part imports lazily, by their path in the repository
 * (`src/app/commands.js`): found while the start-up part is first built, then numbered in a
 * fixed order, so that the output does not depend on the order esbuild loads files in.
 */
const lazyFound = new Set();
let lazyTargets = [];

/** Rewrites the lazy import()s of a start-up module of src/ (records them while `recording`). */
const lazyImportsThroughFunction = (recording) => ({
  name: 'lazy-imports-through-function',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.match(LAZY_IMPORT)) return undefined;
      const target = (specifier) => relative(repo, resolve(dirname(args.path), specifier));
      return {
        // A turn of the event loop before and after the implementation is evaluated, as the import()
        // of files it replaces gives them: a signal that came in the first moments, or while the
        // implementation was being compiled, is handled before the command's code runs (which,
        // started at once, could finish the whole command before the signal's turn)
        contents: text.replace(LAZY_IMPORT, (_, _quote, specifier) => {
          if (recording) lazyFound.add(target(specifier));
          const index = recording ? 0 : lazyTargets.indexOf(target(specifier));
          if (index < 0) throw new Error(`bundle: ${specifier} of ${args.path} was not seen when the start-up part was first built`);
          return `new Promise((resolve) => setImmediate(resolve)).then(() => { const loaded = __qprepImplementation(); return new Promise((resolve) => setImmediate(() => resolve(loaded.m${index}))); })`;
        }),
        loader: 'ts',
        resolveDir: dirname(args.path),
      };
    });
  },
});
const launcherEntry = (sharedImports) => ({
  contents: `import { main } from './src/cli.ts';\n${sharedImports}await main(process.argv);\n`,
  resolveDir: repo,
  sourcefile: 'qprep-bundle-entry.ts',
  loader: 'ts',
});

/*
 * A module of src/ is in the file once. The start-up part has its own (src/cli.ts's static
 * imports: the signal routing, the usage errors, the catalogues); the implementation takes
 * those from it instead of a copy. Two copies would be two states and two classes: the
 * signal handler a command installs would not be the one the process calls, and a usage
 * error thrown by one copy would not be an `instanceof QprepError` of the other.
 */
const startUpSources = new Set(
  Object.keys(Object.values((await build({ ...common, stdin: launcherEntry(''), outfile: 'qprep.mjs', plugins: [lazyImportsThroughFunction(true)] })).metafile.outputs)[0].inputs)
    .filter((input) => input.startsWith('src/'))
    .map((input) => join(repo, input)),
);
lazyTargets = [...lazyFound].sort();
if (lazyTargets.length === 0) throw new Error('bundle: the start-up part has no lazy import(); the two-part layout expects some');
const shared = [];
const startUpModulesFromTheLauncher = {
  name: 'start-up-modules-from-the-launcher',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const source = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      if (!startUpSources.has(source)) return undefined;
      const path = relative(repo, source);
      if (!shared.includes(path)) shared.push(path);
      return { path: `qprep-launcher:${path}`, external: true };
    });
  },
};

const implementation = await build({
  ...common,
  format: 'cjs',
  stdin: {
    contents: lazyTargets.map((target, i) => `export * as m${i} from ${JSON.stringify(`./${target}`)};`).join('\n'),
    resolveDir: repo,
    sourcefile: 'qprep-implementation.ts',
    loader: 'ts',
  },
  outfile: 'implementation.cjs',
  plugins: [startUpModulesFromTheLauncher, englishOnlyZodLocales],
  // a bundled CommonJS module that reads __filename gets the implementation's name, not a ReferenceError
  define: { ...common.define, __filename: JSON.stringify('qprep-implementation.cjs') },
  // src/version.ts reads import.meta only where __QPREP_VERSION__ is not defined: dead code here,
  // which the check below proves after minification took it out
  logOverride: { 'empty-import-meta': 'silent' },
});
const implementationCode = implementation.outputFiles[0].text;
if (/\bimport_meta\b|import\.meta/.test(implementationCode)) throw new Error('bundle: the implementation uses import.meta, which its CommonJS part cannot answer');

const sharedImports = shared.map((path, i) => `import * as __qprepLauncherModule${i} from ${JSON.stringify(`./${path}`)};\n`).join('');
const sharedTable = `export const __qprepLauncherModules = { ${shared.map((path, i) => `${JSON.stringify(path)}: __qprepLauncherModule${i}`).join(', ')} };\n`;
const launcher = await build({
  ...common,
  stdin: launcherEntry(sharedImports + sharedTable),
  outfile: 'qprep.mjs',
  plugins: [lazyImportsThroughFunction(false)],
  banner: {
    js: [
      '#!/usr/bin/env node',
      `// qprep ${version}, single-file build (run: node qprep.mjs --help). Licences of the bundled packages are at the end of this file.`,
      // commander and the implementation's CommonJS dependencies require Node built-ins
      "import { createRequire as __qprepCreateRequire } from 'node:module';",
      'const require = __qprepCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  // Hoisted function declarations: callable before the top-level await runs main(). The
  // implementation is a string until its first use, compiled then: V8 scans a string literal
  // at start-up much faster than the code of a function it has not called.
  footer: {
    js: [
      'var __qprepImplementationExports;',
      `function __qprepImplementationSource() { return ${JSON.stringify(implementationCode)}; }`,
      'function __qprepImplementation() {',
      '  if (__qprepImplementationExports) return __qprepImplementationExports;',
      '  const module = { exports: {} };',
      "  const fromLauncher = (id) => { const found = __qprepLauncherModules[id.slice('qprep-launcher:'.length)]; if (!found) throw new Error(`bundle: ${id} is not in the start-up part`); return found; };",
      "  const run = require('node:vm').compileFunction(__qprepImplementationSource(), ['module', 'exports', 'require'], { filename: 'qprep-implementation.cjs' });",
      "  run(module, module.exports, (id) => (id.startsWith('qprep-launcher:') ? fromLauncher(id) : require(id)));",
      '  return (__qprepImplementationExports = module.exports);',
      '}',
    ].join('\n'),
  },
});
const launcherText = launcher.outputFiles[0].text;
// exported so that it is kept: the footer's use of it is invisible to the bundler
if (!/\b__qprepLauncherModules\s*=/.test(launcherText)) throw new Error('bundle: the table of start-up modules was renamed in the output');
const launcherInputs = Object.keys(Object.values(launcher.metafile.outputs)[0].inputs);
const heavy = launcherInputs.filter((input) => /node_modules[\\/](zod|yaml)[\\/]/.test(input));
if (heavy.length > 0) throw new Error(`bundle: the start-up part pulls in ${heavy.slice(0, 3).join(', ')}: a static import in src/cli.ts or src/app/lifecycle.ts?`);

/** The licence text of every npm package in the bundle: their licences ask for it to travel with the code. */
function licenceNotices(...metafiles) {
  const packages = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(Object.values(metafile.outputs)[0].inputs)) {
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

const notices = licenceNotices(launcher.metafile, implementation.metafile);
mkdirSync(dirname(values.outfile), { recursive: true });
writeFileSync(values.outfile, launcher.outputFiles[0].contents);
const comment = notices.map((notice) => notice.replaceAll('*/', '* /')).join('\n\n----------------------------------------\n\n');
appendFileSync(values.outfile, `\n/*\nThird-party packages bundled in this file and their licences:\n\n${comment}\n*/\n`);
chmodSync(values.outfile, 0o755);

const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
process.stderr.write(
  `bundle: wrote ${values.outfile}: start-up part ${kib(launcher.outputFiles[0].contents.length - implementationCode.length)}, ` +
    `implementation ${kib(implementationCode.length)} (loaded on first use), ${notices.length} bundled packages, qprep ${version}\n`,
);
