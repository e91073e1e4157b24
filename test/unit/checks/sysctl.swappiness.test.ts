import { describe, expect, it } from 'vitest';
import check from '../../../checks/sysctl.swappiness.js';
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
