import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { throttledDisk, whyNotPossible } from '../lib/throttled-disk.mjs';
import { interleaved, REPO, stats } from '../lib/harness.mjs';

/** The cost of the read probe: its 3 s bound, fincore, the timed opens, a margin. */
const TARGET_MS = 3500;
const LIMIT = 50 * 1000 * 1000;

export default {
  name: 'load-time',
  title: 'qprep check --launch with and without the read probe of model.load-time, on a disk throttled to 50 MB/s',
  target: `the probe adds at most ${TARGET_MS} ms to a check (median), where it runs its whole 3 s bound`,
  defaultRuns: 5,
  async run({ runs }) {
    const why = whyNotPossible();
    if (why) return { rows: [], verdicts: [{ what: 'load-time', info: true, detail: `not measured: ${why}` }] };
    // 320 MiB of real blocks: the probe's 3 s at 50 MB/s read no hole
    const disk = throttledDisk({ bytesPerSecond: LIMIT, realMiB: 320 });
    try {
      const script = join(disk.work, 'run.sh');
      writeFileSync(script, `#!/bin/bash\nvllm serve ${disk.model} --tensor-parallel-size 8\n`);
      const bin = [process.execPath, join(REPO, 'bin', 'qprep.js')];
      const check = [...bin, 'check', '--launch', script, '--format', 'json'];
      const commands = [
        { label: 'qprep check --launch (the probe reads)', argv: disk.inCgroup(check) },
        { label: 'qprep check --launch --no-io-probe', argv: disk.inCgroup([...check, '--no-io-probe']) },
        { label: 'qprep check --launch --only model.load-time', argv: disk.inCgroup([...bin, 'check', '--launch', script, '--only', 'model.load-time', '--format', 'json']) },
      ];
      const samples = await interleaved(commands, { runs, warmup: 1 });
      const rows = [];
      let probe;
      for (const [i, sample] of samples.entries()) {
        const report = JSON.parse(sample.last.stdout);
        const loadTime = report.checks.find((c) => c.id === 'model.load-time');
        if (i === 0) probe = loadTime.evidence;
        rows.push({ label: commands[i].label, unit: 'ms', ...stats(sample.ms), checks: report.checks.length, engineMs: report.durationMs });
      }
      const [withProbe, without] = rows;
      const added = withProbe.median - without.median;
      const rate = probe.throughputBytesPerSec;
      return {
        rows,
        verdicts: [
          { what: 'probe', ok: added <= TARGET_MS, detail: `adds ${added.toFixed(0)} ms (median; fastest runs ${(withProbe.min - without.min).toFixed(0)} ms); limit ${TARGET_MS} ms` },
          {
            what: 'figure',
            info: true,
            detail: `the probe read ${(probe.storage.bytesRead / 1e6).toFixed(0)} MB in ${probe.storage.durationMs} ms (${(rate / 1e6).toFixed(1)} MB/s, device limited to ${LIMIT / 1e6} MB/s, ${probe.storage.method}); estimate ${probe.estimatedSeconds} s for 40 GiB, ${loadTimeStatus(samples[0])}`,
          },
        ],
      };
    } finally {
      disk.remove();
    }
  },
};

function loadTimeStatus(sample) {
  return JSON.parse(sample.last.stdout).checks.find((c) => c.id === 'model.load-time').status;
}
