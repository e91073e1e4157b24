import type { Host } from './types.js';

/** Waits `ms` on the host's terms: the host's own pause where it has one (a replay does not wait), else the clock. */
export function hostPause(host: Host, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  if (host.pause) return host.pause(ms);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
