import { spokenError } from '../i18n/spoken-error.js';
import { aggregate, type AggregateOptions } from '../aggregate/analyze.js';
import { readNodeDocumentBytesInTurns, type NodeDocument } from '../aggregate/documents.js';
import { aggregateDocumentSchema, type AggregateDocument } from '../report/aggregate-schema.js';
import { inputKind, listJsonFiles, readInputBytesSync, readStandardInputBytes } from '../host/inputs.js';
import { writeOutputFile } from '../host/output.js';
import { formatErrorReport } from '../report/formats.js';
import { textFor } from '../i18n/index.js';
import type { CommandOptions } from './cli-options.js';
import { useColor } from './color.js';
import { describeFailure, errorDocument } from '../report/error-document.js';
import { claimDocument, releaseDocument } from './signals.js';
import { turnsEvery } from '../util/turns.js';

export type AggregateCliOptions = CommandOptions<'aggregate'>;

/**
 * The documents of the operands: files, every *.json under directories, and "-" for standard
 * input. Each file is parsed as soon as it is read, so that its text is dropped at once.
 */
async function readOperands(operands: readonly string[]): Promise<NodeDocument[]> {
  if (operands.length === 0) throw spokenError('usage', (t) => t.usage.aggregateNeedsReports);
  if (operands.filter((o) => o === '-').length > 1) throw spokenError('usage', (t) => t.usage.stdinOnce);
  const sources: string[] = [];
  for (const operand of operands) {
    if (operand === '-' || (await inputKind(operand, 'invalid-input')) === 'file') {
      sources.push(operand);
      continue;
    }
    const found = await listJsonFiles(operand, 'invalid-input');
    if (found.length === 0) throw spokenError('invalid-input', (t) => t.inputs.noReportFiles({ operand }));
    sources.push(...found);
  }
  // Files are read synchronously, one after the other, each parsed before the next is read: for
  // 1,000 reports that is a good part of a second less than asynchronous reads. Between two
  // reports the event loop gets its turn, so a signal ends the run when it comes.
  const pause = turnsEvery();
  const documents: NodeDocument[] = [];
  for (const source of sources) {
    await pause();
    // a file of one report a line (NDJSON) is read in turns too, as standard input is
    const bytes = source === '-' ? await readStandardInputBytes('invalid-input') : readInputBytesSync(source, 'report', 'invalid-input');
    for (const document of await readNodeDocumentBytesInTurns(source, bytes, pause)) documents.push(document);
  }
  return documents;
}

/** Reads, judges and formats: the document of `qprep aggregate`, before it is written anywhere. */
export async function aggregateOperands(operands: readonly string[], options: AggregateCliOptions, now = new Date()): Promise<AggregateDocument> {
  const maxAgeMs = options.maxAge;
  // the cluster loader (and its YAML parser) and the human formatter load only when asked for:
  // at 1,000 reports every part of the 2 s budget counts
  const clusterFile = options.cluster;
  const [documents, cluster] = await Promise.all([
    readOperands(operands),
    clusterFile === undefined ? undefined : import('../cluster/load.js').then(({ loadClusterFile }) => loadClusterFile(clusterFile)),
  ]);
  if (documents.length === 0) throw spokenError('invalid-input', (t) => t.inputs.noReport);
  const aggregateOptions: AggregateOptions = { now, strict: options.strict ?? false };
  if (maxAgeMs !== undefined) aggregateOptions.maxAgeMs = maxAgeMs;
  if (cluster && options.cluster) aggregateOptions.cluster = { file: options.cluster, cluster };
  if (options.profile !== undefined) {
    const { loadProfile } = await import('./session.js');
    const loaded = await loadProfile(options.profile, options.lang);
    aggregateOptions.profile = { name: loaded.profile.name, nodes: loaded.profile.deployment.nodes };
  }
  const document = aggregate(documents, aggregateOptions);
  // The contract is checked on the way out: a document that does not match its schema is a bug.
  const valid = aggregateDocumentSchema.safeParse(document);
  if (!valid.success) throw new Error(`aggregate document does not match its schema: ${valid.error.issues[0]?.message ?? ''}`);
  return document;
}

export async function runAggregateCommand(operands: readonly string[], options: AggregateCliOptions): Promise<number> {
  try {
    const document = await aggregateOperands(operands, options);
    const text = options.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : (await import('../report/aggregate.js')).formatAggregateHuman(document, { color: useColor(options), text: textFor(options.lang ?? 'en') });
    if (!claimDocument()) return 2;
    if (options.output) {
      await writeOutputFile(options.output, text).catch((error: unknown) => {
        releaseDocument();
        throw error;
      });
      process.stderr.write(`qprep: wrote ${options.output}\n`);
    } else process.stdout.write(text);
    return document.ready ? 0 : 1;
  } catch (error) {
    // a verdict file that Ansible or CI reads must not go on saying what an earlier run found
    if (options.output && options.format === 'json') {
      const { code, message } = describeFailure(error, options.lang ?? 'en');
      if (code !== 'output') {
        const text = formatErrorReport(errorDocument(code, message, 'aggregate'), 'json', new Date());
        await writeOutputFile(options.output, text!).catch(() => undefined);
      }
    }
    throw error;
  }
}
