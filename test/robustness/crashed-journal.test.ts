import { execaSync } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateAgainstSchema } from '../helpers/cli.js';
import { parseReport, qprepWith, startQprep, TUNED, untunedTree, UNTUNED, valuesOf, waitFor } from './support.js';

/*
 * A journal left by a crash: a tune killed half-way (SIGKILL: nothing runs; SIGTERM: qprep stops
 * at the signal), a journal cut short by a broken disk, garbage, the wrong document, a directory.
 * `qprep check` reports it (tune.journal), `qprep rollback` restores what it can or refuses in
 * one line naming the journal, `qprep tune` refuses to add to it; nothing crashes.
 */

const STATE = 'var/lib/qprep';
const JOURNAL = '/var/lib/qprep/journal.json';
const CPU0 = 'sys/devices/system/cpu/cpu0/cpufreq/scaling_governor';
const CPU1 = 'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor';

async function journalCheck(root: string) {
  const run = await qprepWith(null, ['check', '--root', root, '--only', 'tune.journal', '--format', 'json']);
  const { byId } = await parseReport(run.stdout);
  return { run, check: byId['tune.journal']! };
}

/** A complete tune's journal, for damaging. */
async function tunedTreeWithJournal(): Promise<{ root: string; journal: string }> {
  const root = untunedTree();
  const tuned = await qprepWith(null, ['tune', '--root', root, '--format', 'json']);
  expect(tuned.exitCode).toBe(0);
  return { root, journal: readFileSync(join(root, STATE, 'journal.json'), 'utf8') };
}

describe('a tune killed half-way', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`by ${signal}: check reports the unfinished run, tune refuses, rollback restores what was written; then a tune completes`, async () => {
      const root = untunedTree();
      // cpu1's governor is a FIFO: the tune blocks writing it, after cpu0, and is killed there
      unlinkSync(join(root, CPU1));
      execaSync('mkfifo', [join(root, CPU1)]);
      const tune = startQprep(null, ['tune', '--root', root, '--timeout', '600s', '--format', 'json']);
      await waitFor('the tune to write cpu0', () => existsSync(join(root, STATE, 'journal.json')) && readFileSync(join(root, CPU0), 'utf8') === 'performance\n');
      tune.kill(signal);
      const killed = await tune;
      // SIGKILL: nothing runs. SIGTERM: qprep stops at the signal, but its write is stuck in the
      // kernel (nobody reads the FIFO) and Node cannot exit past a stuck thread, so qprep ends
      // itself with SIGKILL, saying why, instead of waiting for it forever
      expect(killed.signal).toBe('SIGKILL');
      const interrupted = 'interrupted by SIGTERM; running probes were killed; what was written is journaled: run qprep rollback, then tune again';
      if (signal === 'SIGTERM') {
        expect(String(killed.stderr)).toBe(
          `\nqprep: error: ${interrupted}\n` +
            'qprep: error: a file operation is stuck in the kernel (a wedged driver, or a FIFO where a file should be); Node cannot exit past it: ending with SIGKILL\n',
        );
        // the document Ansible reads says the same, in the shape of tune's error document
        const document = JSON.parse(String(killed.stdout));
        expect(document).toMatchObject({ command: 'tune', error: { code: 'interrupted', message: interrupted } });
        expect(document.changed).toBeUndefined();
        expect((await validateAgainstSchema('tune', document)).valid).toBe(true);
      } else {
        expect(String(killed.stdout)).toBe('');
      }
      expect(JSON.parse(readFileSync(join(root, STATE, 'journal.json'), 'utf8')).runs[0].state).toBe('applying');

      const { run, check } = await journalCheck(root);
      expect(check.status).toBe('warn');
      expect(check.message).toMatch(/^"qprep tune --root .* --timeout 600s --format json" started .* did not finish \(it was interrupted, or is running right now\): 5 changes may be half applied$/);
      expect(check.remediation).toBe(`sudo qprep rollback --root ${root}   (restores the old values from ${JOURNAL})`);
      expect(run.exitCode).toBe(0);

      const refused = await qprepWith(null, ['tune', '--root', root, '--format', 'json']);
      expect(refused.exitCode).toBe(2);
      expect(JSON.parse(refused.stdout).error.code).toBe('refused');
      expect(refused.stderr).toMatch(new RegExp(`^qprep: error: an earlier "qprep tune --root .*" \\(started .*\\) did not finish: 5 changes in ${JOURNAL} may be half applied; run "qprep rollback --root ${root}" first, then tune again\\n$`));

      // the path the tune died on is a plain file again, holding what the tune read there before
      // (a FIFO reads empty): its write never landed
      rmSync(join(root, CPU1));
      writeFileSync(join(root, CPU1), '');
      const back = await qprepWith(null, ['rollback', '--root', root, '--format', 'json']);
      expect(back.exitCode).toBe(0);
      const undone = JSON.parse(back.stdout);
      expect(undone).toMatchObject({ outcome: 'rolled-back', changed: true });
      expect(undone.restores.map((r: { target: string; status: string }) => [r.target.replace(/^.*\/cpu(\d)\/.*$/, 'cpu$1'), r.status])).toEqual([
        ['/sys/kernel/debug/sched/migration_cost_ns', 'unchanged'],
        ['kernel.numa_balancing', 'unchanged'],
        ['vm.swappiness', 'unchanged'],
        ['cpu1', 'unchanged'],
        ['cpu0', 'restored'],
      ]);
      expect(valuesOf(root, UNTUNED)).toEqual({ ...UNTUNED, [CPU1]: '' });
      expect(readdirSync(join(root, STATE)).filter((name) => !/^journal-.*\.json$/.test(name))).toEqual([]);

      const retuned = await qprepWith(null, ['tune', '--root', root, '--format', 'json']);
      expect(retuned.exitCode).toBe(0);
      expect(valuesOf(root, TUNED)).toEqual(TUNED);
    });
  }
});

