import { QprepError, type ErrorCode } from '../core/errors.js';
import { buildLaunchEnv } from '../core/launch-env.js';
import { createContext } from '../core/runner.js';
import type { NodeAddressRequest } from '../probes/node-address.js';
import { formatEnvSh } from '../report/env.js';
import { envDocumentSchema, type EnvDocument } from '../report/env-schema.js';
import { VERSION } from '../version.js';
import { DEFAULT_TIMEOUT_MS, loadProfile, openHost, type HostOptions } from './session.js';

export interface EnvCliOptions {
  profile?: string;
  root?: string;
  snapshot?: string;
  timeout?: number;
  ip?: string;
  nic?: string;
  format?: string;
}

function failure(error: unknown, format: string | undefined): 2 {
  const code: ErrorCode = error instanceof QprepError ? error.code : 'internal';
  const raw = error instanceof Error ? error.message : String(error);
  const message = (code === 'internal' ? `internal error: ${raw}` : raw).split('\n')[0] ?? '';
  process.stderr.write(`qprep: error: ${message}\n`);
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify({ schemaVersion: 1, tool: { name: 'qprep', version: VERSION }, command: 'env', error: { code, message } }, null, 2)}\n`);
  }
  return 2;
}

/** `qprep env`: nothing but the lines to source on stdout; notes go to stderr as well. */
export async function runEnvCommand(options: EnvCliOptions): Promise<number> {
  try {
    const loaded = await loadProfile(options.profile);
    const hostOptions: HostOptions = { timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS };
    if (options.root !== undefined) hostOptions.root = options.root;
    if (options.snapshot !== undefined) hostOptions.snapshot = options.snapshot;
    const handle = await openHost(hostOptions);
    const ctx = createContext(handle.host, loaded.profile, options.timeout ?? DEFAULT_TIMEOUT_MS);
    const request: NodeAddressRequest = {};
    if (options.ip !== undefined) request.ip = options.ip;
    if (options.nic !== undefined) request.nic = options.nic;
    const launch = await buildLaunchEnv(ctx, request);
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
    for (const note of launch.notes) process.stderr.write(`qprep: note: ${note}\n`);
    process.stdout.write(options.format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : formatEnvSh(document));
    return 0;
  } catch (error) {
    return failure(error, options.format);
  }
}
