import { isIP } from '../util/ip.js';
import {
  nothingRecognized,
  shorten,
  SkippedLines,
  type Parsed,
  forEachDataLine,
} from './parsed.js';
import type { LineNotes } from './hccn.js';

/**
 * `hccn_tool -i N -ping -g address X` (RoCE, reference §3.8) and `hccn_tool -i N -hccs_ping -g
 * address X` (A3 HCCS, §3.9). The RoCE format is known from real captures; the HCCS format only
 * from the tool's source, so its lines are matched loosely.
 */

export type PingVerdict = 'ok' | 'loss' | 'unreachable' | 'incomplete';

export interface PingReply {
  seq: number;
  timeMs: number;
}

export interface PingLostPacket {
  /** null when the tool named no sequence number */
  seq: number | null;
  /** "recv time out", "This pkt send fail!", ... */
  reason: string;
}

export interface PingReport {
  /** the device id of the `device N PING X` line */
  device: number | null;
  /** the address of that line */
  target: string | null;
  /** which grammar the section used */
  method: 'roce' | 'hccs';
  replies: PingReply[];
  lost: PingLostPacket[];
  transmitted: number | null;
  received: number | null;
  /** the loss the tool printed (two decimals), or computed from the counts */
  lossPercent: number | null;
  /** `Destination Host Unreachable` */
  unreachable: boolean;
  /** `Message too long` (a pkt size above the path MTU) */
  messageTooLong: boolean;
  /** other lines inside the section, e.g. an error text of the tool */
  messages: string[];
  verdict: PingVerdict;
}

export interface HccnPing extends LineNotes {
  /** one per `device N PING X` header: the vendor loops print several */
  reports: PingReport[];
}

