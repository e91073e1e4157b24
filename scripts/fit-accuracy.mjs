#!/usr/bin/env node
// Runs model.fit (launch.env for the HCCL cases) of the built CLI on every real start-up log of
// test/fixtures/fit-cases/cases.json, rebuilt as a host, and writes the accuracy table of
// docs/launch-fit.md: vLLM's printed figure, qprep's prediction from the host and from vLLM's
// own KV memory, the error of each. test/unit/checks/model.fit.cases.test.ts fails while the page
// differs from what the cases give.
// Usage: npm run build && node scripts/fit-accuracy.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fit from '../dist/checks/model.fit.js';
import launchEnv from '../dist/checks/launch.env.js';
import { loadBuiltinProfile } from '../dist/src/core/profile.js';
import { createContext } from '../dist/src/core/runner.js';
import { MemoryHost } from '../dist/src/host/memory.js';
import { caseHost, loadCases, measure, renderAccuracy, replaceTable, REPO } from './fit-accuracy-lib.mjs';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const { cases, notRebuilt } = loadCases();
const profile = loadBuiltinProfile('default').profile;
const rows = [];
for (const c of cases) {
  const host = new MemoryHost(caseHost(c));
  const ctx = createContext({ host, profile, timeoutMs: 1000, launch: { file: 'run.sh', text: c.script, from: 'file' }, lang: 'en' });
  const outcome = await (c.check === 'launch.env' ? launchEnv : fit).run(ctx);
  rows.push(...measure(c, outcome));
  console.log(`${c.id}: ${outcome.status}: ${outcome.message}`);
}
const file = join(REPO, 'docs/launch-fit.md');
const page = readFileSync(file, 'utf8');
const updated = replaceTable(page, renderAccuracy(rows, notRebuilt));
if (values.check) {
  if (updated !== page) {
    console.error('docs/launch-fit.md differs from what the cases give: node scripts/fit-accuracy.mjs');
    process.exit(1);
  }
} else if (updated !== page) {
  writeFileSync(file, updated);
  console.log(`wrote ${file}`);
}