/** Damaged journals, each as a broken disk or a hand edit could leave it. */
const DAMAGED: Array<{ name: string; damage: (journal: string) => string | Buffer; reason: RegExp }> = [
  { name: 'cut in the middle', damage: (j) => j.slice(0, Math.floor(j.length / 2)), reason: /is not JSON: (Unterminated string|Unexpected end|Expected)/ },
  { name: 'empty', damage: () => '', reason: /is not JSON: Unexpected end of JSON input/ },
  {
    name: 'garbage with NULs and terminal escapes',
    damage: () => Buffer.from('\u0000\u0001\u001b[2J\u001b]0;owned\u0007\ngarbage\n', 'latin1'),
    reason: /is not JSON: Unexpected token '\\x00', "\\x00\\x01\\x1b\[2J\\x1b\]0;[^"]*"(\.\.\.)? is not valid JSON$/,
  },
  { name: 'another document', damage: () => '{"runs": 3}\n', reason: /^\/var\/lib\/qprep\/journal\.json: (\(top\)|schemaVersion|runs|kind): / },
];

describe('a damaged journal', () => {
  for (const { name, damage, reason } of DAMAGED) {
    it(`${name}: check fails tune.journal in one line, rollback and tune refuse with one line naming the journal, exit 2`, async () => {
      const { root, journal } = await tunedTreeWithJournal();
      writeFileSync(join(root, STATE, 'journal.json'), damage(journal));

      const { run, check } = await journalCheck(root);
      expect(check.status).toBe('warn');
      expect(check.message.startsWith('the tune journal is damaged: ')).toBe(true);
      const why = check.message.slice('the tune journal is damaged: '.length);
      expect(why).toMatch(reason);
      expect(check.remediation).toBe(`restore what ${JOURNAL} lists by hand, then move it aside: sudo mv ${JOURNAL} ${JOURNAL}.damaged`);
      expect(run.exitCode).toBe(0);

      const back = await qprepWith(null, ['rollback', '--root', root, '--format', 'json']);
      expect(back.exitCode).toBe(2);
      const refusal = JSON.parse(back.stdout);
      expect((await validateAgainstSchema('rollback', refusal)).valid).toBe(true);
      expect(refusal).toMatchObject({ command: 'rollback', changed: false, error: { code: 'invalid-input' } });
      expect(refusal.error.message).toBe(`${why}; restore the values by hand from it, then move it aside`);
      expect(back.stderr).toBe(`qprep: error: ${refusal.error.message}\n`);

      const tune = await qprepWith(null, ['tune', '--root', root]);
      expect(tune.exitCode).toBe(2);
      expect(tune.stderr).toBe(`qprep: error: ${why}: tune does not add to a journal it cannot read; move it aside after checking what it says\n`);
      // nothing was changed by the refusals, and the damaged journal is kept for the person to read
      expect(valuesOf(root, TUNED)).toEqual(TUNED);
      expect(existsSync(join(root, STATE, 'journal.json'))).toBe(true);
      expect(existsSync(join(root, STATE, 'tune.lock'))).toBe(false);
    });
  }

  it('a directory where the journal should be: check says it cannot read it, rollback and tune refuse, exit 2', async () => {
    const root = untunedTree();
    mkdirSync(join(root, STATE, 'journal.json'), { recursive: true });
    const { check } = await journalCheck(root);
    expect(check.status).toBe('error');
    expect(check.message).toMatch(/^cannot read the tune journal: \/var\/lib\/qprep\/journal\.json: /);
    const back = await qprepWith(null, ['rollback', '--root', root]);
    expect(back.exitCode).toBe(2);
    expect(back.stderr).toMatch(/^qprep: error: \/var\/lib\/qprep\/journal\.json: .*; restore the values by hand from it, then move it aside\n$/);
    const tune = await qprepWith(null, ['tune', '--root', root]);
    expect(tune.exitCode).toBe(2);
    expect(tune.stderr).toMatch(/^qprep: error: \/var\/lib\/qprep\/journal\.json: .*: tune does not add to a journal it cannot read; move it aside after checking what it says\n$/);
    expect(valuesOf(root, UNTUNED)).toEqual(UNTUNED);
  });

  it('moved aside as the remediation says, the host can be tuned again from a clean state', async () => {
    const { root, journal } = await tunedTreeWithJournal();
    writeFileSync(join(root, STATE, 'journal.json'), journal.slice(0, 100));
    execaSync('mv', [join(root, STATE, 'journal.json'), join(root, STATE, 'journal.json.damaged')]);
    const { check } = await journalCheck(root);
    expect(check.status).toBe('pass');
    const tune = await qprepWith(null, ['tune', '--root', root, '--format', 'json']);
    expect(tune.exitCode).toBe(0);
    expect(JSON.parse(tune.stdout).outcome).toBe('unchanged');
  });
});
