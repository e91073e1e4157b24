#!/usr/bin/env node
// The CLI as one module (npm run build writes it with scripts/bundle.mjs): loading the ~300
// modules of dist/src one by one, each resolved, read and linked, is most of qprep's start-up.
//
// The signals are caught before Node reads and parses the single file, which takes longer than
// anything before it: one in that moment would otherwise end qprep by its default action (exit
// 143, no document). The file's first lines take them over (src/app/signals.ts, catchSignals).
const caught = [];
const keep = (signal) => caught.push(signal);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, keep);
globalThis[Symbol.for('qprep.caught-signals')] = {
  signals: caught,
  release() {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(signal, keep);
  },
};
await import('../dist/qprep.mjs');
