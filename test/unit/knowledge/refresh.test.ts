import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildKnowledge, compareVersions, selectLines, TABLES } from '../../../scripts/knowledge-lib.mjs';
import { REPO } from '../../helpers/cli.js';

/**
 * The refresh of knowledge/ (scripts/refresh-knowledge.mjs), stage two: the committed extract of
 * vllm-ascend and the reviewed fields of the tables in, the committed tables out, byte for byte.
 * A table edited by hand where the script writes, or an extract changed without running the
 * build, fails here.
 */

const read = (path: string) => readFileSync(join(REPO, 'knowledge', path), 'utf8');

describe('scripts/refresh-knowledge.mjs build', () => {
  const extract = JSON.parse(read('sources/vllm-ascend.json'));
  const reviewed = { models: JSON.parse(read('models.json')), rules: JSON.parse(read('rules.json')), quantization: JSON.parse(read('quantization.json')) };
  const built = buildKnowledge(extract, reviewed);

  for (const name of TABLES) {
    it(`reproduces knowledge/${name}.json from the committed extract`, () => {
      expect(built[name]).toBe(read(`${name}.json`));
    });
  }

  it('the extract names every release tag of the checkout and main, with its commit', () => {
    const refs: Array<{ ref: string; commit: string }> = extract.refs;
    expect(refs.length).toBeGreaterThanOrEqual(43);
    expect(refs.at(-1)!.ref).toBe('main');
    for (const r of refs) expect(r.commit).toMatch(/^[0-9a-f]{40}$/);
    // in version order: rc before the release, a post release after it
    const tags = refs.map((r) => r.ref).filter((r) => r !== 'main');
    expect([...tags].sort(compareVersions)).toEqual(tags);
  });

  it('an extract that loses a rule statement loses the release from the rule', () => {
    const rule = 'glm5.expert-parallel';
    const without = { ...extract, rules: extract.rules.filter((r: { rule: string; ref: string }) => !(r.rule === rule && r.ref === 'main')) };
    const rules = JSON.parse(buildKnowledge(without, reviewed).rules!);
    const row = rules.rows.find((r: { id: string }) => r.id === rule);
    expect(row.statedIn.flatMap((s: { refs: string[] }) => s.refs)).not.toContain('main');
    expect(row.applies.to).not.toBe('main');
  });
});

describe('the extract stage keeps only the lines the tables need', () => {
  it('the compatibility matrix: the header and the release\'s own row of a tag', () => {
    const page = ['# Versioning', '## Release compatibility matrix', '', '| vLLM Ascend | vLLM | Python |', '|---|---|---|', '| v0.9.1 | v0.9.1 | >= 3.9 |', '| v0.9.0 | v0.9.0 | >= 3.9 |', '## Release window', '| v0.9.1 | x |'].join('\n');
    expect(selectLines('compat-matrix', page, { ref: 'v0.9.1' })).toEqual([
      [4, '| vLLM Ascend | vLLM | Python |'],
      [6, '| v0.9.1 | v0.9.1 | >= 3.9 |'],
    ]);
  });

  it('the support matrix: headings, tabs, header rows and the rows of a known family only', () => {
    const page = ['## Text-Only', '=== "A2/A3"', '    | Model | Support |', '    |---|---|', '    | Qwen3.5 | ✅ |', '    | Llama3 | ✅ |'].join('\n');
    expect(selectLines('supported-models', page, { families: ['^Qwen3\\.5'] }).map(([line]) => line)).toEqual([1, 2, 3, 5]);
  });
});
