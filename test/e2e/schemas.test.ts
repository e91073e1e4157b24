import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { qprep } from '../helpers/cli.js';

describe('qprep schema NAME', () => {
  it('prints, byte for byte, the published schema/NAME.schema.json for every document', async () => {
    const usage = await qprep(['schema', 'nope']);
    const names = /schemas: (.*)$/m.exec(usage.stderr)?.[1]?.split(', ') ?? [];
    expect(names).toContain('report');
    for (const name of names) {
      const run = await qprep(['schema', name]);
      expect(run.exitCode).toBe(0);
      expect(run.stdout, name).toBe(readFileSync(new URL(`../../schema/${name}.schema.json`, import.meta.url), 'utf8'));
    }
  });
});
