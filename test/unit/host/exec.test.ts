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

  it('says when a process has ended by itself, before its output and sweep are done, and not when it was killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-onexit-'));
    const script = join(dir, 'tool');
    writeFileSync(script, `#!/bin/sh\necho answer\n`);
    chmodSync(script, 0o755);
    let exitedAt: number | undefined;
    const result = await runCommand([script], { timeoutMs: 10_000, env, onExit: () => (exitedAt ??= performance.now()) });
    const resultAt = performance.now();
    expect(result).toMatchObject({ exitCode: 0, stdout: 'answer\n' });
    expect(exitedAt).toBeDefined();
    expect(exitedAt!).toBeLessThan(resultAt);
    let killedExit = false;
    const hung = await runCommand(['sleep', '30'], { timeoutMs: 100, env, onExit: () => (killedExit = true) });
    expect(hung.timedOut).toBe(true);
    expect(killedExit).toBe(false);
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

  it('reports a file it may not execute, and an argument no process can receive, as data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-noexec-'));
    const script = join(dir, 'not-executable');
    writeFileSync(script, '#!/bin/sh\necho never\n');
    chmodSync(script, 0o644);
    const refused = await runCommand([script], { timeoutMs: 5000, env });
    expect(refused.failure).toBe(`${script}: permission denied`);
    expect(refused.exitCode).toBeNull();
    // a NUL byte cannot go through execve: refused before any process exists, never thrown
    const invalid = await runCommand(['printf', 'a\0b'], { timeoutMs: 5000, env });
    expect(invalid.failure).toMatch(/^printf: ERR_INVALID_ARG_VALUE$/);
    expect(invalid.exitCode).toBeNull();
  });

  it('reports the signal that killed a tool, and gives it no standard input to wait on', async () => {
    const crashed = await runCommand(['sh', '-c', 'echo partial; kill -SEGV $$'], { timeoutMs: 5000, env });
    expect(crashed.signal).toBe('SIGSEGV');
    expect(crashed.exitCode).toBeNull();
    expect(crashed.stdout).toBe('partial\n');
    expect(crashed.timedOut).toBe(false);
    // stdin is /dev/null: a tool that reads it sees end of file at once instead of hanging to the timeout
    const reader = await runCommand(['sh', '-c', 'cat; echo "read $?"'], { timeoutMs: 20_000, env });
    expect(reader.timedOut).toBe(false);
    expect(reader.stdout).toBe('read 0\n');
  });

  it('runs each command in a process group of its own, which a child still in it does not outlive', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-group-'));
    const pids = join(dir, 'pids');
    // the tool exits at once and leaves a child in its group that holds the pipes open
    const result = await runCommand(['sh', '-c', `sleep 300 & echo "$$ $(ps -o pgid= -p $$) $!" > ${pids}; echo done`], { timeoutMs: 20_000, env });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('done\n');
    const [shell, group, child] = readFileSync(pids, 'utf8').trim().split(/\s+/).map(Number);
    expect(group).toBe(shell);
    expect(group).not.toBe(process.pid);
    expect(await waitGone([child!])).toBe(true);
  });
});
