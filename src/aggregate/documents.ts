import { QprepError } from '../core/errors.js';
import { parseJsonDocuments } from '../parsers/json-documents.js';
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
  return new QprepError('invalid-input', `invalid report ${source}: ${detail}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a document that is not a check report is, so that the message can say. */
function otherDocument(value: Record<string, unknown>): string | undefined {
  if (typeof value.command === 'string') return `a qprep ${value.command} document`;
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
  const label = input.source === '-' ? 'stdin' : input.source;
  const parsed = parseJsonDocuments(input.text);
  if (!parsed.ok) throw invalid(label, parsed.reason);
  const values = parsed.value.flatMap((document) => (Array.isArray(document.value) ? document.value : [document.value]));
  if (values.length === 0) throw invalid(label, 'an empty list: no report in it');
  if (values.length === 1) return [classify(values[0], label, stemOf(input.source))];
  return values.map((value, index) => classify(value, `${label}#${index + 1}`, null));
}
