#!/usr/bin/env node
// Regenerates the generated parts of README.md and docs/ (`npm run docs` builds first): the
// check table and reference of docs/checks.md, and every sample output of the demo snapshots.
import { readFileSync, writeFileSync } from 'node:fs';
import { pages, regenerate, REPO } from './docs-lib.mjs';

const names = pages();
let changed = 0;
for (const name of names) {
  const page = readFileSync(`${REPO}${name}`, 'utf8');
  const updated = regenerate(page, name);
  if (updated !== page) {
    writeFileSync(`${REPO}${name}`, updated);
    changed++;
    console.log(`${name} updated`);
  }
}
console.log(changed === 0 ? 'README.md and docs/ are up to date' : `${changed} of ${names.length} pages updated`);
