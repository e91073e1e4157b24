import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import { REFERENCE_END, REFERENCE_START, renderCheckReference, renderCheckTable, replaceBetween, replaceCheckTable } from '../../../src/report/catalogue-table.js';
import { CATEGORY_IDS } from '../../../src/core/ids/categories.js';

const checksDir = new URL('../../../checks/', import.meta.url);

describe('the check catalogue', () => {
  it('has one file per check, named after its id, and the index lists every file', () => {
    const files = readdirSync(checksDir)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(catalogue.map((c) => c.id).sort()).toEqual(files);
  });

  it('has unique, well-formed ids and complete descriptors', () => {
    const ids = catalogue.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of catalogue) {
      expect(check.id).toMatch(/^[a-z0-9]+\.[a-z0-9-]+$/);
      expect(CATEGORY_IDS).toContain(check.category);
      expect(check.title.length, check.id).toBeGreaterThan(3);
      expect(check.why.length, check.id).toBeGreaterThan(80);
      expect(check.fix.length, check.id).toBeGreaterThan(10);
      expect(check.reads.length, check.id).toBeGreaterThan(0);
    }
  });

  it('keeps the categories together in report order', () => {
    const order: readonly string[] = CATEGORY_IDS;
    const indexes = catalogue.map((c) => order.indexOf(c.category));
    expect([...indexes].sort((a, b) => a - b)).toEqual(indexes);
  });

  it('matches the check table of docs/checks.md (run "npm run docs" when this fails)', () => {
    const page = readFileSync(new URL('../../../docs/checks.md', import.meta.url), 'utf8');
    const regenerated = replaceCheckTable(page, renderCheckTable(catalogue));
    expect(regenerated, 'docs/checks.md lacks the check-table markers').toBeDefined();
    expect(page).toBe(regenerated);
  });

  it('has a section of docs/checks.md per check, with its why, reads and fix', () => {
    const page = readFileSync(new URL('../../../docs/checks.md', import.meta.url), 'utf8');
    const regenerated = replaceBetween(page, REFERENCE_START, REFERENCE_END, renderCheckReference(catalogue));
    expect(regenerated, 'docs/checks.md lacks the check-reference markers').toBeDefined();
    expect(page).toBe(regenerated);
    for (const check of catalogue) expect(page, check.id).toContain(`#### \`${check.id}\``);
  });
});
