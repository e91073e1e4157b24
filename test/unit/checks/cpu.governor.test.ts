import { describe, expect, it } from 'vitest';
import check from '../../../checks/cpu.governor.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const cpu = (n: number, governor: string) => ({ [`/sys/devices/system/cpu/cpu${n}/cpufreq/scaling_governor`]: `${governor}\n` });

describe('cpu.governor', () => {
  it('passes when every online CPU uses performance', async () => {
    const { outcome } = await runOn(check, { files: { '/sys/devices/system/cpu/online': '0-3\n', ...cpu(0, 'performance'), ...cpu(1, 'performance'), ...cpu(2, 'performance'), ...cpu(3, 'performance') } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('all 4 online CPUs use the performance governor');
  });

  it('fails naming the CPUs and governors that differ; a recommended fail is reported as warn', async () => {
    const { outcome, result } = await runOn(check, {
      files: {
        '/sys/devices/system/cpu/online': '0-3\n',
        ...cpu(0, 'performance'),
        ...cpu(1, 'powersave'),
        ...cpu(2, 'powersave'),
        ...cpu(3, 'ondemand'),
        '/sys/devices/system/cpu/cpu1/cpufreq/scaling_available_governors': 'performance powersave\n',
      },
    });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('3 of 4 CPUs do not use the performance governor: powersave on cpu 1-2; ondemand on cpu 3');
    expect(outcome.remediation).toContain('qprep tune --only cpu.governor');
    expect(result.status).toBe('warn');
    expectRemediation(outcome);
  });

  it('says when the cpufreq driver cannot offer the governor', async () => {
    const { outcome } = await runOn(check, {
      files: {
        '/sys/devices/system/cpu/online': '0\n',
        ...cpu(0, 'schedutil'),
        '/sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors': 'schedutil\n',
      },
    });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('the cpufreq driver offers only schedutil');
    expect(outcome.remediation).toContain('BIOS');
  });

  it('skips with the reason where cpufreq is not exposed (VMs, containers)', async () => {
    const { outcome } = await runOn(check, { files: { '/sys/devices/system/cpu/online': '0-1\n', '/sys/devices/system/cpu/cpu0/topology/core_id': '0' } });
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toContain('cpufreq is not exposed');
    expectRemediation(outcome);
  });

  it('falls back to listing cpuN directories when online is missing', async () => {
    const { outcome } = await runOn(check, { files: { ...cpu(0, 'performance'), ...cpu(1, 'performance') } });
    expect(outcome.status).toBe('pass');
    expect(outcome.evidence?.onlineCpus).toBe('0-1');
  });

  it('is an error when the governor cannot be read', async () => {
    const { outcome } = await runOn(check, {
      files: { '/sys/devices/system/cpu/online': '0\n', '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': { error: 'EACCES' } },
    });
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('permission denied');
    expectRemediation(outcome);
  });

  it('is an error when /sys is not there at all', async () => {
    const { outcome } = await runOn(check, { files: {} });
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('/sys/devices/system/cpu/online: no such file');
  });

  it('uses the governor the profile asks for', async () => {
    const { outcome } = await runOn(check, { files: { '/sys/devices/system/cpu/online': '0', ...cpu(0, 'schedutil') } }, { tuning: { cpuGovernor: 'schedutil' } });
    expect(outcome.status).toBe('pass');
  });
});
