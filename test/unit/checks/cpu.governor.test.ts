import { describe, expect, it } from 'vitest';
import check from '../../../checks/cpu.governor.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
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

describe('cpu.governor in Chinese', () => {
  const four = (governors: string[]) => ({
    '/sys/devices/system/cpu/online': `0-${governors.length - 1}\n`,
    ...Object.assign({}, ...governors.map((g, i) => cpu(i, g))),
  });

  it('passes in Chinese', async () => {
    const { zh } = await runInBoth(check, { files: four(['performance', 'performance', 'performance', 'performance']) });
    expect(zh.result.title).toBe('CPU 调频策略（governor）');
    expect(zh.outcome.message).toBe('全部 4 个在线 CPU 都使用 performance 调频策略');
  });

  it('fails in Chinese; actual and the tune command as in English, the alternative on its "(or: " line', async () => {
    const files = { ...four(['performance', 'powersave', 'powersave', 'ondemand']), '/sys/devices/system/cpu/cpu1/cpufreq/scaling_available_governors': 'performance powersave\n' };
    const { en, zh } = await runInBoth(check, { files });
    expect(zh.outcome.message).toBe('4 个 CPU 中有 3 个未使用 performance 调频策略：cpu 1-2 为 powersave；cpu 3 为 ondemand');
    expect(zh.outcome.actual).toBe('powersave on cpu 1-2; ondemand on cpu 3');
    expect(zh.outcome.remediation).toBe(en.outcome.remediation);
    expectSameCommands(en.outcome, zh.outcome);
  });

  it('a driver without the governor, a container, no cpufreq, and an unreadable /sys, in Chinese', async () => {
    const offered = await runInBoth(check, {
      files: { '/sys/devices/system/cpu/online': '0\n', ...cpu(0, 'schedutil'), '/sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors': 'schedutil\n', '/run/.containerenv': '' },
    });
    expect(offered.zh.outcome.message).toBe('1 个 CPU 中有 1 个未使用 performance 调频策略：cpu 0 为 schedutil；cpufreq 驱动只提供 schedutil');
    expect(offered.zh.outcome.remediation).toMatch(/^在宿主机上（不是在容器中）：在 BIOS\/固件中/);
    const skipped = await runInBoth(check, { files: { '/sys/devices/system/cpu/online': '0-1\n', '/sys/devices/system/cpu/cpu0/topology/core_id': '0' } });
    expect(skipped.zh.outcome.message).toMatch(/^此处未暴露 cpufreq（没有 \/sys\/devices\/system\/cpu\/cpu0\/cpufreq）/);
    const denied = await runInBoth(check, { files: { '/sys/devices/system/cpu/online': '0\n', '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': { error: 'EACCES' } } });
    expect(denied.zh.outcome.message).toMatch(/^无法读取调频策略：/);
    const absent = await runInBoth(check, { files: {} });
    expect(absent.zh.outcome.remediation).toBe('使 /sys/devices/system/cpu 可读（挂载 /sys）后重新运行');
  });
});
