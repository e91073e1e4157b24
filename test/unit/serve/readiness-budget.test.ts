import { describe, expect, it } from 'vitest';
import type { FinishedRun } from '../../../src/serve/agent.js';
import { BUDGET_MARKER, formatBudget, overBudgetReport } from '../../../src/serve/budget.js';
import { renderRunDocuments } from '../../../src/serve/documents.js';
import { readiness } from '../../../src/serve/readiness.js';
import { textFor } from '../../../src/i18n/index.js';
import { verdictOf } from '../../../src/report/serve-metrics.js';
import { reportSchema, type AnyReport } from '../../../src/report/schema.js';
import { markInterrupted } from '../../../src/app/interrupt.js';
import { errorDocument } from '../../../src/report/error-document.js';
import { reportOf, result } from '../../helpers/reports.js';

const FINISHED = Date.parse('2026-12-02T10:00:01.234Z');

function finished(report: AnyReport, finishedAtMs = FINISHED): FinishedRun {
  return { key: 'k', report, verdict: verdictOf(report), trigger: 'schedule', startedAtMs: finishedAtMs - 1234, finishedAtMs, durationMs: 1234, documents: renderRunDocuments(report, 1234, finishedAtMs) };
}

const READY = reportOf([result({ id: 'npu.idle', status: 'pass' }), result({ id: 'sysctl.swappiness', status: 'warn', level: 'recommended' })]);
const NOT_READY = reportOf([result({ id: 'npu.idle', status: 'fail' }), result({ id: 'hccn.link', status: 'error' }), result({ id: 'host.shm', status: 'pass' })]);

describe('/readyz verdict', () => {
  it('ready with the count of checks and warnings, the run and its age', () => {
    expect(readiness(finished(READY), FINISHED + 3000, 60_000)).toEqual({
      ready: true,
      line: 'ready: 2 checks, none blocking, 1 warning (run 5f0c6d0e-8a0f-4c59-9a57-0d3f3c8d7a51, 3s ago)',
    });
  });

  it('not ready names the blocking checks', () => {
    expect(readiness(finished(NOT_READY), FINISHED, 60_000)).toEqual({
      ready: false,
      line: 'not ready: 2 blocking checks: npu.idle, hccn.link (run 5f0c6d0e-8a0f-4c59-9a57-0d3f3c8d7a51, 0s ago)',
    });
  });

  it('a ready report older than two intervals is not ready: runs stopped finishing', () => {
    const verdict = readiness(finished(READY), FINISHED + 121_000, 60_000);
    expect(verdict).toEqual({ ready: false, line: 'not ready: the last report is stale: it finished 2m1s ago, more than 2 × the 1m interval' });
  });

  it('before the first run, and after a run without a verdict', () => {
    expect(readiness(undefined, FINISHED, 60_000)).toEqual({ ready: false, line: 'not ready: the first run has not finished yet' });
    const error = errorDocument('invalid-cluster', 'invalid cluster file c.yaml: nodes[1].address: not an IP address', 'check');
    expect(readiness(finished(error), FINISHED + 1000, 60_000).line).toBe('no verdict: invalid cluster file c.yaml: nodes[1].address: not an IP address (1s ago)');
  });

  it('says when the profile reload failed, without changing the verdict', () => {
    const verdict = readiness(finished(READY), FINISHED, 60_000, 'invalid profile p.yaml: npu.count: expected a number');
    expect(verdict.ready).toBe(true);
    expect(verdict.line).toMatch(/\(run [^)]+\); profile reload failed, still using the previous profile: invalid profile p\.yaml: npu\.count: expected a number$/);
  });
});

describe('/readyz verdict in Chinese', () => {
  const zh = textFor('zh');

  it('the same verdicts, said in Chinese; check ids, run id and durations as they are', () => {
    expect(readiness(finished(READY), FINISHED + 3000, 60_000, undefined, zh)).toEqual({
      ready: true,
      line: '就绪：2 项检查，无阻塞项，1 个警告（运行 5f0c6d0e-8a0f-4c59-9a57-0d3f3c8d7a51，3s 前）',
    });
    expect(readiness(finished(NOT_READY), FINISHED, 60_000, undefined, zh)).toEqual({
      ready: false,
      line: '未就绪：2 项阻塞检查：npu.idle, hccn.link（运行 5f0c6d0e-8a0f-4c59-9a57-0d3f3c8d7a51，0s 前）',
    });
    expect(readiness(finished(READY), FINISHED + 121_000, 60_000, undefined, zh)).toEqual({
      ready: false,
      line: '未就绪：最近的报告已过时：它完成于 2m1s 前，超过了 2 × 1m 的运行间隔',
    });
    expect(readiness(undefined, FINISHED, 60_000, undefined, zh)).toEqual({ ready: false, line: '未就绪：首次运行尚未完成' });
    const reload = readiness(finished(READY), FINISHED, 60_000, 'invalid profile p.yaml: npu.count: expected a number', zh);
    expect(reload.ready).toBe(true);
    expect(reload.line).toMatch(/）；profile 重新加载失败，仍在使用之前的 profile：invalid profile p\.yaml: npu\.count: expected a number$/);
  });
});

describe('a run cut at its budget', () => {
  const checks = [result({ id: 'npu.idle', status: 'pass' }), result({ id: 'npu.smi', status: 'pass' }), result({ id: 'hccn.link', status: 'pass' })];
  const partial = markInterrupted(reportOf(checks), BUDGET_MARKER, ['npu.smi', 'hccn.link']);

  it('has no verdict, names the budget, and is valid against the report schema', () => {
    const report = overBudgetReport(partial, 1600);
    expect(report.interrupted).toBeUndefined();
    expect(report.ready).toBe(false);
    expect(report.error).toEqual({ code: 'interrupted', message: 'the run exceeded its budget of 1.6s: 2 of 3 checks did not finish; no verdict' });
    expect(report.checks.map((c) => c.message)).toEqual(['npu.idle is pass', 'did not finish within the run budget of 1.6s', 'did not finish within the run budget of 1.6s']);
    expect(report.checks[1]!.evidence).toEqual({ budgetMs: 1600 });
    expect(JSON.stringify(report)).not.toContain(BUDGET_MARKER);
    expect(reportSchema.safeParse(report).success).toBe(true);
    expect(verdictOf(report)).toBe('no-verdict');
  });

  it('prints budgets as they were given', () => {
    expect(formatBudget(500)).toBe('500ms');
    expect(formatBudget(1600)).toBe('1.6s');
    expect(formatBudget(240_000)).toBe('4m');
  });
});
