import { describe, expect, it } from 'vitest';
import { visibleStrings } from '../../../src/report/visible.js';
import { escapeControls } from '../../../src/util/text.js';

describe('escapeControls', () => {
  it('shows C0, DEL, C1 and the bidi controls, keeps every other character', () => {
    expect(escapeControls('a\u001b[31mb\u0007\u007f\u009b\u202e昇腾 🚀\t\n')).toBe('a\\x1b[31mb\\x07\\x7f\\x9b\\u202e昇腾 🚀\\x09\\x0a');
    expect(escapeControls('line 1\nline\r2', { keepNewlines: true })).toBe('line 1\nline\\x0d2');
  });
});

describe('visibleStrings', () => {
  it('escapes every string of a document, keys untouched, line breaks kept only where the formatter lays them out', () => {
    const document = { host: { hostname: 'n\u001b]0;x\u0007' }, checks: [{ message: 'a\nb', remediation: 'fix 1\nfix\u001b 2', details: ['\u001b[2J'] }], count: 3 };
    expect(visibleStrings(document)).toEqual({
      host: { hostname: 'n\\x1b]0;x\\x07' },
      checks: [{ message: 'a\\x0ab', remediation: 'fix 1\nfix\\x1b 2', details: ['\\x1b[2J'] }],
      count: 3,
    });
  });
});
