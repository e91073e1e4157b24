import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The benchmark and the maintenance scripts are plain JavaScript that no compiler reads: a
 * broken string in one of them shows only when `npm run bench` or `npm run docs` is run.
 */
const REPO = join(import.meta.dirname, '..', '..', '..');

function scripts(dir: string): string[] {
  return readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? scripts(join(dir, entry.name)) : entry.name.endsWith('.mjs') ? [join(dir, entry.name)] : [],
  );
}

describe('the .mjs scripts of bench/ and scripts/', () => {
  const files = [...scripts('bench'), ...scripts('scripts')];
  it('are found', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });
  it.each(files)('%s parses', (file) => {
    expect(() => execFileSync(process.execPath, ['--check', join(REPO, file)], { stdio: 'pipe' })).not.toThrow();
  });
});
