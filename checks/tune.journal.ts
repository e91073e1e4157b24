import { error, fail, pass, skip } from '../src/core/outcome.js';
import { activeRuns, JOURNAL_PATH, readJournal, unfinishedRuns } from '../src/core/tune/journal.js';
import { defineCheck } from '../src/core/types.js';
import { plural } from '../src/util/text.js';

export default defineCheck({
  id: 'tune.journal',
  title: 'qprep tune journal',
  category: 'tuning',
  level: 'recommended',
  why:
    'qprep tune writes the old value of every setting it changes to a journal before it changes anything. A tune that ' +
    'was killed, or whose undo failed, leaves settings half applied: some CPUs on one governor and some on another, ' +
    'a sysctl changed but not verified. This check finds that journal so the host can be put back with qprep rollback, ' +
    'and otherwise says which qprep changes are in effect.',
  reads: [JOURNAL_PATH],
  fix: 'sudo qprep rollback restores the old values from the journal (also those of an interrupted tune), then retires it.',
  async run(ctx) {
    const rollback = `sudo qprep rollback${ctx.host.root === '/' ? '' : ` --root ${ctx.host.root}`}`;
    const read = await readJournal(ctx.host);
    switch (read.state) {
      case 'absent':
        return pass('qprep tune has no changes in effect here (no journal)', { evidence: { journal: JOURNAL_PATH } });
      case 'unreadable':
        if (read.code === 'EACCES' || read.code === 'EPERM') {
          return skip(`${JOURNAL_PATH} is readable by root only`, { remediation: 'run "sudo qprep check" to assess it', evidence: { journal: JOURNAL_PATH } });
        }
        return error(`cannot read the tune journal: ${read.reason}`, { remediation: `make ${JOURNAL_PATH} readable and re-run`, evidence: { journal: JOURNAL_PATH } });
      case 'corrupt':
        return fail(`the tune journal is damaged: ${read.reason}`, {
          remediation: `restore what ${JOURNAL_PATH} lists by hand, then move it aside: sudo mv ${JOURNAL_PATH} ${JOURNAL_PATH}.damaged`,
          evidence: { journal: JOURNAL_PATH },
        });
      case 'present': {
        const journal = read.journal;
        const runs = activeRuns(journal).map((run) => ({ runId: run.runId, command: run.command, startedAt: run.startedAt, state: run.state, changes: run.entries.length }));
        const evidence = { journal: JOURNAL_PATH, runs };
        const unfinished = unfinishedRuns(journal);
        if (unfinished.length > 0) {
          const run = unfinished[0]!;
          const what = run.state === 'applying' ? 'did not finish (it was interrupted, or is running right now)' : 'failed and could not undo all of its changes';
          return fail(`"${run.command}" started ${run.startedAt} ${what}: ${plural(run.entries.length, 'change')} may be half applied`, {
            expected: 'no unfinished tune',
            actual: `${run.state} since ${run.startedAt}`,
            remediation: `${rollback}   (restores the old values from ${JOURNAL_PATH})`,
            evidence,
          });
        }
        const changes = runs.reduce((sum, run) => sum + run.changes, 0);
        if (changes === 0) return pass('qprep tune has no changes in effect here', { evidence });
        return pass(`${plural(changes, 'setting')} changed by qprep tune since ${runs[0]!.startedAt} are in effect (undo: ${rollback})`, { evidence });
      }
    }
  },
});
