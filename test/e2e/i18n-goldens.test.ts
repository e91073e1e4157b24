import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep, REPO } from '../helpers/cli.js';

/**
 * The Chinese human report (-v: every check) of each demo snapshot, as reviewed once by reading
 * it: test/fixtures/i18n/NAME.zh.txt. After a deliberate change of the text, regenerate them with
 * `npm run goldens` and read the diff.
 */

const UPDATE = process.env.QPREP_UPDATE_GOLDENS === '1';
const GOLDENS = join(REPO, 'test/fixtures/i18n');
const DEMOS = readdirSync(join(REPO, 'examples/snapshots'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''));
/** The run time of the summary line, the one part of a replay that varies. */
const RUN_TIME = /· \d+(\.\d+)? 秒/g;

describe('the zh human report of each demo snapshot', () => {
  it('every demo has a golden file, and no golden is left without its demo', () => {
    if (UPDATE) return;
    expect(readdirSync(GOLDENS).filter((f) => f.endsWith('.zh.txt')).sort()).toEqual(DEMOS.map((d) => `${d}.zh.txt`).sort());
  });

  for (const demo of DEMOS) {
    it(`${demo}`, async () => {
      const run = await qprep(['check', '--snapshot', `examples/snapshots/${demo}.json`, '-v', '--lang', 'zh'], { env: { PATH: '/nonexistent' } });
      expect(run.stderr).toBe('');
      const report = run.stdout.replace(RUN_TIME, '· T 秒');
      const file = join(GOLDENS, `${demo}.zh.txt`);
      if (UPDATE) writeFileSync(file, report);
      const golden = readFileSync(file, 'utf8');
      expect(report, `the zh report of ${demo} changed: if that is meant, run "npm run goldens" and read the diff`).toBe(golden);
    });
  }
});
