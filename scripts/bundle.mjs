#!/usr/bin/env node
// Builds dist/qprep.mjs: the whole CLI and its dependencies in one ES module that runs with a
// plain `node` (>= 20) and no node_modules, for hosts without npm (air-gapped NPU nodes).
// Usage: node scripts/bundle.mjs [--outfile FILE]
import { appendFileSync, chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { outfile: { type: 'string', default: join(repo, 'dist', 'qprep.mjs') } } });
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const cliSource = join(repo, 'src', 'cli.ts');

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
  minify: true,
  legalComments: 'none',
  define: { __QPREP_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
  metafile: true,
  write: false,
};

/*
 * Two parts in one file. src/cli.ts imports every command's implementation lazily so that
 * `qprep --version` and `--help` load commander alone. In one flat bundle Node would still
 * compile all of it (zod, yaml and the checks) at every start, which costs more than
 * the start-up target allows on a slow or busy host. So the implementation is built apart,
 * as one module that cli.ts's lazy imports reach through a data: URL: Node compiles it only
 * when a command needs it, and every lazy import gets the same module instance.
 */
const LAZY_IMPORT = /\bimport\(\s*(['"])(\.{1,2}\/[^'"]+)\1\s*\)/g;
const lazySpecifiers = [...new Set([...readFileSync(cliSource, 'utf8').matchAll(LAZY_IMPORT)].map((match) => match[2]))];
if (lazySpecifiers.length === 0) throw new Error('bundle: src/cli.ts has no lazy import(); the two-part layout expects some');

const implementation = await build({
  ...common,
  stdin: {
    contents: lazySpecifiers.map((specifier, i) => `export * as m${i} from ${JSON.stringify(specifier)};`).join('\n'),
    resolveDir: dirname(cliSource),
    sourcefile: 'qprep-implementation.ts',
    loader: 'ts',
  },
  outfile: 'implementation.mjs',
  plugins: [englishOnlyZodLocales],
  // write-file-atomic seeds its temporary file names with the CommonJS __filename, which an
  // ES module lacks: without this every --output fails with "__filename is not defined"
  define: { ...common.define, __filename: JSON.stringify('qprep-implementation.mjs') },
  // CommonJS dependencies (cross-spawn, write-file-atomic) call require() for Node built-ins;
  // an ES module has none. A data: module has no file URL to create one from: node's path serves.
  banner: { js: "import { createRequire as __qprepCreateRequire } from 'node:module';const require = __qprepCreateRequire(process.execPath);" },
});
// without a name, stack traces would print the whole data: URL for every frame
const implementationCode = `${implementation.outputFiles[0].text}//# sourceURL=qprep-implementation.mjs\n`;
if (implementationCode.includes('import.meta')) throw new Error('bundle: the implementation uses import.meta, which a data: module cannot answer');
const implementationUrl = `data:text/javascript;base64,${Buffer.from(implementationCode).toString('base64')}`;

const lazyImportsThroughDataUrl = {
  name: 'lazy-imports-through-data-url',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]cli\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(LAZY_IMPORT, (_, _quote, specifier) => `import(__qprepImplementation()).then((m) => m.m${lazySpecifiers.indexOf(specifier)})`),
      loader: 'ts',
      resolveDir: dirname(args.path),
    }));
  },
};

const launcher = await build({
  ...common,
  stdin: {
    contents: "import { main } from './src/cli.ts';\nawait main(process.argv);\n",
    resolveDir: repo,
    sourcefile: 'qprep-bundle-entry.ts',
    loader: 'ts',
  },
  outfile: 'qprep.mjs',
  plugins: [lazyImportsThroughDataUrl],
  banner: {
    js: [
      '#!/usr/bin/env node',
      `// qprep ${version}, single-file build (run: node qprep.mjs --help). Licences of the bundled packages are at the end of this file.`,
      // commander is CommonJS and requires Node built-ins
      "import { createRequire as __qprepCreateRequire } from 'node:module';",
      'const require = __qprepCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  // a hoisted function declaration: the URL is ready before the top-level await runs main()
  footer: { js: `function __qprepImplementation() { return ${JSON.stringify(implementationUrl)}; }` },
});
const launcherInputs = Object.keys(Object.values(launcher.metafile.outputs)[0].inputs);
const heavy = launcherInputs.filter((input) => /node_modules[\\/](zod|yaml)[\\/]|[\\/]src[\\/]app[\\/]/.test(input));
if (heavy.length > 0) throw new Error(`bundle: the start-up part pulls in ${heavy.slice(0, 3).join(', ')}: a static import in src/cli.ts?`);

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
  `bundle: wrote ${values.outfile}: start-up part ${kib(launcher.outputFiles[0].contents.length - implementationUrl.length)}, ` +
    `implementation ${kib(implementationCode.length)} (loaded on first use), ${notices.length} bundled packages, qprep ${version}\n`,
);
