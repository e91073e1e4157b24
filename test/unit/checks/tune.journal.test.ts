import { describe, expect, it } from 'vitest';
import check from '../../../checks/tune.journal.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
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

describe('tune.journal in Chinese', () => {
  it('passes (no journal, changes in effect) in Chinese', async () => {
    const none = await runInBoth(check, { files: {} });
    expect(none.zh.result.title).toBe('qprep tune 日志');
    expect(none.zh.outcome.message).toBe('qprep tune 在此没有生效中的改动（没有日志）');
    const applied = await runInBoth(check, { files: { [JOURNAL]: journal('applied') } });
    expect(applied.zh.outcome.message).toBe('自 2026-12-01T10:00:00.000Z 起由 qprep tune 修改的 3 项设置正在生效（撤销：sudo qprep rollback）');
  });

  it('fails on an unfinished tune in Chinese, with the rollback command byte for byte', async () => {
    const { en, zh } = await runInBoth(check, { files: { [JOURNAL]: journal('applying', 2) }, root: '/host' });
    expect(zh.outcome.message).toBe('"qprep tune --persist" 于 2026-12-01T10:00:00.000Z 开始，没有完成（被中断，或正在运行）：2 项改动可能处于半应用状态');
    expect(zh.outcome.remediation).toBe('sudo qprep rollback --root /host   # 按 /var/lib/qprep/journal.json 恢复旧值');
    expectSameCommands(en.outcome, zh.outcome);
    const reverted = await runInBoth(check, { files: { [JOURNAL]: journal('revert-failed', 1) } });
    expect(reverted.zh.outcome.message).toContain('失败且未能撤销全部改动：1 项改动');
  });

  it('a damaged, a root-only and an unreadable journal in Chinese', async () => {
    const damaged = await runInBoth(check, { files: { [JOURNAL]: '{"schemaVersion": 1, "kind": "qprep-tune-jour' } });
    expect(damaged.zh.outcome.message).toMatch(/^调优日志已损坏：/);
    expect(damaged.zh.outcome.remediation).toMatch(/：sudo mv \/var\/lib\/qprep\/journal\.json \/var\/lib\/qprep\/journal\.json\.damaged$/);
    const rootOnly = await runInBoth(check, { files: { [JOURNAL]: { error: 'EACCES' } } });
    expect(rootOnly.zh.outcome.message).toBe('/var/lib/qprep/journal.json 只有 root 可读');
    const unreadable = await runInBoth(check, { files: { [JOURNAL]: { error: 'EIO' } } });
    expect(unreadable.zh.outcome.message).toMatch(/^无法读取调优日志：/);
  });
});
