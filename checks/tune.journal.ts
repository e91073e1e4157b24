import { error, fail, pass, skip } from '../src/core/outcome.js';
import { activeRuns, JOURNAL_PATH, readJournal, unfinishedRuns } from '../src/core/tune/journal.js';
import { defineCheck } from '../src/core/define-check.js';

export default defineCheck({
  id: 'tune.journal',
  category: 'tuning',
  order: 60,
  level: 'recommended',
  depth: 'quick',
  action: 'reconfigure',
  // title, why, fix and every message: src/i18n/*/checks/tuning.ts
  async run(ctx) {
    const t = ctx.text.checks['tune.journal'];
    const rollback = `sudo qprep rollback${ctx.host.root === '/' ? '' : ` --root ${ctx.host.root}`}`;
    const read = await readJournal(ctx.host);
    switch (read.state) {
      case 'absent':
        return pass(t.noJournal, { evidence: { journal: JOURNAL_PATH } });
      case 'unreadable':
        if (read.code === 'EACCES' || read.code === 'EPERM') {
          return skip(t.rootOnly({ journal: JOURNAL_PATH }), { remediation: t.runAsRoot, evidence: { journal: JOURNAL_PATH } });
        }
        return error(t.cannotRead({ reason: read.reason }), { remediation: t.makeReadable({ journal: JOURNAL_PATH }), evidence: { journal: JOURNAL_PATH } });
      case 'corrupt':
        return fail(t.damaged({ reason: read.reason }), {
          remediation: t.restoreByHand({ journal: JOURNAL_PATH }),
          evidence: { journal: JOURNAL_PATH },
        });
      case 'present': {
        const journal = read.journal;
        const runs = activeRuns(journal).map((run) => ({ runId: run.runId, command: run.command, startedAt: run.startedAt, state: run.state, changes: run.entries.length }));
        const evidence = { journal: JOURNAL_PATH, runs };
        const unfinished = unfinishedRuns(journal);
        if (unfinished.length > 0) {
          const run = unfinished[0]!;
          return fail(t.unfinished({ command: run.command, startedAt: run.startedAt, interrupted: run.state === 'applying', changes: run.entries.length }), {
            expected: 'no unfinished tune',
            actual: `${run.state} since ${run.startedAt}`,
            remediation: t.rollback({ rollback, journal: JOURNAL_PATH }),
            evidence,
          });
        }
        const changes = runs.reduce((sum, run) => sum + run.changes, 0);
        if (changes === 0) return pass(t.nothingInEffect, { evidence });
        return pass(t.inEffect({ changes, since: runs[0]!.startedAt, rollback }), { evidence });
      }
    }
  },
});
