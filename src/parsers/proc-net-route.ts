/** One IPv4 route of /proc/net/route. */
export interface Ipv4Route {
  iface: string;
  destination: string;
  gateway: string;
  mask: string;
  flags: number;
  metric: number;
}

const RTF_UP = 0x1;

/** /proc/net/route prints addresses as 8 hex digits in host (little-endian) byte order. */
function decodeAddress(hex: string): string | undefined {
  if (!/^[0-9A-Fa-f]{8}$/.test(hex)) return undefined;
  const value = Number.parseInt(hex, 16);
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff].join('.');
}

/**
 * Parses /proc/net/route (header "Iface Destination Gateway Flags RefCnt Use Metric Mask MTU
 * Window IRTT", tab-separated). Lines that do not fit are skipped. Never throws.
 */
export function parseProcNetRoute(text: string): Ipv4Route[] {
  const routes: Ipv4Route[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 8 || fields[0] === 'Iface') continue;
    const [iface, destinationHex, gatewayHex, flagsHex, , , metricText, maskHex] = fields as [string, string, string, string, string, string, string, string];
    const destination = decodeAddress(destinationHex);
    const gateway = decodeAddress(gatewayHex);
    const mask = decodeAddress(maskHex);
    const flags = /^[0-9A-Fa-f]{1,8}$/.test(flagsHex) ? Number.parseInt(flagsHex, 16) : Number.NaN;
    const metric = /^\d+$/.test(metricText) ? Number(metricText) : Number.NaN;
    if (!destination || !gateway || !mask || Number.isNaN(flags) || Number.isNaN(metric)) continue;
    routes.push({ iface, destination, gateway, mask, flags, metric });
  }
  return routes;
}

/** The interface of the default route with the lowest metric, if the routing table has one that is up. */
export function defaultRoute(routes: readonly Ipv4Route[]): Ipv4Route | undefined {
  return routes
    .filter((r) => r.destination === '0.0.0.0' && r.mask === '0.0.0.0' && (r.flags & RTF_UP) !== 0)
    .sort((a, b) => a.metric - b.metric)[0];
}
