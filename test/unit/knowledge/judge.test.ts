import { describe, expect, it } from 'vitest';
import { allRules, familiesOf, familySupported, firstRelease, hardwareOf, hardwareStatus, judgeRule, newestRelease, releaseBasis, ruleById } from '../../../src/knowledge/judge.js';
import { hardwareRowSchema, hardwareTable } from '../../../src/knowledge/hardware.js';
import { modelsTable } from '../../../src/knowledge/models.js';
import { releasesTable } from '../../../src/knowledge/releases.js';
import { quantizationTable, rulesTable } from '../../../src/knowledge/rules.js';
import { knowledgeTable } from '../../../src/knowledge/table.js';
import { sourceSchema } from '../../../src/knowledge/source.js';
import { comparePep440, parsePep440 } from '../../../src/util/pep440.js';

describe('the tables of knowledge/', () => {
  it('every table validates and every row carries its source', () => {
    for (const table of [releasesTable, hardwareTable, modelsTable, rulesTable, quantizationTable]) {
      const rows = table.rows();
      expect(rows.length, table.name).toBeGreaterThan(0);
      for (const row of rows) expect(sourceSchema.safeParse((row as { source: unknown }).source).success, `${table.name}: ${JSON.stringify(row).slice(0, 80)}`).toBe(true);
    }
  });

  it('a row that does not fit its schema is refused with the file, the row and the field', () => {
    const table = knowledgeTable('hardware', { table: 'hardware', description: 'x', rows: [{ version: 'v0.1', family: 'A9', status: 'supported', source: { repo: 'a/b', path: 'p', ref: 'v1' } }] }, hardwareRowSchema);
    expect(() => table.rows()).toThrow(/^knowledge\/hardware\.json: row 1: family: /);
    const misnamed = knowledgeTable('hardware', { table: 'models', description: 'x', rows: [] }, hardwareRowSchema);
    expect(() => misnamed.rows()).toThrow('knowledge/hardware.json: not a knowledge table named "hardware"');
  });

  it('rule ids are unique across rules.json and quantization.json', () => {
    const ids = allRules().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});


describe('PEP 440 order', () => {
  it('orders dev < rc < release < post, and ignores the local part', () => {
    const order = ['0.16.0rc1', '0.16.0rc2.dev902+gf355e4673', '0.16.0rc2', '0.16.0', '0.16.0.post1'];
    for (let i = 1; i < order.length; i++) expect(comparePep440(order[i - 1]!, order[i]!)).toBeLessThan(0);
    expect(comparePep440('0.23.0+empty', '0.23.0')).toBe(0);
    expect(comparePep440('v0.13.0rc3', 'v0.13.0')).toBeLessThan(0);
    expect(comparePep440('v0.25.1rc1', 'main')).toBeLessThan(0);
    expect(parsePep440('not a version')).toBeUndefined();
  });
});

describe('the release a run is judged for', () => {
  it('a release tag as installed; a source build as the newest release before it; none as the newest', () => {
    expect(releaseBasis('0.23.0+empty')).toEqual({ kind: 'installed', installed: '0.23.0+empty', release: 'v0.23.0' });
    expect(releaseBasis('0.16.0rc2.dev902+gf355e4673')).toEqual({ kind: 'between', installed: '0.16.0rc2.dev902+gf355e4673', release: 'v0.16.0rc1', before: 'v0.17.0rc1' });
    expect(releaseBasis('0.99.0.dev1')).toMatchObject({ kind: 'between', release: 'main', before: null });
    expect(releaseBasis(null)).toEqual({ kind: 'unknown', release: newestRelease() });
    expect(newestRelease()).toMatch(/^v\d/);
  });

  it('a rule holds inside its range only; with the version unknown as its whenUnknown says', () => {
    const rule = ruleById('qwen35.prefix-caching-align');
    expect(rule.applies).toEqual({ from: 'v0.18.0rc1', to: 'v0.21.0rc1' });
    expect(judgeRule(rule, releaseBasis('0.20.2rc1')).verdict).toBe('warn');
    expect(judgeRule(rule, releaseBasis('0.23.0')).verdict).toBeNull();
    // whenUnknown: newest, and the newest release is past its range
    expect(judgeRule(rule, releaseBasis(null))).toMatchObject({ inForce: false, verdict: null, assumption: 'newest' });
    const torchair = ruleById('torchair.model-list');
    expect(judgeRule(torchair, releaseBasis(null))).toMatchObject({ inForce: true, verdict: 'fail', assumption: 'in-force' });
    expect(judgeRule(torchair, releaseBasis('0.12.0rc1')).inForce).toBe(false);
    const fp16 = ruleById('w8a8.fp16-a2a3');
    expect(judgeRule(fp16, releaseBasis('0.23.0rc1')).verdict).toBe('fail');
    expect(judgeRule(fp16, releaseBasis('0.25.1rc1')).verdict).toBe('warn');
    expect(judgeRule(fp16, releaseBasis(null))).toMatchObject({ verdict: 'warn', assumption: 'warn' });
  });

  it('the GLM-5 MTP rule reaches back to the release its failure was reported on, and warns before it', () => {
    const rule = ruleById('glm5.mtp-enforce-eager');
    // stated from v0.23.0rc1; vllm-project/vllm-ascend#10700 shows the crash on v0.21.0rc1
    expect(rule.applies).toEqual({ from: 'v0.21.0rc1', to: 'main' });
    expect(rule.statedIn.some((s) => s.refs.includes('v0.23.0') && s.quote.includes('`enforce_eager: true` is required because GLM-5'))).toBe(true);
    expect(judgeRule(rule, releaseBasis('0.21.0rc1')).verdict).toBe('fail');
    // the tutorials of v0.17.0rc1 to v0.22.1rc1 ran MTP without it: a warning there, not a failure
    expect(judgeRule(rule, releaseBasis('0.18.0')).verdict).toBe('warn');
  });
});

describe('hardware and models by release', () => {
  it('the first-generation 910 and the 310B are unsupported in every release that lists devices', () => {
    expect(hardwareStatus('910', 'v0.20.2rc1')?.status).toBe('unsupported');
    expect(hardwareStatus('310B', 'main')?.status).toBe('unsupported');
    expect(hardwareStatus('A2', 'v0.7.3rc1')?.status).toBe('supported');
    expect(hardwareStatus('310P', 'v0.18.0')?.status).toBe('experimental');
    // v0.7.1rc1 has no FAQ list: the next release's is taken
    expect(hardwareOf('v0.7.1rc1').release).toBe('v0.7.3rc1');
  });

  it('Qwen3.5 by its model_type: from v0.17.0rc1 (release notes), not on v0.13.0', () => {
    const { families, by } = familiesOf({ modelType: 'qwen3_5_moe', architectures: [], name: '/models/Qwen3.5-397B-A17B' });
    expect(by).toBe('model_type');
    expect(families.map((f) => f.family)).toEqual(['Qwen3.5']);
    expect(firstRelease(families[0]!)?.version).toBe('v0.17.0rc1');
    expect(familySupported(families[0]!, 'v0.13.0')).toBe(false);
    expect(familySupported(families[0]!, 'v0.17.0rc1')).toBe(true);
    // the name tells Qwen3.6 from Qwen3.5, which share the model_type
    expect(familiesOf({ modelType: 'qwen3_5', architectures: [], name: 'Eco-Tech/Qwen3.6-27B-w8a8' }).families.map((f) => f.family)).toEqual(['Qwen3.6']);
  });

  it('DeepSeek-V4: the v0.13.0rc3 backport lists it, v0.18.0 does not, v0.20.2rc1 on', () => {
    const family = familiesOf({ modelType: 'deepseek_v4', architectures: [], name: null }).families[0]!;
    expect(familySupported(family, 'v0.13.0rc3')).toBe(true);
    expect(familySupported(family, 'v0.18.0')).toBe(false);
    expect(familySupported(family, 'v0.20.2rc1')).toBe(true);
  });
});
