import { spokenError } from '../i18n/spoken-error.js';
import { hintsOf } from '../report/error-document.js';
import { writeHints } from './failure.js';
import { openCluster } from '../cluster/load.js';
import { QprepError, type ErrorCode } from '../errors.js';
import { buildLaunchEnv } from './launch-env.js';
import { createContext } from '../core/runner.js';
import type { NodeAddressRequest } from '../probes/node-address.js';
import { formatEnvSh } from '../report/env.js';
import { qprepInvocation } from '../host/invocation.js';
import { textFor, type Catalogue } from '../i18n/index.js';
import type { CommandOptions } from './cli-options.js';
import { envDocumentSchema, type EnvDocument } from '../report/env-schema.js';
import { VERSION } from '../version.js';
import { claimDocument, writeRunDocument } from './signals.js';
import { DEFAULT_TIMEOUT_MS, openHost, profileFor, type HostOptions } from './session.js';
import { escapeControls } from '../util/text.js';

export type EnvCliOptions = CommandOptions<'env'>;

function failure(error: unknown, format: string | undefined, lang: string): 2 {
  const code: ErrorCode = error instanceof QprepError ? error.code : 'internal';
  const raw = error instanceof QprepError ? error.wordsIn(lang).message : error instanceof Error ? error.message : String(error);
  const message = (code === 'internal' ? `internal error: ${raw}` : raw).split('\n')[0] ?? '';
  process.stderr.write(`qprep: error: ${escapeControls(message)}\n`);
  writeHints(hintsOf(error, lang));
  if (!claimDocument()) return 2;
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify({ schemaVersion: 1, tool: { name: 'qprep', version: VERSION }, command: 'env', error: { code, message } }, null, 2)}\n`);
  }
  return 2;
}

/**
 * --cluster: this node's host address becomes HCCL_IF_IP and its ifname (when the file names
 * one) the *_SOCKET_IFNAME interface. What the user typed wins: --ip and --nic override the file
 * (the file may be shared and stale; the command line is this run's word), with a note when
 * they disagree.
 */
async function applyCluster(request: NodeAddressRequest, options: EnvCliOptions, host: Parameters<typeof openCluster>[1], text: Catalogue): Promise<string[]> {
  const t = text.commands.envNotes;
  if (options.cluster === undefined) {
    if (options.node !== undefined) throw spokenError('usage', (t) => t.usage.nodeNeedsCluster);
    return [];
  }
  const loaded = await openCluster(options.cluster, host, options.node);
  const { self } = loaded;
  const notes: string[] = [];
  const source = `cluster file ${options.cluster} (node ${self.name})`;
  if (request.ip === undefined) {
    if (self.host) {
      request.ip = self.host;
      request.ipSource = source;
    } else notes.push(t.noHostAddress({ source }));
  } else if (self.host && self.host !== request.ip) {
    notes.push(t.ipOverrides({ ip: request.ip, host: self.host, node: self.name, file: options.cluster }));
  }
  if (request.nic === undefined) {
    if (self.ifname) request.nic = self.ifname;
  } else if (self.ifname && self.ifname !== request.nic) {
    notes.push(t.nicOverrides({ nic: request.nic, ifname: self.ifname, node: self.name, file: options.cluster }));
  }
  return notes;
}

/** `qprep env`: nothing but the lines to source on stdout; notes go to stderr as well. */
export async function runEnvCommand(options: EnvCliOptions): Promise<number> {
  try {
    const hostOptions: HostOptions = { timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS };
    if (options.root !== undefined) hostOptions.root = options.root;
    if (options.snapshot !== undefined) hostOptions.snapshot = options.snapshot;
    const handle = await openHost(hostOptions);
    const loaded = await profileFor(options.profile, handle, options.lang);
    const text = textFor(options.lang ?? 'en');
    // the notes are said in the run's language; the lines to source never change
    const ctx = createContext({ host: handle.host, profile: loaded.profile, timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS, lang: options.lang ?? 'en' });
    const request: NodeAddressRequest = {};
    if (options.ip !== undefined) request.ip = options.ip;
    if (options.nic !== undefined) request.nic = options.nic;
    const clusterNotes = await applyCluster(request, options, handle.host, text);
    const launch = await buildLaunchEnv(ctx, request);
    launch.notes.unshift(...clusterNotes);
    const document: EnvDocument = {
      schemaVersion: 1,
      tool: { name: 'qprep', version: VERSION },
      command: 'env',
      hostname: (await handle.host.identity()).hostname,
      profile: { name: loaded.profile.name, source: loaded.source },
      ...launch,
    };
    const valid = envDocumentSchema.safeParse(document);
    if (!valid.success) throw new Error(`env document does not match its schema: ${valid.error.issues[0]?.message ?? ''}`);
    for (const note of launch.notes) process.stderr.write(`qprep: note: ${escapeControls(note)}\n`);
    writeRunDocument(options.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : formatEnvSh(document, text, qprepInvocation()));
    return 0;
  } catch (error) {
    return failure(error, options.format, options.lang ?? 'en');
  }
}
