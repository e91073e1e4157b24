import { describe, expect, it } from 'vitest';
import check from '../../../checks/host.memory.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const meminfo = (totalKb: number, availableKb: number) => `MemTotal:       ${totalKb} kB\nMemFree:         1000 kB\nMemAvailable:   ${availableKb} kB\n`;
const GiBkB = 1024 * 1024;

describe('host.memory', () => {
  it('passes with enough available memory', async () => {
    const { outcome } = await runOn(check, { files: { '/proc/meminfo': meminfo(1536 * GiBkB, 1400 * GiBkB) } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('1.4 TiB available of 1.5 TiB');
  });

  it('fails below the profile minimum (reported as warn: recommended)', async () => {
    const { outcome, result } = await runOn(check, { files: { '/proc/meminfo': meminfo(64 * GiBkB, 8 * GiBkB) } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('8.0 GiB available of 64.0 GiB, expected at least 16.0 GiB available');
    expect(result.status).toBe('warn');
    expectRemediation(outcome);
  });

  it('uses the container memory limit when it is tighter than the host', async () => {
    const { outcome } = await runOn(check, {
      files: {
        '/.dockerenv': '',
        '/proc/self/mountinfo': '1 0 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/x\n',
        '/proc/meminfo': meminfo(1536 * GiBkB, 1400 * GiBkB),
        '/sys/fs/cgroup/memory.max': `${8 * 1024 ** 3}\n`,
        '/sys/fs/cgroup/memory.current': `${2 * 1024 ** 3}\n`,
      },
    });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('6.0 GiB left under the container limit of 8.0 GiB');
    expect(outcome.remediation).toContain('--memory');
  });

  it('ignores an unlimited cgroup', async () => {
    const { outcome } = await runOn(check, {
      files: { '/run/.containerenv': '', '/proc/meminfo': meminfo(64 * GiBkB, 60 * GiBkB), '/sys/fs/cgroup/memory.max': 'max\n' },
    });
    expect(outcome.status).toBe('pass');
  });

  it('is an error when /proc/meminfo is missing or not meminfo', async () => {
    expect((await runOn(check, { files: {} })).outcome.status).toBe('error');
    const garbage = await runOn(check, { files: { '/proc/meminfo': 'garbage' } });
    expect(garbage.outcome.status).toBe('error');
    expectRemediation(garbage.outcome);
  });
});
