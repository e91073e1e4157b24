import { LIBRARY_CALLS, pickFields, type AnswerLine, type LibraryCall } from './inventory-process.js';

/*
 * The inventory process (inventory-process.ts says why there is one): qprep started again with
 * INVENTORY_PROCESS_ARG. It asks systeminformation, prints one line per answer as soon as it
 * has it, and exits. It reads nothing but what the library reads and writes nothing but its
 * standard output; the qprep that started it bounds it, kills it and sweeps its helpers.
 */

/** The part of systeminformation the inventory calls. */
interface SystemInformationApi {
  system(): Promise<unknown>;
  bios(): Promise<unknown>;
  cpu(): Promise<unknown>;
  mem(): Promise<unknown>;
  osInfo(): Promise<unknown>;
}

/**
 * system() runs dmesg (and cat) with execSync after its dmidecode: a dmesg that hangs blocks this
 * whole process, and no answer of another call could be printed after that. So it starts last,
 * once the others have answered, or once half the budget has passed: their helpers (dmidecode,
 * dmesg, lscpu) run asynchronously, and one that hangs leaves its call pending for ever, which
 * system() must not wait for longer than that. The others start together (their synchronous
 * helpers are cat, grep and hostname).
 */
const LAST_CALL: LibraryCall = 'system';
/** Without a budget on the command line (a person running it): how long system() waits for the others. */
const DEFAULT_WAIT_MS = 1000;

function print(line: AnswerLine): void {
  // standard output is a pipe, written synchronously on Linux: the line is out before the next call can block
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

async function ask(library: SystemInformationApi, call: LibraryCall): Promise<void> {
  try {
    print({ call, value: pickFields(call, await library[call]()) });
  } catch (error) {
    print({ call, error: messageOf(error) });
  }
}

/**
 * Asks every call, printing each answer, then exits; the caller kills it at its budget, given
 * here in milliseconds (`budget`, the word after INVENTORY_PROCESS_ARG).
 */
export async function runInventoryWorker(budget: string | undefined): Promise<never> {
  const budgetMs = budget !== undefined && /^\d+$/.test(budget) ? Number(budget) : undefined;
  let library: SystemInformationApi;
  try {
    const loaded = (await import('systeminformation')) as unknown as { default?: SystemInformationApi } & SystemInformationApi;
    library = loaded.default ?? loaded;
  } catch (error) {
    print({ load: messageOf(error) });
    process.exit(0);
  }
  const asked = LIBRARY_CALLS.filter((call) => call !== LAST_CALL).map((call) => ask(library, call));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(asked), new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs === undefined ? DEFAULT_WAIT_MS : budgetMs / 2)))]);
  clearTimeout(timer);
  asked.push(ask(library, LAST_CALL));
  await Promise.all(asked);
  process.exit(0);
}
