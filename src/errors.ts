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

/** A problem that leaves no verdict: bad usage or an unusable input file. Exit code 2. */
export class QprepError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** what to do about it, when the message alone does not say */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'QprepError';
  }
}

export function usageError(message: string): QprepError {
  return new QprepError('usage', message);
}
