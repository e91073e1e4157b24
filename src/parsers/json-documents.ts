import { failure, shorten, type Parsed } from './parsed.js';

/** One JSON value of a stream, with where it began (1-based line). */
export interface JsonDocument {
  value: unknown;
  line: number;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** The 1-based line of `offset`, counting from `fromOffset` at `fromLine`: one pass overall. */
function lineAt(text: string, offset: number, from: { offset: number; line: number }): number {
  let line = from.line;
  for (let i = from.offset; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  from.offset = offset;
  from.line = line;
  return line;
}

/**
 * The end (exclusive) of the JSON value starting at `start`: brackets are counted outside
 * strings, a scalar ends at whitespace or the next value. Returns -1 when the text ends first.
 */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34 /* " */) {
        i++;
        while (i < text.length && text.charCodeAt(i) !== 34) {
          if (text.charCodeAt(i) === 92 /* \ */) i++;
          i++;
        }
        if (i >= text.length) return -1;
      } else if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  if (first === '"') {
    for (let i = start + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 92) i++;
      else if (c === 34) return i + 1;
    }
    return -1;
  }
  let i = start;
  while (i < text.length && !WHITESPACE.has(text[i]!) && !'{["'.includes(text[i]!)) i++;
  return i;
}

/**
 * NDJSON, the shape of `jq -c` and of most log pipelines: every non-blank line one document.
 * Undefined as soon as a line is not a whole document (pretty-printed or broken ones), for the
 * scanner to read. Saves the scanner's pass over every character of a large stream.
 */
function oneDocumentPerLine(text: string): JsonDocument[] | undefined {
  if (!text.includes('\n')) return undefined;
  const documents: JsonDocument[] = [];
  let start = 0;
  let line = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    line++;
    const content = text.slice(start, end);
    start = end + 1;
    if (content.trim() === '') continue;
    try {
      documents.push({ value: JSON.parse(content), line });
    } catch {
      return undefined;
    }
  }
  return documents.length > 0 ? documents : undefined;
}

/**
 * Reads a stream of JSON documents: one document, several concatenated (`{..}{..}`), or one
 * per line (NDJSON). What `jq -c`, `cat *.json` and Ansible's gathered outputs produce. Never
 * throws: a document that does not parse is a failure naming its first line.
 */
export function parseJsonDocuments(text: string): Parsed<JsonDocument[]> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // the common case, one document (a report or an array of them), costs one JSON.parse
  try {
    return { ok: true, value: [{ value: JSON.parse(body), line: 1 }] };
  } catch {
    // several documents, or a broken one: found below
  }
  const lines = oneDocumentPerLine(body);
  if (lines) return { ok: true, value: lines };
  const documents: JsonDocument[] = [];
  const cursor = { offset: 0, line: 1 };
  let i = 0;
  while (i < body.length) {
    if (WHITESPACE.has(body[i]!)) {
      i++;
      continue;
    }
    const line = lineAt(body, i, cursor);
    const end = valueEnd(body, i);
    const lineText = body.slice(i, Math.min(body.length, i + 200)).split('\n')[0] ?? '';
    if (end === -1) return failure(`the JSON document starting on line ${line} is cut short`, line, lineText);
    if (end === i) return failure(`line ${line}: unexpected "${shorten(body[i]!, 10)}" where a JSON document should start`, line, lineText);
    try {
      documents.push({ value: JSON.parse(body.slice(i, end)), line });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return failure(`the JSON document starting on line ${line} is not valid JSON: ${shorten(reason, 100)}`, line, lineText);
    }
    i = end;
  }
  if (documents.length === 0) return failure('no JSON document (the input is empty)');
  return { ok: true, value: documents };
}

/**
 * A stream of one document per line (NDJSON) read from UTF-8 bytes: each line is decoded on its
 * own and handed to `visit` as soon as it is parsed, with the line it is on, so that the caller
 * can reduce a document before the next one is read. 1,000 reports piped in are never decoded
 * into one string, nor held parsed all at once. Returns false, having stopped, at the first line
 * that is not a whole document: the input is something else, for parseJsonDocuments to read.
 * A byte order mark is skipped. `visit` must not throw.
 */
export function visitJsonLines(bytes: Uint8Array, visit: (document: JsonDocument) => void): boolean {
  const lines = jsonLines(bytes);
  for (let next = lines.next(); ; next = lines.next()) {
    if (next.done) return next.value;
    visit(next.value);
  }
}

/**
 * visitJsonLines as a generator: the documents one at a time, and at the end whether every line
 * was one. The caller may let the event loop run between two (a signal during `qprep aggregate`
 * of 1,000 reports on standard input is handled when it comes).
 */
export function* jsonLines(bytes: Uint8Array): Generator<JsonDocument, boolean, undefined> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let start = buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
  let line = 0;
  while (start < buffer.length) {
    let end = buffer.indexOf(10, start);
    if (end === -1) end = buffer.length;
    line++;
    const content = buffer.toString('utf8', start, end);
    start = end + 1;
    if (content.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      return false;
    }
    yield { value, line };
  }
  return true;
}
