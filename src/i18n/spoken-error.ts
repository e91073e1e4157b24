import { QprepError, type ErrorCode } from '../errors.js';
import { en, type Catalogue } from './en/index.js';
import type { Lang } from './lang.js';
import { zh } from './zh/index.js';

/** The catalogue's words for errors, in one language: what a worded error is said with. */
export type ErrorText = Catalogue['errors'];

/**
 * A QprepError worded from the catalogue: its `message` (and `hint`) are the English, which logs,
 * tests and every caller that does not know the run's language read; the error document and the
 * `qprep: error:` line of a run in another language read `wordsIn(lang)`.
 *
 *   throw spokenError('invalid-profile', (t) => t.inputs.invalidProfile({ file, detail }));
 */
export function spokenError(code: ErrorCode, say: (t: ErrorText, lang: Lang) => string, hint?: (t: ErrorText, lang: Lang) => string): QprepError {
  const error = new QprepError(code, say(en.errors, 'en'), hint?.(en.errors, 'en'));
  error.spoken = (asked) => {
    const lang: Lang = asked === 'zh' ? 'zh' : 'en';
    const t = (lang === 'zh' ? zh : en).errors;
    return hint ? { message: say(t, lang), hint: hint(t, lang) } : { message: say(t, lang) };
  };
  return error;
}
