import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import { QprepError } from '../../../src/errors.js';
import { resolveIgnore, selectChecks } from '../../../src/core/select.js';

describe('check selection', () => {
  it('selects by id, id prefix and category, in catalogue order', () => {
    expect(selectChecks(catalogue, { only: ['host.shm', 'sysctl'], skip: [] }).map((c) => c.id)).toEqual(['sysctl.swappiness', 'sysctl.numa-balancing', 'host.shm']);
    expect(selectChecks(catalogue, { only: ['tuning'], skip: ['mem', 'tune'] }).map((c) => c.id)).toEqual([
      'cpu.governor',
      'sysctl.swappiness',
      'sysctl.numa-balancing',
      'sched.migration-cost',
    ]);
  });

  it('rejects an unknown id with the list of valid ones', () => {
    try {
      selectChecks(catalogue, { only: ['cpu.govenor'], skip: [] });
      throw new Error('no error');
    } catch (error) {
      expect(error).toBeInstanceOf(QprepError);
      expect((error as QprepError).code).toBe('usage');
      expect((error as Error).message).toMatch(/^--only: unknown check or category "cpu\.govenor"\ndid you mean "cpu\.governor"\?$/);
    }
  });

  it('resolves --ignore, including all', () => {
    expect(resolveIgnore(catalogue, ['all'])).toBe('all');
    expect([...(resolveIgnore(catalogue, ['net']) as Set<string>)]).toEqual(['net.proxy', 'net.ports', 'net.host-nic', 'net.peer-ports']);
    expect(() => resolveIgnore(catalogue, ['nope'])).toThrow(/--ignore: unknown check or category "nope"\nqprep list shows every check id and category/);
  });
});
