/**
 * One owner for SIGINT, SIGTERM and SIGHUP from the first line the process runs to the exit.
 * The process catches them at once (catchSignals, the first thing the single file does, before
 * its start-up part is compiled; the npm bin catches them before it reads the single file) and
 * keeps what comes until main() routes them. A command installs its own handling when it starts
 * (takeSignals); before that, and for the commands that have no partial result to give, the
 * handler given to routeSignals ends the run with the error document of an interrupted run.
 * Nothing here imports anything: the single file runs it before the rest of qprep is loaded.
 */

export const HANDLED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type SignalHandler = (signal: NodeJS.Signals) => void;

let commandHandler: SignalHandler | undefined;
let beforeCommand: SignalHandler | undefined;
let documentClaimed = false;
let catching = false;
/** signals that came before main() routed them, in order */
const caught: NodeJS.Signals[] = [];

/**
 * What the npm bin (bin/qprep.js) hands over: the signals it caught while Node read and parsed
 * the single file, and how to stop catching them itself.
 */
interface Handover {
  signals: NodeJS.Signals[];
  release(): void;
}
const HANDOVER = Symbol.for('qprep.caught-signals');

function dispatch(signal: NodeJS.Signals): void {
  const handler = commandHandler ?? beforeCommand;
  if (handler) handler(signal);
  else caught.push(signal);
}

/**
 * Catches the signals from now on, keeping them until routeSignals: a signal in the first moments
 * (while the start-up part is compiled) must end the run with its document, never with the
 * signal's default action (exit 143 and nothing written). Idempotent.
 */
export function catchSignals(): void {
  if (catching) return;
  catching = true;
  for (const signal of HANDLED_SIGNALS) process.on(signal, dispatch);
  // in the same turn as the listeners above: no signal between the two is lost or seen twice
  const handover = (globalThis as Record<symbol, Handover | undefined>)[HANDOVER];
  if (handover) {
    handover.release();
    caught.push(...handover.signals.splice(0));
  }
}

/**
 * Installs the routing; `handler` handles a signal that comes before a command took them, and
 * those that came since catchSignals, at once.
 */
export function routeSignals(handler: SignalHandler): void {
  catchSignals();
  beforeCommand = handler;
  for (const signal of caught.splice(0)) dispatch(signal);
}

/**
 * From now on this command handles the signals, in place of the routing's handler: a one-shot
 * command to end its run with a partial result, a resident one (`qprep serve`) for its whole
 * lifetime, as its own lifecycle (stop, reload). The process keeps the routing's listeners, so a
 * signal never ends it by the signal's default action.
 */
export function takeSignals(handler: SignalHandler): void {
  commandHandler = handler;
  for (const signal of held.splice(0)) handler(signal);
}

const held: NodeJS.Signals[] = [];

/**
 * For a command that owns its signals for its whole lifetime (`qprep serve`), from its action's
 * first line, and for a check whose first tool calls started with the process (src/main.ts): a
 * signal that comes while its code loads is kept for it, and handed to it when it takes the
 * signals, instead of ending the run as an interruption before the command.
 */
export function holdSignals(): void {
  commandHandler = (signal) => held.push(signal);
}

/**
 * One document per run: the command's result and the document of its interruption both claim
 * the right to be written, and only the first gets it. A signal that comes once the result is
 * on its way leaves it alone (it is the truth of the run); a result that comes after the
 * interruption's document is not written at all.
 */
export function claimDocument(): boolean {
  if (documentClaimed) return false;
  documentClaimed = true;
  return true;
}

/** The document could not be written (its --output failed): the error document takes its place. */
export function releaseDocument(): void {
  documentClaimed = false;
}

/** What the interruption of the run says and where: filled from argv at once, then from the parsed options. */
export interface RunIdentity {
  command: string | null;
  format: string;
  /** the --output file of a command whose output is a verdict or a document */
  output?: string;
  /** appended to the message of an interruption: what the operator does next */
  advice?: string;
  /** the run's language (--lang, QPREP_LANG, the locale): the words of its errors */
  lang?: 'en' | 'zh';
}

const run: RunIdentity = { command: null, format: 'human' };

export function describeRun(update: Partial<RunIdentity>): void {
  Object.assign(run, update);
}

export function runIdentity(): RunIdentity {
  return { ...run };
}

/** Writes the run's document to standard output, unless an interruption's document is already out. */
export function writeRunDocument(text: string): boolean {
  if (!claimDocument()) return false;
  process.stdout.write(text);
  return true;
}
