import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { recipeNodeOptions } from '../helpers/serve.js';
import { parseReport, qprepWith, tmp } from './support.js';

/*
 * Snapshots made to hurt the reader, replayed as the install recipes start qprep (their
 * NODE_OPTIONS: a 192 MB heap). A 39 MB snapshot of 280,000 NICs ended `check --snapshot` with a
 * heap out-of-memory abort (exit 134): the inventory was copied whole into the report. Now a
 * snapshot over 32 MiB is refused with one line, one at the cap is read, and the report carries
 * a bounded inventory while the snapshot keeps the rest. Nothing here measures memory
 * (node bench/run.mjs --only input-memory does); the recipes' heap is the bound.
 */

const CAP = 32 * 1024 * 1024;
const RECIPE = { NODE_OPTIONS: recipeNodeOptions() };
const DEMO = JSON.parse(readFileSync(join(REPO, 'examples/snapshots/a2-healthy.json'), 'utf8')) as Record<string, unknown> & {
  inventory: { nics: unknown[] | null; system: { model: string | null } };
  dirs: Record<string, unknown>;
};

interface Nic {
  name: string;
  mac: string | null;
  ipv4: string | null;
  mtu: number | null;
  speedMbps: number | null;
  duplex: string | null;
  state: string;
  virtual: boolean | null;
}

/** A pod's veth; every 1000th NIC is a physical port. */
function nic(i: number): Nic {
  const physical = i % 1000 === 999;
  return { name: physical ? `enp${i}s0` : `veth${i.toString(16).padStart(8, '0')}`, mac: '02:42:ac:11:00:02', ipv4: physical ? '10.0.0.1' : null, mtu: 1500, speedMbps: 10000, duplex: 'full', state: 'up', virtual: !physical };
}

/** The demo A2 host with as many NICs as make the file about `bytes` long. */
function snapshotOfNics(path: string, bytes: number): number {
  const base = JSON.stringify(DEMO).length;
  const count = Math.floor((bytes - base) / (JSON.stringify(nic(0)).length + 1));
  writeFileSync(path, JSON.stringify({ ...DEMO, inventory: { ...DEMO.inventory, nics: Array.from({ length: count }, (_, i) => nic(i)) } }));
  return count;
}

let dir: string;
beforeAll(() => {
  dir = tmp('snapshot-limits');
});
// some 140 MB of snapshots: not left in /tmp
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('snapshots at their limits, under the recipes\' NODE_OPTIONS', () => {
  it('a 39 MB snapshot: exit 2, one line naming the file and the 32 MiB cap (it was an out-of-memory abort)', async () => {
    const path = join(dir, 'nics-39mb.json');
    snapshotOfNics(path, 39 * 1000 * 1000);
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(CAP);
    const run = await qprepWith(null, ['check', '--snapshot', path, '--format', 'json'], RECIPE);
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toBe(`qprep: error: cannot read snapshot ${path}: ${size} bytes, over the ${CAP} bytes (32 MiB) qprep reads of a snapshot\n`);
    expect(JSON.parse(run.stdout)).toMatchObject({ ready: false, error: { code: 'invalid-snapshot' } });
  });

  it('a snapshot just under the cap, of 240,000 NICs: a report whose inventory lists 64 of them, the physical ones first; the snapshot keeps every one', async () => {
    const path = join(dir, 'nics-at-cap.json');
    const count = snapshotOfNics(path, CAP - 64 * 1024);
    expect(count).toBeGreaterThan(240_000);
    const run = await qprepWith(null, ['check', '--snapshot', path, '--format', 'json'], RECIPE);
    expect(run.exitCode, run.stderr).toBe(0);
    const { report } = await parseReport(run.stdout);
    const inventory = (report.facts as { inventory: { nics: Nic[]; nicsOmitted: number } }).inventory;
    expect(inventory.nics).toHaveLength(64);
    expect(inventory.nicsOmitted).toBe(count - 64);
    // the 240 physical ports come first, in the inventory's order, then the veths
    expect(inventory.nics.slice(0, 3).map((n) => n.name)).toEqual(['enp999s0', 'enp1999s0', 'enp2999s0']);
    expect(inventory.nics.every((n) => n.virtual === false)).toBe(true);
    expect(run.stdout.length).toBeLessThan(256 * 1024);
    // qprep facts is the inventory document: it prints every NIC (MAC addresses withheld)
    const facts = await qprepWith(null, ['facts', '--snapshot', path], RECIPE);
    expect(facts.exitCode, facts.stderr).toBe(0);
    const document = JSON.parse(facts.stdout) as { inventory: { nics: Nic[]; nicsOmitted?: number } };
    expect(document.inventory.nics).toHaveLength(count);
    expect(document.inventory).not.toHaveProperty('nicsOmitted');
  });

  it('a snapshot just under the cap, of about 900,000 small directory entries (the costliest shape to read): a report', async () => {
    const path = join(dir, 'dirs-at-cap.json');
    const base = JSON.stringify(DEMO).length;
    const entry = (i: number) => ({ name: String(100_000 + i), kind: 'directory' });
    const count = Math.floor((CAP - 64 * 1024 - base) / (JSON.stringify(entry(0)).length + 1));
    // the demo host takes a few hundred KiB of the cap (it grows with the checks): the rest is entries
    expect(count).toBeGreaterThan(850_000);
    writeFileSync(path, JSON.stringify({ ...DEMO, dirs: { ...DEMO.dirs, '/proc/qprep-test': { ok: true, value: Array.from({ length: count }, (_, i) => entry(i)) } } }));
    expect(statSync(path).size).toBeLessThan(CAP);
    const run = await qprepWith(null, ['check', '--snapshot', path, '--format', 'json'], RECIPE);
    expect(run.exitCode, run.stderr).toBe(0);
    expect((await parseReport(run.stdout)).report.ready).toBe(true);
  });

  it('an inventory text of 1 MB (a forged DMI model): the report keeps 256 characters of it', async () => {
    const path = join(dir, 'long-model.json');
    writeFileSync(path, JSON.stringify({ ...DEMO, inventory: { ...DEMO.inventory, system: { ...DEMO.inventory.system, model: `A800I A2 ${'9'.repeat(1_000_000)}` } } }));
    const run = await qprepWith(null, ['check', '--snapshot', path, '--format', 'json'], RECIPE);
    expect(run.exitCode, run.stderr).toBe(0);
    const model = (JSON.parse(run.stdout) as { facts: { inventory: { system: { model: string } } } }).facts.inventory.system.model;
    expect(model).toBe(`A800I A2 ${'9'.repeat(246)}…`);
  });
});
