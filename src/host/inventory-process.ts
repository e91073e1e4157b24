import type { CommandOptions, CommandResult } from './types.js';

/*
 * systeminformation, run in a process of its own. The library runs its helpers (dmidecode,
 * dmesg, lscpu, cat) found on PATH, several of them with execSync and no timeout: one helper
 * that hangs blocks the event loop of whatever process called it, for ever, and its helpers
 * run in that process's group. In qprep's own process that froze `check` and `serve` past
 * --timeout, SIGTERM and /healthz, and left the helpers behind. So qprep starts itself again
 * (self-command.ts) as the inventory process, like any other tool call (exec.ts): in a process
 * group of its own, carrying the run's token (the stray sweep finds what its helpers leave),
 * killed with its whole group at the inventory's budget or at a signal. Its answers come back
 * on its standard output, one line per library call as soon as each one has answered; a call
 * that had not answered when the process ended is unknown with the reason.
 */

/** The library calls the inventory makes; the inventory process starts system() last (inventory-worker.ts says why). */
export const LIBRARY_CALLS = ['mem', 'osInfo', 'cpu', 'bios', 'system'] as const;
export type LibraryCall = (typeof LIBRARY_CALLS)[number];

/** The fields of each call's answer the inventory reads: the only ones the process sends back. */
const FIELDS: Record<LibraryCall, readonly string[]> = {
  mem: ['total'],
  osInfo: ['distro', 'release'],
  cpu: ['manufacturer', 'brand', 'cores', 'physicalCores', 'processors'],
  bios: ['vendor', 'version'],
  system: ['manufacturer', 'model', 'serial', 'virtual'],
};

/** A value, or why there is none. */
export type Answer<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One call's answer: the fields of FIELDS that were strings, numbers or booleans. */
export type LibraryFields = Readonly<Record<string, string | number | boolean>>;
export type LibraryAnswers = Readonly<Record<LibraryCall, Answer<LibraryFields>>>;

/** The line the inventory process prints for one answer. */
export type AnswerLine = { call: LibraryCall; value: LibraryFields } | { call: LibraryCall; error: string } | { load: string };

function isLibraryCall(value: unknown): value is LibraryCall {
  return typeof value === 'string' && (LIBRARY_CALLS as readonly string[]).includes(value);
}

/** The fields of an answer the inventory reads, nothing else (the library's objects carry much more). */
export function pickFields(call: LibraryCall, answer: unknown): LibraryFields {
  const picked: Record<string, string | number | boolean> = {};
  if (typeof answer !== 'object' || answer === null) return picked;
  for (const field of FIELDS[call]) {
    const value = (answer as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) picked[field] = value;
  }
  return picked;
}

/** The process's output as answers: a line per call that answered; other lines (a library's warning) are not answers. */
function answerLines(stdout: string): { answers: Map<LibraryCall, Answer<LibraryFields>>; loadFailure?: string } {
  const answers = new Map<LibraryCall, Answer<LibraryFields>>();
  let loadFailure: string | undefined;
  for (const text of stdout.split('\n')) {
    if (!text.startsWith('{')) continue;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      continue;
    }
    if (typeof line !== 'object' || line === null) continue;
    const { call, value, error, load } = line as Record<string, unknown>;
    if (typeof load === 'string') loadFailure = load;
    if (!isLibraryCall(call)) continue;
    if (typeof error === 'string') answers.set(call, { ok: false, reason: `systeminformation ${call}() failed: ${error}` });
    else answers.set(call, { ok: true, value: pickFields(call, value) });
  }
  return loadFailure === undefined ? { answers } : { answers, loadFailure };
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() ?? '';
}

/** Why a call has no answer, from how the inventory process ended. */
function missingReason(call: LibraryCall, result: CommandResult, timeoutMs: number, loadFailure: string | undefined): string {
  if (loadFailure !== undefined) return `systeminformation could not be loaded: ${loadFailure}`;
  if (result.timedOut) return `systeminformation ${call}() gave no answer within ${timeoutMs} ms: the inventory process was killed with the helpers it ran`;
  if (result.notFound || (result.failure !== undefined && result.exitCode === null && result.signal === null)) {
    return `the inventory process could not run: ${result.failure ?? 'not found'}`;
  }
  const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode ?? 'unknown'}`;
  const said = firstLine(result.stderr);
  return `the inventory process ${how} before systeminformation ${call}() answered${said ? `: ${said}` : ''}`;
}

/** The answers of an inventory process that has ended: every call not answered is unknown with the reason. */
export function libraryAnswersFrom(result: CommandResult, timeoutMs: number): LibraryAnswers {
  const { answers, loadFailure } = answerLines(result.stdout);
  const all = {} as Record<LibraryCall, Answer<LibraryFields>>;
  for (const call of LIBRARY_CALLS) all[call] = answers.get(call) ?? { ok: false, reason: missingReason(call, result, timeoutMs, loadFailure) };
  return all;
}

/** Every call unknown for one reason: no inventory process to ask. */
export function libraryUnavailable(reason: string): LibraryAnswers {
  const all = {} as Record<LibraryCall, Answer<LibraryFields>>;
  for (const call of LIBRARY_CALLS) all[call] = { ok: false, reason };
  return all;
}

/**
 * Runs the inventory process (argv, and the budget in ms as its last word) through `run`, the host's command runner with its process
 * group, token, timeout and sweep, and reads its answers. `timeoutMs` is the inventory's budget:
 * the process and every helper it started are killed then, and what had answered is kept.
 */
export async function askInventoryProcess(run: (argv: readonly string[], options: CommandOptions) => Promise<CommandResult>, argv: readonly string[], timeoutMs: number): Promise<LibraryAnswers> {
  // the process is told its budget: it paces its calls by it (inventory-worker.ts)
  return libraryAnswersFrom(await run([...argv, String(Math.round(timeoutMs))], { timeoutMs }), timeoutMs);
}
