// Preloaded with `node --import` into a measured process: at exit it writes the heap in use
// (bytes) to the file named by QPREP_BENCH_HEAP_FILE, the part of the peak no collection
// reported (--trace-gc prints the heap before each one). Nothing else changes.
import { writeFileSync } from 'node:fs';

const file = process.env.QPREP_BENCH_HEAP_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.memoryUsage().heapUsed)));
