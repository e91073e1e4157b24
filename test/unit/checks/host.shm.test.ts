import { describe, expect, it } from 'vitest';
import check from '../../../checks/host.shm.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const GiB = 1024 ** 3;
const usage = (total: number, available = total) => ({ type: 0x01021994, totalBytes: total, freeBytes: available, availableBytes: available });

describe('host.shm', () => {
  it('passes with 16 GiB', async () => {
    const { outcome } = await runOn(check, { statfs: { '/dev/shm': usage(16 * GiB) } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('/dev/shm is 16.0 GiB with 16.0 GiB free');
  });

  it("fails on Docker's default 64 MiB with the docker flag inside a container", async () => {
    const { outcome, result } = await runOn(check, { files: { '/run/.containerenv': '' }, statfs: { '/dev/shm': usage(64 * 1024 ** 2) } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('/dev/shm is 64.0 MiB, expected at least 1.0 GiB');
    expect(outcome.remediation).toContain('docker run --shm-size=16g');
    expect(result.status).toBe('fail');
  });

  it('fails on the host with the remount command', async () => {
    const { outcome } = await runOn(check, { statfs: { '/dev/shm': usage(512 * 1024 ** 2) } });
    expect(outcome.remediation).toContain('mount -o remount,size=16G /dev/shm');
  });

  it('fails when it is big enough but full', async () => {
    const { outcome } = await runOn(check, { statfs: { '/dev/shm': usage(16 * GiB, 100 * 1024 ** 2) } });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('100.0 MiB free of 16.0 GiB');
    expectRemediation(outcome);
  });

  it('follows the profile minimum', async () => {
    const { outcome } = await runOn(check, { statfs: { '/dev/shm': usage(8 * GiB) } }, { host: { shmMin: '10GiB' } });
    expect(outcome.status).toBe('fail');
  });

  it('fails when /dev/shm is missing and errors when it cannot be read', async () => {
    expect((await runOn(check, {})).outcome.status).toBe('fail');
    const denied = await runOn(check, { statfs: { '/dev/shm': { error: 'EACCES' } } });
    expect(denied.outcome.status).toBe('error');
    expectRemediation(denied.outcome);
  });
});
