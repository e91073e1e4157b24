import type { Outcome } from './types.js';

type Details = Omit<Outcome, 'status' | 'message'>;

export function pass(message: string, details: Details = {}): Outcome {
  return { status: 'pass', message, ...details };
}

export function warn(message: string, details: Details = {}): Outcome {
  return { status: 'warn', message, ...details };
}

export function fail(message: string, details: Details = {}): Outcome {
  return { status: 'fail', message, ...details };
}

/** The check does not apply here (no cpufreq in a VM, no NUMA balancing in the kernel). */
export function skip(message: string, details: Details = {}): Outcome {
  return { status: 'skip', message, ...details };
}

/** The check could not assess the host: a probe failed, timed out, or returned garbage. */
export function error(message: string, details: Details = {}): Outcome {
  return { status: 'error', message, ...details };
}

/**
 * The outcome without the detail lines its message already says word for word: a check that
 * lists every port in its message when there are few, and in its details when there are many,
 * must not print the one port twice.
 */
export function withoutRepeatedDetails(outcome: Outcome): Outcome {
  if (!outcome.details) return outcome;
  const details = outcome.details.filter((line) => !outcome.message.includes(line));
  if (details.length === outcome.details.length) return outcome;
  const { details: _repeated, ...rest } = outcome;
  return details.length > 0 ? { ...rest, details } : rest;
}
