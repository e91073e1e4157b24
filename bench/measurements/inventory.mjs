import { join } from 'node:path';
import { interleaved, REPO, stats } from '../lib/harness.mjs';

/** The probe timeout of a live run: an inventory slower than this has a library call timing out. */
const PROBE_TIMEOUT_MS = 10_000;

export default {
  name: 'inventory',
  title: 'qprep facts with and without the systeminformation inventory (live host)',
  target: `the inventory (systeminformation: system, bios, cpu, mem, osInfo, networkInterfaces) adds well under the ${PROBE_TIMEOUT_MS} ms probe timeout`,
  defaultRuns: 6,
  async run({ runs }) {
    const bin = join(REPO, 'bin', 'qprep.js');
    // list loads the implementation and the profile but reads nothing of the host: the baseline
    const commands = [
      { label: 'qprep facts (live, with the inventory)', argv: [process.execPath, bin, 'facts'] },
      { label: 'qprep check --only host.model (live, inventory only)', argv: [process.execPath, bin, 'check', '--only', 'host.model', '--format', 'json'] },
      { label: 'qprep list (no inventory)', argv: [process.execPath, bin, 'list'] },
    ];
    const samples = await interleaved(commands, { runs, warmup: 1 });
    const rows = commands.map((command, i) => ({ label: command.label, unit: 'ms', ...stats(samples[i].ms) }));
    const [, inventoryOnly, baseline] = rows;
    const over = inventoryOnly.median - baseline.median;
    return {
      rows,
      verdicts: [
        {
          what: 'inventory',
          ok: over < PROBE_TIMEOUT_MS,
          detail: `check --only host.model: median ${over.toFixed(0)} ms over qprep list (fastest runs ${(inventoryOnly.min - baseline.min).toFixed(0)} ms); limit ${PROBE_TIMEOUT_MS} ms`,
        },
      ],
    };
  },
};
