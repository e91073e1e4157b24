import { describe, expect, it } from 'vitest';
import { redactEnv, redactEnvValue, redactUrl } from '../../../src/util/redact.js';
import { formatBytes, parseSize } from '../../../src/util/size.js';
import { formatRanges } from '../../../src/util/text.js';

describe('sizes', () => {
  it('parses binary, decimal and docker spellings', () => {
    expect(parseSize('1GiB')).toBe(1024 ** 3);
    expect(parseSize('16g')).toBe(16 * 1024 ** 3);
    expect(parseSize('500 GB')).toBe(500 * 1000 ** 3);
    expect(parseSize(42)).toBe(42);
    expect(parseSize('lots')).toBeUndefined();
    expect(parseSize('1XB')).toBeUndefined();
  });
  it('formats bytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(64 * 1024 ** 2)).toBe('64.0 MiB');
  });
});

describe('redaction', () => {
  it('removes credentials from proxy URLs and hides secret-named variables', () => {
    expect(redactUrl('http://user:pa:ss@proxy:3128/')).toBe('http://***@proxy:3128/');
    expect(redactUrl('http://proxy:3128')).toBe('http://proxy:3128');
    expect(redactEnvValue('HF_TOKEN', 'hf_abc')).toBe('***');
    expect(redactEnvValue('AWS_SECRET_ACCESS_KEY', 'x')).toBe('***');
    expect(redactEnvValue('PIP_INDEX_URL', 'https://u:p@mirror/simple https://other/simple')).toBe('https://***@mirror/simple https://other/simple');
    expect(redactEnv({ PATH: '/bin', DB_PASSWORD: 'x' })).toEqual({ PATH: '/bin', DB_PASSWORD: '***' });
  });
});

describe('ranges', () => {
  it('collapses integer lists', () => {
    expect(formatRanges([3, 0, 1, 2, 7, 9, 10])).toBe('0-3,7,9-10');
  });
});
