import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fit from '../../../checks/model.fit.js';
import launchEnv from '../../../checks/launch.env.js';
import { createContext } from '../../../src/core/runner.js';
import { MemoryHost, type MemoryHostSpec } from '../../../src/host/memory.js';
import type { Outcome } from '../../../src/core/types.js';
import { caseHost, loadCases, measure, renderAccuracy, REPO, TABLE_END, TABLE_START, type AccuracyRow, type FitCase } from '../../../scripts/fit-accuracy-lib.mjs';
import { profileWith } from '../../helpers/run-check.js';

/**
 * The real start-up logs of test/fixtures/fit-cases rebuilt as hosts: model.fit's KV tokens within
 * 10 % of what vLLM printed where the host is rebuilt end to end (the checkpoint's size known from
 * the log), its KV layout exact on vLLM's own KV memory, every refused start a fail. And
 * docs/launch-fit.md's table is what these runs give (scripts/fit-accuracy.mjs writes it).
 */

const { cases, notRebuilt } = loadCases();

async function outcomeOf(c: FitCase): Promise<Outcome> {
  const host = new MemoryHost(caseHost(c) as unknown as MemoryHostSpec);
  const ctx = createContext({ host, profile: profileWith(), timeoutMs: 1000, launch: { file: 'run.sh', text: c.script, from: 'file' }, lang: 'en' });
  return (c.check === 'launch.env' ? launchEnv : fit).run(ctx);
}

const results = new Map<string, { outcome: Outcome; rows: AccuracyRow[] }>();
async function resultOf(c: FitCase) {
  let result = results.get(c.id);
  if (!result) {
    const outcome = await outcomeOf(c);
    result = { outcome, rows: measure(c, outcome) };
    results.set(c.id, result);
  }
  return result;
}

describe('model.fit on the real start-up logs', () => {
  for (const c of cases) {
    it(`${c.id}: ${c.title} (${c.outcome})`, async () => {
      const { outcome, rows } = await resultOf(c);
      if (c.outcome === 'refused') {
        expect(outcome.status, outcome.message).toBe('fail');
        // the HCCL refusals: CANN's NEEDED to the MB
        for (const row of rows) if (row.error !== undefined) expect(row.error, `${c.id} NEEDED_HCCL_BUFFSIZE`).toBe(0);
        return;
      }
      expect(outcome.status, outcome.message).not.toBe('fail');
      for (const row of rows) {
        if (row.fromMemoryError !== undefined && row.fromMemoryError !== null) expect(Math.abs(row.fromMemoryError), `${c.id} ${row.label}: from vLLM's memory`).toBeLessThan(0.1);
        // end to end only where the host holds the real checkpoint size (the estimated ones are published with their error)
        if (row.error !== undefined && row.error !== null && c.endToEndNote === undefined) expect(Math.abs(row.error), `${c.id} ${row.label}`).toBeLessThan(10);
      }
    });
  }

  it('is the table of docs/launch-fit.md (node scripts/fit-accuracy.mjs writes it)', async () => {
    const rows: AccuracyRow[] = [];
    for (const c of cases) rows.push(...(await resultOf(c)).rows);
    const page = readFileSync(join(REPO, 'docs/launch-fit.md'), 'utf8');
    const table = page.slice(page.indexOf(TABLE_START), page.indexOf(TABLE_END) + TABLE_END.length);
    expect(table).toBe(renderAccuracy(rows, notRebuilt));
  });
});
