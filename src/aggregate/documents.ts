import { spokenError } from '../i18n/spoken-error.js';
import { prototypeKeyProblem } from '../util/prototype-keys.js';
import { QprepError } from '../errors.js';
import { jsonLines, parseJsonDocuments, visitJsonLines, type JsonDocument } from '../parsers/json-documents.js';
import type { Parsed } from '../parsers/parsed.js';
import { errorReportSchema, fullReportSchema, type ErrorReport } from '../report/schema.js';
import { describeZodError } from '../util/zod-error.js';
import { recordOf, type ReportRecord } from './node-record.js';

/** The text of one input of `qprep aggregate`: a file, or standard input. */
export interface InputText {
  /** the file as the operator named it, or "-" for standard input */
  source: string;
  text: string;
}

/** An error document of `qprep check` (exit 2): a node without a verdict. */
export interface ErrorDocument {
  kind: 'error';
  source: string;
  /** the file name without .json: the node name where a playbook names reports after nodes */
  stem: string | null;
  error: ErrorReport['error'];
}

export type NodeDocument = ReportRecord | ErrorDocument;

function invalid(source: string, detail: string): QprepError {
  return spokenError('invalid-input', (t) => t.inputs.invalidReport({ source, detail }));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a document that is not a check report is, so that the message can say. */
function otherDocument(value: Record<string, unknown>): string | undefined {
  // an error document of check says `command: "check"`: it is a node without a verdict
  if (typeof value.command === 'string' && value.command !== 'check') return `a qprep ${value.command} document`;
  if (value.kind === 'snapshot' || ('commands' in value && 'files' in value)) return 'a qprep snapshot (its report is under "report")';
  if ('hostname' in value && 'npus' in value) return 'a qprep facts document';
  if ('nodes' in value && !('checks' in value)) return 'a cluster file';
  return undefined;
}

function stemOf(source: string): string | null {
  if (source === '-') return null;
  const base = source.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.json$/i, '');
  return stem === '' ? null : stem;
}

function classify(value: unknown, source: string, stem: string | null): NodeDocument {
  const prototypeKey = prototypeKeyProblem(value);
  if (prototypeKey) throw invalid(source, prototypeKey);
  if (!isObject(value)) throw invalid(source, `expected a qprep check report (a JSON object), got ${Array.isArray(value) ? 'an array inside an array' : value === null ? 'null' : typeof value}`);
  const other = otherDocument(value);
  if (other) throw invalid(source, `this is ${other}, not a report of "qprep check --format json"`);
  if (value.schemaVersion !== 1 && value.schemaVersion !== undefined && isObject(value.tool) && value.tool.name === 'qprep') {
    throw invalid(source, `schemaVersion ${JSON.stringify(value.schemaVersion)}: this qprep reads reports of schemaVersion 1`);
  }
  if (!('checks' in value) && 'error' in value) {
    const parsed = errorReportSchema.safeParse(value);
    if (!parsed.success) throw invalid(source, describeZodError(parsed.error));
    return { kind: 'error', source, stem, error: parsed.data.error };
  }
  if (!('checks' in value)) throw invalid(source, 'not a report of "qprep check --format json" (no "checks")');
  const parsed = fullReportSchema.safeParse(value);
  if (!parsed.success) throw invalid(source, describeZodError(parsed.error));
  return recordOf(parsed.data, value, source);
}

/**
 * The node documents of one input: a report, an error document, an array of them, or a
 * stream of them (concatenated or one per line). Anything else is exit 2 naming the input
 * (and the document, when the input holds several).
 */
export function readNodeDocuments(input: InputText): NodeDocument[] {
  return nodeDocumentsOf(input.source, parseJsonDocuments(input.text));
}

/**
 * The documents of a stream of one report per line, reduced one at a time: the first is
 * classified once a second one shows it is not alone (its label then says #1); the first
 * invalid one is kept, to be thrown once the stream is known to be one.
 */
class LineDocuments {
  readonly documents: NodeDocument[] = [];
  lines = 0;
  private count = 0;
  private first: unknown;
  private firstInvalid: { error: unknown } | undefined;

  constructor(
    private readonly source: string,
    private readonly label: string,
  ) {}

  take(document: JsonDocument): void {
    this.lines++;
    for (const value of Array.isArray(document.value) ? document.value : [document.value]) this.takeValue(value);
  }

  private takeValue(value: unknown): void {
    this.count++;
    if (this.firstInvalid) return;
    try {
      if (this.count === 1) {
        this.first = value;
        return;
      }
      if (this.count === 2) this.documents.push(classify(this.first, `${this.label}#1`, null));
      this.documents.push(classify(value, `${this.label}#${this.count}`, null));
    } catch (error) {
      this.firstInvalid = { error };
    }
  }

  /** The documents of a stream that was one (every line whole, two or more). */
  result(): NodeDocument[] {
    if (this.firstInvalid) throw this.firstInvalid.error;
    if (this.count === 0) throw invalid(this.label, 'an empty list: no report in it');
    if (this.count === 1) return [classify(this.first, this.label, stemOf(this.source))];
    return this.documents;
  }
}

function asText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * readNodeDocuments of an input's bytes, with the same result. A stream of one report per line
 * (1,000 reports piped in) is read line by line and each report reduced at once, so that it is
 * never decoded into one string nor held parsed all at once. Errors come in the same order:
 * an input that is not such a stream is read as text; then the first invalid document.
 */
export function readNodeDocumentBytes(source: string, bytes: Uint8Array): NodeDocument[] {
  const reader = new LineDocuments(source, source === '-' ? 'stdin' : source);
  const wholeLines = visitJsonLines(bytes, (document) => reader.take(document));
  if (!wholeLines || reader.lines < 2) return readNodeDocuments({ source, text: asText(bytes) });
  return reader.result();
}

/**
 * readNodeDocumentBytes, awaiting `pause` between two reports: the event loop runs meanwhile,
 * so a signal is handled when it comes, not once the last of 1,000 reports is read.
 */
export async function readNodeDocumentBytesInTurns(source: string, bytes: Uint8Array, pause: () => Promise<void>): Promise<NodeDocument[]> {
  const reader = new LineDocuments(source, source === '-' ? 'stdin' : source);
  const lines = jsonLines(bytes);
  let next = lines.next();
  for (; !next.done; next = lines.next()) {
    reader.take(next.value);
    await pause();
  }
  if (!next.value || reader.lines < 2) return readNodeDocuments({ source, text: asText(bytes) });
  return reader.result();
}

function nodeDocumentsOf(source: string, parsed: Parsed<JsonDocument[]>): NodeDocument[] {
  const label = source === '-' ? 'stdin' : source;
  if (!parsed.ok) throw invalid(label, parsed.reason);
  const values = parsed.value.flatMap((document) => (Array.isArray(document.value) ? document.value : [document.value]));
  if (values.length === 0) throw invalid(label, 'an empty list: no report in it');
  if (values.length === 1) return [classify(values[0], label, stemOf(source))];
  return values.map((value, index) => classify(value, `${label}#${index + 1}`, null));
}
