/**
 * JSON.parse and the YAML parser keep a key named `__proto__` as an own member; copying it into
 * a new object (a profile merged over its base, a schema's output of a lenient object) with
 * `out[key] = value` sets that object's prototype instead, so that its members are inherited
 * from the document and no schema sees an unknown key. Input documents refuse it, at any
 * depth, as an unknown key.
 */
export const PROTOTYPE_KEY = '__proto__';

/**
 * Whether a parsed document holds a member named `__proto__` at any depth. Iterative, and
 * without the paths: `qprep aggregate` looks through 1,000 reports of 70 KiB, and a path string
 * for each of their members cost more than the walk itself.
 */
function holdsPrototypeKey(document: unknown): boolean {
  const stack: object[] = typeof document === 'object' && document !== null ? [document] : [];
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const member: unknown = value[i];
        if (typeof member === 'object' && member !== null) stack.push(member);
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(record, PROTOTYPE_KEY)) return true;
    // for-in allocates nothing; an inherited enumerable member would only be looked at too
    for (const key in record) {
      const member = record[key];
      if (typeof member === 'object' && member !== null) stack.push(member);
    }
  }
  return false;
}

/**
 * The path of the first member named `__proto__` in a parsed document ("nodes.0.__proto__"),
 * or undefined. Iterative: a document nested 100,000 deep cannot exhaust the stack.
 */
export function prototypeKeyPath(document: unknown): string | undefined {
  if (!holdsPrototypeKey(document)) return undefined;
  const stack: Array<{ value: unknown; path: string }> = [{ value: document, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: path === '' ? String(i) : `${path}.${i}` });
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(value, PROTOTYPE_KEY)) return path;
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (value as Record<string, unknown>)[keys[i]!], path: path === '' ? keys[i]! : `${path}.${keys[i]}` });
  }
  return undefined;
}

/** The message of a document holding `__proto__`, worded as the schema words any unknown key; undefined when it holds none. */
export function prototypeKeyProblem(document: unknown): string | undefined {
  const path = prototypeKeyPath(document);
  return path === undefined ? undefined : `${path === '' ? '(top level)' : path}: Unrecognized key: "${PROTOTYPE_KEY}"`;
}
