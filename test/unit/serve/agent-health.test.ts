import { describe, expect, it } from 'vitest';
import { textFor } from '../../../src/i18n/index.js';
import { errorDocument } from '../../../src/report/error-document.js';
import type { AnyReport } from '../../../src/report/schema.js';
import { verdictOf } from '../../../src/report/serve-metrics.js';
import type { FinishedRun } from '../../../src/serve/agent.js';
import { renderRunDocuments } from '../../../src/serve/documents.js';
import { agentHealth } from '../../../src/serve/readiness.js';
import { reportOf, result } from '../../helpers/reports.js';

const FINISHED = Date.parse('2026-12-02T10:00:01.234Z');

function finished(report: AnyReport, finishedAtMs = FINISHED): FinishedRun {
  return { key: 'k', report, verdict: verdictOf(report), trigger: 'schedule', startedAtMs: finishedAtMs - 1234, finishedAtMs, durationMs: 1234, documents: renderRunDocuments(report, 1234, finishedAtMs) };
}

const NOT_READY = reportOf([result({ id: 'npu.idle', status: 'fail' })]);

describe('/agentz: the pod is ready while the agent works, whatever the node says', () => {
  it('a node that is not ready does not make the agent unready', () => {
    expect(agentHealth(finished(NOT_READY), FINISHED + 2000, 60_000)).toEqual({ ready: true, line: 'agent works: last run 2s ago, verdict not-ready' });
  });

  it('unready before the first run, when runs stop finishing, and when it cannot publish', () => {
    expect(agentHealth(undefined, FINISHED, 60_000)).toEqual({ ready: false, line: 'agent starting: the first run has not finished yet' });
    expect(agentHealth(finished(NOT_READY), FINISHED + 121_000, 60_000)).toEqual({ ready: false, line: 'agent stuck: its last run finished 2m1s ago, more than 2 × the 1m interval' });
    expect(agentHealth(finished(NOT_READY), FINISHED, 60_000, 'cannot patch node n1: the ServiceAccount may not patch node n1')).toEqual({
      ready: false,
      line: 'agent cannot publish the verdict: cannot patch node n1: the ServiceAccount may not patch node n1',
    });
  });

  it('a run without a verdict is the agent misconfigured when its setup is the cause, the node otherwise', () => {
    const bad = finished(errorDocument('invalid-cluster', 'invalid cluster file c.yaml: nodes[1].address: not an address', 'check'));
    expect(agentHealth(bad, FINISHED, 60_000)).toEqual({ ready: false, line: 'agent misconfigured: its last run had no verdict (invalid-cluster): invalid cluster file c.yaml: nodes[1].address: not an address' });
    const budget = finished(errorDocument('interrupted', 'the run exceeded its budget of 48s', 'check'));
    expect(agentHealth(budget, FINISHED, 60_000).ready).toBe(true);
  });

  it('in Chinese', () => {
    expect(agentHealth(finished(NOT_READY), FINISHED + 2000, 60_000, undefined, textFor('zh')).line).toBe('agent 工作正常：最近一次运行于 2s 前，结论 not-ready');
  });
});

describe('what the agent publishes after a run', () => {
  it('a failed publish is logged and kept for /agentz until a run publishes again; the verdict is unaffected', async () => {
    const { Agent } = await import('../../../src/serve/agent.js');
    const lines: Array<{ event: string; fields: Record<string, unknown> }> = [];
    let fail = true;
    const published: string[] = [];
    const agent = new Agent({
      intervalMs: 60_000,
      logger: { log: (_level, event, fields = {}) => lines.push({ event, fields }) },
      execute: () => Promise.resolve(NOT_READY),
      publish: (report) => {
        if (fail) return Promise.reject(new Error('cannot write /x/qprep: /x is not writable'));
        published.push('runId' in report ? report.runId : 'none');
        return Promise.resolve();
      },
    });
    const settle = async () => {
      while (agent.running) await new Promise((resolve) => setTimeout(resolve, 1));
    };
    agent.trigger('start');
    await settle();
    expect(agent.last?.verdict).toBe('not-ready');
    expect(agent.publishError).toBe('internal error: cannot write /x/qprep: /x is not writable (set QPREP_DEBUG=1 for the stack)');
    expect(lines.find((l) => l.event === 'publish-failed')?.fields).toMatchObject({ runId: NOT_READY.runId });
    fail = false;
    agent.trigger('http');
    await settle();
    agent.stop();
    expect(agent.publishError).toBeUndefined();
    expect(published).toEqual([NOT_READY.runId]);
    expect(lines.some((l) => l.event === 'publish-recovered')).toBe(true);
  });
});
