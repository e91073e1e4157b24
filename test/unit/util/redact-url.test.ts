import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactUrl, Redactor } from '../../../src/util/redact.js';

/** The rule as first written: the scheme tried at every letter, which is quadratic on a run of letters. */
const QUADRATIC = /([a-z][a-z0-9+.-]*:\/\/)([^@/\s'"?#]+)@/gi;

describe('credentials in a URL', () => {
  it('are hidden wherever the URL stands, the scheme from its first letter', () => {
    expect(redactUrl('http://u:pw@proxy:3128')).toBe('http://***@proxy:3128');
    expect(new Redactor().text('--index-url=https://u:pw@mirror/simple')).toBe('--index-url=https://***@mirror/simple');
    expect(redactUrl('git+https://user:tok@host/x 1http://u:p@h')).toBe('git+https://***@host/x 1http://***@h');
    expect(redactUrl('see http://host/path@x, mailto:a@b')).toBe('see http://host/path@x, mailto:a@b');
  });

  it('as the first rule hid them, on any text made of the characters that matter', () => {
    const piece = fc.constantFrom('a', 'Z', '1', '+', '.', '-', ':', '/', '@', ' ', '"', '?', '#', '://', 'http', 'u:p@');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        expect(redactUrl(text)).toBe(text.replace(QUADRATIC, '$1***@'));
      }),
      { numRuns: 3000 },
    );
  });

  it('a run of 200,000 letters is read once, not once per letter (it took the square of its length)', () => {
    const letters = 'a'.repeat(200_000);
    // the vitest timeout is the bound: the first rule took minutes here
    expect(new Redactor().text(`${letters} ${letters}://u:pw@h`)).toBe(`${letters} ${letters}://***@h`);
  });
});
