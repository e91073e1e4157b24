import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import { QprepError } from '../../../src/errors.js';
import { resolveIgnore, selectChecks } from '../../../src/core/select.js';

describe('check selection', () => {
  it('selects by id, id prefix and category, in catalogue order', () => {
    expect(selectChecks(catalogue, { only: ['host.shm', 'sysctl'], skip: [] }).map((c) => c.id)).toEqual(['sysctl.swappiness', 'sysctl.numa-balancing', 'host.shm']);
    const tuningLessMemTune = selectChecks(catalogue, { only: ['tuning'], skip: ['mem', 'tune'] }).map((c) => c.id);
    expect(tuningLessMemTune).toEqual(catalogue.filter((c) => c.category === 'tuning' && !/^(mem|tune)\./.test(c.id)).map((c) => c.id));
    expect(tuningLessMemTune).toEqual(expect.arrayContaining(['cpu.governor', 'sysctl.swappiness']));
    expect(tuningLessMemTune).not.toContain('mem.jemalloc');
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
    const net = [...(resolveIgnore(catalogue, ['net']) as Set<string>)];
    expect(net).toEqual(catalogue.filter((c) => c.id.startsWith('net.')).map((c) => c.id));
    expect(net).toContain('net.proxy');
    expect(() => resolveIgnore(catalogue, ['nope'])).toThrow(/--ignore: unknown check or category "nope"\nqprep list shows every check id and category/);
  });
});
