import { closeSync, constants, existsSync, linkSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import { validateAgainstSchema } from '../helpers/cli.js';
import { LiveHost } from '../../src/host/live.js';
import { qprepWith, startQprep, tmp, TUNED, untunedTree, UNTUNED, valuesOf, waitFor } from './support.js';

/*
 * Two `qprep tune` on the same host tree at once (two Ansible plays, a retry while the first
 * run still works): one wins, the other refuses with the lock's owner named, and the host and
 * the journal end as one complete tune leaves them.
 */

const STATE = 'var/lib/qprep';
const CPU1 = 'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor';

interface TuneDocument {
  outcome?: string;
  changed: boolean;
  error?: { code: string; message: string };
}

function journalOf(root: string) {
  return JSON.parse(readFileSync(join(root, STATE, 'journal.json'), 'utf8')) as { runs: Array<{ state: string; entries: Array<{ status: string; target: string }> }> };
}

/** One complete tune of untunedTree(): the values set, one journal run applied, no lock, nothing else in the state directory. */
function expectOneCompleteTune(root: string): void {
  expect(valuesOf(root, TUNED)).toEqual(TUNED);
  const journal = journalOf(root);
  expect(journal.runs).toHaveLength(1);
  expect(journal.runs[0]!.state).toBe('applied');
  expect(journal.runs[0]!.entries.map((e) => e.status)).toEqual(['applied', 'applied', 'applied', 'applied', 'applied']);
  expect(readdirSync(join(root, STATE))).toEqual(['journal.json']);
}

describe('two qprep tune at once on one host tree', () => {
  it('while one holds the lock mid-apply, the other refuses naming it (exit 2, "locked", nothing written); the first then completes', async () => {
    const root = untunedTree();
    const work = tmp('fifo');
    // cpu1's governor is a FIFO: the first tune's write blocks there, after cpu0 and with the lock held.
    // A second name for the FIFO (a hard link) lets the test open it after the path is a file again.
    const alias = join(work, 'cpu1-governor-fifo');
    unlinkSync(join(root, CPU1));
    execaSync('mkfifo', [join(root, CPU1)]);
    linkSync(join(root, CPU1), alias);

    const first = startQprep(null, ['tune', '--root', root, '--format', 'json', '--timeout', '600s']);
    await waitFor('the first tune to write cpu0', () => existsSync(join(root, STATE, 'journal.json')) && readFileSync(join(root, 'sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'), 'utf8') === 'performance\n');
    const lock = JSON.parse(readFileSync(join(root, STATE, 'tune.lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: first.pid, hostname: hostname() });
    // The rival tunes the sysctls only: opening cpu1's FIFO to read it would let the first run on.
    const sysctls = ['proc/sys/vm/swappiness', 'proc/sys/kernel/numa_balancing', 'sys/kernel/debug/sched/migration_cost_ns'];
    const untouched = Object.fromEntries(sysctls.map((path) => [path, UNTUNED[path]!]));
    expect(valuesOf(root, untouched)).toEqual(untouched);

    const second = await qprepWith(null, ['tune', '--root', root, '--only', 'sysctl,sched', '--format', 'json']);
    expect(second.exitCode).toBe(2);
    const refused = JSON.parse(second.stdout) as TuneDocument;
    expect((await validateAgainstSchema('tune', refused)).valid).toBe(true);
    expect(refused).toMatchObject({ changed: false, error: { code: 'locked' } });
    expect(refused.error!.message).toMatch(new RegExp(`^another qprep is changing this host: "qprep tune --root ${root} --format json --timeout 600s" \\(pid ${first.pid} on .*, since .*\\) holds /var/lib/qprep/tune\\.lock; wait for it to finish$`));
    expect(second.stderr).toBe(`qprep: error: ${refused.error!.message}\n`);
    // in Chinese: the same refusal and code, the owner and the path as they are
    const inChinese = await qprepWith(null, ['tune', '--root', root, '--only', 'sysctl,sched', '--format', 'json', '--lang', 'zh']);
    expect(inChinese.exitCode).toBe(2);
    expect(JSON.parse(inChinese.stdout).error).toMatchObject({ code: 'locked', message: expect.stringMatching(new RegExp(`^另一个 qprep 正在修改此主机："qprep tune --root ${root} --format json --timeout 600s" \\(pid ${first.pid} on .*\\) 持有 /var/lib/qprep/tune\\.lock；请等它结束$`)) });
    // the refused run wrote nothing, and the lock is still the first run's
    expect(valuesOf(root, untouched)).toEqual(untouched);
    expect(JSON.parse(readFileSync(join(root, STATE, 'tune.lock'), 'utf8')).pid).toBe(first.pid);
    // a dry run takes no lock: it may look while the other works
    expect((await qprepWith(null, ['tune', '--root', root, '--only', 'sysctl,sched', '--dry-run'])).exitCode).toBe(0);

    // Let the first run go on: the path becomes a regular file holding what the kernel would
    // show after the write, then the FIFO gets a reader (kept open until the run ends).
    writeFileSync(join(work, 'cpu1-after'), 'performance\n');
    renameSync(join(work, 'cpu1-after'), join(root, CPU1));
    const reader = openSync(alias, constants.O_RDONLY | constants.O_NONBLOCK);
    const done = await first;
    closeSync(reader);
    expect(done.exitCode).toBe(0);
    expect(JSON.parse(String(done.stdout))).toMatchObject({ outcome: 'applied', changed: true });
    expectOneCompleteTune(root);

    // and now the second finds nothing left to do
    const again = await qprepWith(null, ['tune', '--root', root, '--format', 'json']);
    expect(again.exitCode).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'unchanged', changed: false });
    expectOneCompleteTune(root);
  });

  it('started together, over several rounds: exactly one applies; the other is refused by the lock or finds nothing to change; one consistent journal', async () => {
    for (let round = 0; round < 4; round++) {
      const root = untunedTree();
      const [a, b] = await Promise.all([qprepWith(null, ['tune', '--root', root, '--format', 'json']), qprepWith(null, ['tune', '--root', root, '--format', 'json'])]);
      const documents = [a, b].map((run) => ({ exitCode: run.exitCode, document: JSON.parse(run.stdout) as TuneDocument, stderr: run.stderr }));
      const applied = documents.filter((d) => d.document.outcome === 'applied');
      const other = documents.filter((d) => d.document.outcome !== 'applied');
      expect(applied, `round ${round}: ${JSON.stringify(documents)}`).toHaveLength(1);
      expect(applied[0]!.exitCode).toBe(0);
      const loser = other[0]!;
      if (loser.document.error) {
        expect(loser.exitCode).toBe(2);
        expect(loser.document.error.code).toBe('locked');
        expect(loser.stderr).toMatch(/^qprep: error: another qprep is changing this host: "qprep tune --root .*" \(pid \d+ on .*\) holds \/var\/lib\/qprep\/tune\.lock; wait for it to finish\n$/);
      } else {
        expect(loser.exitCode).toBe(0);
        expect(loser.document).toMatchObject({ outcome: 'unchanged', changed: false });
      }
      expectOneCompleteTune(root);
    }
  });
});

describe('the lock file', () => {
  it('appears with its whole content or not at all: a rival never reads it empty (and so never takes it for the debris of a crash)', async () => {
    const root = tmp('lock');
    const host = new LiveHost({ root, timeoutMs: 10_000 });
    expect((await host.makeDirectory('/var/lib/qprep', 0o755)).ok).toBe(true);
    const content = `${JSON.stringify({ pid: process.pid, startTime: null, hostname: hostname(), command: 'qprep tune', since: new Date().toISOString() })}\n`;
    const seen = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      let written = false;
      const writing = host.writeFile('/var/lib/qprep/tune.lock', content, { how: 'exclusive', mode: 0o644 }).then((probe) => {
        written = true;
        return probe;
      });
      // read as a rival would, as soon as the name exists
      while (!written) {
        const read = await host.readFile('/var/lib/qprep/tune.lock');
        if (read.ok) {
          seen.set(read.value, (seen.get(read.value) ?? 0) + 1);
          break;
        }
      }
      expect((await writing).ok).toBe(true);
      expect((await host.writeFile('/var/lib/qprep/tune.lock', 'rival', { how: 'exclusive' })).ok).toBe(false);
      expect((await host.removeFile('/var/lib/qprep/tune.lock')).ok).toBe(true);
    }
    expect([...seen.keys()].filter((value) => value !== content)).toEqual([]);
    // no temporary file of the write is left
    expect(readdirSync(join(root, 'var/lib/qprep'))).toEqual([]);
  });
});
