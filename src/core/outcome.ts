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
