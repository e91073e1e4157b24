import { spokenError } from '../i18n/spoken-error.js';
import { isIP } from 'node:net';

/** Loopback only unless told otherwise: the report names the host's NPUs, addresses and versions. */
export const DEFAULT_LISTEN = '127.0.0.1:9105';

export interface ListenAddress {
  host: string;
  port: number;
  loopback: boolean;
}

/**
 * --listen ADDR:PORT: an IPv4 address, a bracketed IPv6 address ([::1]:9105) or "localhost",
 * and a port (0 lets the kernel choose; the log line says which). No hostnames: what the agent
 * binds to must not depend on a resolver.
 */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text.trim());
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (!match || host === undefined || !(port >= 0 && port <= 65535)) {
    throw spokenError('usage', (t) => t.usage.listenFormat({ value: text }));
  }
  if (host === 'localhost') return { host: '127.0.0.1', port, loopback: true };
  const family = isIP(host);
  if (family === 0 || (match[1] !== undefined && family !== 6) || (match[2] !== undefined && family !== 4)) {
    throw spokenError('usage', (t) => t.usage.listenNotAddress({ host }));
  }
  return { host, port, loopback: isLoopback(host) };
}

export function isLoopback(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith('127.');
  const lower = address.toLowerCase();
  return lower === '::1' || lower === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(lower);
}

/** "127.0.0.1:9105", "[::1]:9105": the form --listen takes, for the log. */
export function formatListenAddress(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}
