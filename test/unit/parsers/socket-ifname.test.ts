import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseIfnameSelector, selectorAllows, type IfnameVariable } from '../../../src/parsers/socket-ifname.js';

const VARIABLES: IfnameVariable[] = ['HCCL_SOCKET_IFNAME', 'GLOO_SOCKET_IFNAME', 'TP_SOCKET_IFNAME'];

describe('parseIfnameSelector never throws', () => {
  it('on any string, for every variable, and what it accepts names only interface-name characters', () => {
    fc.assert(
      fc.property(fc.constantFrom(...VARIABLES), fc.string({ maxLength: 200 }), fc.string({ maxLength: 20 }), (variable, value, name) => {
        const parsed = parseIfnameSelector(variable, value);
        if (parsed.ok) {
          expect(parsed.names.every((n) => /^[A-Za-z0-9_.:@-]{1,15}$/.test(n))).toBe(true);
          expect(typeof selectorAllows(parsed, name)).toBe('boolean');
        } else expect(parsed.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('on a 10 MB value and on lone surrogates', () => {
    expect(parseIfnameSelector('HCCL_SOCKET_IFNAME', 'e'.repeat(10 * 1024 * 1024))).toEqual({ ok: false, reason: 'is longer than 1024 characters' });
    expect(parseIfnameSelector('GLOO_SOCKET_IFNAME', '\uD800eth0').ok).toBe(false);
  });
});