const HEADER = /^\s*device\s+(\d{1,4})\s+PING6?\s+(\S+)\s*$/i;
const ROCE_REPLY = /^\s*recv\s+seq\s*=\s*(\d{1,9})\s*,\s*time\s*[=-]\s*(\d{1,9}(?:\.\d{1,9})?)\s*ms\s*$/i;
const ROCE_TIMEOUT = /^\s*recv\s+time\s*out\s+seq\s*=\s*(\d{1,9})/i;
const HCCS_STATUS = /^\s*This\s+pkt\s+(ping success|send fail|check recv msg fail|ping not start to send)\s*!?\s*$/i;
const HCCS_REPLY = /^\s*recv\s+seq\s+(\d{1,9})\s*,\s*time\s*=\s*(\d{1,12}(?:\.\d{1,9})?)\s*us\b/i;
const SUMMARY = /^\s*(\d{1,9})\s+packets\s+transmitted\s*,\s*(\d{1,9})\s+received\s*,\s*(?:\+\d+\s+errors\s*,\s*)?(\d{1,3}(?:\.\d{1,9})?)%\s+(packets?)\s+loss/i;
const HCCS_STATISTIC = /^\s*(max|min|average|avg)\s+time\b|percentile|^\s*9\d(\.\d+)?%?\s*(th)?\s*time\b/i;
const UNREACHABLE = /destination\s+host\s+unreachable/i;
const TOO_LONG = /message\s+too\s+long/i;
/** A shell prompt pasted with the output in a document: `root@huawei:~# ...` */
const PROMPT = /^[\w.-]+@[\w.-]+[^#$]{0,200}[#$](\s|$)/;

function newReport(device: number | null, target: string | null): PingReport {
  return {
    device,
    target,
    method: 'roce',
    replies: [],
    lost: [],
    transmitted: null,
    received: null,
    lossPercent: null,
    unreachable: false,
    messageTooLong: false,
    messages: [],
    verdict: 'incomplete',
  };
}

function judge(report: PingReport): PingVerdict {
  if (report.unreachable) return 'unreachable';
  if (report.transmitted === null || report.received === null) return 'incomplete';
  if (report.transmitted > 0 && report.received >= report.transmitted && report.lost.length === 0) return 'ok';
  return 'loss';
}

/** Parses every `device N PING X` section of the text: the answer of `-ping`, and of `-hccs_ping` (the A3 super pod plane), which has the same grammar. Never throws. */
export function parseHccnPing(text: string): Parsed<HccnPing> {
  const reports: PingReport[] = [];
  const skipped = new SkippedLines();
  let elided = false;
  let recognized = 0;
  let current: PingReport | undefined;
  /** HCCS prints the packet's status line before its `recv seq` line */
  let pendingStatus: string | undefined;

  const section = (): PingReport => {
    if (!current) {
      current = newReport(null, null);
      reports.push(current);
    }
    return current;
  };
  const flushStatus = () => {
    if (current && pendingStatus && !/success/i.test(pendingStatus)) current.lost.push({ seq: null, reason: pendingStatus });
    pendingStatus = undefined;
  };

  forEachDataLine(text, skipped, () => {
    elided = true;
  }, (line, number) => {
    let match = HEADER.exec(line);
    if (match) {
      flushStatus();
      recognized++;
      current = newReport(Number(match[1]), isIP(match[2]!) ? match[2]! : shorten(match[2]!, 64));
      reports.push(current);
      return;
    }
    if ((match = ROCE_REPLY.exec(line))) {
      recognized++;
      section().replies.push({ seq: Number(match[1]), timeMs: Number(match[2]) });
      return;
    }
    if ((match = ROCE_TIMEOUT.exec(line))) {
      recognized++;
      section().lost.push({ seq: Number(match[1]), reason: 'recv time out' });
      return;
    }
    if ((match = HCCS_STATUS.exec(line))) {
      recognized++;
      flushStatus();
      section().method = 'hccs';
      pendingStatus = `This pkt ${match[1]!.toLowerCase()}!`;
      return;
    }
    if ((match = HCCS_REPLY.exec(line))) {
      recognized++;
      const report = section();
      report.method = 'hccs';
      const seq = Number(match[1]);
      if (pendingStatus && !/success/i.test(pendingStatus)) report.lost.push({ seq, reason: pendingStatus });
      else report.replies.push({ seq, timeMs: Number(match[2]) / 1000 });
      pendingStatus = undefined;
      return;
    }
    if ((match = SUMMARY.exec(line))) {
      flushStatus();
      recognized++;
      const report = section();
      report.transmitted = Number(match[1]);
      report.received = Number(match[2]);
      report.lossPercent = Number(match[3]);
      if (/^packets$/i.test(match[4]!)) report.method = 'hccs';
      return;
    }
    if (HCCS_STATISTIC.test(line)) {
      recognized++;
      if (current) current.method = 'hccs';
      return;
    }
    if (UNREACHABLE.test(line) || TOO_LONG.test(line)) {
      recognized++;
      const report = section();
      if (UNREACHABLE.test(line)) report.unreachable = true;
      else report.messageTooLong = true;
      if (report.messages.length < 10) report.messages.push(shorten(line.trim()));
      return;
    }
    if (PROMPT.test(line)) {
      skipped.add(line, number);
      return;
    }
    // Inside a section, an unknown line is most likely the tool's own error text: keep it.
    if (current && current.messages.length < 10) current.messages.push(shorten(line.trim()));
    skipped.add(line, number);
  });
  flushStatus();
  if (recognized === 0 && skipped.count > 0) return nothingRecognized('hccn_tool -ping', skipped);
  for (const report of reports) {
    if (report.lossPercent === null && report.transmitted !== null && report.received !== null && report.transmitted > 0) {
      report.lossPercent = Math.round(((report.transmitted - report.received) / report.transmitted) * 10000) / 100;
    }
    report.verdict = judge(report);
  }
  return { ok: true, value: { reports, skipped: skipped.kept, skippedCount: skipped.count, elided } };
}

