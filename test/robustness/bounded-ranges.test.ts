import { describe, expect, it } from 'vitest';
import { hostTree, parseReport, qprepWith } from './support.js';

/*
 * A CPU list is read from a file the kernel (or whoever built the tree) controls. However many
 * ranges or however large the ids, parsing is bounded by NR_CPUS (8192): an impossible list is
 * the check's error naming the file and the limit, never a fatal allocation or a starved run.
 */

const ONLINE = '/sys/devices/system/cpu/online';

async function governorOn(online: string) {
  const root = hostTree({ [ONLINE]: online });
  const run = await qprepWith(null, ['check', '--root', root, '--only', 'cpu.governor', '--format', 'json']);
  const { byId } = await parseReport(run.stdout);
  return { run, result: byId['cpu.governor']! };
}

describe('range lists at their limits', () => {
  it('a cpulist naming CPU 65536 is an impossible value: cpu.governor is an error naming the file and NR_CPUS', async () => {
    const { run, result } = await governorOn('0-65536\n');
    expect(result.status).toBe('error');
    expect(result.message).toBe(`cannot list CPUs: ${ONLINE} is not a possible CPU list: 65536 is beyond the limit of 8192 (ids 0-8191) (the kernel's NR_CPUS)`);
    expect(run.exitCode).toBe(0); // a recommended check: its error is reported, the gate is the operator's
  });

  it('a cpulist of 100,000 entries stops at 8192 entries with the same error, without reading on', async () => {
    const { result } = await governorOn(`${Array(100_000).fill('0-3').join(',')}\n`);
    expect(result.status).toBe('error');
    expect(result.message).toBe(`cannot list CPUs: ${ONLINE} is not a possible CPU list: more than 8192 entries (the kernel's NR_CPUS)`);
  });

  it('the largest possible list, 0-8191, is read as 8192 CPUs', async () => {
    const { result } = await governorOn('0-8191\n');
    expect(result.status).not.toBe('error');
    expect(result.evidence.onlineCpus).toBe('0-8191');
  });
});
