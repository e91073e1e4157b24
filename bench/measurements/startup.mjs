import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { interleaved, REPO, stats } from '../lib/harness.mjs';

const TARGET_MS = 150;

export default {
  name: 'startup',
  title: 'qprep --version start-up against a bare `node -e 0`',
  target: `qprep --version starts within ${TARGET_MS} ms of a bare node -e 0 (median)`,
  defaultRuns: 40,
  async run({ runs, version }) {
    const bundle = join(REPO, 'dist', 'qprep.mjs');
    const commands = [
      { label: 'node -e 0', argv: [process.execPath, '-e', '0'] },
      { label: 'qprep --version (npm package: bin/qprep.js)', argv: [process.execPath, join(REPO, 'bin', 'qprep.js'), '--version'] },
    ];
    if (existsSync(bundle)) commands.push({ label: 'qprep --version (single file: dist/qprep.mjs)', argv: [process.execPath, bundle, '--version'] });
    const samples = await interleaved(commands, { runs });
    for (const [i, sample] of samples.entries()) {
      if (i > 0 && sample.last.stdout.trim() !== version) throw new Error(`${commands[i].label} printed "${sample.last.stdout.trim()}", expected ${version}`);
    }
    const baseline = stats(samples[0].ms);
    const rows = commands.map((command, i) => {
      const s = stats(samples[i].ms);
      return {
        label: command.label,
        unit: 'ms',
        ...s,
        ...(i === 0 ? {} : { overBaselineMedian: s.median - baseline.median, overBaselineP90: s.p90 - baseline.p90, overBaselineMin: s.min - baseline.min }),
      };
    });
    const verdicts = rows.slice(1).map((row) => ({
      what: row.label,
      ok: row.overBaselineMedian <= TARGET_MS,
      // on a shared machine the medians carry other processes' load; the fastest runs show the cost alone
      detail: `median ${row.overBaselineMedian.toFixed(0)} ms over node -e 0 (p90 ${row.overBaselineP90.toFixed(0)} ms, fastest runs ${row.overBaselineMin.toFixed(0)} ms); target ${TARGET_MS} ms`,
    }));
    if (!existsSync(bundle)) verdicts.push({ what: 'single file', ok: true, detail: 'dist/qprep.mjs not built (npm run bundle): not measured' });
    return { rows, verdicts };
  },
};
