import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import { ACTIONS } from '../../../src/core/ids/actions.js';
import { actionOf } from '../../../src/core/runner.js';
import { REFERENCE_END, REFERENCE_START, renderCheckReference, renderCheckTable, replaceBetween, replaceCheckTable } from '../../../src/report/catalogue-table.js';
import { renderAll } from '../../../scripts/check-index.mjs';
import { CATEGORY_IDS } from '../../../src/core/ids/categories.js';
import { CHECK_IDS } from '../../../src/core/ids/checks.js';

const checksDir = new URL('../../../checks/', import.meta.url);
const repo = fileURLToPath(new URL('../../../', import.meta.url));

describe('the check catalogue', () => {
  it('has one file per check, named after its id, and the index lists every file', () => {
    const files = readdirSync(checksDir)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(catalogue.map((c) => c.id).sort()).toEqual(files);
    expect([...CHECK_IDS]).toEqual(files);
  });

  it('has its index and its id list as scripts/check-index.mjs writes them from checks/ (run "npm run checks:index" when this fails)', () => {
    for (const [path, content] of Object.entries(renderAll(repo))) expect(readFileSync(`${repo}${path}`, 'utf8'), path).toBe(content);
  });

  it('gives every check of a category its own place in it', () => {
    const places = catalogue.map((c) => `${c.category} ${c.order}`);
    expect(places.filter((place, i) => places.indexOf(place) !== i)).toEqual([]);
    for (const check of catalogue) expect(Number.isInteger(check.order) && check.order > 0, check.id).toBe(true);
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

  it('says for every check what its non-pass results ask the operator to do, from the closed list of actions', () => {
    for (const check of catalogue) {
      const actions = typeof check.action === 'string' ? [check.action] : Object.values(check.action);
      for (const action of actions) expect(ACTIONS, check.id).toContain(action);
      for (const status of ['fail', 'warn', 'error', 'skip'] as const) expect(ACTIONS, `${check.id} ${status}`).toContain(actionOf(check.action, { status }));
      expect(actionOf(check.action, { status: 'pass' }), check.id).toBeUndefined();
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
