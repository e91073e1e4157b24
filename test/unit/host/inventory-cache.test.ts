import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIBRARY_ANSWER_MAX_AGE_MS, LibraryAnswerCache } from '../../../src/host/inventory-cache.js';
import { libraryUnavailable, type LibraryAnswers } from '../../../src/host/inventory-process.js';
import { LiveHost } from '../../../src/host/live.js';

const complete = (model: string): LibraryAnswers => ({
  mem: { ok: true, value: { total: 17179869184 } },
  osInfo: { ok: true, value: { distro: 'openEuler', release: '22.03' } },
  cpu: { ok: true, value: { brand: 'Kunpeng-920' } },
  bios: { ok: true, value: { vendor: 'Huawei' } },
  system: { ok: true, value: { model } },
});

/** A cache on a clock the test moves, and the answers it was asked for. */
function cacheOnClock() {
  let nowMs = 0;
  const asked: string[] = [];
  const cache = new LibraryAnswerCache(LIBRARY_ANSWER_MAX_AGE_MS, () => nowMs);
  const ask = (answers: LibraryAnswers, label: string) => () => {
    asked.push(label);
    return Promise.resolve(answers);
  };
  return { cache, asked, ask, advance: (ms: number) => (nowMs += ms) };
}

describe('the inventory process answer kept by a resident agent', () => {
  it('is reused within the hour and the boot, asked again after the hour or a reboot', async () => {
    const { cache, asked, ask, advance } = cacheOnClock();
    expect((await cache.answers('boot-1', ask(complete('A800I A2'), 'first'))).system).toEqual({ ok: true, value: { model: 'A800I A2' } });
    advance(LIBRARY_ANSWER_MAX_AGE_MS - 1);
    expect((await cache.answers('boot-1', ask(complete('other'), 'within the hour'))).system).toEqual({ ok: true, value: { model: 'A800I A2' } });
    advance(1);
    expect((await cache.answers('boot-1', ask(complete('after the hour'), 'after the hour'))).system).toEqual({ ok: true, value: { model: 'after the hour' } });
    expect((await cache.answers('boot-2', ask(complete('after a reboot'), 'after a reboot'))).system).toEqual({ ok: true, value: { model: 'after a reboot' } });
    expect(asked).toEqual(['first', 'after the hour', 'after a reboot']);
  });

  it('keeps no answer with an unknown call (a hung helper), and none when the boot id cannot be read', async () => {
    const { cache, asked, ask } = cacheOnClock();
    const partial: LibraryAnswers = { ...complete('A800I A2'), system: { ok: false, reason: 'systeminformation system() gave no answer within 2000 ms' } };
    await cache.answers('boot-1', ask(partial, 'partial'));
    await cache.answers('boot-1', ask(complete('A800I A2'), 'again'));
    await cache.answers(undefined, ask(complete('A800I A2'), 'no boot id'));
    await cache.answers(undefined, ask(complete('A800I A2'), 'no boot id again'));
    await cache.answers('boot-1', ask(libraryUnavailable('not a command'), 'unavailable'));
    await cache.answers('boot-1', ask(complete('A800I A2'), 'after unavailable'));
    expect(asked).toEqual(['partial', 'again', 'no boot id', 'no boot id again', 'unavailable', 'after unavailable']);
  });
});

describe('LiveHost with a kept answer (qprep serve)', () => {
  const temporary: string[] = [];
  afterEach(() => {
    for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('two runs on the live host start the inventory process once; the sysfs reads are made by both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-inventory-cache-'));
    temporary.push(dir);
    const log = join(dir, 'started');
    const program = join(dir, 'inventory-process.mjs');
    writeFileSync(
      program,
      [
        "import { appendFileSync } from 'node:fs';",
        `appendFileSync(${JSON.stringify(log)}, 'started\\n');`,
        "const say = (line) => process.stdout.write(JSON.stringify(line) + '\\n');",
        "say({ call: 'mem', value: { total: 17179869184 } });",
        "say({ call: 'osInfo', value: { distro: 'openEuler', release: '22.03' } });",
        "say({ call: 'cpu', value: { manufacturer: 'HiSilicon', brand: 'Kunpeng-920', cores: 192, physicalCores: 192, processors: 4 } });",
        "say({ call: 'bios', value: { vendor: 'Huawei', version: '1.0' } });",
        "say({ call: 'system', value: { manufacturer: 'Huawei', model: 'A800I A2', virtual: false } });",
      ].join('\n'),
    );
    const libraryCache = new LibraryAnswerCache();
    // a host per run, as serve opens one for every run
    const runs = [];
    for (let run = 0; run < 2; run++) runs.push(await new LiveHost({ timeoutMs: 5000, inventoryProcess: [process.execPath, program], libraryCache }).inventory());
    expect(existsSync('/proc/sys/kernel/random/boot_id')).toBe(true);
    expect(readFileSync(log, 'utf8')).toBe('started\n');
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[1]!.memoryBytes).toBe(17179869184);
    // without the cache (qprep check), every host asks
    await new LiveHost({ timeoutMs: 5000, inventoryProcess: [process.execPath, program] }).inventory();
    expect(readFileSync(log, 'utf8')).toBe('started\nstarted\n');
  });
});
