import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS, earlyCallPlan } from '../../../src/app/early-plan.js';

const argv = (...args: string[]) => ['node', 'qprep', ...args];
const env = { PATH: '/usr/bin' };

describe('earlyCallPlan: what the process asks the host before its command line is parsed', () => {
  it('qprep check and qprep snapshot of the live host: npu-smi and hccn_tool, with the run\'s timeout and root', () => {
    expect(earlyCallPlan(argv('check'), env, '/')).toEqual({ root: '/', timeoutMs: DEFAULT_TIMEOUT_MS, hccn: true, env });
    const root = mkdtempSync(join(tmpdir(), 'qprep-early-root-'));
    expect(earlyCallPlan(argv('snapshot', '-o', 'x.json', '--root', root, '--timeout=2s'), env, '/')).toEqual({ root, timeoutMs: 2000, hccn: true, env });
    // a relative --root, as the command line resolves it
    expect(earlyCallPlan(argv('check', '--root', '.'), env, root)?.root).toBe(root);
    // a selection: hccn_tool for the HCCN checks, npu-smi for them and the NPU checks
    expect(earlyCallPlan(argv('check', '--skip', 'hccn'), env, '/')?.hccn).toBe(false);
    expect(earlyCallPlan(argv('check', '--only', 'npu.smi,host'), env, '/')?.hccn).toBe(false);
    expect(earlyCallPlan(argv('check', '--only', 'hccn.ip'), env, '/')?.hccn).toBe(true);
    expect(earlyCallPlan(argv('check', '--only=host', '--only', 'hccn', '--skip', 'npu'), env, '/')?.hccn).toBe(true);
  });

  it('nothing for a replay, a selection, help, another command, or a --timeout or --root the command line refuses', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'qprep-early-file-')), 'f');
    writeFileSync(file, '');
    for (const args of [
      ['check', '--snapshot', 'host.json'],
      ['check', '--snapshot=host.json'],
      ['check', '--only', 'host.memory,sysctl'],
      ['check', '--skip', 'npu', '--skip=hccn'],
      ['check', '--help'],
      ['check', '-h'],
      ['facts'],
      ['serve'],
      ['list'],
      ['--lang', 'zh', 'check'],
      ['check', '--timeout', '10'],
      ['check', '--timeout', 'soon'],
      ['check', '--root', '/nonexistent/qprep-early'],
      ['check', '--root', file],
    ]) {
      expect(earlyCallPlan(argv(...args), env, '/'), args.join(' ')).toBeUndefined();
    }
  });
});
