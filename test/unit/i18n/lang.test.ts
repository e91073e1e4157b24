import { describe, expect, it } from 'vitest';
import { QprepError } from '../../../src/errors.js';
import { resolveLang } from '../../../src/i18n/lang.js';

describe('resolveLang', () => {
  it('--lang first, then QPREP_LANG, then LC_ALL, LC_MESSAGES, LANG', () => {
    const env = { QPREP_LANG: 'zh', LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' };
    expect(resolveLang({ flag: 'en', env })).toBe('en');
    expect(resolveLang({ env })).toBe('zh');
    expect(resolveLang({ env: { LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' } })).toBe('en');
    expect(resolveLang({ env: { LC_MESSAGES: 'zh_TW.UTF-8', LANG: 'en_US.UTF-8' } })).toBe('zh');
    expect(resolveLang({ env: { LANG: 'zh_CN.UTF-8' } })).toBe('zh');
  });

  it('an empty variable is unset, as the C library reads the locale', () => {
    expect(resolveLang({ env: { QPREP_LANG: '', LC_ALL: '', LANG: 'zh_CN.GB18030' } })).toBe('zh');
  });

  it('C, POSIX, another language or nothing at all is English', () => {
    expect(resolveLang({ env: { LANG: 'C' } })).toBe('en');
    expect(resolveLang({ env: { LC_ALL: 'POSIX', LANG: 'zh_CN.UTF-8' } })).toBe('en');
    expect(resolveLang({ env: { LANG: 'de_DE.UTF-8' } })).toBe('en');
    expect(resolveLang({})).toBe('en');
  });

  it('--lang and QPREP_LANG take en, zh and their locale forms', () => {
    expect(resolveLang({ flag: 'zh-CN' })).toBe('zh');
    expect(resolveLang({ env: { QPREP_LANG: 'zh_CN.UTF-8' } })).toBe('zh');
    expect(resolveLang({ flag: 'EN' })).toBe('en');
  });

  it('a bad --lang or QPREP_LANG is a usage error naming it, with the closest language', () => {
    const thrown = (sources: Parameters<typeof resolveLang>[0]) => {
      try {
        resolveLang(sources);
      } catch (error) {
        return error as QprepError;
      }
      throw new Error('no error');
    };
    const flag = thrown({ flag: 'hz' });
    expect(flag).toBeInstanceOf(QprepError);
    expect(flag.code).toBe('usage');
    expect(flag.message).toBe('--lang expects en or zh, got "hz"');
    expect(flag.hint).toBe('did you mean "zh"?');
    const env = thrown({ env: { QPREP_LANG: 'chinese' } });
    expect(env.message).toBe('QPREP_LANG expects en or zh, got "chinese"');
    expect(env.hint).toBe('the languages are: en, zh');
  });
});
