import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeHostTree } from '../lib/host-tree.mjs';
import { interleaved, REPO, stats, timed } from '../lib/harness.mjs';

export default {
  name: 'check',
  title: '`qprep check --format json`: wall time and peak memory',
  target: "no fixed target; the 16-NPU node target is node-check's",
  defaultRuns: 15,
  async run({ runs }) {
    const bin = [process.execPath, join(REPO, 'bin', 'qprep.js')];
    const bundle = join(REPO, 'dist', 'qprep.mjs');
    const tree = makeHostTree();
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-'));
    const snapshot = join(work, 'snapshot.json');
    try {
      const recorded = await timed([...bin, 'snapshot', '-o', snapshot]);
      if (recorded.exitCode !== 0) throw new Error(`qprep snapshot failed: ${recorded.stderr}`);
      const commands = [
        { label: 'this machine (live)', argv: [...bin, 'check', '--format', 'json'] },
        { label: `--root host tree (192 CPUs)`, argv: [...bin, 'check', '--format', 'json', '--root', tree] },
        { label: '--snapshot replay of this machine', argv: [...bin, 'check', '--format', 'json', '--snapshot', snapshot] },
      ];
      if (existsSync(bundle)) commands.push({ label: 'this machine, single file (dist/qprep.mjs)', argv: [process.execPath, bundle, 'check', '--format', 'json'] });
      const samples = await interleaved(commands, { runs, warmup: 1, rss: true });
      const rows = [];
      for (const [i, sample] of samples.entries()) {
        const unexpected = [...sample.exitCodes].filter((code) => code !== 0 && code !== 1);
        if (unexpected.length > 0) throw new Error(`${commands[i].label}: exit code ${unexpected.join(', ')}: ${sample.last.stderr}`);
        const report = JSON.parse(sample.last.stdout);
        rows.push({
          label: commands[i].label,
          unit: 'ms',
          ...stats(sample.ms),
          checks: report.checks.length,
          engineMs: report.durationMs,
          cpuMs: stats(sample.cpu).median,
          maxRssMiB: { median: stats(sample.rss).median / 1024, max: stats(sample.rss).max / 1024 },
        });
      }
      return { rows, verdicts: [] };
    } finally {
      rmSync(tree, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    }
  },
};
