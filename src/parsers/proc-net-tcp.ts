export interface TcpSocket {
  family: 'IPv4' | 'IPv6';
  localAddress: string;
  localPort: number;
  /** TCP state as the kernel numbers it; 0x0A is LISTEN */
  state: number;
  uid: number;
  inode: number;
}

export const TCP_LISTEN = 0x0a;

function hexToIPv4(hex: string): string {
  // The kernel prints the address as a host-order 32-bit word; on the little-endian hosts
  // Ascend servers are (x86_64, aarch64), the bytes come reversed.
  const bytes = hex.match(/../g)!.map((b) => Number.parseInt(b, 16));
  return bytes.reverse().join('.');
}

function hexToIPv6(hex: string): string {
  // Four host-order 32-bit words, each with its bytes reversed on little-endian hosts.
  const groups: number[] = [];
  for (let i = 0; i < 32; i += 8) {
    const word = hex.slice(i, i + 8).match(/../g)!.reverse().join('');
    groups.push(Number.parseInt(word.slice(0, 4), 16), Number.parseInt(word.slice(4, 8), 16));
  }
  return compressIPv6(groups);
}

/** RFC 5952 text form: the longest run of two or more zero groups becomes "::". */
export function compressIPv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const text = groups.map((g) => g.toString(16));
  if (bestStart < 0) return text.join(':');
  const head = text.slice(0, bestStart).join(':');
  const tail = text.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}

/** /proc/net/tcp and /proc/net/tcp6. Lines that do not parse are skipped; never throws. */
export function parseProcNetTcp(text: string, family: 'IPv4' | 'IPv6'): TcpSocket[] {
  const sockets: TcpSocket[] = [];
  const addressLength = family === 'IPv4' ? 8 : 32;
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || !/^\d+:$/.test(fields[0]!)) continue;
    const [address, portHex] = fields[1]!.split(':');
    if (!address || !portHex || address.length !== addressLength || !/^[0-9A-Fa-f]+$/.test(address + portHex)) continue;
    const state = Number.parseInt(fields[3]!, 16);
    const uid = Number(fields[7]);
    const inode = Number(fields[9]);
    if (!Number.isFinite(state) || !Number.isFinite(inode)) continue;
    sockets.push({
      family,
      localAddress: family === 'IPv4' ? hexToIPv4(address) : hexToIPv6(address),
      localPort: Number.parseInt(portHex, 16),
      state,
      uid: Number.isFinite(uid) ? uid : -1,
      inode,
    });
  }
  return sockets;
}
