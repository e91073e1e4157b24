import { describe, expect, it } from 'vitest';
import { A2_TABLE, fakeBin, healthyNpuSmi, hostTree, parseReport, qprepWith, shellQuote } from './support.js';

/*
 * A tool killed by a signal (it crashed: SIGSEGV, SIGABRT; or the OOM killer's SIGKILL) gave no
 * answer: the check is an error ("could not assess") that names the signal, never "exited with
 * code null", and a table it printed before dying is not trusted.
 */

describe('a tool killed by a signal', () => {
  for (const signal of ['SIGSEGV', 'SIGKILL', 'SIGABRT'] as const) {
    it(`npu-smi killed by ${signal}: npu.smi is an error naming ${signal} and the command`, async () => {
      const bin = fakeBin({ 'npu-smi': `kill -${signal.slice(3)} $$\n` });
      const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu', '--format', 'json']);
      const { byId } = await parseReport(run.stdout);
      expect(byId['npu.smi']).toMatchObject({ status: 'error', message: `"${bin}/npu-smi info" was killed by ${signal} and printed nothing` });
      expect(byId['npu.smi']!.remediation).toBe(`npu-smi crashed (${signal}): run "npu-smi info" by hand, look for davinci or dcmi errors in dmesg, and reinstall the driver if it keeps crashing`);
      expect(byId['npu.count']).toMatchObject({ status: 'error', message: `cannot check the NPU count: "${bin}/npu-smi info" was killed by ${signal} and printed nothing` });
      expect(run.exitCode).toBe(1);
    });
  }

  it('a table printed before a crash is not trusted: npu-smi prints the whole A2 table, then dies of SIGSEGV', async () => {
    const bin = fakeBin({ 'npu-smi': `cat ${shellQuote(A2_TABLE)}\nkill -SEGV $$\n` });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi,npu.count', '--format', 'json']);
    const { byId } = await parseReport(run.stdout);
    expect(byId['npu.smi']!.status).toBe('error');
    expect(byId['npu.smi']!.message).toMatch(new RegExp(`^"${bin}/npu-smi info" was killed by SIGSEGV: \\+-{10,}`));
    expect(byId['npu.count']!.status).toBe('error');
    expect(run.exitCode).toBe(1);
  });

  it('hccn_tool killed by SIGKILL on every call: each HCCN check that queries it is an error naming the signal', async () => {
    const bin = fakeBin({ 'npu-smi': healthyNpuSmi(), hccn_tool: 'kill -KILL $$\n' });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'hccn', '--format', 'json']);
    const { report } = await parseReport(run.stdout);
    const queried = report.checks.filter((c) => !['hccn.spod', 'hccn.peers'].includes(c.id));
    expect(queried.length).toBeGreaterThanOrEqual(8);
    for (const check of queried) {
      expect(check.status, check.id).toBe('error');
      expect(check.message, check.id).toMatch(new RegExp(`"${bin}/hccn_tool -i \\d+ [^"]+" was killed by SIGKILL`));
    }
    expect(run.exitCode).toBe(1);
  });

  it('the human report names the signal as well', async () => {
    const bin = fakeBin({ 'npu-smi': 'kill -SEGV $$\n' });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi', '--no-color']);
    expect(run.stdout).toContain(`? error  npu.smi  "${bin}/npu-smi info" was killed by SIGSEGV and printed nothing`);
    expect(run.exitCode).toBe(1);
  });
});
