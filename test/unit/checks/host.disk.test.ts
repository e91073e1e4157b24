import { describe, expect, it } from 'vitest';
import check from '../../../checks/host.disk.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';

const GiB = 1024 ** 3;
const fs = (available: number) => ({ type: 0xef53, totalBytes: 1000 * GiB, freeBytes: available, availableBytes: available });

describe('host.disk', () => {
  it('passes when the weights directory has room', async () => {
    const { outcome } = await runOn(check, { statfs: { '/root/.cache': fs(900 * GiB) } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('/root/.cache: 900.0 GiB free');
  });

  it('measures the nearest existing parent of a directory not created yet', async () => {
    const { outcome } = await runOn(check, { statfs: { '/root': fs(80 * GiB) } });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('/root/.cache (not created yet; measured on /root): 80.0 GiB free');
  });

  it('fails when the profile asks for more than there is', async () => {
    const { outcome, result } = await runOn(
      check,
      { statfs: { '/data/models': fs(300 * GiB) } },
      { host: { disk: [{ path: '/data/models', minFree: '800GiB' }] } },
    );
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('/data/models: 300.0 GiB free, expected at least 800.0 GiB');
    expect(result.status).toBe('warn');
    expectRemediation(outcome);
  });

  it('is an error when statfs is refused', async () => {
    const { outcome } = await runOn(check, { statfs: { '/root/.cache': { error: 'EACCES' } } });
    expect(outcome.status).toBe('error');
    expectRemediation(outcome);
  });

  it('skips nothing and passes when no directory is configured', async () => {
    const { outcome } = await runOn(check, {}, { host: { disk: [] } });
    expect(outcome.status).toBe('pass');
  });
});
