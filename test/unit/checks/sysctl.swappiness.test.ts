import { describe, expect, it } from 'vitest';
import check from '../../../checks/sysctl.swappiness.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

describe('sysctl.swappiness', () => {
  it('passes at 0 and at the profile maximum', async () => {
    expect((await runOn(check, { files: { '/proc/sys/vm/swappiness': '0\n' } })).outcome.status).toBe('pass');
    expect((await runOn(check, { files: { '/proc/sys/vm/swappiness': '1\n' } })).outcome.status).toBe('pass');
  });

  it('fails above the maximum with the sysctl command', async () => {
    const { outcome, result } = await runOn(check, { files: { '/proc/sys/vm/swappiness': '60\n', '/proc/meminfo': 'MemTotal: 100 kB\nSwapTotal:  8388604 kB\n' } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('vm.swappiness is 60, expected at most 1');
    expect(outcome.remediation).toContain('sysctl -w vm.swappiness=0');
    expect(outcome.actual).toBe('60');
    expect(result.status).toBe('warn');
    expectRemediation(outcome);
  });

  it('mentions that no swap is configured', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/sys/vm/swappiness': '60', '/proc/meminfo': 'SwapTotal:  0 kB\n' } });
    expect(outcome.message).toContain('no swap is configured');
  });

  it('words the fix for the host when qprep runs in a container', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/sys/vm/swappiness': '60', '/run/.containerenv': '' } });
    expect(outcome.remediation).toMatch(/^on the host \(not in the container\)/);
  });

  it('is an error on garbage or an unreadable file', async () => {
    const garbage = await runOn(check, { files: { '/proc/sys/vm/swappiness': 'sixty' } });
    expect(garbage.outcome.status).toBe('error');
    expect(garbage.outcome.message).toContain('expected an integer, got "sixty"');
    const missing = await runOn(check, { files: {} });
    expect(missing.outcome.status).toBe('error');
    expectRemediation(missing.outcome);
  });

  it('follows the profile maximum', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/sys/vm/swappiness': '10' } }, { tuning: { swappiness: { max: 10, target: 10 } } });
    expect(outcome.status).toBe('pass');
  });
});

describe('sysctl.swappiness in Chinese', () => {
  it('passes, fails without swap, and errs in Chinese; the sysctl command unchanged', async () => {
    const ok = await runInBoth(check, { files: { '/proc/sys/vm/swappiness': '0\n' } });
    expect(ok.zh.outcome.message).toBe('vm.swappiness 为 0');
    const fail = await runInBoth(check, { files: { '/proc/sys/vm/swappiness': '60\n', '/proc/meminfo': 'SwapTotal:  0 kB\n' } });
    expect(fail.zh.outcome.message).toBe('vm.swappiness 为 60，应不大于 1（当前未配置 swap，添加 swap 后才会产生影响）');
    expect(fail.zh.outcome.remediation).toBe(fail.en.outcome.remediation);
    expectSameCommands(fail.en.outcome, fail.zh.outcome);
    const error = await runInBoth(check, { files: { '/proc/sys/vm/swappiness': 'sixty' } });
    expect(error.zh.outcome.message).toMatch(/^无法读取 vm\.swappiness：/);
  });
});

describe('sysctl.swappiness: a kernel file that does not hold an integer, in Chinese', () => {
  it('says so in Chinese, naming the file and the value as found', async () => {
    const { zh } = await runInBoth(check, { files: { '/proc/sys/vm/swappiness': 'sixty' } });
    expect(zh.outcome.message).toBe('无法读取 vm.swappiness：/proc/sys/vm/swappiness：应为整数，实际为 "sixty"');
    expect(zh.result.title).toBe('内存交换倾向（vm.swappiness）');
  });
});
