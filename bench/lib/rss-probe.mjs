// Preloaded with `node --import` into a measured process: at exit it writes the peak resident
// set size (KiB) to the file named by QPREP_BENCH_RSS_FILE. Nothing else changes.
import { writeFileSync } from 'node:fs';

const file = process.env.QPREP_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
