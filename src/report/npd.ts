import { cutUtf8, escapeControls } from '../util/text.js';
import { reportText } from './human.js';
import type { ErrorReport, Report } from './schema.js';

/**
 * One line for node-problem-detector's custom plugin protocol: the exit code is the status
 * (0 OK, 1 NonOK, 2 Unknown: qprep's own exit codes) and standard output is the condition's
 * message. NPD reads at most 4 KiB of it, trims the white space around it and cuts it at
 * `max_output_length` bytes (80 unless the plugin config says otherwise; cut by bytes, so a
 * character can be split). The line is cut here first, between characters, at the length the
 * config of examples/kubernetes sets: the verdict first, so that even NPD's default 80 bytes
 * keep it.
 */
export const NPD_MESSAGE_BYTES = 256;

function oneLine(text: string): string {
  return cutUtf8(escapeControls(text).replace(/\s+/g, ' ').trim(), NPD_MESSAGE_BYTES);
}

export function formatNpd(report: Report): string {
  const t = reportText(report);
  if (report.error) return `${oneLine(`${t.noVerdict} (${report.error.code}): ${report.error.message}`)}\n`;
  if (report.ready) return `${oneLine(`${t.ready}: ${t.npdReady({ checks: report.checks.length, warnings: report.summary.warn })}`)}\n`;
  const blocking = report.checks.filter((c) => report.blocking.includes(c.id)).map((c) => `${c.id}: ${c.message}`);
  return `${oneLine(`${t.notReady}: ${blocking.join('; ')}`)}\n`;
}

/** Exit code 2 without a report (bad usage, an unreadable file): why, on the one line NPD keeps. */
export function formatNpdError(report: ErrorReport): string {
  return `${oneLine(`${reportText({}).noVerdict} (${report.error.code}): ${report.error.message}`)}\n`;
}
