import { QprepError } from '../errors.js';
import { didYouMean } from '../util/suggest.js';

/** The languages of the text a person reads. Ids, statuses, codes and evidence never change with it. */
export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];

export interface LangSources {
  /** the value of --lang, when given */
  flag?: string | undefined;
  /** the environment the language is read from: QPREP_LANG, then LC_ALL, LC_MESSAGES, LANG */
  env?: Readonly<Record<string, string | undefined>>;
}

/** zh-CN, zh_TW.UTF-8, ZH: any Chinese; en, en_US.UTF-8: English. Undefined for anything else. */
function languageOf(value: string): Lang | undefined {
  const base = value.trim().toLowerCase().split(/[-_.@]/)[0];
  return base === 'zh' || base === 'en' ? base : undefined;
}

/** A value given to qprep itself: a typo is a usage error, never a silent fall back to English. */
function explicit(value: string, source: string): Lang {
  const lang = languageOf(value);
  if (lang) return lang;
  throw new QprepError('usage', `${source} expects en or zh, got "${value}"`, didYouMean(value, LANGS, 'the languages are: en, zh'));
}

/**
 * The language of this run: --lang, then QPREP_LANG, then the first of LC_ALL, LC_MESSAGES and
 * LANG that is set and not empty, as the C library reads the locale (zh* is Chinese, anything
 * else, C and POSIX included, is English). A bad --lang or QPREP_LANG is a usage error naming it;
 * a locale qprep does not speak is English, as other programs treat a locale they lack.
 */
export function resolveLang(sources: LangSources = {}): Lang {
  const env = sources.env ?? {};
  if (sources.flag !== undefined) return explicit(sources.flag, '--lang');
  const own = env['QPREP_LANG'];
  if (own !== undefined && own !== '') return explicit(own, 'QPREP_LANG');
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    return value.trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
  }
  return 'en';
}
