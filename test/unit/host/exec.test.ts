import { mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../../src/host/exec.js';

/** Running or sleeping; a zombie waiting for its reaper has already stopped. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function waitGone(pids: number[], ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (pids.every((pid) => !alive(pid))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return pids.every((pid) => !alive(pid));
}

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('runCommand', () => {
  it('kills a hung command and the child it spawned at the timeout; no process survives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-hang-'));
    const script = join(dir, 'wedged-tool');
    const pids = join(dir, 'pids');
    // a tool that forks a helper (like npu-smi talking to a wedged driver) and both hang
    writeFileSync(script, `#!/bin/sh\nsleep 300 &\necho "$$ $!" > ${pids}\nsleep 300\n`);
    chmodSync(script, 0o755);
    const started = Date.now();
    const result = await runCommand([script], { timeoutMs: 300, env });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    // killed at the timeout, not after the tool's 300 s sleep; the bound is loose so that a
    // loaded CI machine cannot fail it, and still far below what waiting for the tool would take
    expect(Date.now() - started).toBeLessThan(30_000);
    const [parent, child] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    expect(parent).toBeGreaterThan(1);
    expect(child).toBeGreaterThan(1);
    expect(await waitGone([parent!, child!])).toBe(true);
  });

  it('returns even when an escaped grandchild keeps the pipes open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-escape-'));
    const script = join(dir, 'escaping-tool');
    const pidFile = join(dir, 'pid');
    writeFileSync(script, `#!/bin/sh\nsetsid sh -c 'echo $$ > ${pidFile}; sleep 300' &\nsleep 300\n`);
    chmodSync(script, 0o755);
    const result = await runCommand([script], { timeoutMs: 200, env });
    expect(result.timedOut).toBe(true);
    // setsid made it the leader of its own group: clean up the whole group
    const escaped = Number(readFileSync(pidFile, 'utf8').trim());
    process.kill(-escaped, 'SIGKILL');
  });

  it('passes arguments verbatim, never through a shell, with LC_ALL=C', async () => {
    const result = await runCommand(['sh', '-c', 'printf "%s|%s|%s" "$1" "$LC_ALL" "$LANG"', 'sh', '1.2.3.4; rm -rf / $(id)'], { timeoutMs: 5000, env: { ...env, LC_ALL: 'zh_CN.UTF-8' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('1.2.3.4; rm -rf / $(id)|C|C');
  });

  it('reports a missing executable and a non-zero exit as data', async () => {
    const missing = await runCommand(['qprep-no-such-tool', 'info'], { timeoutMs: 5000, env });
    expect(missing.notFound).toBe(true);
    expect(missing.failure).toBe('qprep-no-such-tool: command not found');
    const failing = await runCommand(['sh', '-c', 'echo oops >&2; exit 3'], { timeoutMs: 5000, env });
    expect(failing.exitCode).toBe(3);
    expect(failing.stderr).toBe('oops\n');
    expect(failing.timedOut).toBe(false);
  });
});
