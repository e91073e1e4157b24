import { execa, execaSync } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { readDockerfile, stages } from '../helpers/dockerfile.js';

/**
 * The Dockerfile, checked without a container builder: hadolint is not packaged for Debian, so
 * the rules the docs claim for it are checked here on the parsed file (docs/kubernetes.md#the-image
 * lists them). Its build stage is run without a container in test/integration/dockerfile-build.test.ts;
 * where a container engine answers (`docker info`), the image itself is built and run.
 */

const instructions = readDockerfile(join(REPO, 'Dockerfile'));
const { globals, stages: list } = stages(instructions);
const final = list.at(-1)!;
const defaults = Object.fromEntries(globals.filter((i) => i.keyword === 'ARG').map((i) => i.args.split('=') as [string, string]));
const image = (from: string) => from.split(/\s+/)[0]!.replace(/^\$\{(\w+)\}$|^\$(\w+)$/, (_, a: string | undefined, b: string | undefined) => defaults[(a ?? b)!] ?? '');

function engine(): string | undefined {
  for (const tool of ['docker', 'podman']) {
    const info = (() => {
      try {
        return execaSync(tool, ['info'], { reject: false, timeout: 20_000 });
      } catch {
        return undefined;
      }
    })();
    if (info?.exitCode === 0) return tool;
  }
  return undefined;
}
const builder = engine();
if (!builder) console.log('Dockerfile: the image is not built here: neither docker nor podman has an engine that answers `info`; the file is checked by its rules and its build stage is run without a container');

describe('Dockerfile: the rules it is held to', () => {
  it('every base image is pinned to a tag, never latest (hadolint DL3006, DL3007)', () => {
    for (const from of list.map((s) => s[0]!)) {
      const name = image(from.args);
      expect(name, `line ${from.line}`).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(name.endsWith(':latest'), `line ${from.line}`).toBe(false);
    }
    expect(image(final[0]!.args)).toBe('node:20-bookworm-slim');
  });

  it('the single file is built once on the builder\'s platform and copied into each target platform\'s image (multi-arch without emulation)', () => {
    const build = list[0]!;
    expect(build[0]!.flags.platform).toBe('$BUILDPLATFORM');
    expect(build[0]!.args).toMatch(/ AS build$/);
    expect(final[0]!.flags.platform).toBeUndefined();
    expect(build.filter((i) => i.keyword === 'RUN').map((i) => i.args)).toContain('npm run build && node dist/qprep.mjs --version');
    const copies = final.filter((i) => i.keyword === 'COPY' && i.flags.from === 'build').map((i) => i.args);
    expect(copies).toEqual(['/src/dist/qprep.mjs /usr/local/lib/qprep/qprep.mjs']);
  });

  it('the last USER is not root (DL3002); ENTRYPOINT and CMD in exec form (DL3025); COPY, never ADD (DL3020); WORKDIR absolute (DL3000)', () => {
    const user = final.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
    for (const keyword of ['ENTRYPOINT', 'CMD']) {
      const instruction = final.find((i) => i.keyword === keyword)!;
      expect(Array.isArray(JSON.parse(instruction.args)), keyword).toBe(true);
    }
    expect(JSON.parse(final.find((i) => i.keyword === 'ENTRYPOINT')!.args)).toEqual(['/usr/local/bin/qprep']);
    expect(instructions.some((i) => i.keyword === 'ADD')).toBe(false);
    for (const workdir of instructions.filter((i) => i.keyword === 'WORKDIR')) expect(workdir.args.startsWith('/')).toBe(true);
    for (const run of instructions.filter((i) => i.keyword === 'RUN' && /apt-get install/.test(i.args))) expect(run.args).toContain('--no-install-recommends');
  });

  it('copies only what exists and what .dockerignore lets through; installs the locked dependencies (npm ci)', () => {
    const ignored = readFileSync(join(REPO, '.dockerignore'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.replace(/\/$/, ''));
    for (const copy of instructions.filter((i) => i.keyword === 'COPY' && !i.flags.from)) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources) {
        expect(existsSync(join(REPO, source)), source).toBe(true);
        expect(ignored.some((pattern) => source.replace(/\/$/, '') === pattern || source.startsWith(`${pattern}/`)), source).toBe(false);
      }
    }
    expect(list[0]!.some((i) => i.keyword === 'RUN' && i.args.startsWith('npm ci '))).toBe(true);
    // the heap sizes of the recipes (docs/serve.md#memory)
    expect(final.find((i) => i.keyword === 'ENV')!.args).toBe('NODE_OPTIONS="--max-semi-space-size=2 --max-old-space-size=192"');
  });

  it.skipIf(!builder)('builds, and the image runs qprep as a non-root user', async () => {
    const tag = 'qprep-test:dockerfile';
    const build = await execa(builder!, ['build', '-t', tag, '.'], { cwd: REPO, reject: false, timeout: 900_000 });
    expect(build.exitCode, String(build.stderr)).toBe(0);
    const run = await execa(builder!, ['run', '--rm', tag, '--version'], { reject: false });
    expect(String(run.stdout).trim()).toMatch(/^\d+\.\d+\.\d+/);
    const user = await execa(builder!, ['run', '--rm', '--entrypoint', 'id', tag, '-u'], { reject: false });
    expect(String(user.stdout).trim()).not.toBe('0');
  }, 900_000);
});
