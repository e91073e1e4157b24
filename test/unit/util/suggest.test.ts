import { describe, expect, it } from 'vitest';
import { catalogue } from '../../../checks/index.js';
import { builtinProfileNames } from '../../../src/core/profile.js';
import { closest, didYouMean, editDistance } from '../../../src/util/suggest.js';

describe('did you mean', () => {
  const ids = catalogue.map((c) => c.id);

  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('chekc', 'check')).toBe(1);
    expect(editDistance('npu.helth', 'npu.health')).toBe(1);
  });

  it('offers the one closest name of a typo', () => {
    expect(closest('chekc', ['check', 'snapshot', 'facts', 'tune', 'rollback', 'env', 'aggregate', 'list', 'explain', 'schema', 'version'])).toBe('check');
    expect(closest('npu.helth', ids)).toBe('npu.health');
    expect(closest('hccn.lnk', ids)).toBe('hccn.link');
    expect(closest('qwen3.5-397b-w8a8-a', builtinProfileNames())).toBe('qwen3.5-397b-w8a8-a3');
    expect(closest('reprt', ['report', 'profile', 'snapshot'])).toBe('report');
  });

  it('offers nothing for a word that is not a typo of any name', () => {
    expect(closest('banana', ids)).toBeUndefined();
    expect(didYouMean('banana', ids, 'qprep list shows every check id')).toBe('qprep list shows every check id');
    expect(didYouMean('npu.helth', ids, 'x')).toBe('did you mean "npu.health"?');
  });
});
