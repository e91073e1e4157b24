import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import type { NetAddress, NetInterface } from './types.js';

const IFF_UP = 0x1;
const IFF_LOOPBACK = 0x8;
const IFF_RUNNING = 0x40;

async function readSys(name: string, attribute: string): Promise<string | undefined> {
  try {
    return (await fsp.readFile(`/sys/class/net/${name}/${attribute}`, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

function prefixOf(netmask: string, cidr: string | null): number {
  if (cidr) {
    const bits = Number(cidr.split('/')[1]);
    if (Number.isInteger(bits)) return bits;
  }
  if (netmask.includes('.')) {
    return netmask.split('.').reduce((sum, octet) => sum + (Number(octet) >>> 0).toString(2).replace(/0/g, '').length, 0);
  }
  return 0;
}

/**
 * Every interface of this network namespace: link state from /sys/class/net (interfaces without
 * an address too) and addresses from the kernel through Node (every address, not only the first).
 */
export async function readInterfaces(): Promise<NetInterface[]> {
  const byName = os.networkInterfaces();
  let names: string[];
  try {
    names = await fsp.readdir('/sys/class/net');
  } catch {
    names = Object.keys(byName);
  }
  const all = new Set([...names, ...Object.keys(byName)]);
  const result: NetInterface[] = [];
  for (const name of [...all].sort()) {
    if (name.includes('/')) continue;
    const [flagsText, operState, mtuText, mac] = await Promise.all([
      readSys(name, 'flags'),
      readSys(name, 'operstate'),
      readSys(name, 'mtu'),
      readSys(name, 'address'),
    ]);
    const entries = byName[name] ?? [];
    const flags = flagsText ? Number.parseInt(flagsText, 16) : Number.NaN;
    const addresses: NetAddress[] = entries.map((entry) => ({
      family: entry.family === 'IPv6' ? 'IPv6' : 'IPv4',
      address: entry.address,
      netmask: entry.netmask,
      prefix: prefixOf(entry.netmask, entry.cidr),
    }));
    const internal = entries.some((entry) => entry.internal);
    result.push({
      name,
      adminUp: Number.isNaN(flags) ? entries.length > 0 : (flags & IFF_UP) !== 0,
      operState: operState ?? 'unknown',
      running: Number.isNaN(flags) ? entries.length > 0 : (flags & IFF_RUNNING) !== 0,
      mtu: mtuText && /^\d+$/.test(mtuText) ? Number(mtuText) : null,
      mac: mac && mac !== '' ? mac : (entries[0]?.mac ?? null),
      loopback: Number.isNaN(flags) ? internal : (flags & IFF_LOOPBACK) !== 0,
      addresses,
    });
  }
  return result;
}
