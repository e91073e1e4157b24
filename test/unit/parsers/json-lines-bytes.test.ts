import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonDocuments, visitJsonLines, type JsonDocument } from '../../../src/parsers/json-documents.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

function visited(input: Uint8Array): { whole: boolean; documents: JsonDocument[] } {
  const documents: JsonDocument[] = [];
  const whole = visitJsonLines(input, (document) => documents.push(document));
  return { whole, documents };
}

describe('a stream of one JSON document per line, read from bytes', () => {
  it('hands over each document with its line, each line decoded alone; a byte order mark and blank lines are skipped', () => {
    expect(visited(bytes('\uFEFF{"a": "café ×"}\r\n\n{"b": 2}\n'))).toEqual({
      whole: true,
      documents: [
        { value: { a: 'café ×' }, line: 1 },
        { value: { b: 2 }, line: 3 },
      ],
    });
  });

  it('stops at the first line that is not a whole document', () => {
    expect(visited(bytes('{"a": 1}\n{\n  "b": 2\n}\n'))).toEqual({ whole: false, documents: [{ value: { a: 1 }, line: 1 }] });
  });

  it('reads what the text reader reads from any values one per line, and never throws on any bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 2, maxLength: 6 }), fc.constantFrom('\n', '\r\n', '\n\n', '\n \t\n'), fc.boolean(), (list, separator, bom) => {
        const text = `${bom ? '\uFEFF' : ''}${list.map((v) => JSON.stringify(v)).join(separator)}`;
        const fromText = parseJsonDocuments(text);
        expect(visited(bytes(text))).toEqual({ whole: true, documents: fromText.ok ? fromText.value : [] });
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (input) => {
        const { whole, documents } = visited(input);
        if (whole && documents.length > 1) expect(documents).toEqual((parseJsonDocuments(Buffer.from(input).toString('utf8')) as { value: JsonDocument[] }).value);
      }),
    );
  });
});
