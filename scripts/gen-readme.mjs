#!/usr/bin/env node
// Regenerates the check table of README.md from the check descriptors (run `npm run build` first).
import { readFileSync, writeFileSync } from 'node:fs';
import { catalogue } from '../dist/checks/index.js';
import { renderCheckTable, replaceCheckTable } from '../dist/src/report/catalogue-table.js';

const path = new URL('../README.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const updated = replaceCheckTable(readme, renderCheckTable(catalogue));
if (updated === undefined) {
  console.error('README.md has no check-table markers');
  process.exit(1);
}
if (updated !== readme) {
  writeFileSync(path, updated);
  console.log('README.md check table updated');
} else {
  console.log('README.md check table is up to date');
}
