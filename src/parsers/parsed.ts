import { escapeControls } from '../util/text.js';

/**
 * The result of a parser that must never throw: the value, or why the text could not be read
 * with the first line that did not fit (1-based, and shortened for messages).
 */
export type Parsed<T> = { ok: true; value: T } | ParseFailure;

export interface ParseFailure {
  ok: false;
  reason: string;
  /** 1-based number of the first offending line, when one line is to blame */
  line?: number;
  /** that line, shortened to fit in a message */
  text?: string;
}

/** A line the parser did not understand but could skip. */
export interface SkippedLine {
  line: number;
  text: string;
}

/** Lines longer than this are not tool output worth matching; regexes never see them. */
export const MAX_LINE_LENGTH = 4096;
/** How many skipped lines a result keeps as evidence. */
const MAX_KEPT = 5;

export function shorten(text: string, max = 120): string {
  const clean = escapeControls(text);
  return clean.length > max ? `${clean.slice(0, max - 3)}...` : clean;
}

/**
 * Calls `visit` for every line (CR stripped, 1-based number) without building an array of
 * lines, so a 10 MB answer costs one pass. `visit` may return false to stop.
 */
export function forEachLine(text: string, visit: (line: string, number: number) => boolean | void): void {
  let start = 0;
  let number = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    number++;
    let line = text.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (visit(line, number) === false) return;
    start = end + 1;
    if (end === text.length) return;
  }
}

/** The author's elision in published samples: a line holding only "..." (or "…"). */
export function isElision(line: string): boolean {
  return /^\s*(\.\.\.|…)\s*$/.test(line);
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Collects the lines a parser skipped: all are counted, the first few are kept. */
export class SkippedLines {
  readonly kept: SkippedLine[] = [];
  count = 0;

  add(line: string, number: number): void {
    this.count++;
    if (this.kept.length < MAX_KEPT) this.kept.push({ line: number, text: shorten(line) });
  }

  get first(): SkippedLine | undefined {
    return this.kept[0];
  }
}

/**
 * forEachLine over the lines that carry data: blank lines are passed over, an author's elision
 * ("...") is reported through `onElision`, and a line too long to be tool output goes to
 * `skipped` without ever reaching a regex.
 */
export function forEachDataLine(
  text: string,
  skipped: SkippedLines,
  onElision: () => void,
  visit: (line: string, number: number) => boolean | void,
): void {
  forEachLine(text, (line, number) => {
    if (isBlank(line)) return;
    if (isElision(line)) {
      onElision();
      return;
    }
    if (line.length > MAX_LINE_LENGTH) {
      skipped.add(line, number);
      return;
    }
    return visit(line, number);
  });
}

export function failure(reason: string, line?: number, text?: string): ParseFailure {
  const result: ParseFailure = { ok: false, reason };
  if (line !== undefined) result.line = line;
  if (text !== undefined) result.text = shorten(text);
  return result;
}

/** "no recognisable line" with the first line that was not understood. */
export function nothingRecognized(what: string, skipped: SkippedLines): ParseFailure {
  const first = skipped.first;
  return first
    ? failure(`not ${what} output: line ${first.line} is "${first.text}"`, first.line, first.text)
    : failure(`not ${what} output`);
}
