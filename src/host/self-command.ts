import { resolve } from 'node:path';

/**
 * qprep started again to be the inventory process (inventory-process.ts): the word main() looks
 * for first, before any option is parsed. Not a command: it is listed nowhere, and a person who
 * types it gets the inventory's answer lines.
 */
export const INVENTORY_PROCESS_ARG = '--qprep-inventory-process';

/** Node options that must not pass to the inventory process: a second debugger on the same port. */
const NOT_INHERITED = /^--(inspect|debug)/;

let command: readonly string[] | undefined;

/**
 * Remembers how this qprep was started (node, its options, the script: bin/qprep.js, the single
 * file or dist/src), so that it can start itself again whichever of them runs. Called by main();
 * qprep used as a library, or from the tests, has no command of its own to start.
 */
export function rememberSelfCommand(execPath: string, execArgv: readonly string[], script: string | undefined): void {
  if (script === undefined || script === '') return;
  command = [execPath, ...execArgv.filter((option) => !NOT_INHERITED.test(option)), resolve(script)];
}

/** The command line of the inventory process, when this qprep knows how it was started. */
export function inventoryProcessCommand(): string[] | undefined {
  return command ? [...command, INVENTORY_PROCESS_ARG] : undefined;
}
