/** Error codes of the JSON error document: every one of them means exit code 2. */
export type ErrorCode =
  | 'usage'
  | 'invalid-profile'
  | 'invalid-snapshot'
  | 'invalid-cluster'
  | 'invalid-input'
  | 'output'
  | 'refused'
  | 'locked'
  | 'interrupted'
  | 'nothing-assessed'
  | 'internal';

/** Every error code, in the order the documentation lists them. */
export const ERROR_CODES: readonly ErrorCode[] = [
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
];

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
