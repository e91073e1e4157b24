import { execa } from 'execa';
import { cpSync, existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { readDockerfile, stages } from '../helpers/dockerfile.js';

/**
 * The Dockerfile's build stage without a container: into an empty directory, exactly what its
 * COPY instructions bring in; the locked dependencies (what its `npm ci` installs from the same
 * package-lock.json: this checkout's node_modules); then its RUN of the build. The single file
 * that comes out runs. Proves the COPY list is all the build needs.
 */
describe('the build stage of the Dockerfile, run without a container', () => {
  it('builds dist/qprep.mjs from what it copies, and the file runs', async () => {
    const build = stages(readDockerfile(join(REPO, 'Dockerfile'))).stages[0]!;
    const work = mkdtempSync(join(tmpdir(), 'qprep-docker-build-'));
    for (const copy of build.filter((i) => i.keyword === 'COPY')) {
      const parts = copy.args.split(/\s+/);
      const target = parts.at(-1)!;
      for (const source of parts.slice(0, -1)) {
        const destination = target.endsWith('/') && !source.endsWith('/') ? join(work, target, source) : join(work, target === './' ? source : target);
        cpSync(join(REPO, source), destination, { recursive: true });
      }
    }
    symlinkSync(join(REPO, 'node_modules'), join(work, 'node_modules'));
    const run = build.filter((i) => i.keyword === 'RUN').at(-1)!.args;
    expect(run).toBe('npm run build && node dist/qprep.mjs --version');
    const result = await execa('sh', ['-c', run], { cwd: work, reject: false, timeout: 300_000 });
    expect(result.exitCode, `${String(result.stdout)}\n${String(result.stderr)}`).toBe(0);
    expect(String(result.stdout).trim().split('\n').at(-1)).toBe(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);
    expect(existsSync(join(work, 'dist', 'qprep.mjs'))).toBe(true);
  }, 300_000);
});
