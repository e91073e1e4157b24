import { spokenError } from '../i18n/spoken-error.js';
import { isIP } from 'node:net';
import { isLoopback, type ListenAddress } from './listen.js';

/**
 * The Host header allow-list of `qprep serve`, against DNS rebinding: a web page from a name
 * its owner controls, re-pointed at 127.0.0.1 or a node's address once loaded, may read the
 * answers of whatever listens there (the report: host name, NPUs, addresses, versions) as if
 * they came from that page's own site. Such a request carries the attacker's name in `Host`;
 * one that names an address cannot come from a rebound name, so an address is never the risk.
 *
 * Allowed without being told: `localhost`, every loopback address, and the address serve
 * listens on; when it listens on every address (0.0.0.0, [::]), any address (the kubelet and
 * Prometheus reach a node by its IP, and a node has many). A name (the node's host name, a
 * Service's name) only with --allow-host NAME; `--allow-host '*'` turns the check off (behind a
 * proxy that rewrites Host). A request without Host (HTTP/1.0) is not a browser's: allowed.
 */

export interface HostPolicy {
  /** names and addresses allowed, normalized as a URL's hostname ("[::1]", "node7.example") */
  readonly names: ReadonlySet<string>;
  /** any address literal is allowed: serve listens on every address of the node */
  readonly anyAddress: boolean;
  /** --allow-host '*': every Host */
  readonly anyHost: boolean;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::']);
/** A DNS name as an operator types it: labels of letters, digits and hyphens, and an optional final dot. */
const HOST_NAME = /^(?=.{1,253}\.?$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/**
 * The hostname of `host[:port]` as the URL parser writes it (lower case, IPv6 bracketed and
 * shortened, 127.1 as 127.0.0.1) without a final dot; undefined for anything else (a user part,
 * a path: not what a client puts in Host).
 */
function hostnameOf(text: string): string | undefined {
  if (/[@/\\?#\s]/.test(text)) return undefined;
  try {
    const hostname = new URL(`http://${text}`).hostname.toLowerCase();
    return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  } catch {
    return undefined;
  }
}

function unbracketed(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}

/** `name`, `name:port`, an address, `[v6]` or a bare v6 address, as --allow-host takes them, normalized. */
function allowedName(value: string): string {
  const text = value.trim();
  const hostname = hostnameOf(isIP(text) === 6 ? `[${text}]` : text);
  if (hostname === undefined || (!HOST_NAME.test(hostname) && isIP(unbracketed(hostname)) === 0)) {
    throw spokenError('usage', (t) => t.usage.allowHostInvalid({ value: JSON.stringify(value) }));
  }
  return hostname;
}

/** The policy of --listen and every --allow-host (each may list several, comma-separated). */
export function hostPolicy(listen: ListenAddress, allowHost: readonly string[]): HostPolicy {
  const values = allowHost.flatMap((value) => value.split(',')).map((value) => value.trim());
  if (values.includes('')) throw spokenError('usage', (t) => t.usage.allowHostEmpty);
  const anyHost = values.includes('*');
  const names = new Set([...LOOPBACK_NAMES, allowedName(isIP(listen.host) === 6 ? `[${listen.host}]` : listen.host), ...values.filter((v) => v !== '*').map(allowedName)]);
  return { names, anyAddress: WILDCARDS.has(listen.host), anyHost };
}

/**
 * Whether a request with this Host header is answered. `undefined` (no header: HTTP/1.0) is;
 * a header no URL parser reads is not.
 */
export function hostAllowed(policy: HostPolicy, header: string | undefined): boolean {
  if (header === undefined || policy.anyHost) return true;
  const hostname = hostnameOf(header);
  if (hostname === undefined) return false;
  if (policy.names.has(hostname)) return true;
  const address = unbracketed(hostname);
  if (isIP(address) === 0) return false;
  return policy.anyAddress || isLoopback(address);
}
