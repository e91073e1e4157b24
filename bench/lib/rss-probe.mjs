// Preloaded with `node --import` into a measured process: at exit it writes the peak resident
// set size (KiB) and the CPU time it used (user and system, microseconds) to the file named by
// QPREP_BENCH_RSS_FILE. Nothing else changes.
import { writeFileSync } from 'node:fs';

const file = process.env.QPREP_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, `${usage.maxRSS} ${usage.userCPUTime} ${usage.systemCPUTime}`);
  });
}
