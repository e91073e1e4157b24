import { isIPv6 } from 'node:net';

/**
 * Dotted-quad IPv4 without leading zeros. inet_aton(3), which ping and most tools use, reads
 * "010.1.1.1" as octal (8.1.1.1), so a leading zero is refused rather than guessed.
 */
export const IPV4_PATTERN = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function isIPv4(text: string): boolean {
  return IPV4_PATTERN.test(text);
}

export function isIP(text: string): boolean {
  return isIPv4(text) || isIPv6(text);
}

/** The address as an unsigned 32-bit number, or undefined when it is not an IPv4 address. */
export function ipv4ToNumber(text: string): number | undefined {
  if (!isIPv4(text)) return undefined;
  return text.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
}

/** 255.255.255.0 -> 24; undefined for a mask that is not a contiguous run of ones. */
export function prefixOfNetmask(mask: string): number | undefined {
  const value = ipv4ToNumber(mask);
  if (value === undefined) return undefined;
  const bits = value.toString(2).padStart(32, '0');
  if (!/^1*0*$/.test(bits)) return undefined;
  return bits.indexOf('0') === -1 ? 32 : bits.indexOf('0');
}

/** Whether an IPv4 address lies in a network given as address and prefix length. */
export function inIPv4Network(address: string, network: string, prefix: number): boolean {
  const a = ipv4ToNumber(address);
  const n = ipv4ToNumber(network);
  if (a === undefined || n === undefined || prefix < 0 || prefix > 32) return false;
  if (prefix === 0) return true;
  const size = 2 ** (32 - prefix);
  return Math.floor(a / size) === Math.floor(n / size);
}

/** Loopback and link-local addresses identify no particular machine. */
export function isLoopbackOrLinkLocal(address: string): boolean {
  if (isIPv4(address)) return inIPv4Network(address, '127.0.0.0', 8) || inIPv4Network(address, '169.254.0.0', 16);
  const lower = address.toLowerCase();
  return lower === '::1' || /^fe[89ab]/.test(lower);
}
