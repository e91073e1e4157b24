import {
  nothingRecognized,
  shorten,
  SkippedLines,
  type Parsed,
  forEachDataLine,
} from './parsed.js';
import type { LineNotes } from './hccn.js';

/** One switch port seen by LLDP from an NPU port. */
export interface LldpNeighbour {
  /** Port ID TLV, `Ifname: 400GE1/1/20:2`: the switch port the NPU is cabled to */
  ifname: string | null;
  /** Chassis ID TLV value, `MAC: ...` */
  chassis: string | null;
  systemName: string | null;
  /** System Description TLV, its lines joined with spaces */
  systemDescription: string | null;
  managementAddress: string | null;
  maxFrameSize: number | null;
  /** TLV headers in order of appearance */
  tlvs: string[];
}

export interface HccnLldp extends LineNotes {
  /** none when the port has no LLDP neighbour (cable out, LLDP off on the switch) */
  neighbours: LldpNeighbour[];
}

function emptyNeighbour(): LldpNeighbour {
  return { ifname: null, chassis: null, systemName: null, systemDescription: null, managementAddress: null, maxFrameSize: null, tlvs: [] };
}

function hasContent(n: LldpNeighbour): boolean {
  return n.tlvs.length > 0 || n.ifname !== null;
}

/**
 * `hccn_tool -i N -lldp -g`, the full TLV dump (headers such as `Port ID TLV` at the margin,
 * values indented by a TAB or spaces, System Description continued on unindented lines), and the
 * `| grep Ifname` form the guides use (one `Ifname:` line per device). Never throws.
 */
export function parseHccnLldp(text: string): Parsed<HccnLldp> {
  const neighbours: LldpNeighbour[] = [];
  const skipped = new SkippedLines();
  let elided = false;
  let recognized = 0;
  let current = emptyNeighbour();
  let tlv: string | null = null;
  const description: string[] = [];

  const close = () => {
    if (description.length > 0) current.systemDescription = description.join(' ');
    description.length = 0;
    if (hasContent(current)) neighbours.push(current);
    current = emptyNeighbour();
    tlv = null;
  };

  forEachDataLine(text, skipped, () => {
    elided = true;
  }, (line, number) => {
    const trimmed = line.trim();
    const indented = /^\s/.test(line);
    if (!indented && /\bTLV$/i.test(trimmed)) {
      recognized++;
      const name = trimmed.replace(/\s*TLV$/i, '').trim();
      if (/^chassis id$/i.test(name) && hasContent(current)) close();
      if (/^end of lldpdu$/i.test(name)) {
        current.tlvs.push(trimmed);
        close();
        return;
      }
      if (description.length > 0 && tlv && /^system description$/i.test(tlv)) {
        current.systemDescription = description.join(' ');
        description.length = 0;
      }
      current.tlvs.push(trimmed);
      tlv = name.toLowerCase();
      return;
    }
    const ifname = /^\s*Ifname\s*:\s*(.*?)\s*$/i.exec(line);
    if (ifname && (tlv === null || tlv === 'port id')) {
      recognized++;
      if (tlv === null && current.ifname !== null) close();
      current.ifname = shorten(ifname[1]!, 200);
      return;
    }
    if (tlv === null) {
      skipped.add(line, number);
      return;
    }
    recognized++;
    const value = shorten(trimmed, 200);
    switch (tlv) {
      case 'chassis id': {
        const mac = /^MAC\s*:\s*(.*)$/i.exec(value);
        current.chassis ??= mac ? mac[1]! : value;
        break;
      }
      case 'system name':
        current.systemName ??= value;
        break;
      case 'system description':
        description.push(value);
        break;
      case 'management address': {
        const address = /^IPv[46]\s*:\s*(\S+)/i.exec(value);
        if (address) current.managementAddress ??= address[1]!;
        break;
      }
      case 'maximum frame size':
        if (/^\d+$/.test(value) && current.maxFrameSize === null) current.maxFrameSize = Number(value);
        break;
      default:
        break;
    }
  });
  close();
  if (recognized === 0 && skipped.count > 0) return nothingRecognized('hccn_tool -lldp -g', skipped);
  return { ok: true, value: { neighbours, skipped: skipped.kept, skippedCount: skipped.count, elided } };
}
