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

  it('names the installed stack it judged, in the order a launch depends on it; what was not found is left out, vllm-ascend said missing', () => {
    const fact = (version: string) => ({ version, path: `/x/${version}`, versionFrom: 'METADATA' as const, editable: null });
    const stack: NonNullable<Report['stack']> = {
      python: { path: '/usr/local/python3.11.13/bin/python3.11', via: 'the #! line of /usr/local/python3.11.13/bin/vllm', sitePackages: [] },
      packages: { vllmAscend: fact('0.13.0'), vllm: fact('0.13.0+empty'), torch: fact('2.8.0+cpu'), torchNpu: fact('2.8.0.post2'), transformers: fact('4.57.6'), tritonAscend: null },
      vllmAscendBuild: { deviceType: 'A3', path: '/vllm-workspace/vllm-ascend/vllm_ascend/_build_info.py' },
      cann: { toolkit: { version: '8.5.0', path: 'a', arch: 'aarch64' }, kernels: { version: '8.5.0', build: null, path: 'b' }, atb: { version: '8.5.0', build: null, path: 'c', setEnv: null } },
      driver: { version: '25.2.3', path: 'd' },
      firmware: null,
      image: { socVersion: 'ascend910_9391' },
      searched: [],
    };
    const text = formatHuman({ ...base, stack }, { color: false });
    expect(text.split('\n')[2]).toBe(
      'stack vllm-ascend 0.13.0 (built for A3) · vllm 0.13.0+empty · torch 2.8.0+cpu · torch_npu 2.8.0.post2 · transformers 4.57.6 · CANN 8.5.0 (kernels 8.5.0, ATB 8.5.0) · driver 25.2.3 · SOC_VERSION ascend910_9391',
    );
    const missing = { ...stack, packages: { ...stack.packages, vllmAscend: null }, vllmAscendBuild: null };
    expect(formatHuman({ ...base, lang: 'zh', stack: missing }, { color: false }).split('\n')[2]).toMatch(/^软件栈 未找到 vllm-ascend · vllm 0\.13\.0\+empty · /);
    const nothing = { ...missing, python: { ...stack.python, path: null }, packages: { vllmAscend: null, vllm: null, torch: null, torchNpu: null, transformers: null, tritonAscend: null }, cann: { toolkit: null, kernels: null, atb: null }, driver: null, image: { socVersion: null } };
    expect(formatHuman({ ...base, stack: nothing }, { color: false }).split('\n')[2]).toBe('');
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
