import { describe, expect, it } from 'vitest';
import { formatHuman } from '../../../src/report/human.js';
import type { Report } from '../../../src/report/schema.js';

const report: Report = {
  schemaVersion: 1,
  tool: { name: 'qprep', version: '0.1.0' },
  runId: 'r',
  host: { hostname: 'node1', arch: 'aarch64', kernel: '5.15.0', os: 'Ubuntu 22.04.4 LTS', inContainer: false, containerRuntime: null },
  source: { kind: 'live', root: '/' },
  profile: { name: 'default', source: 'builtin' },
  startedAt: '2026-12-02T10:00:00.000Z',
  durationMs: 10,
  ready: true,
  strict: false,
  selection: { only: [], skip: [], ignore: [] },
  summary: { pass: 0, warn: 0, fail: 0, skip: 0, error: 0 },
  blocking: [],
  checks: [],
};

describe('the human report of a cluster run', () => {
  it('names the cluster file, this node, how it was found and the plan; a disagreement is a note', () => {
    const text = formatHuman(
      {
        ...report,
        cluster: {
          file: 'c.yaml',
          name: null,
          self: 'node2',
          matchedBy: 'address',
          evidence: '198.19.0.12 on eth0',
          nodes: ['node1', 'node2', 'node3', 'node4'],
          plan: 'same-index',
          note: "hostname node1 names node node1, but address 198.19.0.12 is node2's; using node2",
        },
      },
      { color: false },
    );
    const lines = text.split('\n');
    expect(lines[2]).toBe('cluster c.yaml: node2, one of 4 nodes (found by 198.19.0.12 on eth0) · plan same-index');
    expect(lines[3]).toBe("note: hostname node1 names node node1, but address 198.19.0.12 is node2's; using node2");
    expect(formatHuman(report, { color: false })).not.toContain('cluster');
  });
});
