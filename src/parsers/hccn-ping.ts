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

/** The sections of a ping answer as they are read, one line at a time. */
class PingSections {
  readonly reports: PingReport[] = [];
  private current: PingReport | undefined;
  /** HCCS prints the packet's status line before its `recv seq` line */
  private pendingStatus: string | undefined;

  /** Reads one line; false when it is not part of a ping answer. */
  read(line: string): boolean {
    return this.header(line) || this.roceLine(line) || this.hccsPacket(line) || this.summary(line) || this.hccsStatistic(line) || this.deviceError(line);
  }

  /** A line inside a section that is not the ping's own: most likely the tool's error text, kept. */
  keepUnknown(line: string): void {
    if (this.current && this.current.messages.length < 10) this.current.messages.push(shorten(line.trim()));
  }

  /** The end of the text: a failed HCCS packet whose `recv seq` line never came is still lost. */
  finish(): void {
    this.flushStatus();
  }

  private section(): PingReport {
    if (!this.current) {
      this.current = newReport(null, null);
      this.reports.push(this.current);
    }
    return this.current;
  }

  private flushStatus(): void {
    if (this.current && this.pendingStatus && !/success/i.test(this.pendingStatus)) this.current.lost.push({ seq: null, reason: this.pendingStatus });
    this.pendingStatus = undefined;
  }

  private header(line: string): boolean {
    const match = HEADER.exec(line);
    if (!match) return false;
    this.flushStatus();
    this.current = newReport(Number(match[1]), isIP(match[2]!) ? match[2]! : shorten(match[2]!, 64));
    this.reports.push(this.current);
    return true;
  }

  private roceLine(line: string): boolean {
    let match = ROCE_REPLY.exec(line);
    if (match) {
      this.section().replies.push({ seq: Number(match[1]), timeMs: Number(match[2]) });
      return true;
    }
    if ((match = ROCE_TIMEOUT.exec(line))) {
      this.section().lost.push({ seq: Number(match[1]), reason: 'recv time out' });
      return true;
    }
    return false;
  }

  /** HCCS: a packet's status line, then its `recv seq` line with the time in microseconds. */
  private hccsPacket(line: string): boolean {
    let match = HCCS_STATUS.exec(line);
    if (match) {
      this.flushStatus();
      this.section().method = 'hccs';
      this.pendingStatus = `This pkt ${match[1]!.toLowerCase()}!`;
      return true;
    }
    if ((match = HCCS_REPLY.exec(line))) {
      const report = this.section();
      report.method = 'hccs';
      const seq = Number(match[1]);
      if (this.pendingStatus && !/success/i.test(this.pendingStatus)) report.lost.push({ seq, reason: this.pendingStatus });
      else report.replies.push({ seq, timeMs: Number(match[2]) / 1000 });
      this.pendingStatus = undefined;
      return true;
    }
    return false;
  }

  private summary(line: string): boolean {
    const match = SUMMARY.exec(line);
    if (!match) return false;
    this.flushStatus();
    const report = this.section();
    report.transmitted = Number(match[1]);
    report.received = Number(match[2]);
    report.lossPercent = Number(match[3]);
    if (/^packets$/i.test(match[4]!)) report.method = 'hccs';
    return true;
  }

  private hccsStatistic(line: string): boolean {
    if (!HCCS_STATISTIC.test(line)) return false;
    if (this.current) this.current.method = 'hccs';
    return true;
  }

  private deviceError(line: string): boolean {
    if (!UNREACHABLE.test(line) && !TOO_LONG.test(line)) return false;
    const report = this.section();
    if (UNREACHABLE.test(line)) report.unreachable = true;
    else report.messageTooLong = true;
    if (report.messages.length < 10) report.messages.push(shorten(line.trim()));
    return true;
  }
}

/** Parses every `device N PING X` section of the text: the answer of `-ping`, and of `-hccs_ping` (the A3 super pod plane), which has the same grammar. Never throws. */
export function parseHccnPing(text: string): Parsed<HccnPing> {
  const sections = new PingSections();
  const skipped = new SkippedLines();
  let elided = false;
  let recognized = 0;
  forEachDataLine(text, skipped, () => {
    elided = true;
  }, (line, number) => {
    if (sections.read(line)) {
      recognized++;
      return;
    }
    if (!PROMPT.test(line)) sections.keepUnknown(line);
    skipped.add(line, number);
  });
  sections.finish();
  if (recognized === 0 && skipped.count > 0) return nothingRecognized('hccn_tool -ping', skipped);
  const reports = sections.reports;
  for (const report of reports) {
    if (report.lossPercent === null && report.transmitted !== null && report.received !== null && report.transmitted > 0) {
      report.lossPercent = Math.round(((report.transmitted - report.received) / report.transmitted) * 10000) / 100;
    }
    report.verdict = judge(report);
  }
  return { ok: true, value: { reports, skipped: skipped.kept, skippedCount: skipped.count, elided } };
}
