import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonDocuments } from '../../../src/parsers/json-documents.js';

const values = (text: string) => {
  const parsed = parseJsonDocuments(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value.map((d) => d.value);
};

describe('a stream of JSON documents', () => {
  it('one document, or one array, is one value', () => {
    expect(values('{"a": 1}\n')).toEqual([{ a: 1 }]);
    expect(values('[{"a": 1}, {"a": 2}]')).toEqual([[{ a: 1 }, { a: 2 }]]);
  });

  it('concatenated and newline-delimited documents, with where each starts', () => {
    expect(values('{"a": 1}{"a": 2}  {"a": "}{"}')).toEqual([{ a: 1 }, { a: 2 }, { a: '}{' }]);
    const parsed = parseJsonDocuments('{"a": 1}\n{"b": [1, {"c": "\\"]"}]}\n\n\n{\n  "d": 4\n}\n');
    expect(parsed).toEqual({
      ok: true,
      value: [
        { value: { a: 1 }, line: 1 },
        { value: { b: [1, { c: '"]' }] }, line: 2 },
        { value: { d: 4 }, line: 5 },
      ],
    });
  });

  it('a byte order mark is not a document', () => {
    expect(values('\uFEFF{"a": 1}\n{"a": 2}')).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('a broken document is named by its first line; nothing is an empty input', () => {
    expect(parseJsonDocuments('{"a": 1}\n{"a": 2,}\n{"a": 3}')).toMatchObject({ ok: false, line: 2, text: '{"a": 2,}' });
    expect(parseJsonDocuments('{"a": 1}\n{"a": [1, 2')).toMatchObject({ ok: false, line: 2, reason: 'the JSON document starting on line 2 is cut short' });
    expect(parseJsonDocuments('{"a": 1}\nqprep: error: no such file')).toMatchObject({ ok: false, line: 2 });
    expect(parseJsonDocuments('{"a": 1} }')).toMatchObject({ ok: false, line: 1 });
    expect(parseJsonDocuments(' \n\t')).toMatchObject({ ok: false, reason: 'no JSON document (the input is empty)' });
    expect(parseJsonDocuments('')).toMatchObject({ ok: false });
  });

  it('reads back any list of JSON values written one per line or back to back', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 8 }), fc.constantFrom('\n', '', ' \r\n'), (list, separator) => {
        // values that compare equal after a JSON round trip (no -0)
        const documents = list.map((v) => JSON.parse(JSON.stringify(v)) as unknown);
        const text = documents.map((v) => JSON.stringify(v)).join(separator);
        const parsed = parseJsonDocuments(text);
        // two scalars back to back ("12" "3") read as one number: only objects and arrays delimit themselves
        const selfDelimiting = documents.every((v) => typeof v === 'object' && v !== null) || separator !== '';
        if (documents.length === 1) expect(parsed).toMatchObject({ ok: true, value: [{ value: documents[0] }] });
        else if (selfDelimiting) expect(parsed.ok && parsed.value.map((d) => d.value)).toEqual(documents);
      }),
    );
  });

  it('never throws: garbage, bytes that are not UTF-8, deep nesting, 10 MB', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 500 }), fc.uint8Array({ maxLength: 500 }).map((b) => new TextDecoder().decode(b))), (text) => {
        const parsed = parseJsonDocuments(text);
        expect(typeof parsed.ok).toBe('boolean');
      }),
    );
    expect(parseJsonDocuments('['.repeat(100_000)).ok).toBe(false);
    expect(parseJsonDocuments(`${'[1]'.repeat(1000)}{"x": "${'y'.repeat(10 * 1024 * 1024)}"}`).ok).toBe(true);
  });
});
