import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../../src/host/exec.js';
import { sweepListings, sweepPasses } from '../../../src/host/strays.js';
import { stateOf } from '../../helpers/proc.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/**
 * A call whose shell leaves `sleep 300` behind in a session of its own, then lingers `pause`
 * seconds: the shell waits until the child has its own session (field 6 of /proc/PID/stat);
 * ended before that, the call's group kill would take the child and the sweep would have
 * nothing to find. Returns the call's result once the escaped process is gone (or a zombie).
 */
async function callLeavingAnEscapee(pause: number): Promise<{ result: Awaited<ReturnType<typeof runCommand>>; escaped: number }> {
  const script = `setsid sleep 300 </dev/null >/dev/null 2>&1 & p=$!; i=0; while [ "$(cut -d" " -f6 /proc/$p/stat)" != "$p" ] && [ $i -lt 100000 ]; do i=$((i+1)); done; ${pause > 0 ? `sleep ${pause}; ` : ''}echo $p`;
  const result = await runCommand(['sh', '-c', script], { timeoutMs: 20_000, env });
  const escaped = Number(result.stdout.trim());
  const deadline = Date.now() + 10_000;
  while (stateOf(escaped) !== undefined && stateOf(escaped) !== 'Z' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return { result, escaped };
}

describe('the sweep after each call', () => {
  it('makes one pass over /proc when a process that is not the run\'s is a zombie among the new ones', async () => {
    // a zombie reads as an empty environment for as long as it exists; the pass must not be
    // made again for it (a node has zombies of other programs all the time)
    const before = await runCommand(['true'], { timeoutMs: 20_000, env });
    expect(before.exitCode).toBe(0);
    const started = sweepPasses();
    // the calls start first, so that the zombie's pid is among those handed out since they began
    const calls = Promise.all([0, 1, 2].map(() => runCommand(['sh', '-c', 'sleep 1'], { timeoutMs: 20_000, env })));
    // started by this process, not by runCommand: no run token; its child, still running when the
    // shell becomes `sleep 20`, is never reaped
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 20'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = await new Promise<number>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
      const deadline = Date.now() + 10_000;
      while (stateOf(zombie) !== 'Z' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(stateOf(zombie)).toBe('Z');
      for (const call of await calls) expect(call.exitCode).toBe(0);
      expect(stateOf(zombie)).toBe('Z');
      const made = sweepPasses() - started;
      // the three calls end together or one by one: one pass each at most, not one per round
      expect(made).toBeGreaterThanOrEqual(1);
      expect(made).toBeLessThanOrEqual(3);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('finds a process of the call that moved to a session of its own by its pid, without listing /proc, on a quiet node', async () => {
    const listed = sweepListings();
    const { result, escaped } = await callLeavingAnEscapee(0);
    expect(result.exitCode).toBe(0);
    expect(result.leftProcesses).toBe(1);
    expect(['Z', undefined]).toContain(stateOf(escaped));
    // the few pids handed out since the call began were asked for one by one (a test worker of
    // this suite may start processes meanwhile: at most the odd listing, not one per pass)
    expect(sweepListings() - listed).toBeLessThanOrEqual(1);
  });

  it('still finds a process of the call that moved to a session of its own, with other processes starting and ending meanwhile', async () => {
    const churn = spawn('sh', ['-c', 'while :; do /bin/true; done'], { stdio: 'ignore' });
    const listed = sweepListings();
    try {
      // lingering long enough for the churn to hand out more pids than a sweep asks for by number
      const { result, escaped } = await callLeavingAnEscapee(1);
      expect(result.exitCode).toBe(0);
      expect(result.leftProcesses).toBe(1);
      expect(['Z', undefined]).toContain(stateOf(escaped));
      // hundreds of pids a second: the sweep listed /proc
      expect(sweepListings() - listed).toBeGreaterThanOrEqual(1);
    } finally {
      churn.kill('SIGKILL');
    }
  });
});
