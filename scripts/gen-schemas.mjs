#!/usr/bin/env node
// Writes schema/NAME.schema.json for every document `qprep schema NAME` knows (src/app/schemas.ts),
// and removes the files of documents that no longer exist. Run `npm run build` first
// (`npm run schemas` does). A test fails when the committed files differ from the code.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { schemaDocument, schemaNames } from '../dist/src/app/schemas.js';

const dir = new URL('../schema/', import.meta.url);
mkdirSync(dir, { recursive: true });
const wanted = new Set(schemaNames().map((name) => `${name}.schema.json`));
let changed = 0;
for (const name of schemaNames()) {
  const file = new URL(`${name}.schema.json`, dir);
  const text = `${JSON.stringify(schemaDocument(name), null, 2)}\n`;
  let current;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== text) {
    writeFileSync(file, text);
    console.log(`schema/${name}.schema.json ${current === undefined ? 'written' : 'updated'}`);
    changed++;
  }
}
for (const file of readdirSync(dir)) {
  if (file.endsWith('.schema.json') && !wanted.has(file)) {
    rmSync(new URL(file, dir));
    console.log(`schema/${file} removed: no such document any more`);
    changed++;
  }
}
if (changed === 0) console.log(`schema/: ${wanted.size} schemas up to date`);
