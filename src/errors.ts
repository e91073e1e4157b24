/**
 * Error codes of the JSON error document, in the order the documentation lists them: every one
 * of them means exit code 2. The ground floor of the code: every layer may throw a QprepError.
 */
export const ERROR_CODES = [
  'usage',
  'invalid-profile',
  'invalid-snapshot',
  'invalid-cluster',
  'invalid-input',
  'output',
  'refused',
  'locked',
  'interrupted',
  'nothing-assessed',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** An error's words in a language of the catalogue: its message (lines after the first are hints) and its hint. */
export interface ErrorWords {
  message: string;
  hint?: string;
}

/** A problem that leaves no verdict: bad usage or an unusable input file. Exit code 2. */
export class QprepError extends Error {
  /**
   * The same error in another language, set by a throw site that words it from the message
   * catalogue (src/i18n/spoken-error.ts); without it the error reads as `message` in every
   * language. The code never depends on the language.
   */
  spoken?: (lang: string) => ErrorWords;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** what to do about it, when the message alone does not say */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'QprepError';
  }

  /** The error's words in `lang` (en, zh): the catalogue's when the throw site gave them, else its English. */
  wordsIn(lang: string): ErrorWords {
    if (this.spoken) return this.spoken(lang);
    return this.hint === undefined ? { message: this.message } : { message: this.message, hint: this.hint };
  }
}

export function usageError(message: string): QprepError {
  return new QprepError('usage', message);
}
