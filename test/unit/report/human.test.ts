import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../src/app/progress.js';
import { fixLines, formatHuman } from '../../../src/report/human.js';
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

  it('with -v shows every check under its category in report order, one line each, the fix under every problem', () => {
    const text = formatHuman(report, { color: false, detail: 'all' });
    const lines = text.split('\n');
    const headings = lines.filter((l) => /^[A-Z]/.test(l) && !/^(READY|NOT READY)/.test(l));
    expect(headings).toEqual(['Host tuning', 'Host resources', 'Host network', 'NPU and driver']);
    expect(text).toContain('  ! warn   sysctl.swappiness  vm.swappiness is 60, expected at most 1\n             fix: sudo sysctl -w vm.swappiness=0\n');
    expect(text).toContain('  ✓ pass   cpu.governor       all 8 online CPUs use the performance governor\n\nHost resources\n');
    expect(text).toContain('fix: stop the container holding the NPUs\n                  or run with --privileged\n');
    expect(text).toContain('(waived: wrapper unsets it, until 2027-01-31)');
    expect(text).not.toMatch(/cpu\.governor.*\n\s+fix:/);
  });

  it('by default shows the problems in full and one line for the passes and the skips of each category', () => {
    const text = formatHuman(report, { color: false });
    expect(text).toContain('Host tuning\n  ✓ 1 passed: cpu.governor\n  ! warn   sysctl.swappiness  vm.swappiness is 60, expected at most 1\n');
    expect(text).toContain('Host resources\n  - 1 skipped: host.disk\n');
    expect(text).not.toContain('all 8 online CPUs');
    expect(text).not.toContain('no directory');
    expect(text).toContain('  ✗ fail   npu.smi            dcmi module initialize failed (-8005)\n');
    expect(text).toContain(' · -v shows every check\n');
  });

  it('with -q prints the verdict line alone', () => {
    expect(formatHuman(report, { color: false, detail: 'verdict' })).toBe('NOT READY: 2 problems (npu.smi; npu.count (could not assess))\n');
  });

  it('ends with the summary and a verdict that counts the problems', () => {
    const text = formatHuman(report, { color: false });
    expect(text).toContain('6 checks: 1 pass, 2 warn, 1 fail, 1 skip, 1 error · 1.2 s');
    expect(text.trimEnd().split('\n').pop()).toBe('NOT READY: 2 problems (npu.smi; npu.count (could not assess))');
    const ready = formatHuman(reportOf([result({ id: 'cpu.governor', status: 'warn', level: 'recommended' })]), { color: false });
    expect(ready.trimEnd().split('\n').pop()).toBe('READY (1 warning; --strict would refuse them)');
  });

  it('names a root cause once, with its fix and its dependants, and counts it as one problem', () => {
    const missing = 'npu-smi not found (not on PATH, not in /usr/local/sbin or /usr/local/bin)';
    const dependant = (id: string) => result({ id, status: 'error', message: `cannot check ${id}: ${missing}`, remediation: 'install the NPU driver package', causedBy: 'npu.smi' });
    const noDriver = reportOf([
      result({ id: 'npu.smi', status: 'fail', message: missing, remediation: 'install the NPU driver package' }),
      dependant('npu.count'),
      dependant('npu.health'),
      dependant('hccn.ip'),
      dependant('hccn.link'),
      result({ id: 'net.ports', status: 'fail', message: 'port 8000 is taken' }),
    ]);
    const text = formatHuman(noDriver, { color: false });
    expect(text.split(missing)).toHaveLength(2);
    expect(text).toContain('\n             ↳ 4 checks could not run because of it: npu.count, npu.health, hccn.ip, hccn.link\n');
    expect(text).toContain('HCCN network and cluster\n  ? 2 could not run because of npu.smi: hccn.ip, hccn.link\n');
    expect(text.trimEnd().split('\n').pop()).toBe('NOT READY: 2 problems (npu.smi: 4 checks could not run; net.ports)');
    // -v still shows every dependant, marked with its cause
    expect(formatHuman(noDriver, { color: false, detail: 'all' })).toContain(`hccn.ip     cannot check hccn.ip: ${missing} (caused by npu.smi)`);
  });

  it('wraps messages at the width with a hanging indent, and never wraps a fix', () => {
    const long = result({
      id: 'host.shm',
      status: 'fail',
      message: '/dev/shm is 64 MiB, expected at least 16 GiB: vLLM puts its shared tensors there and a small one makes the workers die with a bus error',
      remediation: 'docker run --shm-size=16g --device /dev/davinci0 --device /dev/davinci_manager --device /dev/devmm_svm --device /dev/hisi_hdc IMAGE',
    });
    const text = formatHuman(reportOf([long]), { color: false, width: 80 });
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.includes('✗ fail'));
    expect(lines[start]!.length).toBeLessThanOrEqual(80);
    expect(lines[start + 1]).toMatch(/^ {21}\S/);
    const fix = lines.find((l) => l.includes('fix: '))!;
    expect(fix).toContain('--device /dev/hisi_hdc IMAGE');
    expect(fix.length).toBeGreaterThan(80);
    // without a width (not a terminal) nothing wraps
    expect(formatHuman(reportOf([long]), { color: false }).split('\n').find((l) => l.includes('✗ fail'))).toContain('bus error');
  });

  it('prints an alternative command on its own or: line, and qprep as this install starts it', () => {
    expect(fixLines('sudo qprep tune --only sysctl.swappiness   (or: sudo sysctl -w vm.swappiness=0)', 'npx qprep')).toEqual([
      { label: 'fix', text: 'sudo npx qprep tune --only sysctl.swappiness' },
      { label: 'or', text: 'sudo sysctl -w vm.swappiness=0' },
    ]);
    expect(fixLines('source <(qprep env --cluster FILE)', 'node /opt/qprep.cjs')[0]!.text).toBe('source <(node /opt/qprep.cjs env --cluster FILE)');
    expect(fixLines("qprep tune has nothing to do; see qprep's journal", 'npx qprep')[0]!.text).toBe("npx qprep tune has nothing to do; see qprep's journal");
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

  it('says what to do under a problem, its colon under the fix label, and the worst action of the run in the summary', () => {
    const acted = reportOf([
      result({ id: 'npu.health', status: 'fail', message: 'NPU 3 Alarm', remediation: 'npu-smi set -t reset -i 3 -c 0', action: 'reset-npu' }),
      result({ id: 'sysctl.swappiness', status: 'warn', level: 'recommended', message: 'vm.swappiness is 60', remediation: 'sudo sysctl -w vm.swappiness=0', action: 'reconfigure' }),
      result({ id: 'host.disk', status: 'skip', message: 'no directory', action: 'none' }),
    ]);
    expect(acted.summary.worstAction).toBe('reset-npu');
    const text = formatHuman(acted, { color: false, detail: 'all' });
    expect(text).toContain('  ✗ fail   npu.health         NPU 3 Alarm\n          action: reset-npu (reset the chip, the workload stopped first)\n             fix: npu-smi set -t reset -i 3 -c 0\n');
    // reconfigure is what the fix says: not repeated above it
    expect(text).toContain('  ! warn   sysctl.swappiness  vm.swappiness is 60\n             fix: sudo sysctl -w vm.swappiness=0\n');
    // a skip asks for nothing: no action line
    expect(text).not.toMatch(/no directory\n\s+action:/);
    expect(text).toContain('3 checks: 0 pass, 1 warn, 1 fail, 1 skip, 0 error · 1.2 s · worst action: reset-npu');
    const zh = formatHuman({ ...acted, lang: 'zh' }, { color: false, detail: 'all' });
    expect(zh).toContain('处置: reset-npu（先停止业务，再复位芯片）');
    expect(zh).toContain(' · 最严重的处置：reset-npu');
    // a run that asks for nothing says nothing of actions
    expect(formatHuman(reportOf([result({ id: 'cpu.governor', status: 'pass' })]), { color: false })).not.toContain('action');
  });
});
