import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeBin, healthyNpuSmi, hostTree, isAlive, parseReport, qprepWith, shellQuote, tmp } from './support.js';

/*
 * A tool that takes its descendants out of its process group (setsid, or a daemonizing wrapper
 * that double-forks and exits 0) must not leave them running on the node: qprep marks every
 * tool's environment with its run token, kills what still carries it once the call has ended,
 * and the report names the tool.
 */

/** Live processes whose environment holds NAME=VALUE: what the run started, wherever it went. */
function processesMarked(name: string, value: string): number[] {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found: number[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`);
      if (environ.includes(needle) && isAlive(Number(pid))) found.push(Number(pid));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

async function expectNoneLeft(mark: string, pidFile: string): Promise<void> {
  const recorded = readFileSync(pidFile, 'utf8').trim().split(/\s+/).map(Number);
  expect(recorded.length).toBeGreaterThan(0);
  // SIGKILL is delivered at once; ending takes a moment: wait with a generous deadline
  const deadline = Date.now() + 20_000;
  const left = () => [...new Set([...recorded.filter(isAlive), ...processesMarked('ROBUST_MARK', mark)])];
  while (left().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(left(), 'processes of the run still running').toEqual([]);
}

describe('a tool whose descendants leave its process group', () => {
  it('hccn_tool that starts a setsid daemon on every call: after a full check no process of the run remains, and the report names the tool', async () => {
    const pidFile = join(tmp('pid'), 'daemons');
    const mark = randomUUID();
    const daemon = `echo $$ >> ${shellQuote(pidFile)}; exec sleep 3600`;
    const bin = fakeBin({
      'npu-smi': healthyNpuSmi(),
      hccn_tool: `setsid sh -c ${shellQuote(daemon)} </dev/null >/dev/null 2>&1 &\necho "link status: UP"\n`,
    });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--format', 'json'], { ROBUST_MARK: mark });
    const { report } = await parseReport(run.stdout);
    await expectNoneLeft(mark, pidFile);
    const calls = readFileSync(pidFile, 'utf8').trim().split(/\s+/).length;
    const left = report.leftProcesses as Array<{ tool: string; firstCall: string[]; calls: number; processes: number }>;
    expect(left).toEqual([{ tool: `${bin}/hccn_tool`, firstCall: expect.arrayContaining([`${bin}/hccn_tool`]), calls: expect.any(Number), processes: expect.any(Number) }]);
    // every daemon started was found by its token (a few may have been killed before they wrote their pid)
    expect(left[0]!.processes).toBeGreaterThanOrEqual(calls);
    expect(left[0]!.calls).toBeGreaterThanOrEqual(8);
  });

  it('a double fork that exits 0 and leaves a grandchild holding stdout: the call ends at once instead of at its timeout, nothing remains, the human report says so', async () => {
    const pidFile = join(tmp('pid'), 'daemons');
    const mark = randomUUID();
    const grandchild = `echo $$ >> ${shellQuote(pidFile)}; exec sleep 3600`;
    const bin = fakeBin({
      'npu-smi': healthyNpuSmi(),
      hccn_tool: `( setsid sh -c ${shellQuote(grandchild)} & )\nsleep 0.2\necho "link status: UP"\nexit 0\n`,
    });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'hccn.link', '--timeout', '60s', '--no-color'], { ROBUST_MARK: mark });
    expect(run.stdout).not.toMatch(/did not finish within/);
    expect(run.stdout).toMatch(new RegExp(`note: ${bin}/hccn_tool left \\d+ process(es)? running outside its process group after \\d+ calls? \\("${bin}/hccn_tool -i \\d+ [^"]+" first\\); qprep killed them`));
    await expectNoneLeft(mark, pidFile);
  });
});
