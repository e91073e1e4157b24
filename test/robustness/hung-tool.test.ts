import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAllGone, fakeBin, hangingWithChild, healthyNpuSmi, hostTree, parseReport, pidsFrom, qprepWith, tmp } from './support.js';

/*
 * A hung vendor tool (a wedged driver makes npu-smi or hccn_tool block forever) must never hang
 * qprep: every probe is killed at --timeout with its whole process group, the check says which
 * command hung and after how long, and no process of the tool's tree is left behind.
 */

describe('a hung tool', () => {
  it('npu-smi that sleeps forever (one process, exec): npu.smi is an error naming the command and the timeout; the process is gone', async () => {
    const pidFile = join(tmp('pid'), 'pid');
    const bin = fakeBin({ 'npu-smi': `echo "$$ $$" > '${pidFile}'\nexec sleep 3600\n` });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu', '--timeout', '500ms', '--format', 'json']);
    const { byId } = await parseReport(run.stdout);
    expect(byId['npu.smi']).toMatchObject({ status: 'error', message: `"${bin}/npu-smi info" did not finish within 500 ms and was killed with its child processes` });
    expect(byId['npu.smi']!.remediation).toContain('the driver may be wedged');
    expect(run.exitCode).toBe(1);
    const [pid] = await pidsFrom(pidFile);
    await expectAllGone([pid!]);
  });

  it('npu-smi that forks a child which sleeps holding stdout: both are killed with their group, the run ends', async () => {
    const pidFile = join(tmp('pid'), 'pids');
    const bin = fakeBin({ 'npu-smi': hangingWithChild(pidFile) });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--timeout', '500ms', '--format', 'json']);
    const { byId, report } = await parseReport(run.stdout);
    expect(byId['npu.smi']!.status).toBe('error');
    expect(byId['npu.smi']!.message).toBe(`"${bin}/npu-smi info" did not finish within 500 ms and was killed with its child processes`);
    // the checks that need the table say why they could not assess, naming the same command
    expect(byId['npu.count']!.message).toContain(`"${bin}/npu-smi info" did not finish within 500 ms`);
    expect(report.ready).toBe(false);
    expect(run.exitCode).toBe(1);
    const [parent, child] = await pidsFrom(pidFile);
    // the tool ran as the leader of its own process group: nothing may be left in it
    await expectAllGone([parent!, child!], [parent!]);
  });

  it('hccn_tool that hangs with a child: the first call is killed at the timeout, the queued ones are not made, every HCCN check names the hung call', async () => {
    const pidFile = join(tmp('pid'), 'pids');
    const bin = fakeBin({ 'npu-smi': healthyNpuSmi(), hccn_tool: hangingWithChild(pidFile) });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'hccn', '--timeout', '400ms', '--format', 'json']);
    const { report } = await parseReport(run.stdout);
    const queried = report.checks.filter((c) => !['hccn.spod', 'hccn.peers'].includes(c.id));
    expect(queried.length).toBeGreaterThanOrEqual(8);
    for (const check of queried) {
      expect(check.status, check.id).toBe('error');
      // either the call that hung or one not made because of it; both name the hung call and the timeout
      expect(check.message, check.id).toMatch(new RegExp(`"${bin}/hccn_tool -i 0 [^"]+" (did not finish within 400 ms and was killed|hung earlier in this run \\(killed after 400 ms\\))`));
    }
    expect(run.exitCode).toBe(1);
    const [parent, child] = await pidsFrom(pidFile);
    await expectAllGone([parent!, child!], [parent!]);
  });

  it('the human report shows the hung command too, on one line with its fix', async () => {
    const bin = fakeBin({ 'npu-smi': 'exec sleep 3600\n' });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi', '--timeout', '300ms', '--no-color']);
    expect(run.stdout).toContain(`? error  npu.smi  "${bin}/npu-smi info" did not finish within 300 ms and was killed with its child processes`);
    expect(run.stdout).toMatch(/fix: the driver may be wedged/);
    expect(run.stdout).toContain('NOT READY: 1 problem (npu.smi (could not assess))');
    expect(run.exitCode).toBe(1);
  });
});
