/**
 * One owner for SIGINT, SIGTERM and SIGHUP from the first line of main() to the exit. A
 * command installs its own handling when it starts (takeSignals); before that, and for the
 * commands that have no partial result to give, the handler given to routeSignals ends the run
 * with the error document of an interrupted run. Nothing here imports anything: the launcher
 * loads this module before commander has parsed a word.
 */

export const HANDLED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type SignalHandler = (signal: NodeJS.Signals) => void;

let commandHandler: SignalHandler | undefined;
let documentClaimed = false;

/** Installs the routing; `beforeCommand` handles a signal that comes before a command took them. */
export function routeSignals(beforeCommand: SignalHandler): void {
  for (const signal of HANDLED_SIGNALS) process.on(signal, (received: NodeJS.Signals) => (commandHandler ?? beforeCommand)(received));
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
 * first line: a signal that comes while its code loads is kept for it, and handed to it when it
 * takes the signals, instead of ending the run as an interruption.
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
