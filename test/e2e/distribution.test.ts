import { execa } from 'execa';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
const publishedReportSchema = JSON.parse(readFileSync(join(REPO, 'schema', 'report.schema.json'), 'utf8')) as object;

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-${prefix}-`));
}

/** Node resolves packages from every ancestor's node_modules: none may exist, or "runs alone" proves nothing. */
function ancestorNodeModules(dir: string): string[] {
  const found: string[] = [];
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, 'node_modules'))) found.push(join(current, 'node_modules'));
    if (dirname(current) === current) return found;
  }
}

function validateReport(document: unknown): { valid: boolean; errors: string } {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(publishedReportSchema);
  const valid = validate(document);
  return { valid, errors: JSON.stringify(validate.errors ?? null) };
}

/** A clean environment: no NODE_PATH, no npm_config_* inherited from `npm test`. */
function cleanEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' };
}

describe('the single-file bundle (npm run bundle)', () => {
  let dir: string;
  const run = (args: string[]) =>
    execa(process.execPath, [join(dir, 'qprep.mjs'), ...args], { cwd: dir, reject: false, extendEnv: false, env: cleanEnv(), timeout: 120_000 });

  beforeAll(async () => {
    const buildDir = tmp('bundle-build');
    await execa(process.execPath, [join(REPO, 'scripts', 'bundle.mjs'), '--outfile', join(buildDir, 'qprep.mjs')], { cwd: REPO });
    dir = tmp('bundle-alone');
    copyFileSync(join(buildDir, 'qprep.mjs'), join(dir, 'qprep.mjs'));
  });

  it('is one file in an otherwise empty directory, with no node_modules anywhere above it', () => {
    expect(readdirSync(dir)).toEqual(['qprep.mjs']);
    expect(ancestorNodeModules(dir)).toEqual([]);
  });

  it('--version, also through a symlink without the .mjs extension (the installation the README shows)', async () => {
    const result = await run(['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(pkg.version);
    const binDir = tmp('bundle-bin');
    symlinkSync(join(dir, 'qprep.mjs'), join(binDir, 'qprep'));
    const viaLink = await execa(join(binDir, 'qprep'), ['--version'], { cwd: binDir, reject: false, extendEnv: false, env: cleanEnv() });
    expect(viaLink.stdout).toBe(pkg.version);
  });

  it('--version and --help compile the start-up part alone; a command the implementation; a check of the live host the early part first', async () => {
    // The parts after the head are compiled from the file with vm.compileFunction, each named
    // qprep-PART.cjs: a preloaded script logs every compilation.
    const hooks = tmp('bundle-compile-log');
    writeFileSync(
      join(hooks, 'log-compiles.cjs'),
      "const vm = require('node:vm');\nconst { appendFileSync } = require('node:fs');\nconst original = vm.compileFunction;\n" +
        'vm.compileFunction = function (code, params, options) { appendFileSync(process.env.COMPILE_LOG, `${options && options.filename}\\n`); return original.apply(this, arguments); };\n',
    );
    const compiledBy = async (args: string[]) => {
      const log = join(hooks, `${args.join('-').replace(/\W+/g, '_')}.log`);
      writeFileSync(log, '');
      const result = await execa(process.execPath, ['--require', join(hooks, 'log-compiles.cjs'), join(dir, 'qprep.mjs'), ...args], {
        cwd: dir,
        reject: false,
        extendEnv: false,
        env: { ...cleanEnv(), COMPILE_LOG: log },
      });
      expect(result.exitCode, result.stderr).toBeLessThanOrEqual(1);
      return readFileSync(log, 'utf8').split('\n').filter(Boolean);
    };
    expect(await compiledBy(['--version'])).toEqual(['qprep-start-up.cjs']);
    expect(await compiledBy(['--help'])).toEqual(['qprep-start-up.cjs']);
    // the log does see the implementation when a command needs it: the two above can fail
    expect(await compiledBy(['list'])).toEqual(['qprep-start-up.cjs', 'qprep-implementation.cjs', 'qprep-early.cjs']);
    // a check of the live host starts its first tool calls before the rest is compiled
    expect((await compiledBy(['check', '--format', 'json']))[0]).toBe('qprep-early.cjs');
  });

  it('check --format json: a report valid against the published schema, exit code following the verdict', async () => {
    const result = await run(['check', '--format', 'json']);
    const report = JSON.parse(result.stdout);
    const { valid, errors } = validateReport(report);
    expect(valid, errors).toBe(true);
    expect(report.tool.version).toBe(pkg.version);
    expect(report.checks.length).toBeGreaterThan(5);
    expect(result.exitCode).toBe(report.ready ? 0 : 1);
  });

  it('list, schema report, and the other machine formats', async () => {
    const list = await run(['list', '--format', 'json']);
    expect(list.exitCode).toBe(0);
    expect(JSON.parse(list.stdout).map((row: { id: string }) => row.id)).toContain('net.ports');
    const schema = await run(['schema', 'report']);
    expect(`${schema.stdout}\n`).toBe(readFileSync(join(REPO, 'schema', 'report.schema.json'), 'utf8'));
    const prometheus = await run(['check', '--format', 'prometheus', '--only', 'sysctl']);
    expect(prometheus.stdout).toMatch(/^qprep_ready [01]$/m);
    const junit = await run(['check', '--format', 'junit', '--only', 'sysctl']);
    expect(junit.stdout).toMatch(/^<testsuites name="qprep" tests="2" /m);
  });

  it('facts, and aggregate of reports it wrote with --output (a bundled CommonJS library writes them atomically)', async () => {
    const facts = await run(['facts']);
    expect(facts.exitCode, facts.stderr).toBe(0);
    const factsSchema = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(REPO, 'schema', 'facts.schema.json'), 'utf8')) as object);
    expect(factsSchema(JSON.parse(facts.stdout)), JSON.stringify(factsSchema.errors)).toBe(true);
    // systeminformation is in the bundle and answers: the inventory counts this machine's CPUs
    expect(JSON.parse(facts.stdout).inventory.cpu.threads).toBeGreaterThan(0);

    const out = tmp('bundle-reports');
    for (const [node, demo] of [['a2-node1', 'a2-healthy'], ['a2-node7', 'a2-broken']] as const) {
      const snapshot = join(REPO, 'examples', 'snapshots', `${demo}.json`);
      const check = await run(['check', '--snapshot', snapshot, '--profile', 'qwen3.5-397b-w8a8-a2', '--format', 'json', '--output', join(out, `${node}.json`)]);
      expect(check.stderr).toBe(`qprep: wrote ${join(out, `${node}.json`)}`);
    }
    const aggregate = await run(['aggregate', out, '--format', 'json']);
    expect(aggregate.exitCode, aggregate.stderr).toBe(1);
    const verdict = JSON.parse(aggregate.stdout);
    const aggregateSchema = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(REPO, 'schema', 'aggregate.schema.json'), 'utf8')) as object);
    expect(aggregateSchema(verdict), JSON.stringify(aggregateSchema.errors)).toBe(true);
    expect(verdict.nodes.map((n: { name: string; verdict: string }) => [n.name, n.verdict])).toEqual([
      ['a2-node1', 'ready'],
      ['a2-node7', 'not-ready'],
    ]);
    expect(readdirSync(dir)).toEqual(['qprep.mjs']);
  });

  it('one copy of each module: a usage error thrown by the start-up part is a usage error to the implementation', async () => {
    // the empty --root is refused by src/app/path-options.ts, which both parts use; a copy in
    // each would make the implementation call the other copy's error an internal one
    const result = await run(['check', '--root', '', '--format', 'json']);
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stdout).error).toEqual({ code: 'usage', message: '--root expects a path, got an empty value' });
  });

  it('a bad profile is still exit 2 with the error document (the lazily loaded failure path is in the bundle)', async () => {
    const result = await run(['check', '--profile', join(dir, 'missing.yaml'), '--format', 'json']);
    expect(result.exitCode).toBe(2);
    expect(JSON.parse(result.stdout).error.code).toBe('invalid-profile');
  });
});

describe('the built CLI (dist/src): systeminformation loads only with the commands that need it', () => {
  it('--version, --help and list do not import it; facts does', async () => {
    const hooks = tmp('dist-import-log');
    // the modules tsc wrote, each imported on its own (the bundle of bin/qprep.js inlines them)
    const runDist = join(hooks, 'run-dist.mjs');
    writeFileSync(runDist, `import { main } from ${JSON.stringify(join(REPO, 'dist', 'src', 'cli.js'))};\nawait main(process.argv);\n`);
    writeFileSync(
      join(hooks, 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs';\nlet log;\nexport function initialize(data) { log = data.log; }\n" +
        "export async function resolve(specifier, context, next) { appendFileSync(log, `${specifier}\\n`); return next(specifier, context); }\n",
    );
    writeFileSync(
      join(hooks, 'register.mjs'),
      "import { register } from 'node:module';\nregister(new URL('./hooks.mjs', import.meta.url), { data: { log: process.env.IMPORT_LOG } });\n",
    );
    const importsOf = async (args: string[]) => {
      const log = join(hooks, `${args.join('-')}.log`);
      writeFileSync(log, '');
      const result = await execa(process.execPath, ['--import', join(hooks, 'register.mjs'), runDist, ...args], {
        cwd: REPO,
        reject: false,
        extendEnv: false,
        env: { ...cleanEnv(), IMPORT_LOG: log },
      });
      expect(result.exitCode, result.stderr).toBe(0);
      return readFileSync(log, 'utf8').split('\n').filter(Boolean);
    };
    const systeminformation = (specifier: string) => specifier === 'systeminformation';
    expect((await importsOf(['--version'])).filter(systeminformation)).toEqual([]);
    expect((await importsOf(['--help'])).filter(systeminformation)).toEqual([]);
    expect((await importsOf(['list'])).filter(systeminformation)).toEqual([]);
    // the hook does see it when a command needs the inventory: the three above can fail
    expect((await importsOf(['facts'])).filter(systeminformation)).toEqual(['systeminformation']);
  });
});

describe('npm pack', () => {
  let tarball: string;
  let files: string[];

  beforeAll(async () => {
    const packDir = tmp('pack');
    // --ignore-scripts: `prepare` would rebuild dist/ under the feet of the tests running in parallel; pretest built it.
    const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], { cwd: REPO, extendEnv: false, env: cleanEnv() });
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(packDir, info!.filename);
    files = info!.files.map((f) => f.path);
  });

  it('holds what the package needs and nothing of the development tree', () => {
    for (const needed of ['package.json', 'bin/qprep.js', 'dist/qprep.mjs', 'dist/src/cli.js', 'dist/src/app/commands.js', 'dist/checks/index.js', 'schema/report.schema.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'NOTICE']) {
      expect(files, needed).toContain(needed);
    }
    const unwanted = files.filter((f) => /^(test|scripts|bench|src|checks|node_modules)\//.test(f) || f.endsWith('.ts'));
    expect(unwanted).toEqual([]);
  });

  it('installs into an empty project, and its qprep bin runs: --version and check --format json', async () => {
    const project = tmp('consumer');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'qprep-consumer', version: '1.0.0', private: true }));
    await execa('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: project, extendEnv: false, env: cleanEnv(), timeout: 240_000 });
    const bin = join(project, 'node_modules', '.bin', 'qprep');
    const version = await execa(bin, ['--version'], { cwd: project, reject: false, extendEnv: false, env: cleanEnv() });
    expect(version.stdout).toBe(pkg.version);
    const check = await execa(bin, ['check', '--format', 'json'], { cwd: project, reject: false, extendEnv: false, env: cleanEnv() });
    const report = JSON.parse(check.stdout);
    const { valid, errors } = validateReport(report);
    expect(valid, errors).toBe(true);
    expect(check.exitCode).toBe(report.ready ? 0 : 1);
    expect(existsSync(join(project, 'node_modules', 'qprep', 'schema', 'report.schema.json'))).toBe(true);
  }, 300_000);
});
