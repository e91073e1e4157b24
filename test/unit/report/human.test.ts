import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/app/progress.js';
import { formatHuman } from '../../../src/report/human.js';
import { reportOf, result } from '../../helpers/reports.js';

const ANSI = /\x1b\[[0-9;]*m/;

describe('human report', () => {
  const report = reportOf([
    result({ id: 'sysctl.swappiness', status: 'warn', level: 'recommended', message: 'vm.swappiness is 60, expected at most 1', remediation: 'sudo sysctl -w vm.swappiness=0' }),
    result({ id: 'cpu.governor', status: 'pass', message: 'all 8 online CPUs use the performance governor' }),
    result({ id: 'npu.smi', status: 'fail', message: 'dcmi module initialize failed (-8005)', remediation: 'stop the container holding the NPUs\nor run with --privileged' }),
    result({ id: 'npu.count', status: 'error', message: 'cannot count', remediation: 'see npu.smi' }),
    result({ id: 'host.disk', status: 'skip', message: 'no directory', remediation: 'nothing to do' }),
    result({ id: 'net.proxy', status: 'warn', message: 'proxy set', waived: { reason: 'wrapper unsets it', expires: '2027-01-31' } }),
  ]);

  it('groups checks under their category in report order, one line each, the fix under every problem', () => {
    const text = formatHuman(report, { color: false });
    const lines = text.split('\n');
    const headings = lines.filter((l) => /^[A-Z]/.test(l) && !/^(READY|NOT READY)/.test(l));
    expect(headings).toEqual(['Host tuning', 'Host resources', 'Host network', 'NPU and driver']);
    expect(text).toContain('  ! warn   sysctl.swappiness  vm.swappiness is 60, expected at most 1\n             fix: sudo sysctl -w vm.swappiness=0\n');
    expect(text).toContain('  ✓ pass   cpu.governor       all 8 online CPUs use the performance governor\n\nHost resources\n');
    expect(text).toContain('fix: stop the container holding the NPUs\n                  or run with --privileged\n');
    expect(text).toContain('(waived: wrapper unsets it, until 2027-01-31)');
    expect(text).not.toMatch(/cpu\.governor.*\n\s+fix:/);
  });

  it('ends with the summary and a verdict that names the blocking checks', () => {
    const text = formatHuman(report, { color: false });
    expect(text).toContain('6 checks: 1 pass, 2 warn, 1 fail, 1 skip, 1 error · 1.2 s\n');
    expect(text.trimEnd().split('\n').pop()).toBe('NOT READY: failed: npu.smi; could not assess: npu.count');
    const ready = formatHuman(reportOf([result({ id: 'cpu.governor', status: 'warn', level: 'recommended' })]), { color: false });
    expect(ready.trimEnd().split('\n').pop()).toBe('READY (1 warning; --strict would refuse them)');
  });

  it('colors only when asked', () => {
    expect(formatHuman(report, { color: false })).not.toMatch(ANSI);
    expect(formatHuman(report, { color: true })).toMatch(ANSI);
  });
});

describe('progress', () => {
  it('draws on a terminal and clears its line at the end', () => {
    const writes: string[] = [];
    const progress = createProgress({ isTTY: true, write: (chunk: string) => writes.push(chunk) } as unknown as NodeJS.WriteStream);
    progress.start(3);
    progress.update(1, 3, 'npu.smi');
    progress.stop();
    expect(writes).toEqual(['\r\x1b[Kqprep: checking 0/3', '\r\x1b[Kqprep: checking 1/3 (npu.smi done)', '\r\x1b[K']);
  });

  it('writes nothing when stderr is not a terminal (pipes, Ansible, CI logs)', () => {
    const writes: string[] = [];
    const progress = createProgress({ isTTY: false, write: (chunk: string) => writes.push(chunk) } as unknown as NodeJS.WriteStream);
    progress.start(3);
    progress.update(3, 3, 'x.y');
    progress.stop();
    expect(writes).toEqual([]);
  });
});
