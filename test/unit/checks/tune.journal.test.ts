import { describe, expect, it } from 'vitest';
import check from '../../../checks/tune.journal.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const JOURNAL = '/var/lib/qprep/journal.json';

function journal(state: string, entries = 3): string {
  const entry = { origin: 'sysctl.swappiness', kind: 'sysctl', target: 'vm.swappiness', path: '/proc/sys/vm/swappiness', before: '60\n', after: '0', status: 'pending' };
  return JSON.stringify({
    schemaVersion: 1,
    kind: 'qprep-tune-journal',
    hostname: 'node1',
    createdAt: '2026-12-01T10:00:00.000Z',
    updatedAt: '2026-12-01T10:00:00.000Z',
    runs: [
      { runId: 'r1', toolVersion: '0.1.0', profile: 'default (builtin)', command: 'qprep tune --persist', startedAt: '2026-12-01T10:00:00.000Z', state, entries: Array.from({ length: entries }, () => entry) },
    ],
  });
}

describe('tune.journal', () => {
  it('passes when qprep has changed nothing here', async () => {
    const { outcome } = await runOn(check, { files: {} });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('qprep tune has no changes in effect here (no journal)');
  });

  it('passes and says what is in effect after a completed tune', async () => {
    const { outcome } = await runOn(check, { files: { [JOURNAL]: journal('applied') } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('3 settings changed by qprep tune since 2026-12-01T10:00:00.000Z are in effect (undo: sudo qprep rollback)');
  });

  it('fails on a tune that did not finish, with the rollback command (and the root)', async () => {
    const { outcome, result } = await runOn(check, { files: { [JOURNAL]: journal('applying', 2) }, root: '/host' });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('"qprep tune --persist" started 2026-12-01T10:00:00.000Z did not finish (it was interrupted, or is running right now): 2 changes may be half applied');
    expect(outcome.remediation).toBe('sudo qprep rollback --root /host   (restores the old values from /var/lib/qprep/journal.json)');
    expect(result.status).toBe('warn');
    expectRemediation(outcome);
  });

  it('fails on a tune whose undo failed', async () => {
    const { outcome } = await runOn(check, { files: { [JOURNAL]: journal('revert-failed', 1) } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('failed and could not undo all of its changes: 1 change may be half applied');
  });

  it('fails on a damaged journal, saying how to set it aside', async () => {
    const { outcome } = await runOn(check, { files: { [JOURNAL]: '{"schemaVersion": 1, "kind": "qprep-tune-jour' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(/^the tune journal is damaged: \/var\/lib\/qprep\/journal\.json is not JSON/);
    expectRemediation(outcome);
  });

  it('skips when the journal is readable by root only, and errors when it cannot be read at all', async () => {
    const denied = await runOn(check, { files: { [JOURNAL]: { error: 'EACCES' } } });
    expect(denied.outcome.status).toBe('skip');
    expectRemediation(denied.outcome);
    const broken = await runOn(check, { files: { [JOURNAL]: { error: 'EIO' } } });
    expect(broken.outcome.status).toBe('error');
    expectRemediation(broken.outcome);
  });
});
