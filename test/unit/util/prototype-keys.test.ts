import { describe, expect, it } from 'vitest';
import { prototypeKeyPath, prototypeKeyProblem } from '../../../src/util/prototype-keys.js';

describe('prototypeKeyPath', () => {
  it('finds a __proto__ member at any depth, inside arrays too, with its path', () => {
    expect(prototypeKeyPath(JSON.parse('{"__proto__": {}}'))).toBe('');
    expect(prototypeKeyPath(JSON.parse('{"nodes": [{"name": "a"}, {"devices": [{"ip": "x", "__proto__": null}]}]}'))).toBe('nodes.1.devices.0');
    // written with an escape, it is the same key once parsed
    expect(prototypeKeyPath(JSON.parse('{"a": {"\\u005f_proto__": 1}}'))).toBe('a');
    expect(prototypeKeyProblem(JSON.parse('[1, [2, {"b": {"__proto__": 3}}]]'))).toBe('1.1.b: Unrecognized key: "__proto__"');
  });

  it('finds none in documents without one: scalars, empty containers, a "__proto__" value or a look-alike key', () => {
    for (const text of ['null', '3', '"__proto__"', '[]', '{}', '{"a": "__proto__"}', '{"proto": {"__proto": [{"_proto__": 1}]}}']) {
      expect(prototypeKeyPath(JSON.parse(text)), text).toBeUndefined();
    }
  });

  it('walks a document nested 100,000 deep without exhausting the stack', () => {
    let deep: unknown = { __proto_: 1 };
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { x: deep };
    expect(prototypeKeyPath(deep)).toBeUndefined();
    const leaf = JSON.parse('{"__proto__": 1}');
    let holding: unknown = leaf;
    for (let i = 0; i < 100_000; i++) holding = [holding];
    expect(prototypeKeyPath(holding)).toBe(Array.from({ length: 100_000 }, () => '0').join('.'));
  });
});
