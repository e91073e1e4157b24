import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = `${REPO}bin/qprep.js`;

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI as a user would, with a clean environment unless told otherwise. English
 * unless the test says otherwise (QPREP_LANG: '' lets the locale variables decide), whatever the
 * locale of the machine running the tests.
 */
export async function qprep(args: string[], options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number; input?: string } = {}): Promise<CliResult> {
  const result = await execa(process.execPath, [BIN, ...args], {
    ...(options.input !== undefined ? { input: options.input } : {}),
    reject: false,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', QPREP_LANG: 'en', ...options.env },
    cwd: options.cwd ?? REPO,
    timeout: options.timeoutMs ?? 120_000,
    stripFinalNewline: false,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

let validators: Map<string, (doc: unknown) => boolean> | undefined;

/** Validates a document against the JSON Schema the CLI itself prints (`qprep schema NAME`), with ajv. */
export async function validateAgainstSchema(name: string, document: unknown): Promise<{ valid: boolean; errors: string }> {
  validators ??= new Map();
  let validate = validators.get(name) as ((doc: unknown) => boolean) & { errors?: unknown };
  if (!validate) {
    const schema = JSON.parse((await qprep(['schema', name])).stdout);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    validate = ajv.compile(schema) as typeof validate;
    validators.set(name, validate);
  }
  const valid = validate(document);
  return { valid, errors: JSON.stringify((validate as { errors?: unknown }).errors ?? null) };
}
