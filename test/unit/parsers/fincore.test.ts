import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFincoreJson } from '../../../src/parsers/fincore.js';

const capture = (name: string) => readFileSync(new URL(`../../fixtures/util-linux/${name}`, import.meta.url), 'utf8');

describe('parseFincoreJson', () => {
  it('reads what util-linux 2.38 printed: the resident bytes of each file it could open', () => {
    expect(parseFincoreJson(capture('fincore-json-bytes-2.38.1.txt'))).toEqual({
      ok: true,
      value: [
        { file: 'model-00001-of-00002.safetensors', residentBytes: 3145728, sizeBytes: 3145728 },
        { file: 'model-00002-of-00002.safetensors', residentBytes: 0, sizeBytes: 1073741824 },
      ],
    });
  });

  it('reads the cells as strings too, as util-linux before 2.37 prints every cell', () => {
    const older = capture('fincore-json-bytes-2.38.1.txt').replace(/: (\d+)/g, ': "$1"');
    expect(older).toContain('"res": "3145728"');
    const parsed = parseFincoreJson(older);
    expect(parsed.ok && parsed.value[0]).toEqual({ file: 'model-00001-of-00002.safetensors', residentBytes: 3145728, sizeBytes: 3145728 });
  });

  it('says why when there is no document: nothing printed (every file failed), not JSON, no fincore list', () => {
    expect(parseFincoreJson('')).toEqual({ ok: false, reason: 'fincore printed nothing' });
    expect(parseFincoreJson(capture('fincore-json-bytes-2.38.1.stderr.txt'))).toEqual({ ok: false, reason: 'fincore did not print JSON' });
    expect(parseFincoreJson('{"blockdevices": []}')).toEqual({ ok: false, reason: 'fincore printed JSON without its "fincore" list' });
  });

  it('skips a row without a number where one belongs', () => {
    const parsed = parseFincoreJson('{"fincore": [{"res": "3M", "size": 1, "file": "a"}, {"res": 1, "size": 2, "file": "b"}]}');
    expect(parsed).toEqual({ ok: true, value: [{ file: 'b', residentBytes: 1, sizeBytes: 2 }] });
  });
});
