/**
 * Shared ground for the Ascend parsers: tool output arrives as text (or raw bytes from a
 * snapshot), may carry CR line ends, a BOM, bytes that are not UTF-8, or be megabytes of
 * garbage. These helpers keep every parser linear in its input and exception-free.
 */

import { visibleLine } from '../util/text.js';

/** Text as read from a file or a command, or the raw bytes of it. */
export type TextInput = string | Uint8Array;

/**
 * The longest line a vendor tool or version file prints is about 120 characters; anything
 * far beyond it is not that tool's output, and refusing it keeps every per-line pattern
 * cheap on hostile input.
 */
export const MAX_LINE_LENGTH = 4096;

const decoder = new TextDecoder('utf-8', { fatal: false });

/** Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD; drops a leading BOM. */
export function decodeText(input: TextInput): string {
  const text = typeof input === 'string' ? input : decoder.decode(input);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Lines without their terminators; "\r\n" and a lone "\r" end a line too. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** A line as it may appear in a message: control characters made visible, cut to `max` characters. */
export function preview(line: string, max = 100): string {
  return visibleLine(line, max);
}

/** A non-negative integer as tools print it ("42"), or null for "-", "NA", "" and anything else. */
export function integerOf(token: string | undefined): number | null {
  return token !== undefined && /^\d{1,12}$/.test(token) ? Number(token) : null;
}

/** A non-negative decimal ("98.2", "0"), or null. */
export function decimalOf(token: string | undefined): number | null {
  return token !== undefined && /^\d{1,12}(?:\.\d{1,6})?$/.test(token) ? Number(token) : null;
}
