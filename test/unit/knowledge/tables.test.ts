import { describe, expect, it } from 'vitest';
import { builtinConfigOf, builtinConfigs, modelConfigsTable } from '../../../src/knowledge/model-configs.js';
import { npuVisibleMemoryTable, visibleMemoryOf } from '../../../src/knowledge/npu-visible-memory.js';

describe('knowledge/model-configs.json and knowledge/npu-visible-memory.json', () => {
  it('parse, every row with a source that can be followed: a file at its ref, or a page with its words or its revision', () => {
    for (const row of [...modelConfigsTable.rows(), ...npuVisibleMemoryTable.rows()]) {
      const source = row.source;
      if (source.path !== undefined) expect(source.ref, JSON.stringify(source)).toMatch(/^(?:[0-9a-f]{40}|v?\d[\w.+-]*)$/);
      else expect(source.ref !== undefined || source.quote !== undefined, JSON.stringify(source)).toBe(true);
      // a branch moves: a revision is a commit or a git ref
      if (source.ref !== undefined) expect(source.ref).not.toMatch(/^(main|master)$/);
    }
  });

  it('gives each value one source: the first row that has it', () => {
    for (const entry of builtinConfigs()) expect(Object.keys(entry.sources).sort()).toEqual(Object.keys(entry.config).sort());
  });

  it('finds a model by its name or a variant of it, never a different model that shares the prefix', () => {
    expect(builtinConfigOf('Qwen3-235B-A22B')?.model).toBe('Qwen/Qwen3-235B-A22B');
    expect(builtinConfigOf('Qwen3-235B-A22B-Instruct-2507')?.model).toBe('Qwen/Qwen3-235B-A22B');
    expect(builtinConfigOf('qwen3.5-397b-a17b-w8a8-mtp')?.model).toBe('Qwen/Qwen3.5-397B-A17B');
    expect(builtinConfigOf('DeepSeek-V3.2')).toBeUndefined();
    expect(builtinConfigOf('Qwen3-8B-Base')?.model).toBe('Qwen/Qwen3-8B');
    expect(builtinConfigOf('Qwen3-80B')).toBeUndefined();
  });

  it("says what torch_npu sees of each NPU model, and npu-smi's total where it has no row", () => {
    expect(visibleMemoryOf('a2', 65536)).toMatchObject({ bytes: 65452113920, reserveMiB: 3116, match: 'exact' });
    expect(visibleMemoryOf('a2', 32768)).toMatchObject({ bytes: 31662800896, reserveMiB: 2572, match: 'exact' });
    expect(visibleMemoryOf('a3', 65536)).toMatchObject({ reserveMiB: 2796, match: 'exact' });
    expect(visibleMemoryOf('310p', 43693)).toMatchObject({ bytes: 43693 * 2 ** 20, reserveMiB: 0, match: 'family' });
    expect(visibleMemoryOf('a2', 98304)).toMatchObject({ bytes: 98304 * 2 ** 20, match: 'none', source: null });
  });
});
