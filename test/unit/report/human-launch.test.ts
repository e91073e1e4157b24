import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/core/types.js';
import { formatHuman } from '../../../src/report/human.js';
import type { Report } from '../../../src/report/schema.js';

const base: Report = {
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
  summary: { pass: 0, warn: 0, fail: 0, skip: 3, error: 0 },
  blocking: [],
  checks: [],
};

function skipped(id: string, remediation: string): CheckResult {
  return { id, title: id, category: 'launch', level: 'required', status: 'skip', message: 'no launch script given (--launch SCRIPT)', remediation, evidence: {}, durationMs: 0 };
}

describe('the human report with launch checks', () => {
  it('names the launch script and the server command it found', () => {
    const text = formatHuman({ ...base, launch: { file: 'run_p.sh', from: 'file', lines: 71, serve: { line: 32, form: 'vllm serve', model: 'Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp' } } }, { color: false });
    expect(text.split('\n')[2]).toBe('launch script run_p.sh: vllm serve Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp at line 32');
    const replayed = formatHuman({ ...base, launch: { file: '-', from: 'snapshot', lines: 3, serve: null } }, { color: false });
    expect(replayed.split('\n')[2]).toBe('launch script from stdin (recorded in the snapshot): no vLLM server command');
  });

  it('prints the fix shared by consecutive skips once', () => {
    const fix = 'qprep check --launch /path/to/run.sh';
    const text = formatHuman({ ...base, checks: [skipped('launch.script', fix), skipped('launch.network', fix), skipped('model.weights', 'other fix')] }, { color: false, detail: 'all' });
    expect(text.split('\n').filter((l) => l.includes('fix: '))).toEqual([`             fix: ${fix}`, '             fix: other fix']);
  });

  it('prints the fix shared by consecutive errors once, but not across a status change', () => {
    const fix = 'install the NPU driver package (npu.smi reports the same cause)';
    const errored = (id: string): CheckResult => ({ ...skipped(id, fix), category: 'npu', status: 'error', message: `cannot check ${id}: npu-smi not found` });
    const text = formatHuman({ ...base, checks: [errored('npu.count'), errored('npu.health'), errored('npu.idle'), { ...skipped('npu.cann', fix), category: 'npu' }, errored('hccn.ip')] }, { color: false, detail: 'all' });
    const lines = text.split('\n');
    expect(lines.filter((l) => l.includes('fix: '))).toHaveLength(3);
    expect(lines.filter((l) => l.includes('cannot check npu.'))).toHaveLength(3);
    const health = lines.findIndex((l) => l.includes('npu.health'));
    expect(lines[health + 1]).toContain('npu.idle');
  });
});
