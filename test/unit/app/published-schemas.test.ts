import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaDocument, schemaNames } from '../../../src/app/schemas.js';

const dir = new URL('../../../schema/', import.meta.url);
const FIX = 'run `npm run schemas` and commit schema/';

/**
 * schema/*.schema.json are published for orchestrators and CI; they must be what the code
 * validates with. Every name in src/app/schemas.ts is covered, including ones added later.
 */
describe('published JSON Schemas in schema/', () => {
  it('there is one file per document of `qprep schema`, and no other', () => {
    const files = readdirSync(dir).filter((file) => file.endsWith('.schema.json')).sort();
    expect(files, FIX).toEqual(schemaNames().map((name) => `${name}.schema.json`).sort());
  });

  for (const name of schemaNames()) {
    it(`schema/${name}.schema.json is what the code generates`, () => {
      let published: string;
      try {
        published = readFileSync(new URL(`${name}.schema.json`, dir), 'utf8');
      } catch {
        throw new Error(`schema/${name}.schema.json is missing: ${FIX}`);
      }
      expect(published, `schema/${name}.schema.json differs from the zod schema: ${FIX}`).toBe(`${JSON.stringify(schemaDocument(name), null, 2)}\n`);
      expect(JSON.parse(published).$id).toBe(`https://qprep.dev/schema/${name}.schema.json`);
    });
  }
});
