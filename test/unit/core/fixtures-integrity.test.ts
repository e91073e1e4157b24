import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../fixtures/', import.meta.url);

describe('Ascend fixtures', () => {
  it('are byte-for-byte the public captures they were copied from (checksums recorded at copy time)', () => {
    const lines = readFileSync(new URL('ascend.sha256', dir), 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(60);
    for (const line of lines) {
      const [sum, name] = line.split(/\s+/);
      const actual = createHash('sha256').update(readFileSync(new URL(`ascend/${name}`, dir))).digest('hex');
      expect(actual, name).toBe(sum);
    }
  });
});

describe('launch-script fixtures', () => {
  it('are byte-for-byte the scripts of the deployment guides (checksums recorded at copy time)', () => {
    const lines = readFileSync(new URL('launch.sha256', dir), 'utf8').trim().split('\n');
    expect(lines.length).toBe(readdirSync(new URL('launch/', dir)).filter((n) => n.endsWith('.sh')).length);
    for (const line of lines) {
      const [sum, name] = line.split(/\s+/);
      const actual = createHash('sha256').update(readFileSync(new URL(`launch/${name}`, dir))).digest('hex');
      expect(actual, name).toBe(sum);
    }
  });
});

describe('public-issue fixtures', () => {
  it('are byte-for-byte the text of the issues they were copied from (checksums recorded at copy time)', () => {
    const lines = readFileSync(new URL('issues.sha256', dir), 'utf8').trim().split('\n');
    expect(lines.length).toBe(readdirSync(new URL('issues/', dir)).length);
    for (const line of lines) {
      const [sum, name] = line.split(/\s+/);
      const actual = createHash('sha256').update(readFileSync(new URL(`issues/${name}`, dir))).digest('hex');
      expect(actual, name).toBe(sum);
    }
  });
});
