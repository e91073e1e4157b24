#!/usr/bin/env node
// Builds dist/qprep.mjs: the whole CLI and its dependencies in one ES module that runs with a
// plain `node` (>= 20) and no node_modules, for hosts without npm (air-gapped NPU nodes).
// Usage: node scripts/bundle.mjs [--outfile FILE]
import { chmodSync, existsSync, readdirSync, readFileSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { outfile: { type: 'string', default: join(repo, 'dist', 'qprep.mjs') } } });
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

/**
 * zod's `z.locales` namespace pulls every translation of its error messages (about 260 KiB,
 * a third of the bundle) into a file that Node must compile on every start, `--version`
 * included. qprep's messages are English and never switch locale, so the barrel is replaced
 * by one that exports English only; zod registers English by default.
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

const result = await build({
  stdin: {
    contents: "import { main } from './src/cli.ts';\nawait main(process.argv);\n",
    resolveDir: repo,
    sourcefile: 'qprep-bundle-entry.ts',
    loader: 'ts',
  },
  outfile: values.outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The lazy import()s of src/cli.ts stay lazy in one file: esbuild keeps each such module's
  // top-level code in an init function that runs on first use.
  splitting: false,
  minify: true,
  legalComments: 'none',
  define: { __QPREP_VERSION__: JSON.stringify(version) },
  plugins: [englishOnlyZodLocales],
  // CommonJS dependencies (commander, cross-spawn, write-file-atomic) call require() for Node
  // built-ins; an ES module has no require, so they get one.
  banner: {
    js: [
      '#!/usr/bin/env node',
      `// qprep ${version}, single-file build (run: node qprep.mjs --help). Licences of the bundled packages are at the end of this file.`,
      "import { createRequire as __qprepCreateRequire } from 'node:module';",
      'const require = __qprepCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  logLevel: 'warning',
  metafile: true,
});

/** The licence text of every npm package in the bundle: their licences ask for it to travel with the code. */
function licenceNotices(metafile) {
  const packages = new Map();
  for (const input of Object.keys(Object.values(metafile.outputs)[0].inputs)) {
    const match = /^([^:]*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.set(match[1], true);
  }
  const notices = [];
  for (const dir of [...packages.keys()].sort()) {
    const pkg = JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(repo, dir)).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name));
    const text = file ? readFileSync(join(repo, dir, file), 'utf8').trim() : `licence: ${pkg.license ?? 'unknown'} (no licence file in the package)`;
    notices.push(`${pkg.name}@${pkg.version} (${pkg.license ?? 'unknown'})\n\n${text}`);
  }
  return notices;
}

const notices = licenceNotices(result.metafile);
const comment = notices.map((notice) => notice.replaceAll('*/', '* /')).join('\n\n----------------------------------------\n\n');
appendFileSync(values.outfile, `\n/*\nThird-party packages bundled in this file and their licences:\n\n${comment}\n*/\n`);
chmodSync(values.outfile, 0o755);
if (!existsSync(values.outfile)) throw new Error(`bundle: ${values.outfile} was not written`);

const bytes = Object.values(result.metafile.outputs)[0]?.bytes ?? 0;
process.stderr.write(`bundle: wrote ${values.outfile} (${(bytes / 1024).toFixed(0)} KiB of code, ${notices.length} bundled packages, qprep ${version})\n`);
