import { describe, expect, it } from 'vitest';
import { en } from '../../../src/i18n/en/index.js';
import { zh } from '../../../src/i18n/zh/index.js';

/**
 * A stand-in for any parameter value: a string, a number and an object at once, which records
 * every property read from it (`p.memoryRange.min` records "memoryRange" and "memoryRange.min").
 */
function recorder(reads: Set<string>, path = ''): unknown {
  const target = function () {} as unknown as object;
  return new Proxy(target, {
    // a list parameter's methods (p.by.map(...).join(...)) answer with a recorder too
    apply: () => recorder(reads, `${path}()`),
    get(_target, key) {
      if (key === Symbol.toPrimitive) return (hint: string) => (hint === 'number' ? 2 : `<${path}>`);
      if (key === 'toString' || key === 'valueOf') return () => `<${path}>`;
      if (typeof key === 'symbol') return undefined;
      const name = path ? `${path}.${key}` : key;
      reads.add(name);
      return recorder(reads, name);
    },
  });
}

/** Reading a list's or a string's own methods is how a message writes a value, not a parameter. */
const VALUE_METHODS = new Set(['map', 'join', 'length', 'slice', 'filter', 'toUpperCase', 'toLowerCase', 'padEnd', 'padStart', 'replace', 'split', 'includes', 'trim']);

/** The parameters a message reads (`memoryRange.min` for a nested one): called once with a recorder. */
function parametersRead(message: (p: never) => unknown): Set<string> {
  const reads = new Set<string>();
  message(recorder(reads) as never);
  return new Set([...reads].filter((path) => !path.split('.').some((part) => VALUE_METHODS.has(part) || part.endsWith('()'))));
}

/**
 * Messages that may read different parameters in the two languages, with the reason. Empty: every
 * message says the same facts in both.
 */
const PARAMETER_EXCEPTIONS: Readonly<Record<string, string>> = {};

/** Every difference of shape between two catalogues: missing keys, kinds, parameters read. */
function catalogueDifferences(reference: unknown, other: unknown, path = ''): string[] {
  const problems: string[] = [];
  if (typeof reference === 'function') {
    if (typeof other !== 'function') return [`${path}: a message with parameters in English, ${typeof other} in the other language`];
    const [a, b] = [parametersRead(reference as (p: never) => unknown), parametersRead(other as (p: never) => unknown)];
    const onlyA = [...a].filter((k) => !b.has(k));
    const onlyB = [...b].filter((k) => !a.has(k));
    if ((onlyA.length > 0 || onlyB.length > 0) && PARAMETER_EXCEPTIONS[path] === undefined) {
      problems.push(`${path}: parameters read differ (only English: ${onlyA.join(', ') || '-'}; only the other: ${onlyB.join(', ') || '-'})`);
    }
    return problems;
  }
  if (Array.isArray(reference)) {
    if (!Array.isArray(other)) return [`${path}: a list in English, not in the other language`];
    if (other.length !== reference.length) problems.push(`${path}: ${reference.length} items in English, ${other.length} in the other language`);
    return problems;
  }
  if (reference !== null && typeof reference === 'object') {
    if (other === null || typeof other !== 'object') return [`${path}: a section in English, ${other === undefined ? 'missing' : typeof other} in the other language`];
    const keys = new Set([...Object.keys(reference), ...Object.keys(other)]);
    for (const key of keys) {
      const child = path ? `${path}.${key}` : key;
      if (!Object.hasOwn(reference, key)) problems.push(`${child}: missing in English`);
      else if (!Object.hasOwn(other, key)) problems.push(`${child}: missing in the other language`);
      else problems.push(...catalogueDifferences((reference as Record<string, unknown>)[key], (other as Record<string, unknown>)[key], child));
    }
    return problems;
  }
  if (typeof reference !== typeof other) problems.push(`${path}: ${typeof reference} in English, ${typeof other} in the other language`);
  return problems;
}

function deepCopy<T>(value: T): T {
  if (typeof value === 'function' || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepCopy(v)])) as T;
}

describe('the catalogues', () => {
  it('zh has the keys of en, and each message reads the parameters the English one reads', () => {
    expect(catalogueDifferences(en, zh)).toEqual([]);
  });

  it('a key missing in either language is reported by its path', () => {
    const brokenZh = deepCopy(zh) as unknown as { checks: Record<string, Record<string, unknown>> };
    delete brokenZh.checks['npu.idle']!['busy'];
    expect(catalogueDifferences(en, brokenZh)).toEqual(['checks.npu.idle.busy: missing in the other language']);
    const brokenEn = deepCopy(en) as unknown as { report: Record<string, unknown> };
    delete brokenEn.report['ready'];
    expect(catalogueDifferences(brokenEn, zh)).toEqual(['report.ready: missing in English']);
  });

  it('a message that leaves out a parameter the other language says is reported', () => {
    const brokenZh = deepCopy(zh) as unknown as { checks: Record<string, Record<string, unknown>> };
    brokenZh.checks['npu.idle']!['busy'] = (p: { busy: number; used: number }) => `${p.used} 个 NPU 设备中有 ${p.busy} 个被占用`;
    expect(catalogueDifferences(en, brokenZh)).toEqual(['checks.npu.idle.busy: parameters read differ (only English: reasons; only the other: -)']);
  });

  it('the recorder sees nested parameters and both branches a value can take', () => {
    expect([...parametersRead(en.checks['npu.idle'].free as (p: never) => unknown)].sort()).toEqual(['memoryRange', 'memoryRange.max', 'memoryRange.min', 'processTable', 'used']);
  });

  it('every check entry has a title, why and fix in both languages, and Chinese text in zh', () => {
    for (const [id, entry] of Object.entries(zh.checks as Record<string, { title: string; why: string; fix: string }>)) {
      for (const field of ['title', 'why', 'fix'] as const) {
        expect(entry[field], `${id}.${field}`).toMatch(/\p{Script=Han}/u);
      }
    }
  });
});
